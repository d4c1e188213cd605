package suite

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/fixturegen/fixturegen/internal/pytext"
	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/internal/python/pytestcfg"
	"github.com/fixturegen/fixturegen/internal/relpath"
)

// Fixture is a function decorated with pytest.Fixture.
type Fixture struct {
	Name    string // the fixture's name: its function's, or name="..."
	Src     *Source
	Def     int // index in src.mod.Defs
	Class   int // index of the class that holds it, or -1
	Autouse bool
}

func (f *Fixture) Pos() pyscan.Pos { return f.Src.Mod.Defs[f.Def].Pos }

// Where names a fixture for messages: "watchdog (tests/conftest.py:12)".
func (f *Fixture) Where() string {
	return fmt.Sprintf("%s (%s:%d)", f.Name, f.Src.Path, f.Pos().Line)
}

// facts is the per-module index the rules query.
type facts struct {
	src *Source
	// fixtures by class (-1 for module level), then by name.
	fixtures map[int]map[string]*Fixture
	// decorates lists the calls in each def's decorators; pytestmark the
	// calls in each scope's "pytestmark = ..." (scope -1 is the module).
	decorates  map[int][]int
	pytestmark map[int][]int
	// autouse lists the autouse fixtures of each class (-1 for module
	// level) in the order they are defined, so that every test asks for
	// them in the same order and without walking a map.
	autouse map[int][]*Fixture
	// isFixture marks the defs that are fixtures, and isTest those that
	// are tests pytest collects, by index in Defs; tests lists the latter.
	isFixture []bool
	isTest    []bool
	tests     []int
	// cases marks the classes pytest collects as unittest test cases, by
	// index in Defs; nil when there are none.
	cases []bool
	// namesDeadline is set when a name this module gives a request or a
	// fixture is the deadline fixture's (see namesFixture); arming lists
	// the calls that may arm a timer (mayArm), for ownTimer.
	namesDeadline bool
	arming        []int

	// What follows depends on the other modules too: each index works it
	// out anew (newIndex forgets it), when it is first asked for. Only the goroutine
	// that applies the rules to this module asks, but for a conftest's,
	// which newIndex fills before the rules start.

	// uses caches rules.usesDeadline by def; mayReach caches
	// index.mayReach once reachKnown.
	uses                 []use
	mayReach, reachKnown bool
	// levels and classLevels cache index.levels, for module level and
	// by class.
	levels      []level
	classLevels [][]level
}

// index holds every module read, and how pytest makes fixtures visible
// across them: a module sees its own, then those of the conftest.py in its
// folder and in every folder above.
//
// Each source's facts hang from the source itself (source.facts), set
// anew by each index: the rules look them up for every test and every
// fixture it reaches.
type index struct {
	opts      *Options
	conftests map[string]*Source // by absolute folder
	// byAbs holds every module read, by absolute path, for the bases a
	// test class takes from another module.
	byAbs map[string]*Source
	// timed holds the names of the timed bases (timedBaseNames), so that
	// a base of another name is not looked for in the files it may be in.
	timed map[string]bool
}

// testPatterns are python_functions and python_classes, read once from the
// configuration.
type testPatterns struct {
	funcs, classes []namePattern
}

func (o *Options) testPatterns() *testPatterns {
	return &testPatterns{namePatterns(o.functionPatterns()), namePatterns(o.classPatterns())}
}

// scratch holds the buffers one goroutine reuses from one test to the
// next: the rules ask for the requests of thousands of tests.
type scratch struct {
	reqBuf   []Request
	markBuf  []int
	queueBuf []reachItem
	seenBuf  []*Fixture
}

// reachItem is a fixture name that reaches looks up, where it looks it up,
// and the request that led there.
type reachItem struct {
	name   string
	from   []level
	origin Request
}

func newIndex(opts *Options, sources []*Source) *index {
	ix := &index{opts: opts, conftests: map[string]*Source{}, byAbs: make(map[string]*Source, len(sources)), timed: map[string]bool{}}
	for _, name := range timedBaseNames(sources) {
		ix.timed[name] = true
	}
	for _, s := range sources {
		// Forget what an earlier index worked out.
		f := s.facts
		clear(f.uses)
		f.reachKnown = false
		f.levels, f.classLevels = nil, nil
		ix.byAbs[s.Abs] = s
		if s.Conftest {
			ix.conftests[s.Dir] = s
		}
	}
	// The rules, on several goroutines, look up fixtures in other modules
	// only in conftests: their lookup levels are worked out here, and each
	// goroutine works out its own modules'.
	for _, c := range ix.conftests {
		ix.levels(c, -1)
		for i, d := range c.Mod.Defs {
			if d.Kind == pyscan.Class {
				ix.levels(c, i)
			}
		}
	}
	return ix
}

