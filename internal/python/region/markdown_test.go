package region

import (
	"errors"
	"strings"
	"testing"
)

func TestDocsSplice(t *testing.T) {
	block := DocsBeginLine("fixturegen.toml") + "\nnew\n" + DocsEnd + "\n"
	tests := []struct {
		name, src, want string
		errLine         int
	}{
		{"replace", "# Doc\n\n" + DocsBegin + " -->\nold\n" + DocsEnd + "\n\nafter\n", "# Doc\n\n" + block + "\nafter\n", 0},
		{"append", "# Doc\n\nprose", "# Doc\n\nprose\n\n" + block, 0},
		{"empty file", "", block, 0},
		{"second begin", DocsBegin + " -->\n" + DocsEnd + "\n" + DocsBegin + " -->\n" + DocsEnd + "\n", "", 3},
		{"unpaired begin", "x\n" + DocsBegin + " -->\n", "", 2},
		{"end first", DocsEnd + "\n", "", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Docs.Splice([]byte(tt.src), []byte(block))
			var me *Error
			switch {
			case tt.errLine > 0 && (!errors.As(err, &me) || me.Line != tt.errLine):
				t.Errorf("Splice = %v, want a marker error on line %d", err, tt.errLine)
			case tt.errLine == 0 && (err != nil || string(got) != tt.want):
				t.Errorf("Splice = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// A spec file name cannot end the marker comment.
func TestDocsBeginLine(t *testing.T) {
	got := DocsBeginLine("a-->b\n.toml")
	if strings.Count(got, "-->") != 1 || strings.Contains(got, "\n") || !strings.HasSuffix(got, "-->") {
		t.Errorf("BeginLine = %q", got)
	}
}
