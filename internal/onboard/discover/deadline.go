package discover

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/schema"
)

// The candidates of one conftest, found statically: what init runs. What
// they do, init learns by running them (learn.go).

// conftest is one conftest.py whose fixtures or hooks arm a timer.
type conftest struct {
	file string // relative to the root, slash-separated
	dir  string // its folder
	s    *source
	fx   map[string]int // module-level fixtures by name
	// cands are the fixtures that arm a timer, in their own body or
	// through a function of the conftest they call: the ones that keep
	// it armed while the test runs first, each in source order.
	cands []*cand
	// hooks are the per-test hooks that arm a timer; hookItem is the
	// throwaway test, requesting no fixture, that runs them.
	hooks    []string
	hookItem string
	// env are the environment variables the conftest's code reads, by
	// name, with where the first read of each is.
	env   []string
	envAt map[string]string
	// defersAt is a pluginmanager.hasplugin("timeout") test, "" for none.
	defersAt string
	// strays are the calls that arm a timer outside every candidate.
	strays []Stray
}

// cand is a fixture init runs.
type cand struct {
	name string
	def  int
	// own is set when the fixture arms the timer in its own body (or a
	// function nested in it), not only through a function it calls.
	own bool
	// base is the throwaway test that runs its setup; vars are those
	// that run it under each variation of the environment (variations).
	base string
	vars []string
}

// maxDepth bounds how deep init follows the calls of a fixture to the
// functions of its conftest that arm a timer.
const maxDepth = 4

// scanConftest returns the candidates of the conftest file (relative to
// the root) with source src, or nil when it has none.
func scanConftest(file string, src []byte, m *pyscan.Module) *conftest {
	s := newSource(file, src, m)
	cf := &conftest{file: file, dir: path.Dir(file), s: s, fx: m.Fixtures(), envAt: map[string]string{}}
	// Source order, the fixtures that keep a timer armed while the test
	// runs first: the first of those is the deadline.
	names := slices.SortedFunc(maps.Keys(cf.fx), func(a, b string) int { return cf.fx[a] - cf.fx[b] })
	sort.SliceStable(names, func(i, j int) bool {
		return suite.SpansTest(m, cf.fx[names[i]]) && !suite.SpansTest(m, cf.fx[names[j]])
	})
	arming := armingFunctions(m)
	for _, name := range names {
		def := cf.fx[name]
		switch suite.FixtureTimer(m, def) {
		case suite.OwnSetup, suite.HandedOut:
			continue // a loader's alarm, or one the tests arm, is no deadline
		case suite.Deadline:
			cf.cands = append(cf.cands, &cand{name: name, def: def, own: true})
		default:
			if callsArming(m, def, arming) {
				cf.cands = append(cf.cands, &cand{name: name, def: def})
			}
		}
	}
	for i, d := range m.Defs {
		if d.Parent < 0 && d.Kind == pyscan.Function && suite.IsTestHook(d.Name) && (arming[i] || callsArming(m, i, arming)) {
			cf.hooks = append(cf.hooks, d.Name)
		}
	}
	if len(cf.cands) == 0 && len(cf.hooks) == 0 {
		return nil
	}
	cf.strays = strayCalls(m, file, cf.fx)
	cf.readEnv()
	for _, call := range m.Calls {
		if strings.HasSuffix(call.Callee, "pluginmanager.hasplugin") && len(call.Args) == 1 {
			if a := call.Args[0]; a.Kind == pyscan.ArgString && (a.Value == "timeout" || a.Value == "pytest_timeout") && cf.defersAt == "" {
				cf.defersAt = at(file, call.Pos)
			}
		}
	}
	return cf
}

// armingFunctions returns the module-level functions of m (by index in
// m.Defs) that arm a timer, in their body or through the module-level
// functions they call, followed maxDepth calls deep.
func armingFunctions(m *pyscan.Module) map[int]bool {
	out := map[int]bool{}
	for _, call := range m.Calls {
		if _, ok := armingCall(m, call); ok && call.Scope >= 0 {
			out[m.Under(call.Scope, -1)] = true
		}
	}
	for range maxDepth {
		for i, d := range m.Defs {
			if d.Parent < 0 && d.Kind == pyscan.Function && !out[i] && callsArming(m, i, out) {
				out[i] = true
			}
		}
	}
	return out
}

// callsArming reports whether def calls a module-level function of
// arming.
func callsArming(m *pyscan.Module, def int, arming map[int]bool) bool {
	for _, call := range m.Calls {
		if call.Scope < 0 || !m.Inside(call.Scope, def) || strings.Contains(call.Callee, ".") {
			continue
		}
		for i, d := range m.Defs {
			if d.Parent < 0 && d.Name == call.Callee && arming[i] && i != def {
				return true
			}
		}
	}
	return false
}

// readEnv finds the environment variables the conftest reads, as string
// literals given to os.environ[...], os.environ.get, os.getenv and
// their kin: the variables whose values init sets in its further runs.
func (cf *conftest) readEnv() {
	for _, l := range cf.s.lines {
		var last [4]string // the texts of the line's latest tokens, newest first
		for _, t := range l.Toks {
			b := last // the tokens before t
			last = [4]string{text(t), b[0], b[1], b[2]}
			reads := b[0] == "[" && b[1] == "environ" ||
				b[0] == "(" && (b[1] == "getenv" || b[2] == "." && b[3] == "environ" && (b[1] == "get" || b[1] == "setdefault" || b[1] == "pop"))
			if t.Kind != pyscan.String || !reads {
				continue
			}
			if name, ok := pyscan.StringValue(text(t)); ok && name != "" && cf.envAt[name] == "" {
				cf.env = append(cf.env, name)
				cf.envAt[name] = cf.s.at(t)
			}
		}
	}
}

