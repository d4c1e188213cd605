package pyscan

import (
	"fmt"
	"strings"
	"testing"
)

// The forms TestScannerAgreesWithPythonsParser (in contract) found read
// otherwise than Python reads them, each as Python reads it.
func TestFormsPythonReads(t *testing.T) {
	assigns := func(m *Module) string {
		var out []string
		for _, a := range m.Assigns {
			s := a.Name
			if a.Literal {
				s += fmt.Sprintf("=%q", a.Strings)
			}
			out = append(out, s)
		}
		return strings.Join(out, " ")
	}
	imports := func(m *Module) string {
		var out []string
		for _, im := range m.Imports {
			out = append(out, im.Bound)
		}
		return strings.Join(out, " ")
	}
	args := func(m *Module) string {
		var out []string
		for _, c := range m.Calls {
			out = append(out, fmt.Sprintf("%s/%d", c.Callee, len(c.Args)))
		}
		return strings.Join(out, " ")
	}
	defs := func(m *Module) string {
		var out []string
		for _, d := range m.Defs {
			s := d.Name + fmt.Sprint(d.Bases)
			for _, deco := range d.Decorators {
				s += " @" + deco.Name
			}
			out = append(out, s)
		}
		return strings.Join(out, " ")
	}
	tests := []struct {
		name, src string
		facts     func(*Module) string
		want      string
	}{
		{"a body on its header's line", "if x: import signal\ntry: y = 1\nexcept E: z = 2\n", func(m *Module) string { return imports(m) + " " + assigns(m) }, "signal y z"},
		{"a class body on its line", "class C: x = 1\n", assigns, "x"},
		{"a name after another target", "d['k'] = a = f()\n", assigns, "a"},
		{"an annotated value", "X: Final = ['a', 'b']\n", assigns, `X=["a" "b"]`},
		{"a tuple without brackets", "__all__ = 'a', 'b'\n", assigns, `__all__=["a" "b"]`},
		{"a string in parentheses", "S = ('a' 'b')\n", assigns, "S"},
		{"strings in parentheses in a tuple", "T = (('a' 'b'), 'c')\n", assigns, `T=["ab" "c"]`},
		{"octal and bell escapes", "E = ['\\0x', '\\101\\a']\n", assigns, `E=["\x00x" "A\a"]`},
		{"a lambda's commas", "setattr(a, 'b', lambda x, y=1: x)\n", args, "setattr/3"},
		{"None is no base", "class C(object, None): pass\n", defs, "C[object]"},
		{"a decorator called twice has no name", "@a(b)(c)\ndef f(): pass\n", defs, "f[] @"},
		{"a raw f-string's backslash and braces", "x = rf'(\\{{)'; g(1)\n", args, "g/1"},
		{"a name in NFKC", "\u00b5 = 1\n", assigns, "\u03bc"},
	}
	for _, tt := range tests {
		m := Scan([]byte(tt.src))
		if got := tt.facts(m); got != tt.want {
			t.Errorf("%s: %q gives %q, want %q", tt.name, tt.src, got, tt.want)
		}
		if len(m.Problems) > 0 {
			t.Errorf("%s: %q: problems %v", tt.name, tt.src, m.Problems)
		}
	}
}
