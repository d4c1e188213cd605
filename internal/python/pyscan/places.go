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
// where it lies in src. It reads strings as the Lexer does, so it agrees
// with Scan, but makes no tokens: it costs a fraction of a Scan, and lets a
// caller that searched the raw bytes for a word drop the files where the
// word is only mentioned in comments or strings.
//
// The code of a formatted string's replacement fields is code, as Scan
// reads it: "signal.alarm(3)" in f"{signal.alarm(3)}" is InCode. A field
// counts as code whole, strings and comments nested in it included, which
// errs toward code: a caller then reads the file rather than drop it.
func Places(src []byte, offs []int) []Place {
	out := make([]Place, len(offs))
	// A Lexer of its own reads the strings, noting their fields.
	var l Lexer
	l.reset(src)
	l.recordFields = true
	k := 0
	mark := func(end int, p Place) {
		for k < len(offs) && offs[k] < end {
			out[k] = p
			k++
		}
	}
	// Only a comment or a string changes the place of the bytes after
	// it. next holds where each byte that opens one next occurs, at or
	// after the lexer's offset, or len(src): each is looked for again only
	// once the lexer has passed it, so that the source is searched once
	// per byte, not from every string's end to the next.
	opens := [3]byte{'#', '\'', '"'}
	next := [3]int{-1, -1, -1}
	for k < len(offs) && l.off < len(src) {
		start := l.off
		i := len(src)
		for j, b := range opens {
			if next[j] < start {
				next[j] = len(src)
				if n := bytes.IndexByte(src[start:], b); n >= 0 {
					next[j] = start + n
				}
			}
			i = min(i, next[j])
		}
		if i == len(src) {
			break
		}
		if src[i] == '#' {
			end := lineEnd(src, i)
			mark(i, InCode)
			l.off = end
			mark(end, InComment)
			continue
		}
		open, formatted := stringOpen(src, start, i)
		mark(open, InCode)
		l.off = i
		l.fields = l.fields[:0]
		l.skipString(formatted)
		for _, f := range l.fields {
			mark(f.off, InString)
			mark(f.end, InCode)
		}
		mark(l.off, InString)
	}
	return out // the rest is code, the zero Place
}

// stringOpen returns where the string whose quote is at src[quote]
// starts, and whether it is formatted. The name right before the quote,
// if any, is the string's prefix when it is one: the name the tokenizer
// would read, which starts after any digits (a number ends there) and
// after from, where the code being skipped began.
func stringOpen(src []byte, from, quote int) (open int, formatted bool) {
	j := quote
	for j > from && nameBytes[src[j-1]] {
		j--
	}
	for j < quote && isDigit(src[j]) {
		j++
	}
	if j < quote {
		if f, ok := stringPrefix(src[j:quote]); ok {
			return j, f
		}
	}
	return quote, false
}
