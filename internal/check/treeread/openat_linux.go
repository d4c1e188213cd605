package treeread

import (
	"syscall"
	"unsafe"
)

// openFlags open a file for reading without waiting: opening a FIFO
// blocks until a writer comes, unless O_NONBLOCK is set, which changes
// nothing for regular files.
const openFlags = syscall.O_RDONLY | syscall.O_CLOEXEC | syscall.O_NONBLOCK | syscall.O_NOCTTY

func openAt(dirfd int, name, path string) (int, error) {
	if dirfd < 0 {
		return syscall.Open(path, openFlags, 0)
	}
	// syscall.Openat copies the name into a new NUL-terminated array for
	// every file; a short name goes through one on the stack instead.
	var buf [256]byte
	if len(name) >= len(buf) || containsNUL(name) {
		return syscall.Openat(dirfd, name, openFlags, 0)
	}
	copy(buf[:], name)
	fd, _, errno := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(dirfd), uintptr(unsafe.Pointer(&buf[0])),
		uintptr(openFlags), 0, 0, 0)
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
