// Package textpos turns byte offsets into the positions fixturegen's
// messages show, one way for every file it reads (Python, the spec's TOML,
// pytest's ini files): a 1-based line, and a 1-based column that counts
// characters (Unicode code points), not bytes. That is what editors show,
// what CPython's SyntaxError and ruff report, and what GitHub's annotations
// expect, so "x.py:7:17" names the same place in each.
//
// Lines end at "\n" ("\r\n" ends one too: the "\r" is the line's last
// character). A UTF-8 byte order mark at the start of a file is no
// character of its first line. A byte that is not valid UTF-8 counts as
// one character, as Python's decoder errors count it.
package textpos

import (
	"bytes"
	"encoding/binary"
	"sort"
	"unicode/utf8"
)

// bom is the UTF-8 byte order mark.
const bom = "\xef\xbb\xbf"

// Col is the 1-based column of the byte at offset off of line, a line's
// text from its first byte.
func Col(line []byte, off int) int {
	return count(line[:min(max(off, 0), len(line))]) + 1
}

// count is utf8.RuneCount, with the ASCII bytes before a line's token, the
// usual case, counted eight at a time: the Python tokenizer asks for a
// position for every fact it keeps.
func count(p []byte) int {
	n := 0
	for len(p)-n >= 8 && binary.LittleEndian.Uint64(p[n:])&0x8080808080808080 == 0 {
		n += 8
	}
	return n + utf8.RuneCount(p[n:])
}

// LineCol is the position of the byte at offset off in src: its 1-based
// line and character column. An offset past the end is the end.
func LineCol(src []byte, off int) (line, col int) {
	off = min(max(off, 0), len(src))
	line = 1 + bytes.Count(src[:off], []byte("\n"))
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	if start == 0 && bytes.HasPrefix(src, []byte(bom)) && off >= len(bom) {
		start = len(bom)
	}
	return line, count(src[start:off]) + 1
}

// Index answers LineCol for many offsets of one text, by a search of its
// line starts instead of a count from the start.
type Index struct {
	src    []byte
	starts []int // the offset of each line's first byte
}

// NewIndex indexes the lines of src.
func NewIndex(src []byte) *Index {
	x := &Index{src: src, starts: []int{0}}
	if bytes.HasPrefix(src, []byte(bom)) {
		x.starts[0] = len(bom)
	}
	for i, c := range src {
		if c == '\n' {
			x.starts = append(x.starts, i+1)
		}
	}
	return x
}

// LineCol is the package's LineCol for the indexed text.
func (x *Index) LineCol(off int) (line, col int) {
	off = min(max(off, 0), len(x.src))
	i := max(sort.SearchInts(x.starts, off+1)-1, 0)
	start := min(x.starts[i], off)
	return i + 1, count(x.src[start:off]) + 1
}
