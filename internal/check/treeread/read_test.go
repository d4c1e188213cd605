//go:build unix

package treeread

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// readFileAt reads whole files, whatever their size against the buffer's,
// opened relative to their folder or by path.
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
		for _, dirfd := range []int{fd, -1} {
			got, err := readFileAt(dirfd, name, filepath.Join(dir, name), make([]byte, 0, 4096))
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("size %d, dirfd %d: read %d bytes, err %v", size, dirfd, len(got), err)
			}
		}
	}
	if _, err := readFileAt(fd, "missing.py", filepath.Join(dir, "missing.py"), nil); err == nil {
		t.Error("a missing file read without error")
	}
}

// A file over the limit and a device are refused after one read of
// firstRead bytes at most, so memory stays bounded; a FIFO without a
// writer does not block, and reads as empty.
func TestReadFileAtRefusesBeforeReading(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.py")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse file: 20 MB long, no blocks written.
	if err := f.Truncate(20 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	buf := make([]byte, 0, 4096)
	if got, err := ReadFile(big, buf); err != ErrTooLarge || cap(got) > firstRead {
		t.Errorf("20 MB file: err %v, buffer of %d bytes", err, cap(got))
	}
	// Just under the limit is read whole.
	if err := os.Truncate(big, MaxFileSize); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadFile(big, buf); err != nil || len(got) != MaxFileSize {
		t.Errorf("16 MiB file: err %v, read %d bytes", err, len(got))
	}
	fifo := filepath.Join(dir, "pipe.py")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadFile(fifo, buf); len(got) != 0 || err != nil && err != ErrNotRegular {
		t.Errorf("FIFO: read %d bytes, err %v", len(got), err)
	}
	if got, err := ReadFile("/dev/zero", buf); err != ErrNotRegular || cap(got) > firstRead {
		t.Errorf("/dev/zero: err %v, buffer of %d bytes, want ErrNotRegular", err, cap(got))
	}
}
