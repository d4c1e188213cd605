// Package plan compares what the spec renders with what is on disk.
//
// generate writes the changes a plan finds, check reports them, and
// generate --dry-run prints them: all three read the same plan, so they
// cannot disagree. For generate, a plan that cannot be made (bad markers, a
// user definition that clashes with a generated one, a target that is a
// folder) is an error before anything is written; check surveys the same
// plan and reports those states as findings.
package plan

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/fixturegen/fixturegen/internal/gen/render"
	"github.com/fixturegen/fixturegen/internal/gen/write"
	"github.com/fixturegen/fixturegen/internal/pytext"
	"github.com/fixturegen/fixturegen/internal/python/region"
	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/internal/relpath"
	"github.com/fixturegen/fixturegen/internal/version"
	"github.com/fixturegen/fixturegen/schema"
)

// Change is one planned file next to its current content.
type Change struct {
	Path    string // slash-separated, relative to the spec's folder
	Display string // Path as the user reaches it from the working directory
	Abs     string
	Region  bool   // the file is a conftest holding a generated region
	Docs    bool   // the file is Markdown holding the docs block (see Docs)
	Exists  bool   // the file exists on disk
	Old     []byte // the current content; nil when the file is missing
	New     []byte // the content after generate; nil when Problem is set
	// Problem, set only by Survey, is why generate would refuse to write
	// the file.
	Problem *Problem
	// base is Old without the adopted fixtures: the text the region is
	// spliced into.
	base []byte

	// root is the spec's folder, which the file is read and written
	// inside; nil for a file the user named on the command line.
	root     *write.Root
	readOnly bool
}

// Changed reports whether generate would write the file.
func (c *Change) Changed() bool { return !c.Exists || !bytes.Equal(c.Old, c.New) }

// ProblemKind says why generate will not write a planned file.
type ProblemKind int

// Kinds of Problem.
const (
	// NotUTF8: the conftest is not UTF-8, so its region cannot be spliced.
	NotUTF8 ProblemKind = iota + 1
	// BrokenMarkers: the conftest's markers are duplicated, nested or
	// unpaired, so which region to replace is unknown.
	BrokenMarkers
	// NotGenerated: a whole file lacks the generated header: it is the
	// user's, and generate will not overwrite it.
	NotGenerated
)

// Problem is a planned file in a state that generate will not overwrite.
type Problem struct {
	Kind   ProblemKind
	Line   int    // 1-based line to look at
	Detail string // what is wrong at Line, for BrokenMarkers
	msg    string // generate's whole message
}

// Make renders spec and compares each planned file with the disk: the
// generated files, and the docs file when the spec names one, rendered
// from a fresh read of the spec's tree. A file that generate must not
// write (see Problem), a read-only file, or a user definition that clashes
// with a generated one is an error.
func Make(spec *schema.Spec) ([]*Change, error) {
	return writablePlan(spec, nil, readFacts)
}

// MakePython is Make without the docs file: the generated Python alone,
// which the probe runs, and which probe --fix and scaffold --probe
// regenerate. The docs file lists the tree's modules, so those commands
// refresh it after they change the tree, or leave it to generate.
func MakePython(spec *schema.Spec) ([]*Change, error) {
	return writablePlan(spec, nil, nil)
}

// Adopt is Make for generate --adopt, which turns a hand-written contract
// into a generated one: the region is spliced into base(conftest), the
// conftest without its own definitions of the preload and deadline
// fixtures (package adopt removes them, and puts the region in place of
// the first when the conftest has none). Everything else in the conftest
// is kept, and any other clash with the region is still an error.
func Adopt(spec *schema.Spec, base func(conftest []byte) []byte) ([]*Change, error) {
	return writablePlan(spec, base, readFacts)
}

