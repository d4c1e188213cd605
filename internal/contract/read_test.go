//go:build unix

package contract

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// readFileAt reads whole files, whatever their size against the buffer's,
// whether it stops at a short read or reads until nothing comes.
func TestReadFileAt(t *testing.T) {
	dir := t.TempDir()
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	for _, size := range []int{0, 1, 4095, 4096, 4097, 8192, 70000} {
		name := fmt.Sprintf("f%d.py", size)
		want := bytes.Repeat([]byte("0123456789abcdef\n"), size/17+1)[:size]
		if err := os.WriteFile(filepath.Join(dir, name), want, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, short := range []bool{false, shortReadIsEOF(fd)} {
			for _, dirfd := range []int{fd, -1} {
				got, err := readFileAt(dirfd, name, filepath.Join(dir, name), make([]byte, 0, 4096), short)
				if err != nil || !bytes.Equal(got, want) {
					t.Errorf("size %d, shortIsEOF %v, dirfd %d: read %d bytes, err %v", size, short, dirfd, len(got), err)
				}
			}
		}
	}
	if _, err := readFileAt(fd, "missing.py", filepath.Join(dir, "missing.py"), nil, true); err == nil {
		t.Error("a missing file read without error")
	}
}
