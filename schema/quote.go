package schema

import (
	"fmt"
	"strings"
	"unicode"
)

// QuoteTOML writes s as a TOML basic string: the one quoter of every
// string fixturegen puts into TOML text (the spec init writes, the case
// probe --fix and scaffold --probe add) and of the quoted keys of Locate's
// paths. Only the quote, the backslash and control characters are
// escaped, so names read as they are: a line break as \n, a tab as \t,
// every other control character (C0, DEL and C1, which TOML allows
// unescaped but an editor does not show) as \uXXXX.
func QuoteTOML(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case unicode.IsControl(r):
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