// regionFixture is how the generated region decorates its fixtures: with
// pytest under a private name bound from its loader's return value, which
// scope resolution rightly leaves unresolved. No other code may bind that
// name (one of the names the region defines), so the decorator is pytest's.
var regionFixture = pytext.RegionPytest + ".fixture"

// newFacts works out what the rules need of one module alone; the readers
// call it as soon as they have scanned the module.
func newFacts(s *Source, pats *testPatterns, deadline string) *facts {
	m := s.Mod
	f := &facts{src: s, fixtures: map[int]map[string]*Fixture{}, decorates: map[int][]int{}, pytestmark: map[int][]int{},
		autouse: map[int][]*Fixture{}, isFixture: make([]bool, len(m.Defs)), isTest: make([]bool, len(m.Defs)), uses: make([]use, len(m.Defs))}
	// The new array is written before it is read. Fresh memory that is
	// read first is mapped to the shared zero page, and the write that
	// follows must then flush that mapping from every core's TLB: an
	// interrupt to the other core, costly under a hypervisor. The rules
	// read this array first, on another goroutine.
	clear(f.uses)
	if s.Test {
		f.cases = caseClasses(m, s.knownCases)
		unit := withMixins(m, f.cases)
		for i := range m.Defs {
			if collects(m, i, pats, unit) {
				f.isTest[i] = true
				f.tests = append(f.tests, i)
			}
		}
	}
	f.namesDeadline = namesFixture(m, deadline)
	for i, c := range m.Calls {
		if mayArm(m, c.Callee) {
			f.arming = append(f.arming, i)
		}
		if c.Decorates >= 0 {
			f.decorates[c.Decorates] = append(f.decorates[c.Decorates], i)
		}
		if c.Target == pytestmarkTarget && (c.Scope < 0 || m.Defs[c.Scope].Kind == pyscan.Class) {
			f.pytestmark[c.Scope] = append(f.pytestmark[c.Scope], i)
		}
	}
	for i, d := range m.Defs {
		if d.Kind != pyscan.Function {
			continue
		}
		class := -1
		if d.Parent >= 0 {
			if m.Defs[d.Parent].Kind != pyscan.Class {
				continue // a fixture defined inside a function is not collected
			}
			class = d.Parent
		}
		for _, dec := range d.Decorators {
			if !pyscan.IsFixtureDecorator(m.ResolveAt(dec.Name, d.Parent, dec.Pos)) && dec.Name != regionFixture {
				continue
			}
			fx := &Fixture{Name: d.Name, Src: s, Def: i, Class: class}
			if dec.Call >= 0 {
				for _, a := range m.Calls[dec.Call].Args {
					switch {
					case a.Keyword == "name" && a.Kind == pyscan.ArgString:
						fx.Name = a.Value
					case a.Keyword == "autouse" && a.Kind == pyscan.ArgName && a.Value == "True":
						fx.Autouse = true
					}
				}
			}
			if f.fixtures[class] == nil {
				f.fixtures[class] = map[string]*Fixture{}
			}
			f.fixtures[class][fx.Name] = fx
		}
	}
	// A later definition of a name replaces an earlier one, as in Python,
	// so only the fixtures the maps kept count.
	var autouse []*Fixture
	for _, byName := range f.fixtures {
		for _, fx := range byName {
			f.isFixture[fx.Def] = true
			if fx.Autouse {
				autouse = append(autouse, fx)
			}
		}
	}
	slices.SortFunc(autouse, func(a, b *Fixture) int {
		return cmp.Or(a.Def-b.Def, strings.Compare(a.Name, b.Name))
	})
	for _, fx := range autouse {
		f.autouse[fx.Class] = append(f.autouse[fx.Class], fx)
	}
	return f
}

// level is one place where fixtures are looked up: a class of a module,
// or a module (class -1).
type level struct {
	src   *Source
	class int
}

