//go:build !unix

package contract

import (
	"io"
	"os"
)

// readFile reads the file at path into buf, growing it as needed.
func readFile(path string, buf []byte) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return buf[:0], err
	}
	if !info.Mode().IsRegular() {
		return buf[:0], errNotRegular
	}
	if info.Size() > maxFileSize {
		return buf[:0], errTooLarge
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
			if n >= maxFileSize {
				return buf[:0], errTooLarge
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

// readFileAt opens path: folders are not opened where this file builds.
func readFileAt(_ int, _, path string, buf []byte, _ bool) ([]byte, error) {
	return readFile(path, buf)
}

func closeDir(int) {}

func shortReadIsEOF(int) bool { return false }
