package contract

import "syscall"

func openAt(dirfd int, name, path string) (int, error) {
	if dirfd >= 0 {
		return syscall.Openat(dirfd, name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	}
	return syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
}