// levels lists where a name used at (src, class) is looked up, nearest
// first: the enclosing classes, the module, then the conftests from the
// module's folder up.
//
// The slice is shared: callers must not change it.
func (ix *index) levels(src *Source, class int) []level {
	f, m := src.facts, src.Mod
	cached := &f.levels
	if class >= 0 {
		if f.classLevels == nil {
			f.classLevels = make([][]level, len(m.Defs))
			// Written before it is read, as newFacts does with uses:
			// on test_socket of Lib/test (786 defs) this array spans
			// five fresh pages, and a read first cost each an interrupt
			// to the other core when it was written.
			clear(f.classLevels)
		}
		cached = &f.classLevels[class]
	}
	if *cached != nil {
		return *cached
	}
	var ls []level
	for c := class; c >= 0; c = m.Defs[c].Parent {
		if m.Defs[c].Kind == pyscan.Class {
			ls = append(ls, level{src, c})
		}
	}
	ls = append(ls, level{src, -1})
	// The conftests in the module's folder and every folder above it,
	// nearest first.
	for d := range relpath.Up(src.Dir) {
		if c := ix.conftests[d]; c != nil && c != src {
			ls = append(ls, level{c, -1})
		}
	}
	*cached = ls[:len(ls):len(ls)] // an append by a caller copies
	return *cached
}

func (ix *index) lookup(name string, ls []level) (*Fixture, []level) {
	for i, l := range ls {
		if fx := l.src.facts.fixtures[l.class][name]; fx != nil {
			return fx, ls[i+1:]
		}
	}
	return nil, nil
}

// Request is how a test or fixture asks for a fixture.
type Request struct {
	Name string
	How  string // "parameter", "usefixtures", "autouse"
	Pos  pyscan.Pos
	// Autouse is the fixture that asks, for "Autouse"; nil otherwise.
	Autouse *Fixture
}

// requests lists what the test or fixture def in src asks for directly:
// its parameters, the usefixtures marks on it, its classes and its module
// (for tests), and every autouse fixture it can see.
//
// The slice is sc's, valid until its next use.
func (ix *index) requests(src *Source, def int, isTest bool, sc *scratch) []Request {
	f := src.facts
	m := src.Mod
	d := m.Defs[def]
	rs := sc.reqBuf[:0]
	defer func() { sc.reqBuf = rs[:0] }()
	for _, p := range d.Params {
		if p.Name == "self" || p.Name == "cls" {
			continue
		}
		rs = append(rs, Request{Name: p.Name, How: "parameter", Pos: p.Pos})
	}
	if !isTest {
		return rs
	}
	sc.markBuf = f.marks(def, sc.markBuf[:0])
	for _, ci := range sc.markBuf {
		c := m.Calls[ci]
		if m.ResolveCall(c) != usefixturesMarkCall {
			continue
		}
		for _, a := range c.Args {
			if a.Kind == pyscan.ArgString && a.Keyword == "" {
				rs = append(rs, Request{Name: a.Value, How: "usefixtures", Pos: a.Pos})
			}
		}
	}
	for _, l := range ix.levels(src, d.Parent) {
		for _, fx := range l.src.facts.autouse[l.class] {
			rs = append(rs, Request{Name: fx.Name, How: "autouse", Pos: d.Pos, Autouse: fx})
		}
	}
	return rs
}

// marks appends to out the calls in the marks that apply to def: its
// decorators, and the decorators and pytestmark of each class around it and
// of the module.
func (f *facts) marks(def int, out []int) []int {
	m := f.src.Mod
	out = append(out, f.decorates[def]...)
	for c := m.Defs[def].Parent; c >= 0; c = m.Defs[c].Parent {
		if m.Defs[c].Kind == pyscan.Class {
			out = append(out, f.decorates[c]...)
			out = append(out, f.pytestmark[c]...)
		}
	}
	return append(out, f.pytestmark[-1]...)
}

// namesFixture reports whether name is one that m can put into a fixture
// search: a def's name or one of its parameters, or a call's argument (a
// usefixtures mark's strings, a fixture's name=). When neither a module
// nor any conftest above it does, no def of the module reaches a fixture
// of that name (see mayReach).
func namesFixture(m *pyscan.Module, name string) bool {
	for _, d := range m.Defs {
		if d.Name == name || slices.ContainsFunc(d.Params, func(p pyscan.Param) bool { return p.Name == name }) {
			return true
		}
	}
	return slices.ContainsFunc(m.Calls, func(c pyscan.Call) bool {
		return slices.ContainsFunc(c.Args, func(a pyscan.Arg) bool { return a.Value == name })
	})
}

// reachShortcut lets mayReach answer; a test turns it off to check that
// the rules find the same without it.
var reachShortcut = true

// mayReach reports whether a def of src may reach the deadline fixture.
// reaches compares with the target the names of the requests (a def's
// parameters, the strings of the usefixtures marks around it, the names
// of the autouse fixtures of its lookup levels) and the parameters of
// the fixtures it finds, all in src or in the conftests of its levels;
// when none of those modules names the deadline fixture (namesFixture),
// none of its defs reaches it, and reaches need not run for each. On
// CPython's Lib/test that was two fifths of the rules' time, which runs
// after the scan.
func (ix *index) mayReach(src *Source) bool {
	if !reachShortcut {
		return true
	}
	f := src.facts
	if !f.reachKnown {
		// The levels start with src itself.
		f.mayReach = slices.ContainsFunc(ix.levels(src, -1), func(l level) bool { return l.src.facts.namesDeadline })
		f.reachKnown = true
	}
	return f.mayReach
}

