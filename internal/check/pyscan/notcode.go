package pyscan

import "bytes"

// SurelyNotCode tells, for each of the byte offsets offs (sorted,
// ascending), whether it lies, for certain, in a comment or a string,
// judging from its own line alone; false means it may lie anywhere, and
// Places must say. It reads each line that holds an offset once, from its
// start to its last offset. It lets a caller that looks for a
// call in code drop a hit without reading the source from its start, when
// the hit's line is a comment or a simple string:
//
//   - the line's first byte after blanks is #, and no quote follows it
//     before off: if the line starts in code, off is in that comment; if
//     it starts inside a string (or a field or format spec of one), no
//     quote closes it before off.
//   - before off the line holds one quote and none of # { } : \, the
//     quote is not doubled, off is not a line end, and the line before
//     does not end with a backslash: if the line starts in code, the quote
//     opens a string that runs past off; inside a triple-quoted string (or
//     the format spec of one), a lone quote does not close it; inside a
//     field of a formatted string it opens a nested string, and without a
//     colon the field never turns into a format spec, where the quote
//     could close the string; and a string of one quote cannot reach into
//     the line without that backslash.
//
// Places marks all of a formatted string, fields included, as InString,
// so a field's code counts as string here too.
func SurelyNotCode(src []byte, offs []int) []bool {
	out := make([]bool, len(offs))
	var ln lineSoFar
	ln.start = -1
	for k, off := range offs {
		if off >= len(src) || src[off] == '\n' || src[off] == '\r' {
			continue // a line end ends a string of one quote
		}
		if ln.start < 0 || off < ln.end || hasLineEnd(src[ln.end:off]) {
			ls := off
			for ls > 0 && src[ls-1] != '\n' && src[ls-1] != '\r' {
				ls--
			}
			ln = lineSoFar{start: ls, end: ls, quote: -1}
		}
		ln.read(src, off)
		out[k] = ln.sure(src)
	}
	return out
}

// lineSoFar is what SurelyNotCode learnt of a line, from its start to end.
type lineSoFar struct {
	start, end int
	// blank: only blanks so far; comment: the first byte after them is #.
	blank, comment bool
	// quotes counts the quotes (after the # on a comment line), and quote
	// is where the first one sits; odd marks # { } : or \ outside a
	// comment line.
	quotes, quote int
	odd           bool
}

func (ln *lineSoFar) read(src []byte, to int) {
	if ln.end == ln.start {
		ln.blank = true
	}
	for i := ln.end; i < to; i++ {
		c := src[i]
		if ln.blank {
			if c == ' ' || c == '\t' || c == '\f' {
				continue
			}
			ln.blank = false
			if c == '#' {
				ln.comment = true
				continue
			}
		}
		switch c {
		case '"', '\'':
			if ln.quotes == 0 {
				ln.quote = i
			}
			ln.quotes++
		case '#', '{', '}', ':', '\\':
			ln.odd = true
		}
	}
	ln.end = to
}

func (ln *lineSoFar) sure(src []byte) bool {
	if ln.comment {
		return ln.quotes == 0
	}
	if ln.quotes != 1 || ln.odd || ln.quote+1 < len(src) && src[ln.quote+1] == src[ln.quote] {
		return false
	}
	// The line end before, of one byte or two, and what precedes it.
	k := ln.start - 1
	for k >= 0 && k >= ln.start-2 && (src[k] == '\n' || src[k] == '\r') {
		k--
	}
	return k < 0 || src[k] != '\\'
}

func hasLineEnd(b []byte) bool {
	return bytes.IndexByte(b, '\n') >= 0 || bytes.IndexByte(b, '\r') >= 0
}