// readAutouse reads @pytest.fixture(autouse=True), and notes a scope
// wider than a test.
func (c *Contract) readAutouse(cf *conftest, def int) {
	m := cf.s.m
	if a, _ := m.FixtureArg(def, "autouse"); a.Kind == pyscan.ArgName && a.Value == "True" {
		c.Spec.Autouse, c.Origin["autouse"] = true, at(cf.file, a.Pos)
	}
	if a, _ := m.FixtureArg(def, "scope"); a.Kind == pyscan.ArgString && a.Value != "function" {
		// One alarm for a whole session, package, module or class: a
		// budget, which the generated per-test deadline is not.
		c.Notes = append(c.Notes, fmt.Sprintf("%s: the fixture has scope=%q, so its alarm bounds each %s as a whole, where the generated deadline bounds each test: adopting it changes what the seconds bound", at(cf.file, a.Pos), a.Value, a.Value))
	}
}

// readGuard finds a hasattr(signal, "SIGALRM") test (or one for
// "setitimer" or "alarm") in the deadline fixture or at module level: a
// real timer that the hand-written deadline arms only where the signal
// exists, which no run on this machine can show. Elsewhere it armed
// nothing, and so does the generated one: without_timer = "off".
func (c *Contract) readGuard(cf *conftest, def int) {
	m := cf.s.m
	if c.Spec.Timer != schema.TimerReal {
		return
	}
	for _, call := range m.Calls {
		if call.Callee != "hasattr" || len(call.Args) != 2 || !(call.Scope < 0 || m.Inside(call.Scope, def)) {
			continue
		}
		obj, attr := call.Args[0], call.Args[1]
		if obj.Kind != pyscan.ArgName || m.Resolve(obj.Value) != "signal" || attr.Kind != pyscan.ArgString {
			continue
		}
		switch attr.Value {
		case "SIGALRM", "setitimer", "alarm":
			c.Spec.WithoutTimer, c.Origin["without_timer"] = schema.WithoutTimerOff, at(cf.file, call.Pos)
			return
		}
	}
}

// readEarlyYield notes a yield in the fixture def before the line that
// arms the timer, under an if that reads the test's marks, as "if
// request.node.get_closest_marker("no_timeout"): yield; return" writes an
// opt-out: the tests that take that path ran without a deadline, and the
// generated one covers every test it reaches. An early yield under any
// other test (the seconds are 0) is the deadline turned off, which the
// spec keeps.
func (c *Contract) readEarlyYield(s *source, def, arming int) {
	marks := false // the latest if of the fixture's body reads a test's marks
	for _, l := range s.lines {
		if l.Toks[0].Line >= arming {
			return
		}
		if !s.m.Inside(l.scope, def) {
			continue
		}
		switch text(l.Toks[0]) {
		case "if", "elif":
			marks = slices.ContainsFunc(l.Toks, func(t pyscan.Token) bool {
				return t.Kind == pyscan.Name && markReaders[text(t)]
			})
		case "yield":
			if marks {
				c.Notes = append(c.Notes, fmt.Sprintf("%s: the fixture yields here, before it arms the timer, for the tests a mark opts out: they ran without a deadline, and the generated deadline covers every test it reaches; give them more seconds ([deadline.module_seconds]), or keep them from requesting it", s.at(l.Toks[0])))
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
	if c.Spec.Raises != schema.RaisesTimeoutError && c.Spec.Raises != schema.RaisesAssertionError {
		return
	}
	yieldCol := 0 // the column of the yield statement, once it is found
	for _, l := range s.lines {
		if !s.m.Inside(l.scope, def) {
			continue
		}
		first, col := text(l.Toks[0]), s.pos(l.Toks[0]).Col
		switch {
		case yieldCol == 0 && l.scope == def && first == "yield":
			yieldCol = col
		case yieldCol == 0 || col >= yieldCol:
			// Before the yield, or beside it in the body of its try.
		case first != "except":
			return // the yield's try, if any, has no except clause
		case slices.ContainsFunc(l.Toks[1:], func(t pyscan.Token) bool { return t.Kind == pyscan.Name && text(t) == c.Spec.Raises }):
			c.Notes = append(c.Notes, fmt.Sprintf("%s: the fixture catches %s around its yield, but pytest never raises a test's exception there, so this clause never ran; the failure the tests saw is the handler's, which the spec keeps", s.at(l.Toks[0]), c.Spec.Raises))
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

// strayCalls returns the calls of m that arm a timer outside every fixture in
// fx, with the module-level function that holds each and a fixture that
// calls that function.
func strayCalls(m *pyscan.Module, file string, fx map[string]int) []Stray {
	var out []Stray
	for _, call := range m.Calls {
		callee, ok := armingCall(m, call)
		if !ok {
			continue
		}
		st := Stray{At: at(file, call.Pos), Arms: callee}
		if top := m.Under(call.Scope, -1); top >= 0 {
			st.In = m.Defs[top].Name
			st.CalledBy = fixtureCalling(m, fx, st.In)
			if def, ok := fx[st.In]; ok && def == top {
				switch suite.FixtureTimer(m, top) {
				case suite.OwnSetup:
					st.Bounds = true
				case suite.HandedOut:
					st.In, st.HandedBy = m.Defs[m.Under(call.Scope, top)].Name, st.In
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