// writablePlan plans the files and refuses, with an error at the line to
// fix, any generate must not write: read-only, with broken markers, not
// UTF-8, or with a user's definition the region would replace.
func writablePlan(spec *schema.Spec, base func([]byte) []byte, facts Facts) ([]*Change, error) {
	adopting := base != nil
	changes, err := survey(spec, base, facts)
	if err != nil {
		return nil, err
	}
	for _, c := range changes {
		if c.readOnly {
			return nil, &schema.Error{File: c.Display, Msg: "is read-only; make it writable (chmod u+w) so fixturegen can update it"}
		}
		// A file generate must not write is reported before any clash:
		// with broken markers the region cannot be told apart from the
		// user's code, so the region's own definitions would be reported
		// as the user's.
		if c.Problem != nil {
			return nil, c.fail(c.Problem.Line, "%s", c.Problem.msg)
		}
		if c.Region && c.Exists {
			if defs := region.UserDefs(c.source(), render.RegionNames(spec)); len(defs) > 0 {
				d := defs[0]
				hint := ""
				if !adopting && (d.Name == spec.Preload.Fixture || d.Name == spec.Deadline.Fixture) {
					hint = "; to replace a hand-written fixture with the generated one, run `fixturegen generate --adopt`"
				}
				return nil, c.fail(d.Line, "%s is defined here, outside fixturegen's region, and the region defines it too; one would replace the other, so rename or remove this one (the region's is generated from %s)%s", d.Name, spec.File, hint)
			}
		}
	}
	return changes, nil
}

// Survey is Make for check, which reports what generate would refuse
// instead of stopping at it: a file that generate must not write keeps its
// Problem and no New content. Read-only files and clashing user
// definitions are not Survey's concern (check finds clashes with its own
// scan of the tree). Files that cannot be read at all, and planned paths
// that are folders, are still errors.
//
// The docs file is rendered from what facts returns: the members and
// users of the spec's tree, which check's own scan gathers; nil reads the
// tree afresh, as Make does. Survey calls facts after it has planned the
// Python files, so that check can plan them while its scan runs.
func Survey(spec *schema.Spec, facts Facts) ([]*Change, error) {
	if facts == nil {
		facts = readFacts
	}
	return survey(spec, nil, facts)
}

// SurveyPython is Survey without the docs file (see MakePython).
func SurveyPython(spec *schema.Spec) ([]*Change, error) {
	return survey(spec, nil, nil)
}

// Facts returns the facts of the spec's tree that the docs file lists;
// a plan without it leaves the docs file out.
type Facts func(spec *schema.Spec) (*suite.Facts, error)

// readFacts reads the spec's own tree for the docs file's facts.
func readFacts(spec *schema.Spec) (*suite.Facts, error) {
	conftest, planned := Targets(spec)
	return suite.SpecFacts(spec, conftest, planned)
}

func survey(spec *schema.Spec, base func([]byte) []byte, facts Facts) ([]*Change, error) {
	files, err := render.Render(spec)
	if err != nil {
		return nil, err
	}
	root, err := Root(spec)
	if err != nil {
		return nil, err
	}
	// One look at the working folder serves every file's display path.
	show := relpath.FromWD
	if cwd, err := os.Getwd(); err == nil {
		show = func(abs string) string { return relpath.Rel(cwd, abs) }
	}
	var changes []*Change
	for _, f := range files {
		abs := Abs(spec, f.Path)
		c := &Change{
			Path:    f.Path,
			Display: show(abs),
			Abs:     abs,
			Region:  f.Region,
			root:    root,
		}
		if err := c.read(); err != nil {
			return nil, err
		}
		if f.Region {
			if base != nil && c.Exists && utf8.Valid(c.Old) {
				c.base = base(c.Old)
			}
			err = c.splice("Python", "region", func() ([]byte, error) {
				return region.Conftest.Splice(c.source(), region.Block(filepath.Base(spec.File), f.Content))
			})
		} else {
			c.replaceWhole(f.Content)
		}
		if err != nil {
			return nil, err
		}
		c.keepLineEndings()
		c.keepDevelopmentVersion()
		changes = append(changes, c)
	}
	if abs, display := DocsTarget(spec); abs != "" && facts != nil {
		c, err := surveyDocs(spec, root, abs, display, facts)
		if err != nil {
			return nil, err
		}
		changes = append(changes, c)
	}
	return changes, nil
}

// Abs is the absolute path of a planned file, given by its slash-separated
// path relative to the spec's folder (render.File.Path, render.Target.Path).
func Abs(spec *schema.Spec, path string) string {
	return filepath.Join(spec.Dir, filepath.FromSlash(path))
}

