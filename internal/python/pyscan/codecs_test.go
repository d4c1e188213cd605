package pyscan

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/testenv"
)

func TestPythonCodec(t *testing.T) {
	for _, tt := range []struct{ name, want string }{
		{"utf-8", "utf_8"},
		{"UTF-8", "utf_8"},
		{"utf-8-unix", "utf_8"}, // the tokenizer's "utf-8-..." (Emacs writes it)
		{"utf_8_sig", "utf_8"},
		{"utf8", "utf_8"},
		{"u8", "utf_8"},
		{"cp65001", "utf_8"},
		{"ascii", "ascii"},
		{"us-ascii", "ascii"},
		{"ansi_x3.4_1968", "ascii"}, // an alias with a "."
		{"ANSI_X3.4-1968", "ascii"},
		{"latin-1", "latin_1"},
		{"latin-1-unix", "latin_1"},
		{"Latin1", "latin_1"},
		{"iso-8859-1", "latin_1"},
		{"iso-latin-1", "latin_1"},
		{"l1", "latin_1"},
		{"iso-8859-15", "iso8859_15"},
		{"ISO_8859-15", "iso8859_15"},
		{"koi8-r", "koi8_r"},
		{"KOI8-R", "koi8_r"},
		{"windows-1251", "cp1251"},
		{"cp1251", "cp1251"},
		{"ms-kanji", "cp932"},
		{"sjis", "shift_jis"},
		{"euc-jp", "euc_jp"},
		{"--gbk--", "gbk"},
		{"cp936", "gbk"},
		{"big5-hkscs", "big5hkscs"},
		{"koi8r", ""},      // not a name Python knows
		{"cp-1251", ""},    // nor this
		{"utf.8", ""},      // a "." stays a "."
		{"cp1006", ""},     // Python's, but not decoded here
		{"utf-16", ""},     // Python cannot read source in it
		{"iso2022_kr", ""}, // no decoder for it here
		{"no-such-codec", ""},
	} {
		if got := pythonCodec(tt.name).name; got != tt.want {
			t.Errorf("pythonCodec(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// Every codec of the table but UTF-8 and ASCII has a decoder, and every
// name in the table is one Python resolves to that codec, with all of
// Python's aliases for it.
func TestCodecsAreWhatPythonKnows(t *testing.T) {
	table := map[string][]string{}
	for _, c := range codecs {
		if c.name != "utf_8" && c.name != "ascii" && pythonCodec(c.name).enc == nil {
			t.Errorf("codec %s has no decoder", c.name)
		}
		table[c.name] = strings.Fields(c.aliases)
	}
	in, err := json.Marshal(table)
	if err != nil {
		t.Fatal(err)
	}
	const script = `
import codecs, encodings.aliases, json, sys
table = json.load(sys.stdin)
for codec, aliases in sorted(table.items()):
    want = codecs.lookup(codec).name
    for alias in aliases:
        got = codecs.lookup(alias).name
        if got != want:
            print(f"{alias}: Python reads it as {got}, the table as {codec} ({want})")
    for alias, target in sorted(encodings.aliases.aliases.items()):
        if target == codec and alias not in aliases:
            print(f"{alias}: Python's alias of {codec}, missing from the table")
`
	cmd := exec.Command(testenv.Python(t), "-c", script)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, out)
	}
	if len(out) > 0 {
		t.Errorf("the codecs table and Python disagree:\n%s", out)
	}
}
