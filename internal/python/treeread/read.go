package treeread

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
)

// MaxFileSize bounds one file in memory. A test module of 16 MiB is not a
// test module; such a file is reported and skipped rather than read.
const MaxFileSize = 16 << 20

var (
	// ErrTooLarge is returned for a file over MaxFileSize.
	ErrTooLarge = fmt.Errorf("is larger than %d MiB; not read", MaxFileSize>>20)
	// ErrNotRegular is returned for a FIFO, a socket or a device, which
	// are not waited for.
	ErrNotRegular = errors.New("is not a regular file (a FIFO, a socket or a device); not read")
)

// ReadFile reads the regular file at path into buf, grown as needed, and
// returns the bytes read. It asks the file's type and size before it
// opens it, so that a FIFO is never opened (that would wait for a
// writer) and a file over MaxFileSize is never read.
func ReadFile(path string, buf []byte) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return buf[:0], err
	}
	if err := readable(info.Mode().IsRegular(), info.Size()); err != nil {
		return buf[:0], err
	}
	f, err := os.Open(path)
	if err != nil {
		return buf[:0], err
	}
	defer f.Close()
	return readOpen(f, info.Size(), buf)
}

// readable returns the error for a file that is not read for what it is.
func readable(regular bool, size int64) error {
	if !regular {
		return ErrNotRegular
	}
	if size > MaxFileSize {
		return ErrTooLarge
	}
	return nil
}

// readOpen reads the open file f, of the given size when it was asked,
// into buf.
func readOpen(f io.Reader, size int64, buf []byte) ([]byte, error) {
	// One byte more than the size, so that a read that returns the size
	// and no more is known to have met the file's end: a regular file
	// reads short only there. A file that grew meanwhile is read on.
	if cap(buf) <= int(size) {
		// A new buffer, at least twice the old one: each is fresh memory
		// that the system maps page by page as it is first written, so a
		// tree read in files of growing sizes must not make one per file,
		// nor copy the old bytes, which are not kept.
		buf = make([]byte, 0, max(int(size)+1, 2*cap(buf)))
	}
	buf = buf[:0]
	for {
		want := cap(buf) - len(buf)
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF || err == nil && n < want && int64(len(buf)) == size {
			return buf, nil
		}
		if err != nil {
			return buf[:0], err
		}
		if len(buf) > MaxFileSize {
			return buf[:0], ErrTooLarge
		}
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, len(buf))
		}
	}
}