// RecordedVersion returns the fixturegen version recorded in the file's
// current content, and its line: in a whole file's header, or in the first
// line of a conftest's region or a Markdown file's docs block. It returns
// false when the file records none, with line 0 when nothing is expected of
// it: it has no region or block, or one that was written by hand.
func (c *Change) RecordedVersion() (recorded string, line int, ok bool) {
	find := region.Find
	switch {
	case c.Docs:
		find = region.Docs.Find
	case !c.Region:
		v, ok := render.RecordedVersion(c.Old)
		return v, 1, ok
	}
	b, err := find(c.Old)
	if err != nil || !b.Found {
		return "", 0, false // line 0: there is no region or block
	}
	v, ok := render.RecordedVersion(c.Old[b.InnerStart:b.InnerEnd])
	if !ok {
		// Without a version line, a block under fixturegen's own begin
		// marker was written by a fixturegen that recorded none; one under
		// a marker typed by hand was never generated, and records nothing.
		nb, err := find(c.New)
		if err != nil || !nb.Found || !bytes.Equal(bytes.TrimRight(c.Old[b.Start:b.InnerStart], "\r\n"), bytes.TrimRight(c.New[nb.Start:nb.InnerStart], "\r\n")) {
			return "", 0, false
		}
	}
	return v, b.BeginLine + 1, ok
}

// keepLineEndings leaves the file as it is when it differs from the
// rendered one only in its line endings ("\r\n" where a Windows checkout
// or an editor wrote them): that is no edit, so check reports nothing and
// generate changes no byte. The rendered content is already written with
// the file's line ending (replaceWhole, region.Conftest.Splice); this covers a file
// whose line endings are mixed.
func (c *Change) keepLineEndings() {
	if c.Exists && c.New != nil && region.SameButLineEndings(c.Old, c.New) {
		c.New = c.Old
	}
}

// keepDevelopmentVersion leaves the file as it is when it differs from
// the rendered one only in the version it records, and one of the two
// versions is a development build's. A development build does not know
// which release it is close to, so it matches every version: neither it
// nor a release rewrites a file, or reports drift, for that alone.
func (c *Change) keepDevelopmentVersion() {
	if !c.Exists || c.New == nil || bytes.Equal(c.Old, c.New) || !render.SameApartFromVersion(c.Old, c.New) {
		return
	}
	if recorded, _, _ := c.RecordedVersion(); version.IsDev(recorded) || version.IsDev(version.Version()) {
		c.New = c.Old
	}
}

func (c *Change) fail(line int, format string, args ...any) error {
	return &schema.Error{File: c.Display, Line: line, Col: 1, Msg: fmt.Sprintf(format, args...)}
}

// read loads the current content and checks that the target is a regular
// file that the rules of write.Root let fixturegen read and write.
func (c *Change) read() error {
	read := write.ReadFile
	if c.root != nil {
		read = c.root.ReadFile
	}
	old, info, err := read(c.Abs)
	var le *write.LinkError
	switch {
	case errors.As(err, &le):
		return &schema.Error{File: c.Display, Msg: le.Reason()}
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case errors.Is(err, write.ErrNotRegular) && info.IsDir():
		return &schema.Error{File: c.Display, Msg: "is a folder; fixturegen writes a file here, so point the spec at a file path"}
	case errors.Is(err, write.ErrNotRegular):
		return &schema.Error{File: c.Display, Msg: "is not a regular file"}
	case errors.Is(err, write.ErrTooLarge):
		return &schema.Error{File: c.Display, Msg: fmt.Sprintf("is %s; fixturegen reads planned files up to that size, so point the spec at another path", err)}
	case err != nil:
		var oe *write.OSError
		if errors.As(write.Explain(c.Display, "read", err), &oe) {
			return &schema.Error{File: c.Display, Msg: oe.Reason()}
		}
		return &schema.Error{File: c.Display, Msg: fmt.Sprintf("cannot read: %v", err)}
	}
	c.readOnly = info.Mode().Perm()&0o200 == 0
	c.Exists, c.Old = true, old
	return nil
}

// Write writes New to the file: inside the spec's folder under the rules
// of write.Root, or, for a file the user named, where it is. Its error
// names the file (a *write.OSError, a *write.LinkError).
func (c *Change) Write() error {
	if c.root == nil {
		return write.File(c.Abs, c.New)
	}
	return c.root.File(c.Abs, c.New)
}

// WriteChanged writes each file of changes that changed, in order, and
// returns their Display names. When a write fails it returns the files
// written before it, so the user learns what changed, and the error.
func WriteChanged(changes []*Change) ([]string, error) {
	var wrote []string
	for _, ch := range changes {
		if !ch.Changed() {
			continue
		}
		if err := ch.Write(); err != nil {
			return wrote, err
		}
		wrote = append(wrote, ch.Display)
	}
	return wrote, nil
}

