//go:build !unix

package treeread

import (
	"io"
	"os"
)

// ReadFile reads the file at path into buf, growing it as needed.
func ReadFile(path string, buf []byte) ([]byte, error) {
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

// ReadFileAt opens path: folders are not opened where this file builds.
func ReadFileAt(_ int, _, path string, buf []byte, _ bool) ([]byte, error) {
	return ReadFile(path, buf)
}

func CloseDir(int) {}

func ShortReadIsEOF(int) bool { return false }
