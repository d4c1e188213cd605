// Package discover finds a hand-written preload/deadline contract in a
// project by reading its Python statically (with pyscan; no Python runs),
// so that fixturegen init can write the spec that generates the same
// contract.
//
// The contract it looks for is the one the reference describes: a pytest
// fixture in a conftest.py that arms an interval timer (signal.setitimer or
// signal.alarm), whose parameters name a fixture that only imports modules;
// or the autouse per-test timeout most suites write, with its seconds from
// an environment variable and its own alarm handler (see Contract);
// test modules below that conftest that use the fixtures and mark
// themselves with pytest.mark.xdist_group; and, perhaps, a probe plugin
// that wraps signal.setitimer with tests that load it with pytest -p.
package discover

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/fixturegen/fixturegen/internal/pytext"
	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/internal/python/pytestcfg"
	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/schema"
)

// Contract is what Find learned. Paths are slash-separated and relative to
// the folder Find searched.
type Contract struct {
	Conftest string
	Deadline Fixture
	Preload  *Fixture // nil when the deadline fixture takes no preload fixture

	// Autouse is true when the deadline fixture is autouse: every test
	// below the conftest runs under its alarm.
	Autouse   bool
	AutouseAt string

	// Seconds is the deadline, or the default of SecondsEnv; 0 when it
	// could not be read (see Unread).
	Seconds   float64
	SecondsAt string
	// SecondsEnv is the environment variables the seconds are read from,
	// the first one set winning; nil when they are fixed.
	SecondsEnv   []string
	SecondsEnvAt string
	// SecondsFallbackAt is the path:line:col of a helper's return of the
	// default when a variable of SecondsEnv holds no number (its
	// "except ValueError: return 5"); "" without one.
	SecondsFallbackAt string
	Timer             string // schema.TimerReal, TimerVirtual or TimerProf
	TimerAt           string // path:line:col of the call that arms the alarm
	// Interval is the path:line:col of a repeat interval given to
	// setitimer, or "".
	Interval string
	// Guard is the path:line:col of a hasattr(signal, "SIGALRM") test: the
	// hand-written deadline runs only where the signal exists.
	Guard string

	// Handler is the function the fixture installs for the timer's signal,
	// when it is defined in the conftest; HandlerNested tells one defined
	// in the fixture from one at module level.
	Handler       *Fixture
	HandlerNested bool
	// HandlerInstalledAt is the path:line:col of a signal.signal call at
	// module level, or in the conftest's pytest_configure
	// (HandlerInConfigure), that installs Handler for every alarm of the
	// process, when the fixture installs none itself; "" otherwise.
	HandlerInstalledAt string
	HandlerInConfigure bool
	// Raises is one of pytext.Raises (schema.RaisesFailed for a handler
	// that calls pytest.fail); "" when not read.
	Raises   string
	RaisesAt string
	// Message is the failure's message, with literal braces doubled and
	// SecondsPlaceholder where it formats the seconds; "" when not read.
	Message string
	// MessageAt is the path:line:col of the message; "" without one.
	MessageAt string
	// DumpThreads is true when the handler dumps every thread's stack
	// with faulthandler first.
	DumpThreads bool
	DumpAt      string
	// DefersAt is the path:line:col of a pluginmanager.hasplugin("timeout")
	// test in the fixture, which leaves the timing to pytest-timeout when
	// that plugin is loaded; "" without one.
	DefersAt string

	Modules []string

	Group     string // "" when no module using the fixtures has a group mark
	GroupUses []Use  // the group marks found, most used name first

	Probe *Probe // nil when there is no probe plugin

	// Rearms are the test modules' fixtures below the conftest that arm
	// the timer again for their module, relying on the suite's handler.
	Rearms []Rearm
	// Overrides are the deadline fixtures of the same name in conftests
	// below Conftest, which pytest runs in its place for the tests below
	// their folders, in path order.
	Overrides []Override

	// Notes are things the user should check, each starting with the
	// path:line:col it is about.
	Notes []string
	// Unread are the [deadline] keys whose values could not be read.
	Unread []Unread

	seconds seconds // what the seconds expression says, for the message
}

