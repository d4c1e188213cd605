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

// TestSyntaxErrorPosition pins TOML syntax errors to the character at
// fault, including a newline, which the decoder counts on the next line.
func TestSyntaxErrorPosition(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"version = 1\n[group\n\nname = 'x'\n", "spec.toml:2:7: invalid TOML: expected '.' or ']' to end table name, but got '\\n' instead"},
		{"version = 1 1\n", "spec.toml:1:12: invalid TOML: expected a top-level item to end with a newline, comment, or EOF, but got '1' instead"},
		{"version = 1\nmessage = \"two\nlines\"\n", "spec.toml:2:15: invalid TOML: strings cannot contain newlines"},
	} {
		_, err := Parse([]byte(tc.src), "spec.toml", "/project")
		if err == nil || err.Error() != tc.want {
			t.Errorf("Parse(%q) = %v, want %s", tc.src, err, tc.want)
		}
	}
}
