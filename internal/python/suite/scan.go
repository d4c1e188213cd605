package suite

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/fixturegen/fixturegen/internal/pytext"
	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/internal/python/region"
	"github.com/fixturegen/fixturegen/internal/python/treeread"
	"github.com/fixturegen/fixturegen/internal/relpath"
)

// Source is one Python file that check read and tokenized.
type Source struct {
	Path     string // as the user reaches it, for messages
	Abs      string
	Dir      string // absolute folder
	Conftest bool
	Test     bool // its name makes it a test module (python_files)
	Mod      *pyscan.Module
	// regionFirst and regionLast are the lines of the generated region's
	// markers, in the conftest that holds it; 0 elsewhere.
	regionFirst, regionLast int
	// HoldsRegion marks the conftest the spec plans the region in,
	// however the walk reached it.
	HoldsRegion bool
	// MarkersBroken marks a conftest holding the region whose markers are
	// duplicated, nested or unpaired: where the region lies is unknown,
	// so its definitions cannot be told from the user's.
	MarkersBroken bool
	// facts is what the latest index knows of the module.
	facts *facts
	// knownCases are the dotted names, as the module's imports give them,
	// of the classes in other modules that are unittest test cases.
	knownCases map[string]bool
	// inherited are the test methods its collected classes take from
	// their bases (with Options.ListTests).
	inherited []inheritedTest
}

// InRegion reports whether line lies in the generated region, whose code
// is checked by comparing it with the spec, not by the rules.
func (s *Source) InRegion(line int) bool {
	return s.regionFirst > 0 && line >= s.regionFirst && line <= s.regionLast
}

// scan is one walk over the test tree.
type scan struct {
	opts    *Options
	cwd     string
	needles *prefilter // the files it rejects cannot matter to a rule
	// specialNames are the base names of the files the scan treats apart.
	specialNames map[string]bool
	pats         *testPatterns

	mu      sync.Mutex
	sources []*Source
	// files are the files the first look read; those read but not
	// tokenized are marked Skipped, for a second look.
	files []*treeread.File
	// tests are the test modules run leaves unread, for Read to read once
	// it knows the names of the timed test bases: those run meets after
	// timed is set (by the first module it reads that holds such a base),
	// which, skipped, would otherwise be read again for the names.
	tests []*treeread.File
	timed atomic.Bool
	// work is each reader's working memory for the prefilter and its
	// Scanner, reused from file to file.
	work      []readerWork
	generated []string
	problems  []Problem

	// cases follows base classes into other modules.
	cases caseFinder

	// coll decides which files are test modules; ignoreFile, once the
	// conftests are read, tells the files their collect_ignore lists
	// leave out.
	coll       *collection
	ignoreFile func(abs string) bool
}

// abs returns the absolute form of a path from the walk without asking the
// system: the working directory is known.
func (s *scan) abs(p string) string { return relpath.Resolve(s.cwd, p) }

// Problem is a trouble the read had with a file or a folder, where it met
// it. Kind is the id of the check rule that reports it.
type Problem struct {
	Kind string
	// Error marks a problem that breaks the suite, not only its reading:
	// a syntax error in the conftest that holds the region.
	Error     bool
	Path      string
	Line, Col int
	Msg, Fix  string
}

// Kinds of Problem.
const (
	ProblemUndecodable     = "undecodable"
	ProblemSyntax          = "syntax"
	ProblemUnreadable      = "unreadable"
	ProblemSymlinkLoop     = "symlink-loop"
	ProblemSymlinkOutside  = "symlink-outside"
	ProblemDanglingSymlink = "dangling-symlink"
)

func (s *scan) warn(path string, line, col int, kind, msg, fix string) {
	s.report(false, path, line, col, kind, msg, fix)
}

// report records a problem of the read.
func (s *scan) report(isError bool, path string, line, col int, kind, msg, fix string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.problems = append(s.problems, Problem{Kind: kind, Error: isError, Path: path,
		Line: max(line, 1), Col: max(col, 1), Msg: msg, Fix: fix})
}

