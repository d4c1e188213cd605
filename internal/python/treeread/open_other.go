//go:build !unix

package treeread

import "os"

// readListed reads, as ReadFile does, a file the walk listed as a regular
// file, asking the open file its type and size; see open_unix.go.
func readListed(path string, buf []byte) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return buf[:0], err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return buf[:0], err
	}
	if err := readable(info.Mode().IsRegular(), info.Size()); err != nil {
		return buf[:0], err
	}
	return readOpen(f, info.Size(), buf)
}
