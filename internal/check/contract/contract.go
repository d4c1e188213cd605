// Package contract checks a Python test tree against the alarm-preload
// contract a spec describes, without running Python: every module that
// arms a timer goes through the deadline fixture, every module that uses
// the deadline is in the xdist group, nothing shadows the generated
// fixtures, the probe cases and preload modules exist, and pytest-xdist
// honours the group.
//
// Each rule reads the facts package pyscan extracts; the tree is read by
// package treeread, on every core, and only files that hold a word a rule
// looks for are tokenized.
package contract

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/fixturegen/fixturegen/internal/check/finding"
	"github.com/fixturegen/fixturegen/internal/check/rule"
	"github.com/fixturegen/fixturegen/internal/gen/plan"
	"github.com/fixturegen/fixturegen/internal/gen/render"
	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/internal/python/pytestcfg"
	"github.com/fixturegen/fixturegen/internal/python/treeread"
	"github.com/fixturegen/fixturegen/internal/relpath"
	"github.com/fixturegen/fixturegen/schema"
)

// Options is what one check needs.
type Options struct {
	Spec *schema.Spec
	// Roots are the folders (or files) to scan, as the user reaches them.
	Roots []string
	// Planned holds the absolute paths of the whole files generate writes;
	// they are compared with the spec, so the rules skip them.
	Planned map[string]bool
	// Conftest is the absolute path of the conftest holding the region.
	Conftest string
	// GeneratedNames are the names the region defines (render.RegionNames).
	GeneratedNames []string
	// Config is the project's pytest configuration, or nil.
	Config *pytestcfg.Config
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
	// cases' test files. Check fills it.
	Forced map[string]bool
}

