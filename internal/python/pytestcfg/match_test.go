package pytestcfg

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/testenv"
)

// fnmatchCases are names and patterns, among them the corners where
// Python's fnmatch and Go's path.Match part: "*" across "/", brackets
// with "!" and a leading "]", an unclosed "[", a backslash.
var fnmatchCases = [][2]string{
	{"test_a.py", "test_*.py"}, {"a_test.py", "test_*.py"}, {"/r/tests/skipme", "*/tests/skipme"},
	{"/r/tests/skipme/x", "*/tests/skipme"}, {"/r/a/tests/special/t.py", "*/tests/special/*.py"},
	{"/r/tests/special/sub/t.py", "*/tests/special/*.py"}, {"abc", "a?c"}, {"ac", "a?c"},
	{"a]c", "a[]]c"}, {"abc", "a[!b]c"}, {"axc", "a[!b]c"}, {"a[c", "a[c"}, {"a[c", "a[[]c"},
	{"a-c", "a[a-]c"}, {"abc", "a[a-c]c"}, {`a\c`, `a\c`}, {"a*c", `a\*c`}, {"é.py", "?.py"},
	{"", "*"}, {"x", ""}, {"build", "build"}, {"CVS", "cvs"}, {"a.egg", "*.egg"}, {".git", ".*"},
	{"tests/sub", "tests/*"}, {"Test", "[A-Z]est"}, {"test", "[!a-z]est"},
}

func TestFnmatch(t *testing.T) {
	tests := []struct {
		name, pattern string
		want          bool
	}{
		{"/r/tests/skipme/x", "*/tests/skipme", false},
		{"/r/a/tests/skipme", "*/tests/skipme", true},
		{"/r/tests/special/sub/t.py", "*/tests/special/*.py", true}, // "*" takes "/" too
		{"a]c", "a[]]c", true},
		{"a[c", "a[c", true},   // an unclosed "[" is itself
		{"a*c", `a\*c`, false}, // no escapes: the backslash is itself
		{"é.py", "?.py", true},
	}
	for _, tt := range tests {
		if got := Fnmatch(tt.name, tt.pattern); got != tt.want {
			t.Errorf("Fnmatch(%q, %q) = %v, want %v", tt.name, tt.pattern, got, tt.want)
		}
	}
}

// Fnmatch and MatchPath agree with Python's fnmatch.fnmatchcase and with
// pytest's own fnmatch_ex on every case above.
func TestMatchAgreesWithPytest(t *testing.T) {
	python := testenv.Python(t)
	paths := []string{"/r/tests/skipme", "/r/tests/skipme/deeper", "/r/other/tests/skipme", "/r/tests/special/t.py",
		"/r/tests/special/sub/t.py", "/r/test_x.py", "/r/tests/x_test.py", "/r/.hidden", "/r/pkg.egg"}
	patterns := []string{"tests/skipme", "tests/special/*.py", "test_*.py", "*_test.py", ".*", "*.egg", "tests/*", "/r/tests/*", "skipme"}
	input, _ := json.Marshal(map[string]any{"fn": fnmatchCases, "paths": paths, "patterns": patterns})
	script := `
import fnmatch, json, sys
from _pytest.pathlib import fnmatch_ex
d = json.load(sys.stdin)
json.dump({"fn": [fnmatch.fnmatchcase(n, p) for n, p in d["fn"]],
           "ex": [[fnmatch_ex(p, path) for p in d["patterns"]] for path in d["paths"]]}, sys.stdout)
`
	cmd := exec.Command(python, "-c", script)
	cmd.Stdin = strings.NewReader(string(input))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python: %v", err)
	}
	var want struct {
		Fn []bool
		Ex [][]bool
	}
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	for i, c := range fnmatchCases {
		if got := Fnmatch(c[0], c[1]); got != want.Fn[i] {
			t.Errorf("Fnmatch(%q, %q) = %v, Python says %v", c[0], c[1], got, want.Fn[i])
		}
	}
	for i, p := range paths {
		for j, pat := range patterns {
			if got := MatchPath(pat, p); got != want.Ex[i][j] {
				t.Errorf("MatchPath(%q, %q) = %v, pytest says %v", pat, p, got, want.Ex[i][j])
			}
		}
	}
}

func TestCollection(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"tests/unit", "tests/integration", "tests/.hidden", "more/a/b"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, dir, "pytest.ini", "[pytest]\naddopts = --ignore=tests/unit/old.py --ignore tests/legacy --ignore-glob=*_py2.py --ignore-glob '/abs/*'\ntestpaths = tests/* more/**/b missing\n")
	cfg, err := Plain(dir)
	if err != nil {
		t.Fatal(err)
	}
	c := cfg.Collection()
	rel := func(ps []string) []string {
		var out []string
		for _, p := range ps {
			if r, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(r, "..") {
				p = filepath.ToSlash(r)
			}
			out = append(out, p)
		}
		return out
	}
	if got, want := rel(c.Ignore), []string{"tests/unit/old.py", "tests/legacy"}; !slices.Equal(got, want) {
		t.Errorf("Ignore = %q, want %q", got, want)
	}
	if got, want := rel(c.IgnoreGlob), []string{"*_py2.py", "/abs/*"}; !slices.Equal(got, want) {
		t.Errorf("IgnoreGlob = %q, want %q", got, want)
	}
	if got, want := rel(c.TestPaths), []string{"tests/integration", "tests/unit", "more/a/b"}; !slices.Equal(got, want) {
		t.Errorf("TestPaths = %q, want %q", got, want)
	}
}