// Fixture is a fixture definition.
type Fixture struct {
	Name string
	At   string // path:line:col of its name
	// Line is the 1-based line of the first decorator.
	Line int
}

// Override is a deadline fixture in a conftest below the contract's that
// bears the deadline fixture's name: pytest gives the tests below its
// folder that fixture in place of the contract's, so it says "these tests
// get N seconds", as a deadline.module_seconds glob does in a spec.
type Override struct {
	Conftest string
	Pattern  string // the module_seconds glob of the tests below its folder
	At       string // path:line:col of the fixture's name
	// Seconds is what it arms the timer for; 0 when that was not read
	// (SecondsAt then says where the call is).
	Seconds   float64
	SecondsAt string
	// SecondsEnv is the variables that set its seconds; nil when fixed.
	SecondsEnv []string
}

// Use is one xdist_group mark in a module that uses the fixtures.
type Use struct {
	Group string
	At    string
}

// Probe is an existing probe plugin and the tests that load it.
type Probe struct {
	Plugin    string
	Tests     []string
	Generated bool // fixturegen generated the plugin, so it may rewrite it
}

// Stray is a call in a conftest that arms a timer outside the body of
// every fixture: in a helper, such as a context manager a fixture enters.
// init reads a deadline only from a fixture that arms the timer in its own
// body, so when it finds no contract it names these rather than pass them
// over in silence.
type Stray struct {
	At       string // path:line:col of the call
	Arms     string // signal.setitimer or signal.alarm
	In       string // the module-level function that holds the call; "" at module level
	CalledBy string // a fixture that calls In; "" for none
	// Bounds is set when In is a fixture that arms the timer only to
	// bound its own setup (suite.OwnSetup): no deadline to read.
	Bounds bool
	// HandedBy is the fixture that hands its tests In, a function nested
	// in it that arms the timer (suite.HandedOut); "" for none.
	HandedBy string
}

// Find searches the project at root for a hand-written contract and returns
// nil when there is none, with the stray timer calls of its conftests. It
// reads the files pytest reaches, walked as check walks them
// (suite.Files): the folders norecursedirs names (by default hidden ones,
// virtual environments, build output) and what testpaths leaves out hold
// nothing pytest runs.
func Find(root string) (*Contract, []Stray, error) {
	files, err := pytestFiles(root)
	if err != nil {
		return nil, nil, err
	}
	var strays []Stray
	var found []*Contract
	for _, rel := range files {
		if path.Base(rel) != "conftest.py" {
			continue
		}
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return nil, nil, err
		}
		c, more := fromConftest(root, rel, src)
		if c == nil {
			strays = append(strays, more...)
			continue
		}
		found = append(found, c)
	}
	if len(found) == 0 {
		return nil, strays, nil
	}
	// The conftest nearest the root covers the most tests: the others
	// below it that bear its deadline's name override it for theirs.
	c := found[0]
	for _, other := range found[1:] {
		if depth(other.Conftest) < depth(c.Conftest) {
			c = other
		}
	}
	for _, other := range found {
		if other != c && other.Deadline.Name == c.Deadline.Name && below(other.Conftest, path.Dir(c.Conftest)) {
			c.Overrides = append(c.Overrides, override(other))
		}
	}
	if err := c.findGroup(root, files); err != nil {
		return nil, nil, err
	}
	if err := c.findProbe(root, files); err != nil {
		return nil, nil, err
	}
	if c.Rearms, err = findRearms(root, path.Dir(c.Conftest), files); err != nil {
		return nil, nil, err
	}
	return c, nil, nil
}

// depth counts the folders above a slash-separated path.
func depth(rel string) int { return strings.Count(rel, "/") }

