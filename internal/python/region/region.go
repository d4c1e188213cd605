// Package region finds and replaces fixturegen's generated blocks between
// a begin marker line and an end marker line: the region in a conftest.py
// (Conftest) and the docs block in a Markdown file (Docs). Everything
// outside a block belongs to the user and is kept byte for byte.
package region

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/fixturegen/fixturegen/internal/python/pyquote"
)

// The marker lines. A line is a marker when, without its line ending and
// trailing blanks, it starts with Begin or equals End.
const (
	Begin = "# fixturegen:begin"
	End   = "# fixturegen:end"
)

// BeginLine returns the full begin marker line for a region generated from
// spec. The spec's name is quoted, so no file name can end the comment. For
// the usual spec names the line fits in the 88 columns linters allow.
func BeginLine(spec string) string {
	return fmt.Sprintf("%s -- generated from %s by fixturegen generate", Begin, pyquote.String(spec))
}

// Error is a problem with the markers in a file, at a 1-based line.
type Error struct {
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("%d:1: %s", e.Line, e.Msg) }

// Bounds locates a region: src[Start:End] holds both marker lines, each with
// its line ending. Found is false when src has no markers.
type Bounds struct {
	Found      bool
	Start, End int
	BeginLine  int // 1-based line of the begin marker
	// Inner is src[InnerStart:InnerEnd]: the region between the markers.
	InnerStart, InnerEnd int
}

// Markers describe one kind of generated block: its marker lines, what it
// is called in messages, and how an appended block is set apart.
type Markers struct {
	Begin, End string // a marker line starts with Begin, or equals End
	Noun       string // "region"
	Holder     string // "a conftest"
	Gap        string // written between a file's content and an appended block
}

// Conftest are the markers of the region in a conftest.py. Two blank lines
// set an appended region apart, as PEP 8 sets apart top-level code.
var Conftest = Markers{Begin: Begin, End: End, Noun: "region", Holder: "a conftest", Gap: "\n\n"}

// Find locates the one region in src, with Conftest's markers.
func Find(src []byte) (Bounds, error) { return Conftest.Find(src) }

// Find locates the one block in src. Markers that are duplicated, nested
// or unpaired are an *Error naming the offending line.
func (m Markers) Find(src []byte) (Bounds, error) {
	var b Bounds
	begins, ends := 0, 0
	line, off := 0, 0
	for l := range bytes.Lines(src) {
		line++
		lineEnd := off + len(l)
		text := bytes.TrimRight(l, " \t\r\n")
		switch {
		case bytes.HasPrefix(text, []byte(m.Begin)):
			begins++
			if begins > 1 {
				if ends == 0 {
					return Bounds{}, &Error{line, fmt.Sprintf("a second %q marker before the %s that starts on line %d ends", m.Begin, m.Noun, b.BeginLine)}
				}
				return Bounds{}, &Error{line, fmt.Sprintf("a second fixturegen %s; the first starts on line %d, and %s holds one", m.Noun, b.BeginLine, m.Holder)}
			}
			b.Found, b.Start, b.BeginLine, b.InnerStart = true, off, line, lineEnd
		case string(text) == m.End:
			ends++
			if begins == 0 || ends > 1 {
				return Bounds{}, &Error{line, fmt.Sprintf("%q marker without a matching %q marker before it", m.End, m.Begin)}
			}
			b.InnerEnd, b.End = off, lineEnd
		}
		off = lineEnd
	}
	if begins == 1 && ends == 0 {
		return Bounds{}, &Error{b.BeginLine, fmt.Sprintf("%q marker without a matching %q marker after it", m.Begin, m.End)}
	}
	return b, nil
}

// Block returns the region as written to disk: marker lines around content.
// Two blank lines come before the end marker, as ruff format and black put
// them before a module-level comment that follows a class or function.
func Block(spec string, content []byte) []byte {
	return []byte(BeginLine(spec) + "\n" + string(content) + "\n\n" + End + "\n")
}

// Splice returns src with its block replaced by block, or with block
// appended (set apart by m.Gap) when src has none. The bytes outside the
// block are unchanged.
//
// block's lines end in "\n". They are written with the line ending the
// block has in src, or, for a block appended, the line ending of src's
// first line, so a file a Windows checkout gave "\r\n" line ends keeps
// them in the block too (LineEnding).
func (m Markers) Splice(src, block []byte) ([]byte, error) {
	b, err := m.Find(src)
	if err != nil {
		return nil, err
	}
	if b.Found {
		return slices.Concat(src[:b.Start], WithLineEnding(block, LineEnding(src[b.Start:b.InnerStart])), src[b.End:]), nil
	}
	var out bytes.Buffer
	eol := LineEnding(src)
	out.Write(src)
	if len(src) > 0 {
		if !bytes.HasSuffix(src, []byte("\n")) {
			out.WriteString(eol)
		}
		out.Write(WithLineEnding([]byte(m.Gap), eol))
	}
	out.Write(WithLineEnding(block, eol))
	return out.Bytes(), nil
}

// LineEnding is the line ending of the first line of src that has one:
// "\r\n" or "\n"; "\n" when src has none.
func LineEnding(src []byte) string {
	if i := bytes.IndexByte(src, '\n'); i > 0 && src[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// WithLineEnding returns text, whose lines end in "\n", with each line
// ending written as eol.
func WithLineEnding(text []byte, eol string) []byte {
	if eol == "\n" {
		return text
	}
	return bytes.ReplaceAll(text, []byte("\n"), []byte(eol))
}

// SameButLineEndings reports whether a and b differ at most in writing
// line endings as "\r\n" or "\n".
func SameButLineEndings(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	crlf, lf := []byte("\r\n"), []byte("\n")
	return bytes.Equal(bytes.ReplaceAll(a, crlf, lf), bytes.ReplaceAll(b, crlf, lf))
}
