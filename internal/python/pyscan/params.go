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
		// The header is read by the Lexer Scan reads it with: Scan reads
		// parameters only from a "(" right after the name, up to the
		// bracket that closes it.
		lx := Lexer{src: src, off: at, indents: []int{0}, quiet: true}
		var name, t tok
		lx.next(&name)
		lx.next(&t)
		if name.kind != Name || !want(src[name.off:name.end]) || t.ch != '(' {
			continue
		}
		open := int(t.off)
		// Past last nothing matters any more: the search stops there.
		for len(lx.opens) > 0 && t.kind != EOF && int(t.off) <= last {
			lx.next(&t)
		}
		if slices.ContainsFunc(offs, func(o int) bool { return o > open && o < int(t.off) }) {
			return true
		}
		at = max(at, open+1)
	}
}