// planned reports whether the file at p is one generate writes, reached
// by a name other than the one the spec gives it.
func (s *scan) planned(p string) bool {
	for abs := range s.opts.Planned {
		if sameFile(p, abs) {
			return true
		}
	}
	return false
}

// sameFile reports whether two paths name the same file.
func sameFile(a, b string) bool {
	ia, err := os.Stat(a)
	if err != nil {
		return false
	}
	ib, err := os.Stat(b)
	return err == nil && os.SameFile(ia, ib)
}

// run reads every file under the roots on all cores, and takes the first
// look at each.
func (s *scan) run(roots []string, noRecurse []string) error {
	r := s.reader()
	r.NoRecurse = noRecurse
	r.Bounds = roots
	r.Ignore = s.coll.walkIgnore()
	r.Problem = func(p treeread.Problem) {
		s.warn(p.Path, 1, 1, p.Kind, p.Msg, problemFix[p.Kind])
	}
	// A file generate writes is compared with the spec, not scanned, so it
	// is not read at all; a test module, once timed is set, is read later.
	r.Unread = func(f *treeread.File) bool {
		if s.specialNames[f.Name] && s.opts.Planned[s.abs(f.Path())] {
			return true
		}
		if !s.timed.Load() || f.Name == "conftest.py" || !s.coll.isTestFile(s.abs(f.Path())) {
			return false
		}
		s.mu.Lock()
		s.tests = append(s.tests, f)
		s.mu.Unlock()
		return true
	}
	files, err := r.Read(roots, s.first)
	s.files = files
	return err
}

// reader returns a treeread.Reader with the scan's number of readers.
func (s *scan) reader() *treeread.Reader {
	r := &treeread.Reader{Workers: s.opts.Workers}
	if r.Workers <= 0 {
		r.Workers = runtime.GOMAXPROCS(0)
	}
	for len(s.work) < r.Workers {
		s.work = append(s.work, readerWork{scanner: pyscan.Scanner{Keep: readCalls}})
	}
	return r
}

var problemFix = map[string]string{
	ProblemUnreadable:      "make it readable (chmod), or leave it out of --scan",
	ProblemSymlinkLoop:     "remove the link, or point it outside the tree",
	ProblemSymlinkOutside:  "scan the folder it points to too (--scan), or replace the link with the folder",
	ProblemDanglingSymlink: "remove the link, or restore the file it points to",
}

// readerWork is one reader's working memory.
type readerWork struct {
	needles needleScratch
	scanner pyscan.Scanner
}

// first is the first look at a file: read it, note a generated header,
// check its encoding, and tokenize it only when it can matter to a rule.
func (s *scan) first(j *treeread.File, data []byte, err error, worker int) {
	if err != nil {
		s.readError(j.Path(), err)
		return
	}
	base := j.Name
	p, abs := "", ""
	// Only the files the scan treats apart (a planned file, the conftest,
	// a probe case's file) need their absolute path before the prefilter.
	if s.specialNames[base] {
		p = j.Path()
		abs = s.abs(p)
	}
	// The first byte rules out most files without a call to compare.
	if len(data) > 0 && data[0] == generatedHeader[0] && bytes.HasPrefix(data, generatedHeader) {
		if s.planned(j.Path()) {
			return // a planned file reached by another name
		}
		s.mu.Lock()
		s.generated = append(s.generated, j.Path())
		s.mu.Unlock()
		return
	}
	// Every file's encoding is checked, not only the ones the rules read:
	// Python cannot import a file it cannot decode, wherever it is. A
	// file in another encoding that it declares is read decoded.
	text, prob := pyscan.Decode(data)
	if prob != nil {
		if abs == "" || abs != s.opts.Conftest { // the drift report covers the planned conftest
			s.warn(j.Path(), prob.Pos.Line, prob.Pos.Col, ProblemUndecodable, prob.Msg, "save the file as UTF-8, or declare its encoding as Python expects")
		}
		return
	}
	if base != "conftest.py" && !(abs != "" && s.opts.Forced[abs]) && !(s.opts.ListTests && s.coll.isTestFile(s.abs(j.Path()))) && !s.needles.match(data, &s.work[worker].needles) {
		j.Skipped = true
		return
	}
	if p == "" { // p and abs are set together
		p = j.Path()
		abs = s.abs(p)
	}
	s.tokenize(p, abs, text, worker)
}

