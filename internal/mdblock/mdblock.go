// Package mdblock finds and replaces fixturegen's block in a Markdown file:
// the lines between a begin marker and an end marker, both HTML comments.
// Everything outside the block belongs to the user and is kept byte for
// byte. The marker handling is package region's, with Markdown's markers.
package mdblock

import (
	"bytes"
	"fmt"

	"github.com/fixturegen/fixturegen/internal/region"
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

// markers are the Markdown block's; one blank line sets an appended block
// apart, as Markdown sets apart paragraphs.
var markers = region.Markers{Begin: Begin, End: End, Noun: "block", Holder: "a Markdown file", Gap: "\n"}

// MarkerError is a problem with the markers of a Markdown file, at a
// 1-based line.
type MarkerError = region.Error

// Bounds locates the block: src[Start:End] holds both marker lines with
// their line endings. Found is false when src has no markers.
type Bounds = region.Bounds

// Find locates the one block in src; duplicated or unpaired markers are a
// *MarkerError naming the offending line.
func Find(src []byte) (Bounds, error) { return markers.Find(src) }

// Splice returns src with its block replaced by block (marker lines
// included), or with block appended after a blank line when src has none.
// Every byte outside the block stays.
func Splice(src, block []byte) ([]byte, error) { return markers.Splice(src, block) }
