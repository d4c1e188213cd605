//go:build unix

package treeread

import (
	"io"
	"io/fs"
	"syscall"
)

// readListed reads, as ReadFile does, a file the walk listed as a regular
// file: the folder's listing said so, or a stat of the link to it. It
// asks the open file its type and size, which spares the system a second
// lookup of the path, and reads it through its descriptor alone: an
// os.File would cost a finalizer, a record of the file's stat and a try
// at the runtime's poller, which refuses regular files, for every file of
// the tree. The file is opened without blocking, so that a FIFO swapped
// in after the walk opens at once instead of waiting for a writer; its
// stat refuses it.
func readListed(path string, buf []byte) ([]byte, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	for err == syscall.EINTR {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	}
	if err != nil {
		return buf[:0], &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return buf[:0], &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if err := readable(st.Mode&syscall.S_IFMT == syscall.S_IFREG, st.Size); err != nil {
		return buf[:0], err
	}
	return readOpen(descriptor{fd, path}, st.Size, buf)
}

// descriptor reads an open file through its descriptor.
type descriptor struct {
	fd   int
	path string
}

func (d descriptor) Read(p []byte) (int, error) {
	for {
		n, err := syscall.Read(d.fd, p)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, &fs.PathError{Op: "read", Path: d.path, Err: err}
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}
