package pyscan

import "bytes"

// Place is where a byte of source lies for Python: in code, in a string
// literal (with its prefix and quotes), or in a comment.
type Place uint8

// Places.
const (
	InCode Place = iota
	InString
	InComment
)

// Places tells, for each of the byte offsets offs (sorted, ascending),
// where it lies in src. It reads strings with the Lexer's own code, so it
// agrees with Scan, but makes no tokens: it costs a fraction of a Scan, and
// lets a caller that searched the raw bytes for a word drop the files where
// the word is only mentioned in comments.
func Places(src []byte, offs []int) []Place {
	out := make([]Place, len(offs))
	// A Lexer of its own, on the stack: Places reads strings with the
	// Lexer's code but keeps no other state.
	var lx Lexer
	lx.reset(src)
	l := &lx
	k := 0
	mark := func(end int, p Place) {
		for k < len(offs) && offs[k] < end {
			out[k] = p
			k++
		}
	}
	for k < len(offs) && l.off < len(src) {
		start := l.off
		c := src[start]
		switch {
		case c == '#':
			end := len(src)
			if i := bytes.IndexAny(src[start:], "\r\n"); i >= 0 {
				end = start + i
			}
			l.off = end
			mark(end, InComment)
		case c == '"' || c == '\'':
			l.skipString(false)
			mark(l.off, InString)
		case c == '\n' || c == '\r':
			l.newline()
			mark(l.off, InCode)
		case isNameStart(c):
			for l.off < len(src) && isNameByte(src[l.off]) {
				l.off++
			}
			if l.off < len(src) && (src[l.off] == '"' || src[l.off] == '\'') {
				if f, ok := stringPrefix(src[start:l.off]); ok {
					l.skipString(f)
					mark(l.off, InString)
					continue
				}
			}
			mark(l.off, InCode)
		default:
			l.off++
			mark(l.off, InCode)
		}
	}
	return out // the rest is code, the zero Place
}