// tokenize scans text, whose encoding was checked, with the reader's
// Scanner, and keeps the module's facts; text is read again only for a
// conftest, which may hold the region.
func (s *scan) tokenize(p, abs string, text []byte, worker int) {
	src := &Source{Path: p, Abs: abs, Dir: filepath.Dir(abs), Conftest: filepath.Base(p) == "conftest.py", Test: s.coll.isTestFile(abs)}
	src.Mod = s.work[worker].scanner.Scan(text)
	src.facts = newFacts(src, s.pats, s.opts.Spec.Deadline.Fixture)
	// The region is recognised by its markers, so that the conftest that
	// holds it is known whatever name the walk reached it by.
	if abs == s.opts.Conftest || src.Conftest && bytes.Contains(text, []byte(region.Begin)) && sameFile(abs, s.opts.Conftest) {
		src.HoldsRegion = true
		src.regionFirst, src.regionLast = region.Lines(text)
		_, err := region.Find(text)
		src.MarkersBroken = err != nil
	}
	// The first syntax problem alone is reported: the ones after it are
	// most often its echoes.
	if len(src.Mod.Problems) > 0 {
		prob := src.Mod.Problems[0]
		// pytest imports the conftest that holds the region for every test
		// below it: a syntax error there stops the whole session.
		effect := "; the rules may miss code after it"
		if src.HoldsRegion {
			effect = "; pytest cannot import this conftest, which holds fixturegen's region"
		}
		s.report(src.HoldsRegion, p, prob.Pos.Line, prob.Pos.Col, ProblemSyntax, prob.Msg+effect, "fix the syntax error (python -m py_compile "+p+" shows it)")
	}
	s.followBases(src)
	if !s.timed.Load() && len(timedBaseNames([]*Source{src})) > 0 {
		s.timed.Store(true)
	}
	s.mu.Lock()
	s.sources = append(s.sources, src)
	s.mu.Unlock()
}

func (s *scan) readError(p string, err error) {
	msg := "cannot read: "
	var pe *fs.PathError
	switch {
	case errors.Is(err, treeread.ErrTooLarge), errors.Is(err, treeread.ErrNotRegular):
		msg = ""
	case errors.As(err, &pe):
		err = pe.Err
	}
	s.warn(p, 1, 1, ProblemUnreadable, msg+err.Error(), "make it readable, or leave it out of --scan")
}

// again takes a second look at the files the first look skipped, for the
// needles only known once every conftest was read: names of conftest
// fixtures that depend on the deadline fixture. want says which files to
// look at again; all reports whether a file in it must be tokenized whatever
// it holds (an autouse fixture reaches every test under its conftest).
func (s *scan) again(needles *prefilter, want func(abs string) (look, all bool)) {
	var files []*treeread.File
	for _, f := range s.files {
		if !f.Skipped || s.ignoreFile != nil && s.ignoreFile(s.abs(f.Path())) {
			continue
		}
		if look, _ := want(s.abs(f.Path())); look {
			files = append(files, f)
		}
	}
	s.reader().ReadAgain(files, func(f *treeread.File, data []byte, err error, worker int) {
		p := f.Path()
		if err != nil {
			s.readError(p, err)
			return
		}
		abs := s.abs(p)
		text, prob := pyscan.Decode(data)
		if prob != nil {
			return // reported by the first look
		}
		if _, all := want(abs); all || needles.match(data, &s.work[worker].needles) {
			f.Skipped = false
			s.tokenize(p, abs, text, worker)
		}
	})
}

var generatedHeader = []byte(pytext.GeneratedHeader)
