package contract

import (
	"syscall"
	"unsafe"
)

func openAt(dirfd int, name, path string) (int, error) {
	if dirfd < 0 {
		return syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	}
	// syscall.Openat copies the name into a new NUL-terminated array for
	// every file; a short name goes through one on the stack instead.
	var buf [256]byte
	if len(name) >= len(buf) || containsNUL(name) {
		return syscall.Openat(dirfd, name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	}
	copy(buf[:], name)
	fd, _, errno := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(dirfd), uintptr(unsafe.Pointer(&buf[0])),
		uintptr(syscall.O_RDONLY|syscall.O_CLOEXEC), 0, 0, 0)
	if errno != 0 {
		return -1, errno
	}
	return int(fd), nil
}

// containsNUL reports whether name holds a NUL byte, which syscall.Openat
// refuses with EINVAL; the copy on the stack would cut the name there.
func containsNUL(name string) bool {
	for i := 0; i < len(name); i++ {
		if name[i] == 0 {
			return true
		}
	}
	return false
}
