package mdblock

import (
	"errors"
	"strings"
	"testing"
)

func TestSplice(t *testing.T) {
	block := BeginLine("fixturegen.toml") + "\nnew\n" + End + "\n"
	tests := []struct {
		name, src, want string
		errLine         int
	}{
		{"replace", "# Doc\n\n" + Begin + " -->\nold\n" + End + "\n\nafter\n", "# Doc\n\n" + block + "\nafter\n", 0},
		{"append", "# Doc\n\nprose", "# Doc\n\nprose\n\n" + block, 0},
		{"empty file", "", block, 0},
		{"second begin", Begin + " -->\n" + End + "\n" + Begin + " -->\n" + End + "\n", "", 3},
		{"unpaired begin", "x\n" + Begin + " -->\n", "", 2},
		{"end first", End + "\n", "", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Splice([]byte(tt.src), []byte(block))
			var me *MarkerError
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
func TestBeginLine(t *testing.T) {
	got := BeginLine("a-->b\n.toml")
	if strings.Count(got, "-->") != 1 || strings.Contains(got, "\n") || !strings.HasSuffix(got, "-->") {
		t.Errorf("BeginLine = %q", got)
	}
}
