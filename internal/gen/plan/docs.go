package plan

import (
	"errors"
	"path/filepath"
	"unicode/utf8"

	"github.com/fixturegen/fixturegen/internal/gen/region"
	"github.com/fixturegen/fixturegen/internal/gen/write"
	"github.com/fixturegen/fixturegen/internal/relpath"
	"github.com/fixturegen/fixturegen/schema"
)

// Docs plans the Markdown file at abs (shown to the user as display),
// read and written inside the spec's folder under the rules of write.Root,
// or where it is when root is nil (a file the user named): the
// docs block (package docs renders it, markers included) spliced between
// the file's markers, or appended when it has none, or the whole file when
// it does not exist. A file that generate must not write (broken markers,
// not UTF-8, read-only) is an error, as in Make.
func Docs(spec *schema.Spec, root *write.Root, abs, display string, block []byte) (*Change, error) {
	c, err := SurveyDocs(spec, root, abs, display, block)
	if err != nil {
		return nil, err
	}
	if c.readOnly {
		return nil, &schema.Error{File: c.Display, Msg: "is read-only; make it writable (chmod u+w) so fixturegen can update it"}
	}
	if c.Problem != nil {
		return nil, c.fail(c.Problem.Line, "%s", c.Problem.msg)
	}
	return c, nil
}

// SurveyDocs is Docs for check: a file generate must not write keeps its
// Problem instead.
func SurveyDocs(spec *schema.Spec, root *write.Root, abs, display string, block []byte) (*Change, error) {
	c := &Change{Display: display, Abs: abs, Docs: true, root: root}
	if rel, err := filepath.Rel(spec.Dir, abs); err == nil {
		c.Path = filepath.ToSlash(rel)
	}
	if err := c.read(); err != nil {
		return nil, err
	}
	if !utf8.Valid(c.Old) {
		c.Problem = &Problem{Kind: NotUTF8, Line: firstInvalidLine(c.Old), msg: "is not UTF-8; fixturegen edits only UTF-8 Markdown files"}
		return c, nil
	}
	out, err := region.Docs.Splice(c.Old, block)
	var me *region.Error
	if errors.As(err, &me) {
		c.Problem = &Problem{Kind: BrokenMarkers, Line: me.Line, Detail: me.Msg,
			msg: me.Msg + "; fix the markers by hand (fixturegen will not guess which block to keep)"}
		return c, nil
	}
	if err != nil {
		return nil, err
	}
	c.New = out
	c.keepDevelopmentVersion()
	return c, nil
}

// DocsTarget is the spec's [paths].docs, absolute and as the user reaches
// it; both are "" when it is not set.
func DocsTarget(spec *schema.Spec) (abs, display string) {
	if spec.Paths.Docs == "" {
		return "", ""
	}
	abs = filepath.Join(spec.Dir, filepath.FromSlash(spec.Paths.Docs))
	return abs, relpath.FromWD(abs)
}
