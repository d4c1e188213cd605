//go:build unix

package contract

import "syscall"

// readFile reads the file at path into buf, growing it as needed, with
// the fewest system calls: open, read until the end, close. Reading ten
// thousand small files is mostly system calls, so the usual os.ReadFile,
// which adds two stats and a poller registration, would cost a third more.
func readFile(path string, buf []byte) ([]byte, error) {
	return readFileAt(-1, "", path, buf, false)
}

// readFileAt is readFile for the file name in the open folder dirfd, which
// spares the system resolving the whole path again (as grep does); with
// dirfd -1, or where the system lacks openat, it opens path.
//
// With shortIsEOF, a read that returns less than it was asked for is
// taken for the end of the file, which spares the read that would return
// nothing: true of regular files on the file systems shortReadIsEOF
// names, not of every file system (FUSE, 9p).
func readFileAt(dirfd int, name, path string, buf []byte, shortIsEOF bool) ([]byte, error) {
	var fd int
	var err error
	for {
		fd, err = openAt(dirfd, name, path)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return buf[:0], err
	}
	defer syscall.Close(fd)
	// The size is known before a byte is read: a file over the limit,
	// and anything but a regular file (a FIFO, a device, which the
	// listing may not have shown for what it is), is never read.
	var st syscall.Stat_t
	for {
		err = syscall.Fstat(fd, &st)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return buf[:0], err
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return buf[:0], errNotRegular
	}
	if st.Size > maxFileSize {
		return buf[:0], errTooLarge
	}
	// One byte more than the file holds lets a single read see it all,
	// and the end.
	if need := int(st.Size) + 1; cap(buf) < need {
		buf = make([]byte, 0, max(need, 64<<10))
	}
	n := 0
	buf = buf[:cap(buf)]
	for {
		if n == len(buf) {
			if n >= maxFileSize {
				return buf[:0], errTooLarge
			}
			buf = append(buf, make([]byte, len(buf))...)
			buf = buf[:cap(buf)]
		}
		m, err := syscall.Read(fd, buf[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return buf[:0], err
		}
		if m == 0 {
			return buf[:n], nil
		}
		n += m
		if shortIsEOF && n < len(buf) {
			return buf[:n], nil
		}
	}
}

// closeDir closes a folder the walk opened for readFileAt.
func closeDir(fd int) {
	if fd >= 0 {
		syscall.Close(fd)
	}
}