// Result is what Check found.
type Result struct {
	Findings []finding.Finding
	// Generated lists the files under the roots that carry fixturegen's
	// generated header but are not planned: orphans, for the drift report.
	Generated []string
	Members   []finding.Member
	Users     []User // with Options.ListUsers
	Tests     []Test // with Options.ListTests
	// Adopt is true when the conftest holds a hand-written deadline
	// fixture of the spec's name: generate --adopt, not generate, writes
	// the region.
	Adopt bool
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

// Check scans the roots and applies every rule.
func Check(opts Options) (*Result, error) {
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
	noRecurse := treeread.DefaultNoRecurse
	if opts.Config != nil {
		if args, ok := opts.Config.Options["norecursedirs"]; ok {
			noRecurse = []string{"__pycache__"}
			for _, a := range args {
				noRecurse = append(noRecurse, a.Text)
			}
		}
	}
	if err := s.run(opts.Roots, noRecurse); err != nil {
		return nil, err
	}
	s.dropCollectIgnored()
	ix := newIndex(&opts, s.sources)
	if carriers, autouse := ix.carriers(); len(carriers) > 0 {
		var names []string
		for _, c := range carriers {
			names = append(names, c.name)
		}
		s.again(newPrefilter(names, nil, nil, s.pats), func(abs string) (bool, bool) {
			look, all := false, false
			for _, c := range carriers {
				if under(abs, c.src.dir) {
					look = true
					all = all || autouse[c] && s.coll.isTestFile(abs)
				}
			}
			return look, all
		})
		ix = newIndex(&opts, s.sources)
	}
	if s.probeFiles() {
		ix = newIndex(&opts, s.sources)
	}

	r := &rules{ix: ix, opts: &opts, spec: spec, cwd: cwd}
	sort.Slice(s.sources, func(i, j int) bool { return s.sources[i].path < s.sources[j].path })
	r.perModule(s.sources)
	for _, check := range treeChecks {
		check(r, s)
	}

	res := &Result{Findings: s.suppress(append(r.findings, s.warnings...)), Generated: s.generated, Members: r.members, Users: r.users,
		Adopt: adoptable(s.sources, &opts)}
	if opts.ListTests {
		res.Tests = listTests(s.sources)
	}
	sort.Strings(res.Generated)
	finding.Sort(res.Findings)
	return res, nil
}

// listTests lists the tests of every test module read, in path order.
func listTests(sources []*source) []Test {
	var out []Test
	for _, src := range sources {
		for _, t := range src.facts.tests {
			out = append(out, Test{Path: src.path, Abs: src.abs, Name: strings.ReplaceAll(qualifiedName(src.mod, t), ".", "::"), Line: src.mod.Defs[t].Pos.Line})
		}
	}
	return out
}

// words are what the prefilter looks for: the fixture names and the timer
// calls the rules ask for (see rule.Rule), and for --list-group the mark.
func (o *Options) words() (fixtures, marks, calls []string) {
	fixtures, calls = rule.Words(o.Spec)
	if o.ListGroup {
		marks = append(marks, lastName(groupMarkCall))
	}
	return fixtures, marks, calls
}

// carriers are the conftest fixtures other than the deadline fixture that
// depend on it: a test that asks for one of them uses the deadline without
// naming it, so files naming them need a second look. autouse marks those
// that reach every test below their conftest.
func (ix *index) carriers() ([]*fixture, map[*fixture]bool) {
	var out []*fixture
	autouse := map[*fixture]bool{}
	target := ix.opts.Spec.Deadline.Fixture
	var sc scratch
	for _, c := range ix.conftests {
		for _, fx := range c.facts.fixtures[-1] {
			if fx.name == target || c.inRegion(fx.pos().Line) {
				continue
			}
			rs := ix.requests(c, fx.def, false, &sc)
			if _, ok := ix.reaches(c, -1, rs, target, &sc); ok {
				out = append(out, fx)
				autouse[fx] = fx.autouse
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
		have[src.abs] = true
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
			s.warn(display(s.cwd, abs), prob.Pos.Line, prob.Pos.Col, WarnUndecodable, prob.Msg, "save the file as UTF-8, or declare its encoding as Python expects")
			continue
		}
		s.tokenize(display(s.cwd, abs), abs, text, 0)
	}
	return len(s.sources) > n
}

// under reports whether path lies in folder dir or below it.
func under(path, dir string) bool {
	return strings.HasPrefix(path, dir+string(filepath.Separator))
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

// SpecTree returns the options of a scan of the spec's own tree, as check
// and fixturegen docs both read it: the files generate writes, left out
// of the scan, the conftest that holds the region, pytest's configuration
// cfg, and the default roots that exist.
func SpecTree(spec *schema.Spec, cfg *pytestcfg.Config) Options {
	opts := Options{Spec: spec, Planned: map[string]bool{}, Config: cfg}
	for _, t := range render.Targets(spec) {
		if abs := plan.Abs(spec, t.Path); t.Region {
			opts.Conftest = abs
		} else {
			opts.Planned[abs] = true
		}
	}
	for _, r := range DefaultRoots(spec) {
		if _, err := os.Stat(r); err == nil {
			opts.Roots = append(opts.Roots, r)
		}
	}
	return opts
}

// DefaultRoots are the folders check scans when none is named: for each
// file the spec names (the conftest, the probe files and the probe cases'
// test files), the first folder of its path under the spec's folder, as
// the user reaches it. A file at the top of the spec's folder makes the
// whole folder the root.
func DefaultRoots(spec *schema.Spec) []string {
	files := []string{spec.Paths.Conftest, spec.Paths.ProbePlugin, spec.Paths.ProbeTests}
	for _, c := range spec.Probe.Cases {
		file, _, _ := strings.Cut(c.Node, "::")
		files = append(files, file)
	}
	base := filepath.Dir(spec.File)
	var roots []string
	for _, f := range files {
		if f == "" {
			continue
		}
		first, _, nested := strings.Cut(f, "/")
		root := base
		if nested {
			root = filepath.Join(base, first)
		}
		if !slices.Contains(roots, root) {
			roots = append(roots, root)
		}
	}
	// A root inside another is scanned with it.
	var out []string
	for _, r := range roots {
		inner := false
		for _, o := range roots {
			if o != r && (o == "." || under(r, o)) {
				inner = true
			}
		}
		if !inner {
			out = append(out, r)
		}
	}
	return out
}

// display makes an absolute path relative to the working directory, as
// every message shows paths.
func display(cwd, abs string) string {
	return relpath.Rel(cwd, abs)
}