// override reads the overriding deadline fixture c found.
func override(c *Contract) Override {
	o := Override{
		Conftest: c.Conftest, Pattern: path.Dir(c.Conftest) + "/**", At: c.Deadline.At,
		Seconds: c.Seconds, SecondsAt: c.SecondsAt,
	}
	if len(c.SecondsEnv) > 0 {
		o.SecondsEnv = c.SecondsEnv
	}
	if o.SecondsAt == "" {
		o.SecondsAt = c.TimerAt
	}
	return o
}

func at(file string, p pyscan.Pos) string {
	return fmt.Sprintf("%s:%d:%d", file, p.Line, p.Col)
}

// fixtures returns the module-level fixture definitions of m by name.
func fixtures(m *pyscan.Module) map[string]int {
	out := map[string]int{}
	for i, d := range m.Defs {
		if d.Parent < 0 && m.IsFixture(i) {
			out[m.FixtureName(i)] = i
		}
	}
	return out
}

// topLevel returns the module-level definition that holds scope, or -1
// for module level itself.
func topLevel(m *pyscan.Module, scope int) int {
	for scope >= 0 && m.Defs[scope].Parent >= 0 {
		scope = m.Defs[scope].Parent
	}
	return scope
}

// nestedIn returns the def whose body directly under def top holds scope,
// which lies inside a function nested in top.
func nestedIn(m *pyscan.Module, scope, top int) int {
	for m.Defs[scope].Parent != top {
		scope = m.Defs[scope].Parent
	}
	return scope
}

// fromConftest returns the contract whose deadline fixture conftest src
// defines, or nil and the stray timer calls of src. file is relative to
// root, below which the modules it imports from are read; root "" reads
// none.
func fromConftest(root, file string, src []byte) (*Contract, []Stray) {
	s := newSource(file, src)
	s.root, s.modules = root, map[string]*source{}
	m := s.m
	fx := fixtures(m)
	names := make([]string, 0, len(fx))
	for name := range fx {
		names = append(names, name)
	}
	// Source order, so the first deadline fixture in the file wins: the
	// first that keeps its alarm armed while the test runs, or else the
	// first that arms one at all.
	sort.Slice(names, func(i, j int) bool { return fx[names[i]] < fx[names[j]] })
	spans := map[int]bool{}
	for _, def := range fx {
		spans[def] = suite.SpansTest(m, def)
	}
	sort.SliceStable(names, func(i, j int) bool { return spans[fx[names[i]]] && !spans[fx[names[j]]] })
	for _, name := range names {
		def := fx[name]
		if use := suite.FixtureTimer(m, def); use == suite.OwnSetup || use == suite.HandedOut {
			continue // a loader's alarm, or one the tests arm, is no deadline
		}
		for _, call := range m.Calls {
			if !m.Inside(call.Scope, def) {
				continue
			}
			callee, ok := armingCall(m, call)
			if !ok {
				continue
			}
			c := &Contract{Conftest: file, Deadline: fixture(m, file, def), Timer: schema.TimerReal}
			if m.Defs[def].Pos.Col > len("def ")+1 {
				// Defined under an if or a try at module level: generate
				// --adopt takes out only definitions at module level.
				c.Notes = append(c.Notes, fmt.Sprintf("%s: %s is defined inside a block (an if or a try); move it to module level before running fixturegen generate --adopt, which replaces only module-level fixtures", c.Deadline.At, name))
			}
			c.readAutouse(s, def)
			c.readTimer(s, call, callee)
			c.readGuard(s, def)
			c.readHandler(s, def)
			c.readDefer(s, def)
			c.readPreload(m, file, fx, def)
			c.secondsInMessage()
			c.readEarlyYield(s, def, call)
			c.readCatchAroundYield(s, def)
			for _, other := range names {
				if other == name {
					continue
				}
				switch suite.FixtureTimer(m, fx[other]) {
				case suite.OwnSetup:
					c.Notes = append(c.Notes, fmt.Sprintf("%s: fixture %s arms the timer to bound its own setup and disarms it before any test runs; generate --adopt leaves it as it is, and check reports its alarm (own-timer)", at(file, m.Defs[fx[other]].Pos), other))
				case suite.HandedOut:
					c.Notes = append(c.Notes, fmt.Sprintf("%s: fixture %s hands its tests a function that arms the timer, with seconds they choose; generate --adopt leaves it as it is, and check reports its alarm (own-timer)", at(file, m.Defs[fx[other]].Pos), other))
				case suite.Deadline:
					c.Notes = append(c.Notes, fmt.Sprintf("%s: fixture %s arms the timer too; init reads only %s, and generate --adopt replaces only it", at(file, m.Defs[fx[other]].Pos), other, name))
				}
			}
			return c, nil
		}
	}
	return nil, strays(m, file, fx)
}

