// Package mdblock finds and replaces fixturegen's block in a Markdown file:
// the lines between a begin marker and an end marker, both HTML comments.
// Everything outside the block belongs to the user and is kept byte for
// byte. It depends on nothing else of fixturegen, so that package plan can
// use it without reaching the scanner that fills the block.
package mdblock

import (
	"bytes"
	"fmt"
)

// The marker lines around the generated block in a Markdown file. They are
// HTML comments, so Markdown renders nothing of them. A line is a marker
// when, without its line ending and trailing blanks, it starts with Begin
// or equals End.
const (
	Begin = "<!-- fixturegen:docs:begin"
	End   = "<!-- fixturegen:docs:end -->"
)

// BeginLine is the full begin marker for a block generated from spec (the
// spec file's base name) by fixturegen docs.
func BeginLine(spec string) string {
	return fmt.Sprintf("%s -- generated from %s by `fixturegen docs`; edit the spec or the tests, not this block -->", Begin, commentSafe(spec))
}

// commentSafe keeps a file name from ending the HTML comment or the line.
func commentSafe(s string) string {
	b := []byte(s)
	b = bytes.ReplaceAll(b, []byte("--"), []byte("- -"))
	b = bytes.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, b)
	return string(bytes.ReplaceAll(b, []byte(">"), []byte("?")))
}

// MarkerError is a problem with the markers of a Markdown file, at a
// 1-based line.
type MarkerError struct {
	Line int
	Msg  string
}

func (e *MarkerError) Error() string { return fmt.Sprintf("%d:1: %s", e.Line, e.Msg) }

// Bounds locates the block: src[Start:End] holds both marker lines with
// their line endings. Found is false when src has no markers.
type Bounds struct {
	Found      bool
	Start, End int
	BeginLine  int
}

// Find locates the one block in src; duplicated or unpaired markers are a
// *MarkerError naming the offending line.
func Find(src []byte) (Bounds, error) {
	var b Bounds
	begins, ends := 0, 0
	line := 0
	for off := 0; off < len(src); {
		line++
		lineEnd := len(src)
		if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
			lineEnd = off + i + 1
		}
		text := bytes.TrimRight(src[off:lineEnd], " \t\r\n")
		switch {
		case bytes.HasPrefix(text, []byte(Begin)):
			begins++
			if begins > 1 {
				return Bounds{}, &MarkerError{line, fmt.Sprintf("a second %q marker; the block that starts on line %d is the only one fixturegen writes", Begin, b.BeginLine)}
			}
			b.Found, b.Start, b.BeginLine = true, off, line
		case string(text) == End:
			ends++
			if begins == 0 || ends > 1 {
				return Bounds{}, &MarkerError{line, fmt.Sprintf("%q marker without a matching %q marker before it", End, Begin)}
			}
			b.End = lineEnd
		}
		off = lineEnd
	}
	if begins == 1 && ends == 0 {
		return Bounds{}, &MarkerError{b.BeginLine, fmt.Sprintf("%q marker without a matching %q marker after it", Begin, End)}
	}
	return b, nil
}

// Splice returns src with its block replaced by block (marker lines
// included), or with block appended after a blank line when src has none.
// Every byte outside the block stays.
func Splice(src, block []byte) ([]byte, error) {
	b, err := Find(src)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if b.Found {
		out.Write(src[:b.Start])
		out.Write(block)
		out.Write(src[b.End:])
		return out.Bytes(), nil
	}
	out.Write(src)
	if len(src) > 0 {
		if !bytes.HasSuffix(src, []byte("\n")) {
			out.WriteByte('\n')
		}
		out.WriteByte('\n')
	}
	out.Write(block)
	return out.Bytes(), nil
}