// Root is the spec's folder, which every planned file is read and written
// inside (see write.Root).
func Root(spec *schema.Spec) (*write.Root, error) {
	root, err := write.NewRoot(spec.Dir, filepath.Dir(spec.File))
	if err != nil {
		return nil, fmt.Errorf("the spec's folder: %w", err)
	}
	return root, nil
}

// SpecText plans an edit of the spec's own text (probe --fix and scaffold
// --probe make one): Old is the spec as it is, read inside the spec's
// folder, and New is for the caller to set. A spec file that is a link is
// refused: the edit would replace the link, or write through it.
func SpecText(spec *schema.Spec) (*Change, error) {
	c, err := edit(spec, filepath.Base(spec.File), spec.File)
	if err == nil && !c.Exists {
		err = &schema.Error{File: c.Display, Msg: "cannot read spec: no such file or directory"}
	}
	return c, err
}

// Edit plans an edit of a file of the project, at rel (slash-separated,
// relative to the spec's folder; generate --adopt edits the conftests
// below the spec's that redefine its deadline fixture): Old is the file as
// it is, read inside the spec's folder, and New is for the caller to set.
// A missing file has Exists false.
func Edit(spec *schema.Spec, rel string) (*Change, error) {
	return edit(spec, rel, relpath.FromWD(Abs(spec, rel)))
}

func edit(spec *schema.Spec, rel, display string) (*Change, error) {
	root, err := Root(spec)
	if err != nil {
		return nil, err
	}
	c := &Change{Path: rel, Display: display, Abs: Abs(spec, rel), root: root}
	if err := c.read(); err != nil {
		return nil, err
	}
	if c.Exists && c.readOnly {
		return nil, &schema.Error{File: c.Display, Msg: "is read-only; make it writable (chmod u+w) so fixturegen can update it"}
	}
	c.New = c.Old
	return c, nil
}

// splice sets New to what splice returns for the file, a kind ("Python",
// "Markdown") file whose generated part is a part ("region", "block"):
// a file that is not UTF-8, or whose markers splice cannot pair, keeps a
// Problem instead.
func (c *Change) splice(kind, part string, splice func() ([]byte, error)) error {
	if !utf8.Valid(c.Old) {
		c.Problem = &Problem{Kind: NotUTF8, Line: firstInvalidLine(c.Old), msg: "is not UTF-8; fixturegen edits only UTF-8 " + kind + " files"}
		return nil
	}
	out, err := splice()
	var re *region.Error
	if errors.As(err, &re) {
		c.Problem = &Problem{Kind: BrokenMarkers, Line: re.Line, Detail: re.Msg,
			msg: re.Msg + "; fix the markers by hand (fixturegen will not guess which " + part + " to keep)"}
		return nil
	}
	if err != nil {
		return err
	}
	c.New = out
	return nil
}

// source is the text the region is spliced into: Old, without the
// fixtures Adopt takes out.
func (c *Change) source() []byte {
	if c.base != nil {
		return c.base
	}
	return c.Old
}

func (c *Change) replaceWhole(content []byte) {
	if c.Exists && !bytes.HasPrefix(c.Old, []byte(pytext.GeneratedHeader)) {
		c.Problem = &Problem{Kind: NotGenerated, Line: 1,
			msg: fmt.Sprintf("exists and was not generated by fixturegen (no %q header); move it away or point the spec elsewhere, so fixturegen does not overwrite your file", pytext.GeneratedHeader)}
		return
	}
	// A whole file keeps the line ending it has on disk: "\r\n" in a
	// checkout that converted it.
	c.New = content
	if c.Exists {
		c.New = region.WithLineEnding(content, region.LineEnding(c.Old))
	}
}

func firstInvalidLine(b []byte) int {
	i := 0
	for i < len(b) {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		i += size
	}
	return bytes.Count(b[:i], []byte("\n")) + 1
}

// Targets are the absolute paths of the conftest that holds the region
// and of the whole files generate writes: what a read of the spec's tree
// treats apart (suite.SpecTree).
func Targets(spec *schema.Spec) (conftest string, planned map[string]bool) {
	planned = map[string]bool{}
	for _, t := range render.Targets(spec) {
		if abs := Abs(spec, t.Path); t.Region {
			conftest = abs
		} else {
			planned[abs] = true
		}
	}
	return conftest, planned
}
