//go:build unix && !linux

package contract

import "syscall"

// haveOpenat is false where package syscall has no Openat; files are then
// opened by their paths.
const haveOpenat = false

func openAt(_ int, _, path string) (int, error) {
	return syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
}