// readEarlyYield notes a yield in the fixture def before the call that
// arms the timer, under an if that reads the test's marks, as "if
// request.node.get_closest_marker("no_timeout"): yield; return" writes an
// opt-out: the tests that take that path ran without a deadline, and the
// generated one covers every test it reaches. An early yield under any
// other test (the seconds are 0) is the deadline turned off, which the
// spec keeps.
func (c *Contract) readEarlyYield(s *source, def int, arming pyscan.Call) {
	marks := false // the latest if of the fixture's body reads a test's marks
	for _, l := range s.lines {
		if l.toks[0].Line >= arming.Pos.Line {
			return
		}
		if !s.m.Inside(l.scope, def) {
			continue
		}
		switch text(l.toks[0]) {
		case "if", "elif":
			marks = slices.ContainsFunc(l.toks, func(t pyscan.Token) bool {
				return t.Kind == pyscan.Name && markReaders[text(t)]
			})
		case "yield":
			if marks {
				c.Notes = append(c.Notes, fmt.Sprintf("%s: the fixture yields here, before it arms the timer, for the tests a mark opts out: they ran without a deadline, and the generated deadline covers every test it reaches; give them more seconds ([deadline.module_seconds]), or keep them from requesting it", s.at(l.toks[0])))
				return
			}
		}
	}
}

// readCatchAroundYield notes an except clause of the fixture def, around
// its yield, that catches the exception the handler raises: pytest never
// raises a test's exception at a fixture's yield, so the clause never ran
// (a pytest.fail there with a message of its own never failed a test),
// and the failure the tests saw is the handler's, which the spec keeps.
func (c *Contract) readCatchAroundYield(s *source, def int) {
	if c.Raises != "TimeoutError" && c.Raises != "AssertionError" {
		return
	}
	yieldCol := 0 // the column of the yield statement, once it is found
	for _, l := range s.lines {
		if !s.m.Inside(l.scope, def) {
			continue
		}
		first, col := text(l.toks[0]), s.pos(l.toks[0]).Col
		switch {
		case yieldCol == 0 && l.scope == def && first == "yield":
			yieldCol = col
		case yieldCol == 0 || col >= yieldCol:
			// Before the yield, or beside it in the body of its try.
		case first != "except":
			return // the yield's try, if any, has no except clause
		case slices.ContainsFunc(l.toks[1:], func(t pyscan.Token) bool { return t.Kind == pyscan.Name && text(t) == c.Raises }):
			c.Notes = append(c.Notes, fmt.Sprintf("%s: the fixture catches %s around its yield, but pytest never raises a test's exception there, so this clause never ran; the failure the tests saw is the handler's, which the spec keeps", s.at(l.toks[0]), c.Raises))
			return
		}
	}
}

// markReaders are the names through which a fixture reads a test's marks.
var markReaders = map[string]bool{"get_closest_marker": true, "iter_markers": true, "keywords": true}

// armingCall reports whether call arms a timer, signal.setitimer or
// signal.alarm, as check reads it: a zero delay (signal.alarm(0) in a
// teardown, or in a fixture that only asserts the alarm is off) disarms
// it.
func armingCall(m *pyscan.Module, call pyscan.Call) (string, bool) {
	callee, arms := suite.ArmsTimer(m, call)
	return callee, arms && (callee == "signal.setitimer" || callee == "signal.alarm")
}

