//go:build unix && !linux

package treeread

import "syscall"

// Where package syscall has no Openat, files are opened by their paths
// (the walk hands out no open folders there).
func openAt(_ int, _, path string) (int, error) {
	// O_NONBLOCK: opening a FIFO does not wait for a writer.
	return syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
}
