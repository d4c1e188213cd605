package pyscan

import (
	"bytes"
	"slices"
)

// IsNameByte reports whether c can be part of a name, as the tokenizer
// reads names: an ASCII letter, digit or "_", or any byte of a non-ASCII
// character.
func IsNameByte(c byte) bool { return nameBytes[c] }

// InParams reports whether one of the byte offsets offs lies between the
// parentheses of a def statement whose name want accepts: where Scan finds
// the parameters of a function. It reads each def statement's header from
// its keyword to the parenthesis that closes its parameters, strings and
// comments in them as the tokenizer reads them, and nothing else of src,
// so it costs a fraction of a Scan.
//
// A "def" that lies in a string or a comment is read as a statement too:
// InParams may answer true where Scan finds no parameter at the offset,
// never false where it finds one.
func InParams(src []byte, offs []int, want func(name []byte) bool) bool {
	if len(offs) == 0 {
		return false
	}
	last := offs[len(offs)-1]
	for at := 0; ; {
		i := bytes.Index(src[at:], []byte("def"))
		if i < 0 || at+i >= last {
			return false // a parameter list starts after its def
		}
		i += at
		at = i + 3
		if i > 0 && nameBytes[src[i-1]] || at < len(src) && nameBytes[src[at]] {
			continue // part of a longer name
		}
		start := skipBlanks(src, at)
		end := start
		for end < len(src) && nameBytes[src[end]] {
			end++
		}
		if end == start || !want(src[start:end]) {
			continue
		}
		// Scan reads parameters only from a "(" right after the name.
		open := skipBlanks(src, end)
		if open >= len(src) || src[open] != '(' {
			continue
		}
		close := closing(src, open, last)
		if slices.ContainsFunc(offs, func(o int) bool { return o > open && o < close }) {
			return true
		}
		at = max(at, open+1)
	}
}

// skipBlanks returns the offset of the first byte at or after i that is
// neither a blank nor a line continuation.
func skipBlanks(src []byte, i int) int {
	for i < len(src) {
		switch c := src[i]; {
		case c == ' ' || c == '\t' || c == '\f':
			i++
		case c == '\\' && i+1 < len(src) && (src[i+1] == '\n' || src[i+1] == '\r'):
			i = afterNewline(src, i+1)
		default:
			return i
		}
	}
	return i
}

// closing returns the offset of the bracket that closes the one at open,
// as the Lexer that Scan reads with matches them, or len(src) when none
// does. It stops looking past limit, where nothing matters to the caller
// any more, and returns an offset past it.
func closing(src []byte, open, limit int) int {
	lx := Lexer{src: src, off: open, indents: []int{0}, quiet: true}
	var t tok
	for lx.next(&t); t.kind != EOF; lx.next(&t) {
		if int(t.off) > limit || len(lx.opens) == 0 {
			return int(t.off)
		}
	}
	return len(src)
}
