package schema

import (
	"testing"

	"github.com/BurntSushi/toml"
)

func TestQuoteTOML(t *testing.T) {
	for in, want := range map[string]string{
		"tests/test_x.py::test_a[é]": `"tests/test_x.py::test_a[é]"`,
		`a"b\c`:                      `"a\"b\\c"`,
		"a\nb\x01":                   `"a\nb\u0001"`,
		"tab\there":                  `"tab\there"`,
		"del\x7f c1\u0085":           `"del\u007F c1\u0085"`,
	} {
		if got := QuoteTOML(in); got != want {
			t.Errorf("QuoteTOML(%q) = %s, want %s", in, got, want)
		}
	}
}

// Every string QuoteTOML writes is read back as itself by the TOML
// decoder, as a value and as a key, and Locate names a key that needs
// quoting by that same text.
func TestQuoteTOMLRoundTrip(t *testing.T) {
	var all []rune
	for r := rune(0); r < 0x300; r++ {
		all = append(all, r)
	}
	for _, s := range []string{"", "plain", string(all), "\u2028\ufeff日本", `'"\\'`, "\r\n"} {
		var got map[string]any
		text := QuoteTOML(s) + " = " + QuoteTOML(s) + "\n"
		if _, err := toml.Decode(text, &got); err != nil {
			t.Errorf("%q: the decoder rejects %s: %v", s, text, err)
			continue
		}
		if got[s] != s {
			t.Errorf("%q: decoded as %v", s, got)
		}
		if s != "" && s != "plain" {
			if _, ok := Locate([]byte(text))[QuoteTOML(s)]; !ok {
				t.Errorf("%q: Locate does not name the key %s", s, QuoteTOML(s))
			}
		}
	}
}
