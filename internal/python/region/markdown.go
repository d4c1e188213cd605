package region

import (
	"fmt"
	"strings"
)

// The marker lines around the docs block in a Markdown file. They are HTML
// comments, so Markdown renders nothing of them.
const (
	DocsBegin = "<!-- fixturegen:docs:begin"
	DocsEnd   = "<!-- fixturegen:docs:end -->"
)

// Docs are the markers of the docs block in a Markdown file; one blank
// line sets an appended block apart, as Markdown sets apart paragraphs.
var Docs = Markers{Begin: DocsBegin, End: DocsEnd, Noun: "block", Holder: "a Markdown file", Gap: "\n"}

// DocsBeginLine is the full begin marker for a docs block generated from
// spec (the spec file's base name) by fixturegen docs.
func DocsBeginLine(spec string) string {
	return fmt.Sprintf("%s -- generated from %s by `fixturegen docs`; edit the spec or the tests, not this block -->", DocsBegin, commentSafe(spec))
}

// commentSafe keeps a file name from ending the HTML comment or the line.
func commentSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == '>' {
			return '?'
		}
		return r
	}, strings.ReplaceAll(s, "--", "- -"))
}