// reaches reports whether the requests, followed through the fixtures they
// name, reach a fixture named target, and through which request.
func (ix *index) reaches(src *Source, class int, rs []Request, target string, sc *scratch) (Request, bool) {
	queue := sc.queueBuf[:0]
	// A test reaches few fixtures, so a list is cheaper than a map.
	seen := sc.seenBuf[:0]
	defer func() { sc.queueBuf, sc.seenBuf = queue[:0], seen[:0] }()
	start := ix.levels(src, class)
	for _, r := range rs {
		queue = append(queue, reachItem{r.Name, start, r})
	}
	// The queue is walked by index, not sliced from the front, so that
	// the buffer keeps its capacity for the next call.
	for next := 0; next < len(queue); next++ {
		it := queue[next]
		if it.name == target {
			return it.origin, true
		}
		fx, rest := ix.lookup(it.name, it.from)
		if fx == nil || slices.Contains(seen, fx) {
			continue
		}
		seen = append(seen, fx)
		own := ix.levels(fx.Src, fx.Class)
		for _, p := range fx.Src.Mod.Defs[fx.Def].Params {
			from := own
			if p.Name == fx.Name {
				from = rest // a fixture that overrides one of its own name asks for the outer one
			}
			queue = append(queue, reachItem{p.Name, from, it.origin})
		}
	}
	return Request{}, false
}

// collects is Source.IsTest worked out, for newFacts. A method of a unittest
// test case, or of a mixin a case inherits it from, is a test when its
// name starts with "test", as unittest's loader has it, whatever
// python_functions says; such classes are collected whatever their names.
// cases marks them.
func collects(m *pyscan.Module, def int, pats *testPatterns, cases []bool) bool {
	d := m.Defs[def]
	if d.Kind != pyscan.Function {
		return false
	}
	p := d.Parent
	if p >= 0 && cases != nil && cases[p] {
		if !strings.HasPrefix(d.Name, "test") {
			return false
		}
		p = m.Defs[p].Parent
	} else if !matchName(pats.funcs, d.Name) {
		return false
	}
	return collectedClass(m, p, pats, cases)
}

// namePattern is a pattern of python_functions or python_classes: a glob
// when it has glob characters, a prefix otherwise.
type namePattern struct {
	text string
	glob bool
}

func namePatterns(patterns []string) []namePattern {
	out := make([]namePattern, len(patterns))
	for i, p := range patterns {
		out[i] = namePattern{p, strings.ContainsAny(p, "*?[")}
	}
	return out
}

// matchName matches a name as pytest matches python_functions and
// python_classes: a pattern with glob characters is a glob, any other is a
// prefix.
func matchName(patterns []namePattern, name string) bool {
	for _, p := range patterns {
		if p.glob {
			if pytestcfg.Fnmatch(name, p.text) {
				return true
			}
		} else if strings.HasPrefix(name, p.text) {
			return true
		}
	}
	return false
}

// IsTest reports whether def is a test pytest collects: a function
// named by python_functions at module level, or in a class named by
// python_classes, in a module named by python_files (see collects).
func (s *Source) IsTest(def int) bool { return s.facts.isTest[def] }

// Tests lists the module's tests. The slice is shared: callers must not
// change it.
func (s *Source) Tests() []int { return s.facts.tests }

// Fixtures are the module's fixtures by class (-1 for module level), then
// by name. The maps are shared: callers must not change them.
func (s *Source) Fixtures() map[int]map[string]*Fixture { return s.facts.fixtures }

// ArmingCalls lists the calls that may arm a timer, by their names alone
// (see ArmsTimer, which tells).
func (s *Source) ArmingCalls() []int { return s.facts.arming }

// Requests lists what the test or fixture def in src asks for directly
// (see index.requests). The slice is q's, valid until its next use.
func (q *Query) Requests(src *Source, def int, isTest bool) []Request {
	return q.ix.requests(src, def, isTest, &q.sc)
}

// Reaches reports whether the requests rs, made at (src, class), reach a
// fixture named target, and through which request.
func (q *Query) Reaches(src *Source, class int, rs []Request, target string) (Request, bool) {
	return q.ix.reaches(src, class, rs, target, &q.sc)
}
