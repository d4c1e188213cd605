package pyscan

import (
	"fmt"
	"strings"
	"testing"
)

// Lines ends a logical line where Python does (brackets and backslashes
// join lines, comments and blank lines make none) and gives each its
// indentation level.
func TestLines(t *testing.T) {
	src := "import os\n\n\n@dec(\n    1)\ndef f(a,\n      b):  # note\n    if a:\n        return \\\n            b\n    return 0\nx = 1"
	var got []string
	for _, l := range NewLexer([]byte(src)).Lines() {
		var words []string
		for _, tok := range l.Toks {
			words = append(words, string(tok.Text))
		}
		got = append(got, fmt.Sprintf("%d %d-%d %s", l.Level, l.Toks[0].Line, l.End.Line, strings.Join(words, " ")))
	}
	want := []string{
		"0 1-1 import os",
		"0 4-5 @ dec ( 1 )",
		"0 6-7 def f ( a , b ) :",
		"1 8-8 if a :",
		"2 9-10 return b",
		"1 11-11 return 0",
		"0 12-12 x = 1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