// strays returns the calls of m that arm a timer outside every fixture in
// fx, with the module-level function that holds each and a fixture that
// calls that function.
func strays(m *pyscan.Module, file string, fx map[string]int) []Stray {
	var out []Stray
	for _, call := range m.Calls {
		callee, ok := armingCall(m, call)
		if !ok {
			continue
		}
		st := Stray{At: at(file, call.Pos), Arms: callee}
		if top := topLevel(m, call.Scope); top >= 0 {
			st.In = m.Defs[top].Name
			st.CalledBy = fixtureCalling(m, fx, st.In)
			if def, ok := fx[st.In]; ok && def == top {
				switch suite.FixtureTimer(m, top) {
				case suite.OwnSetup:
					st.Bounds = true
				case suite.HandedOut:
					st.In, st.HandedBy = m.Defs[nestedIn(m, call.Scope, top)].Name, st.In
				}
			}
		}
		out = append(out, st)
	}
	return out
}

// fixtureCalling returns the first fixture of fx, in source order, that
// calls the module-level function name, or "".
func fixtureCalling(m *pyscan.Module, fx map[string]int, name string) string {
	first, firstDef := "", -1
	for _, call := range m.Calls {
		if call.Callee != name {
			continue
		}
		for fixture, def := range fx {
			if m.Inside(call.Scope, def) && (firstDef < 0 || def < firstDef) {
				first, firstDef = fixture, def
			}
		}
	}
	return first
}

func fixture(m *pyscan.Module, file string, def int) Fixture {
	d := m.Defs[def]
	line := d.Pos.Line
	for _, dec := range d.Decorators {
		line = min(line, dec.Pos.Line)
	}
	return Fixture{Name: m.FixtureName(def), At: at(file, d.Pos), Line: line}
}

// readPreload finds the fixture among the deadline fixture's parameters
// that imports modules, and the modules it imports, in order.
func (c *Contract) readPreload(m *pyscan.Module, file string, fx map[string]int, deadline int) {
	for _, p := range m.Defs[deadline].Params {
		def, ok := fx[p.Name]
		if !ok {
			continue
		}
		var modules []string
		seen := map[string]bool{}
		for _, im := range m.Imports {
			if im.Scope != def {
				continue
			}
			mod := im.Module
			switch {
			case strings.HasPrefix(mod, "."):
				c.Notes = append(c.Notes, fmt.Sprintf("%s: a relative import; add its absolute module name to [preload].modules by hand", at(file, im.Pos)))
				continue
			case im.Name != "":
				c.Notes = append(c.Notes, fmt.Sprintf("%s: from %s import %s preloads %s; if %s is a submodule, add %s.%s to [preload].modules",
					at(file, im.Pos), mod, im.Name, mod, im.Name, mod, im.Name))
			}
			if !seen[mod] {
				seen[mod] = true
				modules = append(modules, mod)
			}
		}
		if len(modules) == 0 {
			continue
		}
		f := fixture(m, file, def)
		c.Preload = &f
		c.Modules = modules
		return
	}
}

// findGroup reads the xdist_group marks of the test modules that use the
// fixtures: the ones below the conftest's folder, which its fixtures reach.
func (c *Contract) findGroup(root string, files []string) error {
	names := map[string]bool{c.Deadline.Name: true}
	if c.Preload != nil {
		names[c.Preload.Name] = true
	}
	count := map[string]int{}
	for _, rel := range files {
		if !isTestFile(rel) || !below(rel, path.Dir(c.Conftest)) {
			continue
		}
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return err
		}
		m := pyscan.Scan(src)
		if !usesAny(m, names) {
			continue
		}
		for _, call := range m.Calls {
			if m.Resolve(call.Callee) != "pytest.mark.xdist_group" {
				continue
			}
			for _, a := range call.Args {
				if a.Kind == pyscan.ArgString && (a.Keyword == "" || a.Keyword == "name") {
					c.GroupUses = append(c.GroupUses, Use{a.Value, at(rel, a.Pos)})
					count[a.Value]++
					break
				}
			}
		}
	}
	sort.SliceStable(c.GroupUses, func(i, j int) bool {
		return count[c.GroupUses[i].Group] > count[c.GroupUses[j].Group]
	})
	if len(c.GroupUses) > 0 {
		c.Group = c.GroupUses[0].Group
		for _, u := range c.GroupUses {
			if u.Group != c.Group {
				c.Notes = append(c.Notes, fmt.Sprintf("%s: this module uses group %q, not %q, which most modules use; fixturegen keeps one group", u.At, u.Group, c.Group))
			}
		}
	}
	return nil
}

