// Package pyquote turns spec values into Python source literals.
//
// It is the one way a spec string reaches generated Python: every template
// calls String (as the template function "py"), so no quote, backslash,
// newline, "\"\"\"" or control character in a spec can end a literal early
// or inject code.
package pyquote

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// String returns s as a double-quoted Python str literal.
// Printable characters, non-ASCII included, stay as they are so the
// generated code reads like the spec; everything else is escaped.
func String(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			// Invalid UTF-8 cannot come from TOML, but a quoting function
			// must be total: keep the byte as an escape.
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case unicode.IsPrint(r) && (r < 0x80 || !unicode.Is(unicode.Zs, r)):
			b.WriteRune(r)
		case r <= 0xFF:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r <= 0xFFFF:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// Number returns f as a Python number literal: an int when f is integral
// ("5"), else the shortest float that reads back as f ("0.25").
// The spec loader rejects NaN, infinities and huge values, so the result is
// always a plain decimal.
func Number(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}
