package write

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// newIn is Root.New in a root at dir.
func newIn(t *testing.T, dir string) func(string, []byte) error {
	t.Helper()
	root, err := NewRoot(dir, dir)
	if err != nil {
		t.Fatal(err)
	}
	return root.New
}

func TestNew(t *testing.T) {
	dir := t.TempDir()
	newFile := newIn(t, dir)
	p := filepath.Join(dir, "a", "b", "test_x.py")
	if err := newFile(p, []byte("x = 1\n")); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(p)
	if err != nil || string(got) != "x = 1\n" {
		t.Fatalf("read %q, %v", got, err)
	}
	info, _ := os.Stat(p)
	if info.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", info.Mode().Perm())
	}

	// A second New keeps the first content and says why.
	err = newFile(p, []byte("y = 2\n"))
	if !errors.Is(err, fs.ErrExist) {
		t.Errorf("New over an existing file = %v, want fs.ErrExist", err)
	}
	got, _ = os.ReadFile(p)
	if string(got) != "x = 1\n" {
		t.Errorf("the existing file changed to %q", got)
	}

	// A dangling symbolic link is a name that exists too: following it
	// would create a file elsewhere. Root refuses a link in the place of
	// the file itself.
	link := filepath.Join(dir, "link.py")
	if err := os.Symlink(filepath.Join(dir, "nowhere.py"), link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	var le *LinkError
	if err := newFile(link, []byte("z\n")); !errors.As(err, &le) || !le.Final {
		t.Errorf("New over a dangling link = %v, want a *LinkError", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "nowhere.py")); err == nil {
		t.Error("New wrote through a dangling link")
	}

	// No temporary file is left behind.
	entries, _ := os.ReadDir(filepath.Dir(p))
	if len(entries) != 1 {
		t.Errorf("folder holds %d entries, want only the new file", len(entries))
	}
}

// Of many racing New calls for one path, exactly one wins, and the file
// holds its content whole.
func TestNewRace(t *testing.T) {
	dir := t.TempDir()
	newFile := newIn(t, dir)
	p := filepath.Join(dir, "test_race.py")
	const n = 16
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = newFile(p, []byte{byte('a' + i), '\n'})
		}()
	}
	wg.Wait()
	won := -1
	for i, err := range errs {
		switch {
		case err == nil && won >= 0:
			t.Fatalf("both %d and %d created the file", won, i)
		case err == nil:
			won = i
		case !errors.Is(err, fs.ErrExist):
			t.Errorf("New %d: %v", i, err)
		}
	}
	got, _ := os.ReadFile(p)
	if won < 0 || string(got) != string([]byte{byte('a' + won), '\n'}) {
		t.Errorf("winner %d, file holds %q", won, got)
	}
}
