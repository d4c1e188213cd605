package pyquote

import "testing"

func TestString(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", `""`},
		{"plain", `"plain"`},
		{`say "hi"`, `"say \"hi\""`},
		{`back\slash`, `"back\\slash"`},
		{"two\nlines\r\n", `"two\nlines\r\n"`},
		{`"""`, `"\"\"\""`},
		{"tab\there", `"tab\there"`},
		{"nul\x00bell\x07", `"nul\x00bell\x07"`},
		{"del\x7f", `"del\x7f"`},
		{"café ☕", `"café ☕"`},
		{"nbsp\u00a0", `"nbsp\xa0"`},
		{"line sep\u2028", `"line sep\u2028"`},
		{"bad\xffbyte", `"bad\xffbyte"`},
		{"astral\U000e0001", `"astral\U000e0001"`},
	} {
		if got := String(tc.in); got != tc.want {
			t.Errorf("String(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestNumber(t *testing.T) {
	for _, tc := range []struct {
		in   float64
		want string
	}{{5, "5"}, {0.25, "0.25"}, {86400, "86400"}, {1e-3, "0.001"}} {
		if got := Number(tc.in); got != tc.want {
			t.Errorf("Number(%v) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
