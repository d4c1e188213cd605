package region

import (
	"strings"
	"testing"
)

func TestSplice(t *testing.T) {
	block := string(Block("s.toml", []byte("x = 1\n")))
	for _, tc := range []struct {
		name, src, want, err string
	}{
		{name: "empty file", src: "", want: block},
		{name: "appended", src: "a = 1\n", want: "a = 1\n\n\n" + block},
		{name: "appended without final newline", src: "a = 1", want: "a = 1\n\n\n" + block},
		{name: "replaced in the middle",
			src:  "a\n# fixturegen:begin old\nold\n# fixturegen:end\nb\n",
			want: "a\n" + block + "b\n"},
		{name: "markers with CRLF and trailing blanks: the region keeps CRLF",
			src:  "a\r\n# fixturegen:begin\r\nold\r\n# fixturegen:end  \r\nb\r\n",
			want: "a\r\n" + strings.ReplaceAll(block, "\n", "\r\n") + "b\r\n"},
		{name: "an LF region in a CRLF file stays LF",
			src:  "a\r\n# fixturegen:begin\nold\n# fixturegen:end\nb\r\n",
			want: "a\r\n" + block + "b\r\n"},
		{name: "appended to a CRLF file: CRLF, the gap too",
			src:  "a\r\nb",
			want: "a\r\nb\r\n\r\n\r\n" + strings.ReplaceAll(block, "\n", "\r\n")},
		{name: "duplicated", src: "# fixturegen:begin\n# fixturegen:end\n# fixturegen:begin\n# fixturegen:end\n",
			err: "3:1: a second fixturegen region; the first starts on line 1, and a conftest holds one"},
		{name: "nested", src: "# fixturegen:begin\n# fixturegen:begin\n# fixturegen:end\n",
			err: `2:1: a second "# fixturegen:begin" marker before the region that starts on line 1 ends`},
		{name: "begin only", src: "x\n# fixturegen:begin\n",
			err: `2:1: "# fixturegen:begin" marker without a matching "# fixturegen:end" marker after it`},
		{name: "end only", src: "# fixturegen:end\n",
			err: `1:1: "# fixturegen:end" marker without a matching "# fixturegen:begin" marker before it`},
		{name: "indented markers are not markers", src: "    # fixturegen:end\n", want: "    # fixturegen:end\n\n\n" + block},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Conftest.Splice([]byte(tc.src), []byte(block))
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got:\n%q\nwant:\n%q", got, tc.want)
			}
		})
	}
}

func TestBeginLineQuotesTheSpecName(t *testing.T) {
	line := BeginLine("evil\nimport os.toml")
	if strings.Contains(line, "\n") {
		t.Errorf("the spec name broke the marker line: %q", line)
	}
}
