package treeread

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func walk(t *testing.T, root string) (files, problems []string) {
	t.Helper()
	w := &walker{
		NoRecurse: DefaultNoRecurse,
		Visit: func(p string) {
			rel, _ := filepath.Rel(root, p)
			files = append(files, filepath.ToSlash(rel))
		},
		Problem: func(p Problem) {
			rel, _ := filepath.Rel(root, p.Path)
			problems = append(problems, fmt.Sprintf("%s %s", filepath.ToSlash(rel), p.Kind))
		},
	}
	if err := w.Walk(root); err != nil {
		t.Fatal(err)
	}
	return files, problems
}

func touch(t *testing.T, root string, names ...string) {
	t.Helper()
	for _, n := range names {
		p := filepath.Join(root, n)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestWalkSkipsWhatPytestSkips(t *testing.T) {
	root := t.TempDir()
	touch(t, root, "a/test_a.py", "a/data.txt", "a/__pycache__/x.py", ".hidden/test_h.py",
		"node_modules/m.py", "env/pyvenv.cfg", "env/lib/site.py", "b/c/conftest.py", "z.py")
	files, problems := walk(t, root)
	if got, want := strings.Join(files, " "), "z.py a/test_a.py b/c/conftest.py"; got != want {
		t.Errorf("files = %s, want %s", got, want)
	}
	if len(problems) != 0 {
		t.Errorf("problems = %v", problems)
	}
}

func TestWalkReportsLoopsAndDanglingLinks(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	touch(t, root, "a/test_a.py", "b/test_b.py")
	touch(t, outside, "test_o.py", "lib/test_l.py")
	must(t, os.Symlink("..", filepath.Join(root, "a", "up")))
	must(t, os.Symlink("../..", filepath.Join(root, "b", "upup")))
	must(t, os.Symlink(filepath.Join(root, "b"), filepath.Join(root, "a", "b_again")))
	must(t, os.Symlink("missing.py", filepath.Join(root, "a", "test_gone.py")))
	must(t, os.Symlink(filepath.Join(outside, "lib"), filepath.Join(root, "a", "ext")))
	must(t, os.Symlink(filepath.Join(outside, "test_o.py"), filepath.Join(root, "a", "test_linked.py")))
	files, problems := walk(t, root)
	// b is reached by its own path only; a link to a file is read.
	if got, want := strings.Join(files, " "), "a/test_a.py a/test_linked.py b/test_b.py"; got != want {
		t.Errorf("files = %s, want %s", got, want)
	}
	// The walk never leaves root: the link to a folder above it is a
	// loop, the one to a folder elsewhere is outside the tree.
	if got, want := strings.Join(problems, ", "), "a/ext symlink-outside, a/test_gone.py dangling-symlink, a/up symlink-loop, b/upup symlink-loop"; got != want {
		t.Errorf("problems = %s, want %s", got, want)
	}

	// With the other folder among the bounds, the link stays in the tree,
	// and that folder is walked by its own path.
	var got []string
	w := &walker{NoRecurse: DefaultNoRecurse, Bounds: []string{root, outside},
		Visit:   func(p string) { got = append(got, p) },
		Problem: func(p Problem) { got = append(got, p.Kind+" "+p.Path) }}
	for _, r := range []string{root, outside} {
		must(t, w.Walk(r))
	}
	for _, g := range got {
		if strings.Contains(g, "symlink-outside") || strings.Contains(g, filepath.Join("a", "ext")) {
			t.Errorf("with both roots: %s", g)
		}
	}
	if !slices.Contains(got, filepath.Join(outside, "lib", "test_l.py")) {
		t.Errorf("with both roots, %v lacks lib/test_l.py", got)
	}
}

func TestWalkReportsUnreadableFolders(t *testing.T) {
	root := t.TempDir()
	touch(t, root, "locked/test_x.py", "open/test_y.py")
	var files, problems []string
	w := &walker{
		NoRecurse: DefaultNoRecurse,
		Visit:     func(p string) { files = append(files, filepath.Base(p)) },
		Problem:   func(p Problem) { problems = append(problems, filepath.Base(p.Path)+" "+p.Kind+": "+p.Msg) },
		// A root user reads every folder whatever its mode, so the refusal
		// is simulated where the walker asks for the entries.
		readDir: func(dir string) ([]os.DirEntry, error) {
			if filepath.Base(dir) == "locked" {
				return nil, &os.PathError{Op: "open", Path: dir, Err: os.ErrPermission}
			}
			return os.ReadDir(dir)
		},
	}
	must(t, w.Walk(root))
	if strings.Join(files, " ") != "test_y.py" || strings.Join(problems, " ") != "locked unreadable: cannot read folder: permission denied" {
		t.Errorf("files %v, problems %v", files, problems)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// norecursedirs patterns with a "/" match the folder's whole path, as
// pytest's fnmatch_ex does; Ignore leaves out folders and files by path.
func TestWalkMatchesPathPatterns(t *testing.T) {
	root := t.TempDir()
	touch(t, root, "tests/skipme/test_a.py", "tests/sub/skipme/test_b.py", "tests/build/test_c.py",
		"tests/legacy/test_d.py", "tests/test_e.py", "tests/test_f_py2.py")
	var files []string
	w := &walker{
		NoRecurse: []string{"tests/skipme", "build"},
		Ignore: func(abs string) bool {
			return abs == filepath.Join(root, "tests", "legacy") || strings.HasSuffix(abs, "_py2.py")
		},
		Visit: func(p string) {
			rel, _ := filepath.Rel(root, p)
			files = append(files, filepath.ToSlash(rel))
		},
		Problem: func(p Problem) { t.Errorf("problem: %v", p) },
	}
	if err := w.Walk(root); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(files, " "), "tests/test_e.py tests/sub/skipme/test_b.py"; got != want {
		t.Errorf("files = %s, want %s", got, want)
	}
}
