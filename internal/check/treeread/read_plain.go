package treeread

import (
	"io"
	"os"
)

// readPlain reads the file at path into buf, growing it as needed, the
// portable way: it asks the file's type and size first, and reads until a
// read returns nothing.
func readPlain(path string, buf []byte) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return buf[:0], err
	}
	if !info.Mode().IsRegular() {
		return buf[:0], ErrNotRegular
	}
	if info.Size() > MaxFileSize {
		return buf[:0], ErrTooLarge
	}
	f, err := os.Open(path)
	if err != nil {
		return buf[:0], err
	}
	defer f.Close()
	n := 0
	buf = buf[:cap(buf)]
	for {
		if n == len(buf) {
			if n >= MaxFileSize {
				return buf[:0], ErrTooLarge
			}
			buf = append(buf, make([]byte, len(buf))...)
			buf = buf[:cap(buf)]
		}
		m, err := f.Read(buf[n:])
		n += m
		if err == io.EOF {
			return buf[:n], nil
		}
		if err != nil {
			return buf[:0], err
		}
	}
}

// plainReadDir lists a folder with os.ReadDir, for Reader.Plain.
func plainReadDir(dir string) ([]os.DirEntry, error) { return os.ReadDir(dir) }
