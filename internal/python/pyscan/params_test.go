package pyscan

import (
	"bytes"
	"math/rand"
	"testing"
)

func TestInParams(t *testing.T) {
	tests := []struct {
		name, src string
		want      bool
	}{
		{"a parameter", "def test_x(self, NAME):\n    pass\n", true},
		{"a default", "def test_x(a=NAME):\n    pass\n", true},
		{"a call's keyword argument", "def test_x(a):\n    f(NAME=1)\n", false},
		{"a def want refuses", "def helper(NAME):\n    pass\n", false},
		{"async", "async def test_x(NAME):\n    pass\n", true},
		{"on a later line, after brackets in strings and comments", "def test_x(\n    a=')',  # )\n    b=f'{(}',\n    NAME,\n):\n    pass\n", true},
		{"after the parameters", "def test_x(a=(1, 2)) -> NAME:\n    pass\n", false},
		{"a name and its parameters split by continuations", "def \\\n  test_x \\\n (NAME):\n    pass\n", true},
		{"type parameters, which Scan does not read", "def test_x[T](NAME):\n    pass\n", false},
		{"a longer name than def", "undef test_x(NAME)\n", false},
		{"an unclosed list", "def test_x(a,\n    NAME", true},
	}
	want := func(name []byte) bool { return bytes.HasPrefix(name, []byte("test")) }
	for _, tt := range tests {
		src := []byte(tt.src)
		off := bytes.Index(src, []byte("NAME"))
		if got := InParams(src, []int{off}, want); got != tt.want {
			t.Errorf("%s: InParams(%q) = %v, want %v", tt.name, tt.src, got, tt.want)
		}
	}
}

// InParams finds every parameter Scan finds, on sources made of the
// pieces that open and close a parameter list, strings and comments.
func TestInParamsAgreesWithScan(t *testing.T) {
	pieces := []string{"def", "def test_a(", "async ", " ", "test_a", "x", "(", ")", "[", "]", "{", "}", ",", "=", ":",
		"'", "\"", "'''", "\"\"\"", "f", "rb", "#", "\\", "\\\n", "\n", "    ", "*", "lambda"}
	want := func(name []byte) bool { return bytes.HasPrefix(name, []byte("test")) }
	rng := rand.New(rand.NewSource(1))
	checked := 0
	for n := 0; n < 200000; n++ {
		src := []byte(randomSource(rng, pieces, 1+rng.Intn(30)))
		starts := []int{0}
		for i, c := range src {
			if c == '\n' {
				starts = append(starts, i+1)
			}
		}
		for _, d := range Scan(src).Defs {
			if d.Kind != Function || !want([]byte(d.Name)) {
				continue
			}
			for _, p := range d.Params {
				off := starts[p.Pos.Line-1] + p.Pos.Col - 1
				checked++
				if !InParams(src, []int{off}, want) {
					t.Fatalf("InParams(%q) misses the parameter %s at %d:%d", src, p.Name, p.Pos.Line, p.Pos.Col)
				}
			}
		}
	}
	if checked < 3000 {
		t.Fatalf("only %d parameters checked", checked)
	}
}
