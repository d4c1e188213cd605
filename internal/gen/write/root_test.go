//go:build unix

package write

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
)

// rootCases are projects holding links and odd files, and one use of a
// Root in each: what it must do, and that nothing outside the project
// changes. Each case runs in a fresh folder holding "project" (the root)
// and "outside", which holds victim.py and the folder pkg.
var rootCases = []struct {
	name  string
	setup func(t *testing.T, project, outside string)
	op    string // "file", "new" or "read"
	path  string // below project
	want  string // "ok", or the kind of error: see outcome
	// lands is where a write that succeeds must put its content, below
	// project; path when empty.
	lands string
}{
	{name: "new file in new folders", op: "file", path: "a/b/c.py", want: "ok"},
	{name: "new module in new folders", op: "new", path: "a/b/test_c.py", want: "ok"},
	{name: "existing file", setup: file("tests/conftest.py", "old\n"), op: "file", path: "tests/conftest.py", want: "ok"},
	{name: "read an existing file", setup: file("tests/conftest.py", "old\n"), op: "read", path: "tests/conftest.py", want: "ok"},
	{name: "read a missing file", op: "read", path: "tests/conftest.py", want: "missing"},
	{name: "new over an existing file", setup: file("tests/test_x.py", "old\n"), op: "new", path: "tests/test_x.py", want: "exists"},
	{name: "folder link inside, relative", setup: all(file("real/keep.py", ""), link("tests", "real")),
		op: "file", path: "tests/conftest.py", want: "ok", lands: "real/conftest.py"},
	{name: "folder link inside, absolute", setup: all(file("real/keep.py", ""), absLink("tests", "real")),
		op: "file", path: "tests/conftest.py", want: "ok", lands: "real/conftest.py"},
	{name: "folder link inside, read", setup: all(file("real/conftest.py", "x\n"), link("tests", "real")),
		op: "read", path: "tests/conftest.py", want: "ok"},
	{name: "folder link outside", setup: link("tests", "../outside"), op: "file", path: "tests/conftest.py", want: "outside"},
	{name: "folder link outside, new folders below it", setup: link("tests", "../outside"), op: "file", path: "tests/pkg/sub/conftest.py", want: "outside"},
	{name: "folder link outside, new module", setup: link("tests", "../outside"), op: "new", path: "tests/test_evil.py", want: "outside"},
	{name: "folder link outside, read", setup: link("tests", "../outside"), op: "read", path: "tests/victim.py", want: "outside"},
	{name: "folder link inside that leads on outside", setup: all(link("b", "../outside"), link("a", "b")),
		op: "file", path: "a/conftest.py", want: "outside"},
	{name: "folder link to the root's parent", setup: link("up", ".."), op: "file", path: "up/outside/x.py", want: "outside"},
	{name: "final link to an outside file", setup: link("conftest.py", "../outside/victim.py"), op: "file", path: "conftest.py", want: "final"},
	{name: "final link to an outside file, read", setup: link("conftest.py", "../outside/victim.py"), op: "read", path: "conftest.py", want: "final"},
	{name: "final link to an inside file", setup: all(file("real.py", "x\n"), link("conftest.py", "real.py")), op: "file", path: "conftest.py", want: "final"},
	{name: "final link to /dev/null", setup: link("conftest.py", "/dev/null"), op: "file", path: "conftest.py", want: "final"},
	{name: "final link to /dev/zero, read", setup: link("conftest.py", "/dev/zero"), op: "read", path: "conftest.py", want: "final"},
	{name: "final link that dangles, new", setup: link("test_x.py", "../outside/new.py"), op: "new", path: "test_x.py", want: "final"},
	{name: "final link that loops", setup: link("conftest.py", "conftest.py"), op: "file", path: "conftest.py", want: "final"},
	{name: "folder link that loops", setup: link("tests", "tests"), op: "file", path: "tests/conftest.py", want: "broken"},
	{name: "folder link that dangles", setup: link("tests", "../outside/nowhere"), op: "file", path: "tests/conftest.py", want: "broken"},
	{name: "FIFO in a file's place", setup: fifo("conftest.py"), op: "file", path: "conftest.py", want: "notregular"},
	{name: "FIFO in a file's place, read", setup: fifo("conftest.py"), op: "read", path: "conftest.py", want: "notregular"},
	{name: "folder in a file's place, read", setup: file("conftest.py/keep", ""), op: "read", path: "conftest.py", want: "notregular"},
	{name: "file in a folder's place", setup: file("tests", "x\n"), op: "file", path: "tests/conftest.py", want: "error"},
	{name: "a file too large to read", setup: func(t *testing.T, project, _ string) {
		f, err := os.Create(filepath.Join(project, "big.md"))
		if err == nil {
			err = f.Truncate(MaxFileSize + 1)
			f.Close()
		}
		if err != nil {
			t.Fatal(err)
		}
	}, op: "read", path: "big.md", want: "toolarge"},
	{name: "a path outside by its text", op: "file", path: "../outside/x.py", want: "error"},
}

