//go:build unix

package treeread

import "syscall"

// ReadFile reads the file at path into buf, growing it as needed, with
// the fewest system calls: open, read until the end, close. Reading ten
// thousand small files is mostly system calls, so the usual os.ReadFile,
// which adds two stats and a poller registration, would cost a third more.
func ReadFile(path string, buf []byte) ([]byte, error) {
	return readFileAt(-1, "", path, buf)
}

// readFileAt is ReadFile for the file name in the open folder dirfd, which
// spares the system resolving the whole path again (as grep does); with
// dirfd -1, or where the system lacks openat, it opens path.

func readFileAt(dirfd int, name, path string, buf []byte) ([]byte, error) {
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
	// A test module fits the first read. A file that does not is asked
	// its size and type before another byte is read, so that a file over
	// the limit, or anything but a regular file that the listing did not
	// show for what it is, costs one read of firstRead bytes at most.
	// Asking every file would cost an fstat each: a tenth of check's time
	// on a tree of small modules.
	if cap(buf) < firstRead {
		buf = make([]byte, 0, firstRead)
	}
	n := 0
	buf = buf[:cap(buf)]
	sized := false
	for {
		if n == firstRead && !sized {
			sized = true
			var st syscall.Stat_t
			for {
				err = syscall.Fstat(fd, &st)
				if err != syscall.EINTR {
					break
				}
			}
			switch {
			case err != nil:
				return buf[:0], err
			case st.Mode&syscall.S_IFMT != syscall.S_IFREG:
				return buf[:0], ErrNotRegular
			case st.Size > MaxFileSize:
				return buf[:0], ErrTooLarge
			}
			// One byte more than the file holds lets one read see the
			// rest, and the end.
			if need := int(st.Size) + 1; need > len(buf) {
				buf = grow(buf[:n], need)
			}
		}
		if n == len(buf) {
			if n >= MaxFileSize {
				return buf[:0], ErrTooLarge // it grew since
			}
			buf = grow(buf, 2*len(buf))
		}
		end := len(buf)
		if !sized {
			end = firstRead
		}
		m, err := syscall.Read(fd, buf[n:end])
		if err == syscall.EINTR {
			continue
		}
		if err == syscall.EAGAIN {
			return buf[:0], ErrNotRegular // a FIFO with a writer: not waited for
		}
		if err != nil {
			return buf[:0], err
		}
		if m == 0 {
			return buf[:n], nil
		}
		n += m
	}
}

// closeDir closes a folder the walk opened for readFileAt.
func closeDir(fd int) {
	if fd >= 0 {
		syscall.Close(fd)
	}
}

// grow returns a buffer of at least need bytes that begins with buf's. It
// at least doubles the buffer, so that a reader that meets ever larger
// files takes new memory a few times, not once per file. It makes the new
// buffer rather than appending zeros to the old one: append clears every
// new byte, touching each page before the read does, while make takes
// memory the runtime knows to be zero, fresh from the system, as it is.
func grow(buf []byte, need int) []byte {
	nb := make([]byte, max(need, 2*cap(buf)))
	copy(nb, buf)
	return nb
}
