package treeread

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// A tree of many small folders is read without more than 64 descriptors
// open at once: a process starts with a table of 64, and growing it for a
// process of several threads costs the kernel a wait for every CPU
// (maxOpenFolders). The walk runs ahead of the readers, so without the
// bound it holds a folder open for each batch it has handed over.
func TestReadStaysInFirstDescriptorTable(t *testing.T) {
	root := t.TempDir()
	for i := range 300 {
		dir := filepath.Join(root, fmt.Sprintf("pkg%03d", i))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "test_a.py"), []byte("x = 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	most, files := 0, 0
	r := &Reader{Workers: 2, Problem: func(p Problem) { t.Errorf("problem: %+v", p) }}
	_, err := r.Read([]string{root}, func(f *File, data []byte, err error, worker int) {
		if err != nil {
			t.Errorf("%s: %v", f.Path(), err)
		}
		open, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Error(err)
		}
		mu.Lock()
		most = max(most, len(open))
		files++
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	if files != 300 {
		t.Errorf("read %d files, want 300", files)
	}
	if most >= 64 {
		t.Errorf("%d descriptors open at once, want fewer than 64", most)
	}
}
