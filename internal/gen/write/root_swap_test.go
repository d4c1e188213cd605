//go:build unix

package write

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestSwappedFolderIsRefused swaps a checked folder for a link that leads
// outside, in the window between the check and the write, as a process
// racing fixturegen could, for a folder that exists and for one the write
// must make. The write goes through an os.Root of the project, so it must
// fail and leave the outside folder as it was.
func TestSwappedFolderIsRefused(t *testing.T) {
	for _, missing := range []bool{false, true} {
		base := t.TempDir()
		project, outside := filepath.Join(base, "project"), filepath.Join(base, "outside")
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		must(os.MkdirAll(filepath.Join(project, "tests"), 0o755))
		must(os.MkdirAll(outside, 0o755))
		root, err := NewRoot(project, ".")
		must(err)
		target := filepath.Join(project, "tests", "conftest.py")
		if missing {
			target = filepath.Join(project, "tests", "sub", "conftest.py")
		}
		beforeOpen = func() {
			must(os.Rename(filepath.Join(project, "tests"), filepath.Join(project, "moved")))
			must(os.Symlink(outside, filepath.Join(project, "tests")))
		}
		err = root.File(target, []byte("evil\n"))
		beforeOpen = nil
		if !errors.Is(err, errChanged) {
			t.Errorf("missing %v: a write through a folder swapped for a link: %v, want %v", missing, err, errChanged)
		}
		if entries, _ := os.ReadDir(outside); len(entries) != 0 {
			t.Errorf("missing %v: the outside folder holds %d entries after the refused write", missing, len(entries))
		}
	}
}
