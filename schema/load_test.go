package schema

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", DefaultFile), []byte(design), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)

	s, err := Load(filepath.Join("sub", DefaultFile))
	if err != nil {
		t.Fatal(err)
	}
	if s.File != filepath.Join("sub", DefaultFile) {
		t.Errorf("File = %q, want the path as given", s.File)
	}
	// The temporary folder may sit behind a symbolic link (macOS), so compare
	// with what the working folder reports.
	wd, _ := os.Getwd()
	if want := filepath.Join(wd, "sub"); s.Dir != want {
		t.Errorf("Dir = %q, want %q", s.Dir, want)
	}
	if s.Deadline.Fixture != "recovery_deadline" {
		t.Errorf("unexpected spec %+v", s)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	empty := write("empty.toml", "")
	blank := write("blank.toml", "\n  \n")
	bad := write("bad.toml", "version = 1\n[deadline]\nSeconds = 5\n")
	tests := []struct {
		path string
		want string
	}{
		{filepath.Join(dir, "missing.toml"), filepath.Join(dir, "missing.toml") + ": cannot read spec: no such file or directory"},
		{dir, dir + ": cannot read spec: it is a folder, not a file"},
		{empty, empty + ": spec is empty; it needs at least version = 1"},
		{blank, blank + ": spec is empty; it needs at least version = 1"},
		{bad, bad + `:3:1: unknown key "Seconds" in [deadline]; did you mean "seconds"?`},
	}
	for _, tt := range tests {
		_, err := Load(tt.path)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Load(%s) = %v, want %s", tt.path, err, tt.want)
		}
	}

	// A read error has no position.
	_, err := Load(filepath.Join(dir, "missing.toml"))
	var e *Error
	if !errors.As(err, &e) || e.Line != 0 {
		t.Errorf("want an *Error without position, got %#v", err)
	}
}

func TestLoadUnreadable(t *testing.T) {
	p := filepath.Join(t.TempDir(), "locked.toml")
	if err := os.WriteFile(p, []byte(design), 0o000); err != nil {
		t.Fatal(err)
	}
	if _, err := os.ReadFile(p); err == nil {
		t.Skip("this user can read any file (root?), so nothing is unreadable")
	}
	_, err := Load(p)
	if want := p + ": cannot read spec: permission denied"; err == nil || err.Error() != want {
		t.Errorf("Load = %v, want %s", err, want)
	}
}

func TestParseDeepNesting(t *testing.T) {
	// The decoder recurses once per level and would overflow the stack; the
	// spec is refused before it gets there.
	src := "version = 1\nx = " + strings.Repeat("[", 1_000_000) + strings.Repeat("]", 1_000_000) + "\n"
	_, err := Parse([]byte(src), "spec.toml", "/project")
	if want := "spec.toml:2:"; err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "nest more than") {
		t.Errorf("error %v, want one at %s about nesting", err, want)
	}
}

// The loaded spec keeps where each key is written, named from the spec's
// table, so findings about the spec never read its file again; in a
// pyproject.toml the positions still point into the whole file.
func TestSpecKeepsKeyPositions(t *testing.T) {
	src := "[project]\nname = \"x\"\n\n[tool.fixturegen]\nversion = 1\n\n[tool.fixturegen.deadline]\nfixture = \"deadline\"\nseconds = 5\n\n" +
		"[tool.fixturegen.preload]\nfixture = \"preload\"\nmodules = [\"a\", \"b\"]\n\n[tool.fixturegen.paths]\nconftest = \"tests/conftest.py\"\n"
	s, err := ParseTable([]byte(src), "pyproject.toml", "/project", TablePrefix("pyproject.toml"))
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string][2]int{
		"version":            {5, 1},
		"deadline":           {7, 1},
		"deadline.seconds":   {9, 1},
		"preload.modules[1]": {13, 17},
		"paths.conftest":     {16, 1},
	} {
		sp, ok := s.Positions[key]
		if !ok || sp.Line != want[0] || sp.Col != want[1] {
			t.Errorf("Positions[%q] = %d:%d, %v; want %d:%d", key, sp.Line, sp.Col, ok, want[0], want[1])
		}
	}
	for _, key := range []string{"project.name", "tool.fixturegen.version", "deadline.timer"} {
		if sp, ok := s.Positions[key]; ok {
			t.Errorf("Positions[%q] = %d:%d; the spec does not write that key", key, sp.Line, sp.Col)
		}
	}
}
