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
		// Code is skipped to the next byte that can start a comment or a
		// string, in a loop that keeps its offset in a register: only
		// those bytes change the place of the bytes after them.
		start, i := l.off, l.off
		for i < len(src) && !placeStop[src[i]] {
			i++
		}
		if i >= len(src) {
			break
		}
		if src[i] == '#' {
			end := len(src)
			if j := bytes.IndexAny(src[i:], "\r\n"); j >= 0 {
				end = i + j
			}
			mark(i, InCode)
			l.off = end
			mark(end, InComment)
			continue
		}
		// A quote. The name right before it, if any, is the string's
		// prefix when it is one: the name the tokenizer would read, which
		// starts after any digits (a number ends there) and after start.
		open, formatted := i, false
		j := i
		for j > start && isNameByte(src[j-1]) {
			j--
		}
		for j < i && isDigit(src[j]) {
			j++
		}
		if j < i {
			if f, ok := stringPrefix(src[j:i]); ok {
				open, formatted = j, f
			}
		}
		mark(open, InCode)
		l.off = i
		l.skipString(formatted)
		mark(l.off, InString)
	}
	return out // the rest is code, the zero Place
}

// placeStop marks the bytes Places must look at in code: those that start
// a comment or a string.
var placeStop = func() (t [256]bool) {
	t['#'], t['"'], t['\''] = true, true, true
	return t
}()
