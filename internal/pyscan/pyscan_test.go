package pyscan

import (
	"fmt"
	"strings"
	"testing"
)

// calls lists the module's calls as "line:col callee(args)" strings, the
// shape the tests below compare.
func calls(m *Module) []string {
	var out []string
	for _, c := range m.Calls {
		var args []string
		for _, a := range c.Args {
			s := ""
			if a.Keyword != "" {
				s = a.Keyword + "="
			}
			switch a.Kind {
			case ArgString:
				s += fmt.Sprintf("%q", a.Value)
			case ArgName, ArgNumber:
				s += a.Value
			default:
				s += "?"
			}
			args = append(args, s)
		}
		out = append(out, fmt.Sprintf("%d:%d %s(%s)", c.Pos.Line, c.Pos.Col, c.Callee, strings.Join(args, ", ")))
	}
	return out
}

func TestCallsIgnoreStringsAndComments(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"plain call", "signal.setitimer(signal.ITIMER_REAL, 5)\n",
			[]string{"1:1 signal.setitimer(signal.ITIMER_REAL, 5)"}},
		{"comment", "x = 1  # signal.setitimer(signal.ITIMER_REAL, 5)\n", nil},
		{"string", "x = 'signal.setitimer(1)'\n", nil},
		{"docstring", "def f():\n    \"\"\"Call\n    signal.setitimer(1)\n    later.\"\"\"\n", nil},
		{"single-quoted triple", "x = '''a\nsignal.alarm(1)\n'''\ny = g()\n", []string{"4:5 g()"}},
		{"escaped quote", `x = "a\"signal.alarm(1)"` + "\n", nil},
		{"raw string escaped quote", `x = r"a\"signal.alarm(1)"` + "\n", nil},
		{"bytes", "x = b'signal.alarm(1)'\n", nil},
		{"f-string literal part", "x = f'signal.alarm({n})'\n", nil},
		{"f-string nested same quotes (3.12)", "x = f\"{d[\"signal.alarm(1)\"]}\"; y = h()\n", []string{"1:36 h()"}},
		{"f-string format spec with quote", "x = f\"{v:'>10}\"; y = h()\n", []string{"1:22 h()"}},
		{"f-string doubled braces", "x = f'{{signal.alarm(1)}}'\n", nil},
		{"continuation", "x = \\\n    signal.alarm(\n        5)\n", []string{"2:5 signal.alarm(5)"}},
		{"nested calls", "pytestmark = [pytest.mark.xdist_group(\"g\"), pytest.mark.usefixtures(\"a\", 'b')]\n",
			[]string{`1:15 pytest.mark.xdist_group("g")`, `1:45 pytest.mark.usefixtures("a", "b")`}},
		{"method of a call result is not recorded", "f().g(1)\n", []string{"1:1 f()"}},
		{"string method", "''.join(x)\n", nil},
		{"keyword argument", "pytest.mark.xdist_group(name='g')\n", []string{`1:1 pytest.mark.xdist_group(name="g")`}},
		{"adjacent strings", "f('a' 'b')\n", []string{`1:1 f("ab")`}},
		{"non-ASCII column", "x = 'é'; f()\n", []string{"1:10 f()"}},
		{"unterminated string does not swallow the file", "x = 'abc\ny = f()\n", []string{"2:5 f()"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := calls(Scan([]byte(tt.src)))
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("calls:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestDefsScopesAndDecorators(t *testing.T) {
	src := `import pytest


@pytest.fixture(autouse=True)
def watchdog(recovery_deadline, *args, tmp_path=None, **kw):
    signal.alarm(1)


class TestThing:
    pytestmark = pytest.mark.usefixtures("x")

    @pytest.mark.parametrize("a", [1, 2])
    async def test_a(self, a):
        if a:
            g()
        h()

    def test_b(self): return k()


def test_top(
    toy_sdk,
    # a comment between parameters
    recovery_deadline,
):
    pass
`
	m := Scan([]byte(src))
	type def struct {
		kind   DefKind
		name   string
		line   int
		params string
		parent int
		decos  string
	}
	var got []def
	for _, d := range m.Defs {
		var ps, ds []string
		for _, p := range d.Params {
			ps = append(ps, p.Name)
		}
		for _, dc := range d.Decorators {
			ds = append(ds, fmt.Sprintf("%s/%v", dc.Name, dc.Call >= 0))
		}
		got = append(got, def{d.Kind, d.Name, d.Pos.Line, strings.Join(ps, ","), d.Parent, strings.Join(ds, ",")})
	}
	want := []def{
		{Function, "watchdog", 5, "recovery_deadline,tmp_path", -1, "pytest.fixture/true"},
		{Class, "TestThing", 9, "", -1, ""},
		{Function, "test_a", 13, "self,a", 1, "pytest.mark.parametrize/true"},
		{Function, "test_b", 18, "self", 1, ""},
		{Function, "test_top", 21, "toy_sdk,recovery_deadline", -1, ""},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("defs:\n got %v\nwant %v", got, want)
	}
	scopes := map[string]int{}
	for _, c := range m.Calls {
		scopes[c.Callee] = c.Scope
	}
	for callee, want := range map[string]int{"signal.alarm": 0, "g": 2, "h": 2, "k": 3, "pytest.mark.usefixtures": 1, "pytest.fixture": -1} {
		if scopes[callee] != want {
			t.Errorf("scope of %s = %d, want %d", callee, scopes[callee], want)
		}
	}
	for _, c := range m.Calls {
		switch c.Callee {
		case "pytest.fixture":
			if c.Decorates != 0 {
				t.Errorf("pytest.fixture decorates %d, want 0", c.Decorates)
			}
		case "pytest.mark.usefixtures":
			if c.Target != "pytestmark" {
				t.Errorf("usefixtures target = %q, want pytestmark", c.Target)
			}
		}
	}
	if len(m.Assigns) != 1 || m.Assigns[0].Name != "pytestmark" || m.Assigns[0].Scope != 1 {
		t.Errorf("assigns = %+v, want pytestmark in class 1", m.Assigns)
	}
	if len(m.Problems) != 0 {
		t.Errorf("problems = %v", m.Problems)
	}
}

func TestResolve(t *testing.T) {
	m := Scan([]byte("import signal as sig\nfrom signal import setitimer\nimport unittest.mock\nfrom unittest import mock as m\nfrom pytest import mark\nfrom . import helpers\n"))
	for in, want := range map[string]string{
		"sig.setitimer":           "signal.setitimer",
		"setitimer":               "signal.setitimer",
		"unittest.mock.patch":     "unittest.mock.patch",
		"m.patch":                 "unittest.mock.patch",
		"mark.xdist_group":        "pytest.mark.xdist_group",
		"mark":                    "pytest.mark",
		"helpers.f":               ".helpers.f",
		"os.path.join":            "os.path.join",
		"pytest.mark.usefixtures": "pytest.mark.usefixtures",
	} {
		if got := m.Resolve(in); got != want {
			t.Errorf("Resolve(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestProblems(t *testing.T) {
	tests := []struct{ src, want string }{
		{"x = '''never closed\n\ny = f()\n", "1:5 unterminated triple-quoted string literal"},
		{"x = 'no end\n", "1:5 unterminated string literal"},
		{"f(1, 2\n", "2:1 unexpected end of file inside brackets"},
		{"x = 1)\n", "1:6 unmatched ')'"},
		{"if x:\n        a()\n    b()\n", "3:5 unindent does not match any outer indentation level"},
	}
	for _, tt := range tests {
		m := Scan([]byte(tt.src))
		if len(m.Problems) != 1 {
			t.Errorf("%q: problems = %v, want one", tt.src, m.Problems)
			continue
		}
		p := m.Problems[0]
		if got := fmt.Sprintf("%d:%d %s", p.Pos.Line, p.Pos.Col, p.Msg); got != tt.want {
			t.Errorf("%q: problem %q, want %q", tt.src, got, tt.want)
		}
	}
}

func TestIndentationTracksBlocks(t *testing.T) {
	// A dedent to module level after a deeply nested body ends the
	// function: calls after it are at module level.
	src := "def f():\n    if a:\n        for b in c:\n            g()\n\n# comment at column 0 does not end the block\n            h()\ni()\n"
	m := Scan([]byte(src))
	want := map[string]int{"g": 0, "h": 0, "i": -1}
	for _, c := range m.Calls {
		if c.Scope != want[c.Callee] {
			t.Errorf("scope of %s = %d, want %d", c.Callee, c.Scope, want[c.Callee])
		}
	}
}

func TestScanNeverPanics(t *testing.T) {
	inputs := []string{"", "\\", "@", "def", "def (", "class", "f(", ")", "'", `"""`, "f'{", "f'{x:", "f'{x!r", "\xff\xfe", "import", "from . import (", "x = (1,\n", "@a\n@b\n", "\tdef f():\n  pass\n"}
	for _, in := range inputs {
		Scan([]byte(in))
	}
}

func TestCheckEncoding(t *testing.T) {
	tests := []struct{ src, want string }{
		{"x = 'é'\n", ""},
		{"\xef\xbb\xbfx = 1\n", ""},
		{"# -*- coding: latin-1 -*-\nx = '\xe9'\n", ""},
		{"#!/usr/bin/env python\n# vim: set fileencoding=iso-8859-15 :\nx = '\xe9'\n", ""},
		{"x = 1\ny = '\xe9'\n", "2:6 is not valid UTF-8 (byte 0xe9) and declares no other encoding"},
		{"x = 1\n# coding: latin-1\ny = '\xe9'\n", "3:6 is not valid UTF-8 (byte 0xe9) and declares no other encoding"},
		{"# coding: shift_jis\n", `1:1 declares encoding "shift_jis", which fixturegen does not read; save it as UTF-8`},
		{"\xff\xfex\x00", "1:1 starts with a UTF-16 byte order mark; Python source must be UTF-8 unless it declares an encoding"},
	}
	for _, tt := range tests {
		got := ""
		if p := CheckEncoding([]byte(tt.src)); p != nil {
			got = fmt.Sprintf("%d:%d %s", p.Pos.Line, p.Pos.Col, p.Msg)
		}
		if got != tt.want {
			t.Errorf("CheckEncoding(%q) = %q, want %q", tt.src, got, tt.want)
		}
	}
}

func TestPlaces(t *testing.T) {
	src := "x = deadline  # deadline\ny = 'deadline' + f\"{deadline}\"\n\"\"\"\ndeadline\n\"\"\"\nrb'deadline'\n"
	var offs []int
	for i := 0; ; {
		j := strings.Index(src[i:], "deadline")
		if j < 0 {
			break
		}
		offs = append(offs, i+j)
		i += j + 1
	}
	got := fmt.Sprint(Places([]byte(src), offs))
	want := fmt.Sprint([]Place{InCode, InComment, InString, InString, InString, InString})
	if got != want {
		t.Errorf("Places = %s, want %s", got, want)
	}
}
