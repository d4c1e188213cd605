package pyscan

import (
	"bytes"
	"fmt"
	"math/rand"
	"slices"
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
		{"x = '''never closed\n\ny = f()\n", "1:5 unterminated triple-quoted string literal (detected at line 3)"},
		{"x = 'no end\n", "1:5 unterminated string literal (detected at line 1)"},
		{"f(1, 2\n", "1:2 '(' was never closed"},
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
		{"# coding: no-such-codec\n", `1:1 declares encoding "no-such-codec", which fixturegen does not know; save it as UTF-8`},
		{"\xff\xfex\x00", "1:1 starts with a UTF-16 byte order mark; Python source must be UTF-8 unless it declares an encoding"},
	}
	for _, tt := range tests {
		got := ""
		if _, p := Decode([]byte(tt.src)); p != nil {
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
	// The name in the replacement field is code.
	want := fmt.Sprint([]Place{InCode, InComment, InString, InCode, InString, InString})
	if got != want {
		t.Errorf("Places = %s, want %s", got, want)
	}
}

// placesByToken is Places token by token: the reference Places, which
// skips code to the next quote or #, must agree with. The fields of a
// formatted string are code.
func placesByToken(src []byte, offs []int) []Place {
	out := make([]Place, len(offs))
	var lx Lexer
	lx.reset(src)
	l := &lx
	l.recordFields = true
	k := 0
	mark := func(end int, p Place) {
		for k < len(offs) && offs[k] < end {
			out[k] = p
			k++
		}
	}
	for k < len(offs) && l.off < len(src) {
		start := l.off
		c := src[start]
		switch {
		case c == '#':
			end := len(src)
			if i := bytes.IndexAny(src[start:], "\r\n"); i >= 0 {
				end = start + i
			}
			l.off = end
			mark(end, InComment)
		case c == '"' || c == '\'':
			l.skipString(false)
			mark(l.off, InString)
		case c == '\n' || c == '\r':
			l.newline()
			mark(l.off, InCode)
		case nameBytes[c] && !isDigit(c):
			for l.off < len(src) && nameBytes[src[l.off]] {
				l.off++
			}
			if l.off < len(src) && (src[l.off] == '"' || src[l.off] == '\'') {
				if f, ok := stringPrefix(src[start:l.off]); ok {
					l.fields = l.fields[:0]
					l.skipString(f)
					for _, fd := range l.fields {
						mark(fd.off, InString)
						mark(fd.end, InCode)
					}
					mark(l.off, InString)
					continue
				}
			}
			mark(l.off, InCode)
		default:
			l.off++
			mark(l.off, InCode)
		}
	}
	return out
}

// Places agrees with the token-by-token reference on every byte of
// sources made of the pieces that change a place: quotes, prefixes,
// comments, digits, escapes, line ends, replacement fields.
func TestPlacesAgreesWithTokens(t *testing.T) {
	pieces := []string{"x", "rb", "f", "1", "u", "Rb", "br", "ab", "_", "\xe9", "é", "#", "'", "\"", "\"\"\"", "'''",
		"\\", "\n", "\r\n", "{", "}", " ", "(", "=", ":", "!r"}
	rng := rand.New(rand.NewSource(1))
	for n := 0; n < 20000; n++ {
		src := []byte(randomSource(rng, pieces, 1+rng.Intn(24)))
		offs := everyOffset(len(src))
		want := fmt.Sprint(placesByToken(src, offs))
		if got := fmt.Sprint(Places(src, offs)); got != want {
			t.Fatalf("Places(%q) = %s, want %s", src, got, want)
		}
	}
}

func TestFormattedStringFields(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"call in a field", "x = f\"{signal.alarm(3)}\"\n", []string{"1:8 signal.alarm(3)"}},
		{"line breaks in a field (3.12)", "x = f\"{\n 1\n}\"\ny = h()\n", []string{"4:5 h()"}},
		{"call on a later line of a field", "x = f'{\n  g(2)}'\n", []string{"2:3 g(2)"}},
		{"nested same-quote f-string (3.12)", "x = f\"{f\"{g(1)}\"}\"; y = h()\n", []string{"1:25 h()", "1:11 g(1)"}},
		{"nested same-quote string key (3.12)", "x = f\"{d[\"k\"]}\"\ny = h()\n", []string{"2:5 h()"}},
		{"conversion", "x = f'{g(1)!r}'\n", []string{"1:8 g(1)"}},
		{"not-equal is not a conversion", "x = f'{g(1) != 2}'\n", []string{"1:8 g(1)"}},
		{"nested field in the format spec", "x = f'{v:{w(2)}}'\n", []string{"1:11 w(2)"}},
		{"comment in a multi-line field (3.12)", "x = f'''{\n g(1)  # (\n}'''\n", []string{"2:2 g(1)"}},
		{"triple-quoted", "x = f\"\"\"a\n{signal.setitimer(signal.ITIMER_REAL, 1)}\"\"\"\n", []string{"2:2 signal.setitimer(signal.ITIMER_REAL, 1)"}},
		{"in a def's scope", "def f():\n    return f'{g()}'\n", []string{"2:15 g()"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := Scan([]byte(tt.src))
			if len(m.Problems) > 0 {
				t.Errorf("problems: %v", m.Problems)
			}
			got := calls(m)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("calls:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
	m := Scan([]byte("def f():\n    return f'{g()}'\n"))
	if len(m.Calls) != 1 || m.Calls[0].Scope != 0 {
		t.Errorf("a field's call in a def: calls %+v, want one in scope 0", m.Calls)
	}
}

func TestParenthesizedCallee(t *testing.T) {
	tests := []struct{ src, want string }{
		{"(signal.alarm)(5)\n", "1:2 signal.alarm(5)"},
		{"x = (alarm)(1)\n", "1:6 alarm(1)"},
		{"return (signal.alarm)(5)\n", "1:9 signal.alarm(5)"},
		{"f(signal.alarm)(5)\n", "1:1 f(signal.alarm)"},
		{"x[0](signal.alarm)(5)\n", ""},
	}
	for _, tt := range tests {
		if got := strings.Join(calls(Scan([]byte(tt.src))), "\n"); got != tt.want {
			t.Errorf("%q: calls %q, want %q", tt.src, got, tt.want)
		}
	}
}

func TestResolveAt(t *testing.T) {
	src := `import signal
from signal import alarm as arm


def test_local():
    alarm = lambda n: None
    alarm(13)


def test_param(signal):
    signal.alarm(1)


def test_imported():
    from signal import alarm
    alarm(2)
    arm(3)


class TestC:
    signal = object()

    def test_m(self):
        signal.alarm(4)


alarm = lambda n: None
alarm(5)
`
	m := Scan([]byte(src))
	got := map[string]string{}
	for _, c := range m.Calls {
		if len(c.Args) == 1 {
			got[fmt.Sprintf("%s(%s)", c.Callee, c.Args[0].Value)] = m.ResolveCall(c)
		}
	}
	want := map[string]string{
		"alarm(13)":       "",
		"signal.alarm(1)": "",
		"alarm(2)":        "signal.alarm",
		"arm(3)":          "signal.alarm",
		"signal.alarm(4)": "signal.alarm", // a class's names are not seen from its methods
		"alarm(5)":        "",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s resolves to %q, want %q", k, got[k], w)
		}
	}

	tests := []struct{ src, name, want string }{
		{"from signal import *\nalarm(1)\n", "alarm", "signal.alarm"},
		{"from os import *\nfrom signal import *\nfrom json import *\nsetitimer(1)\n", "setitimer", "signal.setitimer"},
		{"from signal import *\nalarm = None\nalarm(1)\n", "alarm", "signal.alarm"},
		{"from signal import *\ndef alarm(n): pass\nalarm(1)\n", "alarm", ""},
		{"signal = Signal()\nsignal.alarm(1)\n", "signal.alarm", ""},
		{"signal = import_helper.import_module('signal')\nsignal.alarm(1)\n", "signal.alarm", "signal.alarm"},
		{"try:\n    import signal\nexcept ImportError:\n    signal = None\ndef f():\n    signal.alarm(1)\n", "signal.alarm", "signal.alarm"},
		{"import signal\nsignal = FakeSignal()\ndef f():\n    signal.alarm(1)\n", "signal.alarm", "signal.alarm"},
		{"signal.alarm(1)\n", "signal.alarm", "signal.alarm"},
	}
	for _, tt := range tests {
		m := Scan([]byte(tt.src))
		var c *Call
		for i := range m.Calls {
			if m.Calls[i].Callee == tt.name {
				c = &m.Calls[i]
			}
		}
		if c == nil {
			t.Errorf("%q: no call of %s", tt.src, tt.name)
			continue
		}
		if got := m.ResolveCall(*c); got != tt.want {
			t.Errorf("%q: %s resolves to %q, want %q", tt.src, tt.name, got, tt.want)
		}
	}
}

func TestClassBases(t *testing.T) {
	m := Scan([]byte("class A(unittest.TestCase, Mixin, metaclass=M):\n    pass\nclass B(make()):\n    pass\nclass C: pass\n"))
	want := [][]string{{"unittest.TestCase", "Mixin"}, nil, nil}
	for i, d := range m.Defs {
		if fmt.Sprint(d.Bases) != fmt.Sprint(want[i]) {
			t.Errorf("%s bases %q, want %q", d.Name, d.Bases, want[i])
		}
	}
}

func TestSuppressions(t *testing.T) {
	src := "import signal\n" +
		"signal.alarm(1)  # fixturegen: ignore[own-timer]\n" +
		"signal.alarm(2)  # noqa: F401  # fixturegen: ignore[own-timer, missing-group]\n" +
		"signal.alarm(3)  # fixturegen: ignore\n" +
		"x = '# fixturegen: ignore'\n" +
		"# fixturegen:begin\n" +
		"y = 1  # fixturegen:ignore[no-such-rule]\n" +
		"z = 2  # fixturegen: ignored\n"
	var got []string
	for _, s := range Scan([]byte(src)).Suppressions {
		got = append(got, fmt.Sprintf("%d:%d %q", s.Line, s.Pos.Col, s.Rules))
	}
	want := []string{`2:20 ["own-timer"]`, `3:34 ["own-timer" "missing-group"]`, `4:20 []`, `7:10 ["no-such-rule"]`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("suppressions:\n got %q\nwant %q", got, want)
	}
	s := Suppression{Rules: []string{"own-timer"}}
	if !s.Covers("own-timer") || s.Covers("missing-group") || !(Suppression{}).Covers("x") {
		t.Error("Covers does not follow the rule list")
	}
}

func TestDecodeDeclaredEncodings(t *testing.T) {
	// Each source says "usefixtures('ё')"-like text in its own encoding;
	// Decode turns it into the same UTF-8 Python would read.
	tests := []struct{ decl, encoded, want string }{
		{"koi8-r", "\xa3", "ё"},
		{"koi8_r", "\xa3", "ё"},
		{"cp1251", "\xb8", "ё"},
		{"windows-1251", "\xb8", "ё"},
		{"shift_jis", "\x82\xa0", "あ"},
		{"sjis", "\x82\xa0", "あ"},
		{"euc_jp", "\xa4\xa2", "あ"},
		{"gbk", "\xc4\xe3", "你"},
		{"big5", "\xa7\x41", "你"},
		{"latin-1", "\xe9", "é"},
		{"iso8859_15", "\xa4", "€"},
		{"cp437", "\x82", "é"},
		{"mac_roman", "\x8e", "é"},
		{"cp932", "\x82\xa0", "あ"},
		{"cp866", "\x80", "А"},
		{"mac_cyrillic", "\x80", "А"},
	}
	for _, tt := range tests {
		src := "# -*- coding: " + tt.decl + " -*-\nx = '" + tt.encoded + "'\n"
		out, prob := Decode([]byte(src))
		if prob != nil {
			t.Errorf("%s: %s", tt.decl, prob.Msg)
			continue
		}
		want := "# -*- coding: " + tt.decl + " -*-\nx = '" + tt.want + "'\n"
		if string(out) != want {
			t.Errorf("%s: decoded %q, want %q", tt.decl, out, want)
		}
		if a := Scan(out).Assigns; len(a) != 1 || a[0].Pos != (Pos{2, 1}) {
			t.Errorf("%s: assigns %v", tt.decl, a)
		}
	}
	plain := []byte("x = 'é'\n")
	if out, _ := Decode(plain); &out[0] != &plain[0] {
		t.Error("UTF-8 source was copied")
	}
}

// keywords are Python's hard keywords (keyword.kwlist).
var keywords = strings.Fields("False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield")

// TestKeywords checks that isKeyword, with its quick rejection by
// wordPairs, knows every keyword of keywords and no name one byte off.
func TestKeywords(t *testing.T) {
	for _, k := range keywords {
		if !isKeyword(k) {
			t.Errorf("isKeyword(%q) = false", k)
		}
		for i := range k {
			for _, c := range []byte("aeisxyzAZ_0") {
				other := k[:i] + string(c) + k[i+1:]
				if isKeyword(other) != slices.Contains(keywords, other) {
					t.Errorf("isKeyword(%q) = %v", other, isKeyword(other))
				}
			}
		}
	}
	for _, name := range []string{"self", "print", "len", "os", "orx", "i", "", "nonlocals", "Trueish"} {
		if isKeyword(name) {
			t.Errorf("isKeyword(%q) = true", name)
		}
	}
}

// TestWords checks that words are the hard keywords isKeyword knows, then
// the soft keywords "match" and "case", that wordID and the lexer give each
// its id, and that other names, near misses and non-ASCII names get none.
func TestWords(t *testing.T) {
	if want := append(slices.Clone(keywords), "match", "case"); !slices.Equal(words, want) {
		t.Fatalf("words = %q, want %q", words, want)
	}
	if int(kwLastHard) != len(keywords) || int(kwCase) != len(words) {
		t.Fatalf("kwLastHard = %d, kwCase = %d; want %d and %d", kwLastHard, kwCase, len(keywords), len(words))
	}
	lexWord := func(src string) (uint8, Kind) {
		l := NewLexer([]byte(src))
		var tk tok
		l.next(&tk)
		return tk.kw, tk.kind
	}
	for i, w := range words {
		id := uint8(i + 1)
		if got := wordID(w); got != id {
			t.Errorf("wordID(%q) = %d, want %d", w, got, id)
		}
		if got, k := lexWord(w + " x"); got != id || k != Name {
			t.Errorf("the lexer gives %q kw %d (kind %d), want %d", w, got, k, id)
		}
		for j := range w {
			for _, c := range []byte("aeisxyzAZ_0") {
				other := w[:j] + string(c) + w[j+1:]
				if got := wordID(other); (got != 0) != slices.Contains(words, other) {
					t.Errorf("wordID(%q) = %d", other, got)
				}
			}
		}
	}
	for _, name := range []string{"self", "print", "i", "nonlocals", "Trueish", "matches", "cases", "_", "x1"} {
		if got, _ := lexWord(name); got != 0 {
			t.Errorf("the lexer gives %q kw %d, want 0", name, got)
		}
	}
	for _, name := range []string{"µ", "défaut", "ｄｅｆ", "x\u00e9"[:1] + "é"} {
		if got, _ := lexWord(name); got != nonASCII {
			t.Errorf("the lexer gives %q kw %d, want nonASCII", name, got)
		}
	}
	if got, k := lexWord("f'x'"); got != 0 || k != String {
		t.Errorf("a string's prefix: kw %d, kind %d", got, k)
	}
}

// randomSource joins n pieces drawn at random: the sources the agreement
// tests compare a fast path and its plain version on.
func randomSource(rng *rand.Rand, pieces []string, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(pieces[rng.Intn(len(pieces))])
	}
	return b.String()
}

// everyOffset is every offset of a source of n bytes, for the Places
// tests to ask about each.
func everyOffset(n int) []int {
	offs := make([]int, n)
	for i := range offs {
		offs[i] = i
	}
	return offs
}

// TestAssignmentTargets checks the names assignments bind where the first
// name of a line is not the target, brackets unbalanced included: a
// closing bracket that closes none makes the next "=" one outside
// brackets for the parser, as it does for Python's error recovery here.
func TestAssignmentTargets(t *testing.T) {
	for src, want := range map[string][]string{
		"d[k] = x = 1\n":                {"x"},
		"f(a=1)\n":                      nil,
		"self.x = y = g(z=2)\n":         {"y"},
		"a ) ( b = c = 1 )\n":           {"c"},
		"if x: d[k] = y = 1\n":          {"y"},
		"a.b = 1; c[0] = e = 2\n":       {"e"},
		"x = lambda a=1: a\n":           {"x"},
		"obj.attr = (u := 3)\n":         nil,
		"t[(1)] = v = [w for w in s]\n": {"v"},
	} {
		var got []string
		for _, a := range Scan([]byte(src)).Assigns {
			got = append(got, a.Name)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: assigns %q, want %q", src, got, want)
		}
	}
}

// Under finds the definition that holds a scope directly under another.
func TestUnder(t *testing.T) {
	m := Scan([]byte("def top():\n    def mid():\n        def low():\n            pass\n\n\ndef other():\n    pass\n"))
	def := map[string]int{}
	for i, d := range m.Defs {
		def[d.Name] = i
	}
	for _, tc := range []struct {
		scope, top, want int
	}{
		{def["low"], -1, def["top"]},
		{def["low"], def["top"], def["mid"]},
		{def["low"], def["mid"], def["low"]},
		{def["mid"], def["mid"], -1},
		{def["other"], def["top"], -1},
		{-1, -1, -1},
	} {
		if got := m.Under(tc.scope, tc.top); got != tc.want {
			t.Errorf("Under(%d, %d) = %d, want %d", tc.scope, tc.top, got, tc.want)
		}
	}
}
