// Package suite is fixturegen's model of a project's test suite, read
// statically from its Python files: which files pytest collects, the
// fixtures each module and conftest defines and how pytest makes them
// visible, the tests, which of them reach the deadline fixture and how,
// the modules of the xdist group, the calls that arm a timer, and the
// files that carry fixturegen's generated header.
//
// check's rules, fixturegen docs and init read the tree through it, so
// they see the same tree. The files are read by package treeread, on
// every core, and only files that hold a word the caller looks for (or
// that the model needs) are tokenized by package pyscan.
package suite

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/internal/python/pytestcfg"
	"github.com/fixturegen/fixturegen/internal/python/treeread"
	"github.com/fixturegen/fixturegen/internal/relpath"
	"github.com/fixturegen/fixturegen/schema"
)

// Options is what one read of the tree needs.
type Options struct {
	Spec *schema.Spec
	// Roots are the folders (or files) to read, as the user reaches them.
	Roots []string
	// Planned holds the absolute paths of the whole files generate writes;
	// they are compared with the spec, so the read skips them.
	Planned map[string]bool
	// Conftest is the absolute path of the conftest holding the region.
	Conftest string
	// Config is the project's pytest configuration, or nil.
	Config *pytestcfg.Config
	// Fixtures and Calls are the words the caller looks for, beside those
	// the model needs (see rules.Rule.Fixtures and Calls): a file holding
	// none is read for its encoding and header, and not tokenized.
	Fixtures, Calls []string
	// Marks are the mark names the caller looks for: a file that names
	// one in its code or its strings is tokenized.
	Marks []string
	// ListGroup asks for the modules of the xdist group.
	ListGroup bool
	// ListUsers asks for the modules whose tests use the deadline fixture.
	ListUsers bool
	// ListTests asks for every test the model sees, for comparison with
	// what pytest collects; every test module is then read in full.
	ListTests bool
	// NamedRoots is set when the user named the roots (--scan): as for
	// paths given to pytest, testpaths then does not apply.
	NamedRoots bool
	// Workers is the number of files read at once; 0 means one per core.
	Workers int

	// Forced holds files tokenized whatever they contain: the probe
	// cases' test files. Read fills it.
	Forced map[string]bool
}

// Tree is what Read found.
type Tree struct {
	// Sources are the modules read and tokenized, by path.
	Sources []*Source
	// Files counts the Python files read (Sources are those the rules
	// needed to tokenize).
	Files int
	// Problems are the troubles the read had: files it could not read or
	// decode, syntax errors, links it did not follow.
	Problems []Problem
	// Generated lists the files under the roots that carry fixturegen's
	// generated header but are not planned: orphans, for the drift report.
	Generated []string
	// Adopt is true when the conftest holds a hand-written deadline
	// fixture of the spec's name: generate --adopt, not generate, writes
	// the region.
	Adopt bool

	opts *Options
	ix   *index
}

// Test is one test function as the static model sees it.
type Test struct {
	Path string // as the user reaches it
	Abs  string
	// Name is the test's name after its classes, as in a pytest node id
	// without parameters: "TestPump::test_drain".
	Name string
	Line int
}

// Read reads the roots and works out the model of the tree.
func Read(opts Options) (*Tree, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	spec := opts.Spec
	opts.Forced = map[string]bool{}
	for _, c := range spec.Probe.Cases {
		file, _, _ := strings.Cut(c.Node, "::")
		opts.Forced[filepath.Join(spec.Dir, filepath.FromSlash(file))] = true
	}
	s := &scan{opts: &opts, cwd: cwd, coll: opts.newCollection()}
	s.pats = opts.testPatterns()
	fixtures, marks, calls := opts.words()
	s.needles = newPrefilter(fixtures, marks, calls, s.pats)
	s.specialNames = map[string]bool{filepath.Base(opts.Conftest): true}
	for _, set := range []map[string]bool{opts.Planned, opts.Forced} {
		for abs := range set {
			s.specialNames[filepath.Base(abs)] = true
		}
	}
	if err := s.run(opts.Roots, NoRecurse(opts.Config)); err != nil {
		return nil, err
	}
	s.dropCollectIgnored()
	// A timer armed in a base class's setup, in a module that holds no
	// tests, runs around the tests of the classes that derive from it: the
	// test modules that name such a class are read for them, those run
	// skipped again, those it left (tests) once, with the names.
	names := timedBaseNames(s.sources)
	if len(names) > 0 {
		s.again(newPrefilter(nil, names, nil, s.pats), func(abs string) (bool, bool) { return s.coll.isTestFile(abs), false })
	}
	s.needles = newPrefilter(fixtures, append(marks, names...), calls, s.pats)
	s.reader().ReadAgain(s.tests, s.first)
	s.dropIgnored()
	ix := newIndex(&opts, s.sources)
	if carriers, autouse := ix.carriers(); len(carriers) > 0 {
		var names []string
		for _, c := range carriers {
			names = append(names, c.Name)
		}
		n := len(s.sources)
		s.again(newPrefilter(names, nil, nil, s.pats), func(abs string) (bool, bool) {
			look, all := false, false
			for _, c := range carriers {
				if relpath.Under(abs, c.Src.Dir) {
					look = true
					all = all || autouse[c] && s.coll.isTestFile(abs)
				}
			}
			return look, all
		})
		// A module read for a carrier may hold a timed base too.
		if names := timedBaseNames(s.sources[n:]); len(names) > 0 {
			s.again(newPrefilter(nil, names, nil, s.pats), func(abs string) (bool, bool) { return s.coll.isTestFile(abs), false })
		}
		ix = newIndex(&opts, s.sources)
	}
	if s.probeFiles() {
		ix = newIndex(&opts, s.sources)
	}
	sort.Slice(s.sources, func(i, j int) bool { return s.sources[i].Path < s.sources[j].Path })
	t := &Tree{Sources: s.sources, Problems: s.problems, Generated: s.generated, Adopt: adoptable(s.sources, &opts), opts: &opts, ix: ix}
	t.Files = len(s.files)
	sort.Strings(t.Generated)
	return t, nil
}

