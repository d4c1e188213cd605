package schema

import (
	"strings"
	"testing"
)

// TestFileNameReachesNoGeneratedCode covers the spec file names that would
// break the generated files' "generated from NAME" comments.
func TestFileNameReachesNoGeneratedCode(t *testing.T) {
	src := []byte(minimal)
	for _, tc := range []struct {
		file string
		want string // "" when the name is fine
	}{
		{"fixturegen.toml", ""},
		{"dir/with\nnewline/fixturegen.toml", ""}, // only the base name is written
		{"spaces and ünïcode \"quotes\".toml", ""},
		{"two\nlines.toml", "contains a control character"},
		{"carriage\rreturn.toml", "contains a control character"},
		{"tab\t.toml", "contains a control character"},
		{"bad\x88byte.toml", "is not UTF-8"},
	} {
		_, err := Parse(src, tc.file, "/project")
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("Parse with file %q: %v", tc.file, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("Parse with file %q = %v, want an error saying %q", tc.file, err, tc.want)
		}
	}
}
