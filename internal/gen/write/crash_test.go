package write

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var steps = []string{"create", "chown", "write", "chmod", "sync", "close", "rename"}

// TestFileFailsWhole makes each step of File fail in turn, for a file that
// exists and for one that does not, and checks that the target keeps its
// old state (its bytes and mode, or its absence) and that no temporary
// file is left.
func TestFileFailsWhole(t *testing.T) {
	injected := errors.New("injected failure")
	for _, exists := range []bool{true, false} {
		for _, step := range steps {
			if step == "chown" && !exists {
				continue // a new file has no owner to keep
			}
			t.Run(step, func(t *testing.T) {
				dir := t.TempDir()
				target := filepath.Join(dir, "conftest.py")
				old := []byte("old content\n")
				if exists {
					if err := os.WriteFile(target, old, 0o640); err != nil {
						t.Fatal(err)
					}
				}
				var seen []string
				failAt = func(s string) error {
					seen = append(seen, s)
					if s == step {
						return injected
					}
					return nil
				}
				defer func() { failAt = nil }()

				err := File(target, bytes.Repeat([]byte("new content\n"), 1000))
				if !errors.Is(err, injected) {
					t.Fatalf("File = %v, want the injected failure at %s (steps run: %v)", err, step, seen)
				}
				got, readErr := os.ReadFile(target)
				switch {
				case exists && !bytes.Equal(got, old):
					t.Errorf("the target holds %q after a failed write, want its old content", got)
				case exists:
					if info, _ := os.Stat(target); info.Mode().Perm() != 0o640 {
						t.Errorf("the target's mode is %v after a failed write, want 0640", info.Mode().Perm())
					}
				case !errors.Is(readErr, os.ErrNotExist):
					t.Errorf("a failed write of a new file left it behind (%d bytes)", len(got))
				}
				if left := others(t, dir, "conftest.py"); len(left) > 0 {
					t.Errorf("left behind: %v", left)
				}
			})
		}
	}
}

// TestNewFailsWhole does the same for New, which must never leave a
// partial file where there was none.
func TestNewFailsWhole(t *testing.T) {
	injected := errors.New("injected failure")
	for _, step := range steps[2:6] { // New keeps no owner, and has no rename step of its own
		t.Run(step, func(t *testing.T) {
			dir := t.TempDir()
			target := filepath.Join(dir, "conftest.py")
			failAt = func(s string) error {
				if s == step {
					return injected
				}
				return nil
			}
			defer func() { failAt = nil }()
			if err := newIn(t, dir)(target, []byte("new\n")); !errors.Is(err, injected) {
				t.Fatalf("New = %v, want the injected failure", err)
			}
			if _, err := os.Stat(target); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a failed New left the target behind: %v", err)
			}
			if left := others(t, dir, "conftest.py"); len(left) > 0 {
				t.Errorf("left behind: %v", left)
			}
		})
	}
}

// TestFileRemovesStaleTemps plants what a killed write leaves behind and
// checks that the next write of the same file removes it, and nothing else:
// not the temporary files of other targets, not look-alikes.
func TestFileRemovesStaleTemps(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "conftest.py")
	stale := []string{".conftest.py.fixturegen-123", ".conftest.py.fixturegen-4567890"}
	keep := []string{
		".alarm_probe.py.fixturegen-123", // another target's: its own write removes it
		".conftest.py.fixturegen-abc",    // not a name File creates
		".conftest.py.fixturegen-",       // nor this
		"conftest.py.fixturegen-1",       // nor this
		"notes.txt",
	}
	for _, name := range append(append([]string{}, stale...), keep...) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := File(target, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	got := others(t, dir, "conftest.py")
	want := append([]string{}, keep...)
	sort.Strings(want)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("after the write the folder holds %v besides the target, want %v", got, want)
	}
}

func TestIsTemp(t *testing.T) {
	for _, tc := range []struct {
		name, target string
		want         bool
	}{
		{".conftest.py.fixturegen-1", "conftest.py", true},
		{".conftest.py.fixturegen-0123456789", "conftest.py", true},
		{".conftest.py.fixturegen-", "conftest.py", false},
		{".conftest.py.fixturegen-1a", "conftest.py", false},
		{".conftest.py.fixturegen-1", "test_x.py", false},
		{"conftest.py", "conftest.py", false},
	} {
		if got := IsTemp(tc.name, tc.target); got != tc.want {
			t.Errorf("IsTemp(%q, %q) = %v, want %v", tc.name, tc.target, got, tc.want)
		}
	}
}

// others lists the names in dir other than target, sorted.
func others(t *testing.T, dir, target string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.Name() != target {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names
}
