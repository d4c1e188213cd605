package schema

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"github.com/fixturegen/fixturegen/internal/textpos"
)

// Load reads, parses and validates the spec at path. The Spec's File is path
// as given and its Dir the absolute path of the folder holding it. A file
// named pyproject.toml holds the spec in its [tool.fixturegen] table (see
// TablePrefix), and its paths are relative to the pyproject's folder.
//
// A file that cannot be read, or is empty, is an *Error without position; a
// TOML syntax error is an *Error at the place the decoder stopped; every
// other problem is listed in an Errors, in file order.
func Load(path string) (*Spec, error) {
	src, err := readFile(path)
	if err != nil {
		return nil, &Error{File: path, Msg: "cannot read spec: " + err.Error()}
	}
	if len(src) == 0 {
		return nil, &Error{File: path, Msg: emptyMessage}
	}
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return nil, &Error{File: path, Msg: "cannot find the spec's folder: " + err.Error()}
	}
	return ParseTable(src, path, dir, TablePrefix(path))
}

// readFile reads a spec, with errors that do not repeat its path (every
// message starts with it already).
func readFile(path string) ([]byte, error) {
	info, err := os.Stat(path)
	if err == nil && info.IsDir() {
		return nil, errors.New("it is a folder, not a file")
	}
	// A named pipe or a device would block the read, possibly forever, and
	// the spec's folder is the project's root, which only a real file has.
	if err == nil && !info.Mode().IsRegular() {
		return nil, errors.New("it is not a regular file")
	}
	src, err := os.ReadFile(path)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return nil, pe.Err
	}
	return src, err
}

// fileNameProblem says why the spec's file name cannot be used, or "".
// The name (without its folder) is written into comments of the generated
// files, "generated from NAME", so a newline in it would end the comment
// and put the rest of the name into the code, and bytes that are not UTF-8
// would make the generated file undecodable for Python.
func fileNameProblem(file string) string {
	base := filepath.Base(file)
	switch {
	case !utf8.ValidString(base):
		return fmt.Sprintf("the spec's file name %q is not UTF-8; fixturegen writes it into the generated files, which are UTF-8, so rename the spec", base)
	case strings.IndexFunc(base, unicode.IsControl) >= 0:
		return fmt.Sprintf("the spec's file name %q contains a control character; fixturegen writes it into comments of the generated files, so rename the spec", base)
	}
	return ""
}

const emptyMessage = "spec is empty; it needs at least version = 1"

// Parse parses and validates a spec held in memory. file names it in
// messages and in Spec.File; dir becomes Spec.Dir.
func Parse(src []byte, file, dir string) (*Spec, error) {
	return ParseTable(src, file, dir, nil)
}

// ParseTable is Parse for a spec that is one table of a larger document:
// prefix ["tool", "fixturegen"] reads [tool.fixturegen] of a pyproject.toml.
// Keys outside the table are ignored, and positions point into the whole
// document.
func ParseTable(src []byte, file, dir string, prefix []string) (*Spec, error) {
	if p := fileNameProblem(file); p != "" {
		return nil, &Error{File: file, Msg: p}
	}
	if len(bytes.TrimFunc(src, unicode.IsSpace)) == 0 {
		return nil, &Error{File: file, Msg: emptyMessage}
	}
	// Locate first: it also finds values nested deep enough to overflow
	// the decoder's stack, which would crash rather than fail.
	spans, deep := locate(src)
	if deep >= 0 {
		line, col := textpos.LineCol(src, deep)
		return nil, &Error{File: file, Line: line, Col: col,
			Msg: fmt.Sprintf("invalid TOML: values nest more than %d levels deep", maxLocateDepth)}
	}
	var doc map[string]any
	md, err := toml.Decode(string(src), &doc)
	if err != nil {
		return nil, SyntaxError(file, src, err)
	}

	c := &checker{file: file, src: src, spans: spans, missing: map[*Error]bool{}}
	root := &node{}
	for _, k := range prefix {
		root = root.child(k)
		v, ok := doc[k]
		if !ok {
			return nil, &Error{File: file, Msg: fmt.Sprintf("no [%s] table; the spec lives there, starting with version = 1", strings.Join(prefix, "."))}
		}
		if doc, ok = c.asTable(root, v); !ok {
			return nil, c.sorted()
		}
	}
	switch {
	case len(doc) == 0 && root.key != "":
		return nil, &Error{File: file, Msg: fmt.Sprintf("[%s] is empty; it needs at least version = 1", root.key)}
	case len(doc) == 0:
		return nil, &Error{File: file, Msg: emptyMessage}
	}

	s := c.validate(root, doc, recordOrder(md, prefix))
	if len(c.errs) > 0 {
		return nil, c.sorted()
	}
	s.File = file
	s.Dir = dir
	s.Positions = specPositions(spans, root.key)
	return s, nil
}

// specPositions keeps the spans of the keys under the spec table, named
// by their path from it.
func specPositions(spans map[string]Span, table string) map[string]Span {
	if table == "" {
		return spans
	}
	out := map[string]Span{}
	for k, sp := range spans {
		if rest, ok := strings.CutPrefix(k, table+"."); ok {
			out[rest] = sp
		}
	}
	return out
}

// recordOrder lists the keys of [probe.record] in document order, as the
// decoder saw them.
func recordOrder(md toml.MetaData, prefix []string) []string {
	want := append(slices.Clone(prefix), "probe", "record")
	var order []string
	for _, k := range md.Keys() {
		if len(k) == len(want)+1 && slices.Equal(k[:len(want)], want) {
			order = append(order, k[len(want)])
		}
	}
	return order
}

// SyntaxError turns a TOML decoder error for file's text src into an
// *Error at its position, in the lower-case style of every other message.
//
// The position comes from the decoder's byte offset: its line number is one
// too far when the offending character is a newline ("[group" followed by
// a line break is reported on the next line, at a column that line lacks).
func SyntaxError(file string, src []byte, err error) *Error {
	var pe toml.ParseError
	if !errors.As(err, &pe) {
		return &Error{File: file, Msg: "invalid TOML: " + lowerFirst(err.Error())}
	}
	msg := strings.TrimSuffix(strings.TrimSpace(pe.Message), ".")
	line, col := pe.Position.Line, pe.Position.Col
	if pe.Position.Start >= 0 && pe.Position.Start <= len(src) {
		line, col = textpos.LineCol(src, pe.Position.Start)
	}
	return &Error{File: file, Line: line, Col: col, Msg: "invalid TOML: " + lowerFirst(msg)}
}

func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToLower(r)) + s[n:]
}
