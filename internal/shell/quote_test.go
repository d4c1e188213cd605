package shell

import "testing"

func TestQuote(t *testing.T) {
	for s, want := range map[string]string{
		"tests/a.py::test_b":      "tests/a.py::test_b",
		"":                        "''",
		"tests/a.py::test_b[x y]": "'tests/a.py::test_b[x y]'",
		"it's":                    `'it'\''s'`,
		"-C=dir/sub,@group+1":     "-C=dir/sub,@group+1",
	} {
		if got := Quote(s); got != want {
			t.Errorf("Quote(%q) = %s, want %s", s, got, want)
		}
	}
}
