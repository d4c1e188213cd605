package render

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/testenv"
)

// cases are snippets with the verdict Check must reach. TestCasesAgreeWithPython
// holds the table honest: CPython must reach the same verdict, so the Go
// check never rejects valid Python or accepts a snippet CPython refuses.
//
// A case marked stricter is valid Python that Check refuses on purpose (see
// the package doc); the Python cross-check expects CPython to accept it.
var cases = []struct {
	name, src string
	ok        bool
	stricter  bool
}{
	{"empty", "", true, false},
	{"plain", "import os\nx = os.sep\n", true, false},
	{"block", "def f(a, b):\n    if a:\n        return b\n    return a\n", true, false},
	{"dedent to zero", "class C:\n    x = 1\n\n\ny = 2\n", true, false},
	{"continued brackets", "x = [\n  1,\n      2,\n]\n", true, false},
	{"backslash continuation", "x = 1 + \\\n    2\n", true, false},
	{"comment only lines", "if x:\n# a comment at column 0\n    y = 1\n", true, false},
	{"strings", "a = 'x'\nb = \"y\\n\\t\\\\\\\"\"\nc = r'\\d'\nd = b'\\x00'\ne = '\\u00e9\\U0001F600\\N{BULLET}'\n", true, false},
	{"triple", "\"\"\"doc\nwith \"quotes\" and ''' inside\n\"\"\"\n", true, false},
	{"fstring", "x = f\"{a!r} {b:.2f} {{literal}} {c['k']}\"\n", true, false},
	{"non-ascii", "x = \"café ☕\"\n", true, false},
	{"numbers", "x = (1, 0.25, 1e-3, 0x1F, 1_000, 2j, .5, 10**9)\n", true, false},
	{"operators", "x = a ** b // c @ d; y = -x if x != 0 else ~x\nz: int = 3\n", true, false},
	{"one-line block", "if x: pass\ny = 1\n", true, false},
	{"dict colon at end", "d = {\n    'a':\n        1,\n}\n", true, false},
	{"crlf", "x = 1\r\ny = 2\r\n", true, false},

	{"unclosed string", "x = \"abc\n", false, false},
	{"unclosed triple", "x = \"\"\"abc\n", false, false},
	{"stray quote", "x = \"a\"\"\n", false, false},
	{"injected quote", "x = \"a\" \" b\n", false, false},
	{"unbalanced paren", "x = (1, 2\n", false, false},
	{"wrong closer", "x = (1, 2]\n", false, false},
	{"extra closer", "x = 1)\n", false, false},
	{"unexpected indent", "x = 1\n    y = 2\n", false, false},
	{"bad dedent", "if x:\n    y = 1\n  z = 2\n", false, false},
	{"missing block", "def f():\nreturn 1\n", false, false},
	{"missing block at end", "def f():\n", false, false},
	{"tab indent", "if x:\n\ty = 1\n", false, true},
	{"bad hex escape", "x = \"\\x4\"\n", false, false},
	{"bad unicode escape", "x = \"\\u12\"\n", false, false},
	{"unicode beyond range", "x = \"\\U00110000\"\n", false, false},
	{"non-ascii bytes", "x = b\"é\"\n", false, false},
	{"fstring single brace", "x = f\"a } b\"\n", false, false},
	{"fstring open field", "x = f\"{a\"\n", false, false},
	{"dollar", "x = $y\n", false, false},
	{"backtick", "x = `y`\n", false, false},
	{"question mark", "x = y?\n", false, false},
	{"lone bang", "x = !y\n", false, false},
	{"backslash not at end", "x = 1 \\ + 2\n", false, false},
	{"nul in string", "x = \"a\x00b\"\n", false, false},
	{"bare carriage return", "x = 1\ry = 2\n", false, true},
	{"malformed number", "x = 1.2.3\n", false, false},
}

func TestCases(t *testing.T) {
	for _, tc := range cases {
		err := checkPython([]byte(tc.src))
		if (err == nil) != tc.ok {
			t.Errorf("%s: checkPython(%q) = %v, want ok=%v", tc.name, tc.src, err, tc.ok)
		}
	}
}

// TestCasesAgreeWithPython compiles every snippet of the table with the
// project venv's Python (the oldest grammar it targets is checked too, by
// ast.parse with feature_version (3, 9)). Cases marked stricter must be
// accepted by CPython, so the table shows exactly where the two differ.
func TestCasesAgreeWithPython(t *testing.T) {
	python := testenv.Python(t)
	dir := t.TempDir()
	var names []string
	for i, tc := range cases {
		name := filepath.Join(dir, fmt.Sprintf("case%03d.py", i))
		if err := os.WriteFile(name, []byte(tc.src), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	// One interpreter compiles them all: a fresh one per snippet would cost
	// a second of start-up on a slow machine.
	script := `
import ast, sys, warnings
warnings.simplefilter("error")
for name in sys.argv[1:]:
    with open(name, "rb") as f:
        src = f.read()
    try:
        ast.parse(src, name, feature_version=(3, 9))
        compile(src, name, "exec")
        print("ok")
    except (SyntaxError, ValueError, SyntaxWarning, DeprecationWarning) as e:
        print("error", type(e).__name__, e)
`
	out, err := exec.Command(python, append([]string{"-c", script}, names...)...).Output()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, out)
	}
	verdicts := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(verdicts) != len(cases) {
		t.Fatalf("python printed %d verdicts for %d cases:\n%s", len(verdicts), len(cases), out)
	}
	for i, tc := range cases {
		pyOK := verdicts[i] == "ok"
		if pyOK != (tc.ok || tc.stricter) {
			t.Errorf("%s: the table says ok=%v, Python says %s", tc.name, tc.ok, verdicts[i])
		}
	}
}

func TestTokensDecodeStrings(t *testing.T) {
	src := "x = \"a\\\"b\\\\c\\n\\x41\\u00e9\"\ny = r'\\n'\nz = f\"{v!r} {{x}}\"\n"
	toks, err := pythonTokens([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var strs, names []string
	for _, tok := range toks {
		switch tok.Kind {
		case stringToken:
			strs = append(strs, tok.Value)
		case nameToken:
			names = append(names, tok.Value)
		}
	}
	want := []string{"a\"b\\c\nAé", `\n`, "{v!r} {{x}}"}
	if strings.Join(strs, "|") != strings.Join(want, "|") {
		t.Errorf("strings = %q, want %q", strs, want)
	}
	if strings.Join(names, " ") != "x y z" {
		t.Errorf("names = %q, want x y z", names)
	}
}

func TestJoin(t *testing.T) {
	toks, err := pythonTokens([]byte("x = (\"a\" 'b'\n  \"c\")\ny = \"d\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	var strs []string
	for _, tok := range joinStrings(toks) {
		if tok.Kind == stringToken {
			strs = append(strs, tok.Value)
		}
	}
	if strings.Join(strs, "|") != "abc|d" {
		t.Errorf("joined strings = %q, want [abc d]", strs)
	}
}
