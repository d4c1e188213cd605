package treeread

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Both ways of reading return every byte of files empty, small and
// larger than the buffer they are given, and refuse a file over
// MaxFileSize without reading it.
func TestReadReturnsTheWholeFile(t *testing.T) {
	dir := t.TempDir()
	sizes := []int{0, 1, 100, 64 << 10}
	for _, size := range sizes {
		want := bytes.Repeat([]byte("x = 1\n"), size/6+1)[:size]
		p := filepath.Join(dir, "f.py")
		if err := os.WriteFile(p, want, 0o644); err != nil {
			t.Fatal(err)
		}
		for name, read := range map[string]func(string, []byte) ([]byte, error){"ReadFile": ReadFile, "readListed": readListed} {
			got, err := read(p, make([]byte, 0, 10))
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s of %d bytes: %d bytes, %v; want them all", name, size, len(got), err)
			}
		}
	}
	big := filepath.Join(dir, "big.py")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, MaxFileSize+1); err != nil {
		t.Fatal(err)
	}
	for name, read := range map[string]func(string, []byte) ([]byte, error){"ReadFile": ReadFile, "readListed": readListed} {
		if got, err := read(big, nil); !errors.Is(err, ErrTooLarge) || len(got) != 0 {
			t.Errorf("%s of a file over MaxFileSize: %d bytes, %v; want ErrTooLarge", name, len(got), err)
		}
	}
}