// runRootCase runs case i in a fresh folder and describes what happened:
// the outcome, and every entry of the folder afterwards.
func runRootCase(t *testing.T, i int) string {
	t.Helper()
	tc := rootCases[i]
	base := t.TempDir()
	project, outside := filepath.Join(base, "project"), filepath.Join(base, "outside")
	for _, d := range []string{project, filepath.Join(outside, "pkg")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "victim.py"), []byte("victim = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if tc.setup != nil {
		tc.setup(t, project, outside)
	}
	before := tree(t, outside)
	root, err := NewRoot(project, ".")
	if err != nil {
		t.Fatal(err)
	}
	content := []byte("generated\n")
	target := filepath.Join(project, filepath.FromSlash(tc.path))
	var got []byte
	switch tc.op {
	case "file":
		err = root.File(target, content)
	case "new":
		err = root.New(target, content)
	case "read":
		got, _, err = root.ReadFile(target)
	}
	if after := tree(t, outside); after != before {
		t.Errorf("the outside folder changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	kind := outcome(err)
	if kind != tc.want {
		t.Errorf("%s %s: %v (%s), want %s", tc.op, tc.path, err, kind, tc.want)
	}
	if kind == "ok" && tc.op != "read" {
		lands := tc.lands
		if lands == "" {
			lands = tc.path
		}
		if data, err := os.ReadFile(filepath.Join(project, lands)); err != nil || !bytes.Equal(data, content) {
			t.Errorf("%s holds %q, %v; want the written content", lands, data, err)
		}
	}
	msg := ""
	if err != nil {
		msg = strings.ReplaceAll(err.Error(), base, "$BASE")
	}
	return fmt.Sprintf("%s %q read %q\n%s", kind, msg, got, tree(t, base))
}

// outcome names the kind of err.
func outcome(err error) string {
	var le *LinkError
	switch {
	case err == nil:
		return "ok"
	case errors.As(err, &le) && le.Final:
		return "final"
	case errors.As(err, &le) && le.Broken:
		return "broken"
	case errors.As(err, &le):
		return "outside"
	case errors.Is(err, fs.ErrNotExist):
		return "missing"
	case errors.Is(err, fs.ErrExist):
		return "exists"
	case errors.Is(err, ErrNotRegular), strings.Contains(err.Error(), "not a regular file"):
		return "notregular"
	case errors.Is(err, ErrTooLarge):
		return "toolarge"
	}
	return "error"
}

func TestRoot(t *testing.T) {
	for i, tc := range rootCases {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			runRootCase(t, i)
		})
	}
}

// TestLinkErrorNamesTheLink checks the message a refused folder link gets:
// the planned file, the link, where it leads and the project's folder.
func TestLinkErrorNamesTheLink(t *testing.T) {
	base := t.TempDir()
	project, outside := filepath.Join(base, "project"), filepath.Join(base, "outside")
	os.MkdirAll(filepath.Join(project, "tests"), 0o755)
	os.MkdirAll(outside, 0o755)
	if err := os.Symlink("../../outside", filepath.Join(project, "tests", "out")); err != nil {
		t.Fatal(err)
	}
	root, err := NewRoot(project, "proj")
	if err != nil {
		t.Fatal(err)
	}
	err = root.Check(filepath.Join(project, "tests", "out", "conftest.py"))
	realBase, _ := filepath.EvalSymlinks(base)
	want := fmt.Sprintf("proj/tests/out/conftest.py: proj/tests/out is a link to %s/outside, outside the project's folder %s/project;", realBase, realBase)
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Check = %v, want it to start %q", err, want)
	}
}

// tree describes every entry below dir without following links: path,
// type and mode, a link's text, a file's bytes.
func tree(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		line := fmt.Sprintf("%s %v", rel, info.Mode())
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			line += " -> " + strings.ReplaceAll(target, dir, "$DIR")
		case info.Mode().IsRegular() && info.Size() <= 1<<20:
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			line += fmt.Sprintf(" %q", data)
		case info.Mode().IsRegular():
			line += fmt.Sprintf(" %d bytes", info.Size())
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func file(name, content string) func(*testing.T, string, string) {
	return func(t *testing.T, project, _ string) {
		p := filepath.Join(project, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o640); err != nil {
			t.Fatal(err)
		}
	}
}

// link makes the link name below the project, holding target.
func link(name, target string) func(*testing.T, string, string) {
	return func(t *testing.T, project, _ string) {
		if err := os.Symlink(target, filepath.Join(project, name)); err != nil {
			t.Fatal(err)
		}
	}
}

// absLink makes the link name below the project, holding the absolute
// path of the project's entry target.
func absLink(name, target string) func(*testing.T, string, string) {
	return func(t *testing.T, project, _ string) {
		if err := os.Symlink(filepath.Join(project, target), filepath.Join(project, name)); err != nil {
			t.Fatal(err)
		}
	}
}

func fifo(name string) func(*testing.T, string, string) {
	return func(t *testing.T, project, _ string) {
		if err := syscall.Mkfifo(filepath.Join(project, name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func all(setups ...func(*testing.T, string, string)) func(*testing.T, string, string) {
	return func(t *testing.T, project, outside string) {
		for _, s := range setups {
			s(t, project, outside)
		}
	}
}