// NoRecurse is the norecursedirs of pytest's configuration cfg (nil for
// none), with __pycache__, which pytest never collects either.
func NoRecurse(cfg *pytestcfg.Config) []string {
	if cfg != nil {
		if args, ok := cfg.Options["norecursedirs"]; ok {
			out := []string{"__pycache__"}
			for _, a := range args {
				out = append(out, a.Text)
			}
			return out
		}
	}
	return treeread.DefaultNoRecurse
}

// Tests lists the tests of every test module read, in path order; all of
// them with Options.ListTests.
func (t *Tree) Tests() []Test {
	var out []Test
	pats := t.opts.testPatterns()
	for _, src := range t.Sources {
		m := src.Mod
		for _, d := range src.facts.tests {
			// A mixin's test methods are collected through the cases that
			// derive from it, listed below.
			if directTest(m, d, pats, src.facts.cases) {
				out = append(out, Test{Path: src.Path, Abs: src.Abs, Name: strings.ReplaceAll(qualifiedName(m, d), ".", "::"), Line: m.Defs[d].Pos.Line})
			}
		}
		for _, in := range src.inherited {
			out = append(out, Test{Path: src.Path, Abs: src.Abs, Name: in.class + "::" + in.name, Line: in.line})
		}
	}
	return out
}

// words are what the prefilter looks for: the caller's fixture names and
// timer calls, the deadline fixture for --list-users, and for
// --list-group the mark.
func (o *Options) words() (fixtures, marks, calls []string) {
	fixtures, calls = slices.Clone(o.Fixtures), o.Calls
	marks = slices.Clone(o.Marks)
	if o.ListUsers && !slices.Contains(fixtures, o.Spec.Deadline.Fixture) {
		fixtures = append(fixtures, o.Spec.Deadline.Fixture)
	}
	if o.ListGroup {
		marks = append(marks, lastName(groupMarkCall))
	}
	return fixtures, marks, calls
}

// carriers are the conftest fixtures other than the deadline fixture that
// depend on it: a test that asks for one of them uses the deadline without
// naming it, so files naming them need a second look. autouse marks those
// that reach every test below their conftest.
func (ix *index) carriers() ([]*Fixture, map[*Fixture]bool) {
	var out []*Fixture
	autouse := map[*Fixture]bool{}
	target := ix.opts.Spec.Deadline.Fixture
	var sc scratch
	for _, c := range ix.conftests {
		for _, fx := range c.facts.fixtures[-1] {
			if fx.Name == target || c.InRegion(fx.Pos().Line) {
				continue
			}
			rs := ix.requests(c, fx.Def, false, &sc)
			if _, ok := ix.reaches(c, -1, rs, target, &sc); ok {
				out = append(out, fx)
				autouse[fx] = fx.Autouse
			}
		}
	}
	return out, autouse
}

// probeFiles reads the probe cases' files that lie outside the roots, and
// reports whether it added any to the sources.
func (s *scan) probeFiles() bool {
	n := len(s.sources)
	have := map[string]bool{}
	for _, src := range s.sources {
		have[src.Abs] = true
	}
	for abs := range s.opts.Forced {
		if have[abs] {
			continue
		}
		data, err := treeread.ReadFile(abs, nil)
		if err != nil {
			continue // the probe-node rule reports a missing file
		}
		text, prob := pyscan.Decode(data)
		if prob != nil {
			s.warn(relpath.Rel(s.cwd, abs), prob.Pos.Line, prob.Pos.Col, ProblemUndecodable, prob.Msg, "save the file as UTF-8, or declare its encoding as Python expects")
			continue
		}
		s.tokenize(relpath.Rel(s.cwd, abs), abs, text, 0)
	}
	return len(s.sources) > n
}

func (o *Options) functionPatterns() []string { return o.patterns("python_functions", "test") }
func (o *Options) classPatterns() []string    { return o.patterns("python_classes", "Test") }

func (o *Options) patterns(key, def string) []string {
	if o.Config != nil {
		if args, ok := o.Config.Options[key]; ok {
			var out []string
			for _, a := range args {
				out = append(out, a.Text)
			}
			return out
		}
	}
	return []string{def}
}
