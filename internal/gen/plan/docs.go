package plan

import (
	"path/filepath"

	"github.com/fixturegen/fixturegen/internal/gen/docs"
	"github.com/fixturegen/fixturegen/internal/gen/write"
	"github.com/fixturegen/fixturegen/internal/python/region"
	"github.com/fixturegen/fixturegen/internal/relpath"
	"github.com/fixturegen/fixturegen/schema"
)

// DocsFile plans the docs block for fixturegen docs: in file, or, when
// file is "", in the spec's [paths].docs; nil when neither names one. A
// file typed on the command line is written where it is, as any command
// writes where it is told; [paths].docs, from the spec, stays inside the
// spec's folder. The block is rendered from a fresh read of the spec's
// tree. A file that generate must not write (broken markers, not UTF-8,
// read-only) is an error, as in Make.
func DocsFile(spec *schema.Spec, file string) (*Change, error) {
	var root *write.Root
	var err error
	abs, display := DocsTarget(spec)
	switch {
	case file != "":
		if abs, err = filepath.Abs(file); err != nil {
			return nil, err
		}
		display = filepath.Clean(file)
	case abs == "":
		return nil, nil
	default:
		if root, err = Root(spec); err != nil {
			return nil, err
		}
	}
	c, err := surveyDocs(spec, root, abs, display, readFacts)
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

// surveyDocs plans the Markdown file at abs (shown to the user as
// display), read and written inside the spec's folder under the rules of
// write.Root, or where it is when root is nil (a file the user named):
// the docs block (package docs renders it, markers included, from the
// facts) spliced between the file's markers, or appended when it has
// none, or the whole file when it does not exist. A file that generate
// must not write keeps its Problem.
func surveyDocs(spec *schema.Spec, root *write.Root, abs, display string, facts Facts) (*Change, error) {
	f, err := facts(spec)
	if err != nil {
		return nil, err
	}
	block, err := docs.Block(spec, f)
	if err != nil {
		return nil, err
	}
	c := &Change{Path: relpath.Slash(spec.Dir, abs), Display: display, Abs: abs, Docs: true, root: root}
	if err := c.read(); err != nil {
		return nil, err
	}
	if err := c.splice("Markdown", "block", func() ([]byte, error) { return region.Docs.Splice(c.Old, block) }); err != nil {
		return nil, err
	}
	c.keepLineEndings()
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