// usesAny reports whether a test module uses one of the fixtures: in a
// usefixtures mark or as a parameter of a function.
func usesAny(m *pyscan.Module, names map[string]bool) bool {
	for _, call := range m.Calls {
		if m.Resolve(call.Callee) != "pytest.mark.usefixtures" {
			continue
		}
		for _, a := range call.Args {
			if a.Kind == pyscan.ArgString && names[a.Value] {
				return true
			}
		}
	}
	for _, d := range m.Defs {
		for _, p := range d.Params {
			if names[p.Name] {
				return true
			}
		}
	}
	return false
}

func isTestFile(rel string) bool {
	base := path.Base(rel)
	return strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py")
}

func below(rel, dir string) bool {
	return dir == "." || strings.HasPrefix(rel, dir+"/")
}

// findProbe looks below the conftest's folder for a probe plugin: a module
// that is not a test module, defines a pytest hook and names setitimer (to
// wrap it); and for the test modules that name the plugin's module in a
// string, as pytest -p takes it.
func (c *Contract) findProbe(root string, files []string) error {
	for _, rel := range files {
		// The generated deadline runtime defines a hook and names
		// setitimer too, but it is no probe.
		if isTestFile(rel) || path.Base(rel) == "conftest.py" || path.Base(rel) == schema.RuntimeFile || !below(rel, path.Dir(c.Conftest)) {
			continue
		}
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return err
		}
		m := pyscan.Scan(src)
		if !hasHook(m) || !hasName(src, "setitimer") {
			continue
		}
		p := &Probe{Plugin: rel, Generated: bytes.HasPrefix(src, []byte(pytext.GeneratedHeader))}
		stem := strings.TrimSuffix(path.Base(rel), ".py")
		for _, t := range files {
			if !isTestFile(t) {
				continue
			}
			tsrc, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(t)))
			if err != nil {
				return err
			}
			if hasString(tsrc, stem) {
				p.Tests = append(p.Tests, t)
			}
		}
		c.Probe = p
		return nil
	}
	return nil
}

func hasHook(m *pyscan.Module) bool {
	for _, d := range m.Defs {
		if d.Parent < 0 && strings.HasPrefix(d.Name, "pytest_") {
			return true
		}
	}
	return false
}

// hasName reports whether src uses name as code, not in a string or comment.
func hasName(src []byte, name string) bool {
	lx := pyscan.NewLexer(src)
	for t := lx.Next(); t.Kind != pyscan.EOF; t = lx.Next() {
		if t.Kind == pyscan.Name && string(t.Text) == name {
			return true
		}
	}
	return false
}

// hasString reports whether src holds the plain string literal s.
func hasString(src []byte, s string) bool {
	lx := pyscan.NewLexer(src)
	for t := lx.Next(); t.Kind != pyscan.EOF; t = lx.Next() {
		if t.Kind == pyscan.String && (string(t.Text) == strconv.Quote(s) || string(t.Text) == "'"+s+"'") {
			return true
		}
	}
	return false
}

// pytestFiles lists the files below root that pytest reaches, under the
// project's pytest configuration, as check walks them (suite.Files).
func pytestFiles(root string) ([]string, error) {
	cfg, err := pytestcfg.Find(root)
	if err != nil {
		return nil, err
	}
	return suite.Files(root, cfg)
}
