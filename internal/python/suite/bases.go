package suite

import (
	"slices"
	"strings"

	"github.com/fixturegen/fixturegen/internal/python/pyscan"
)

// Timers armed in a test base class, in a module that holds no tests:
// they run in the tests of the classes that derive from it, in the test
// modules, and are reported there.

// setupMethods are the methods a test class runs before each of its tests,
// or once before all of them.
var setupMethods = map[string]bool{"setUp": true, "asyncSetUp": true, "setUpClass": true, "setup_method": true, "setup_class": true}

// TimedBase is a test base class, in a module that is no test module,
// with a method that arms a timer (setUp, or a test method its subclasses
// inherit): the tests of a class deriving from it run that method.
type TimedBase struct {
	Src    *Source
	Class  int    // index in Src.Mod.Defs
	Method int    // the method that arms the timer
	Call   int    // the first call that arms it, index in Src.Mod.Calls
	What   string // what arms it: signal.alarm, signal.setitimer
}

// InTestBase reports whether the call c of src, a module that is no test
// module, arms a timer in a method of a test base class of its own: a
// timer that the tests of the classes deriving from that class run,
// reported at them (see Query.TimedBaseOf).
func InTestBase(src *Source, c pyscan.Call) bool {
	_, ok := testBaseOf(src, c)
	return ok
}

// testBaseOf returns the test base class of src, a module that is no
// test module, whose method holds the call c. A test base class has a
// setup method or a test method, or derives from unittest's TestCase.
func testBaseOf(src *Source, c pyscan.Call) (int, bool) {
	if src.Test || src.Conftest || c.Scope < 0 {
		return 0, false
	}
	m := src.Mod
	for d := c.Scope; d >= 0; d = m.Defs[d].Parent {
		p := m.Defs[d].Parent
		if m.Defs[d].Kind == pyscan.Function && p >= 0 && m.Defs[p].Kind == pyscan.Class && testBase(m, p) {
			return p, true
		}
	}
	return 0, false
}

// testBase reports whether the class of m is a test base class: it
// derives from unittest's TestCase, or has a setup or test method.
func testBase(m *pyscan.Module, class int) bool {
	d := m.Defs[class]
	return slices.ContainsFunc(d.Bases, func(b string) bool { return unittestBases[m.ResolveAt(b, d.Parent, d.Pos)] }) ||
		slices.ContainsFunc(m.Defs, func(o pyscan.Def) bool {
			return o.Parent == class && o.Kind == pyscan.Function && (setupMethods[o.Name] || strings.HasPrefix(o.Name, "test"))
		})
}

// timedBase returns the first timer the test base class of src (a module
// that is no test module) arms in a method, if it arms one that can
// interrupt an import: one whose signal's handler can raise.
func timedBase(src *Source, class int) (TimedBase, bool) {
	m := src.Mod
	for _, ci := range src.facts.arming {
		c := m.Calls[ci]
		what, ok := ArmsTimer(m, c)
		if !ok || strings.HasPrefix(what, "signal.signal") || HandlerReturns(src, c) {
			continue
		}
		if k, ok := testBaseOf(src, c); ok && k == class {
			method := c.Scope
			for m.Defs[method].Parent != class {
				method = m.Defs[method].Parent
			}
			return TimedBase{Src: src, Class: class, Method: method, Call: ci, What: what}, true
		}
	}
	return TimedBase{}, false
}

// timedBaseNames lists the names of the test base classes of the sources
// that arm a timer, in modules that are no test modules: the test modules
// that name them are read for the classes that derive from them.
func timedBaseNames(sources []*Source) []string {
	var out []string
	for _, src := range sources {
		if src.Test || src.Conftest {
			continue
		}
		// Only the classes that hold an arming call can be timed bases:
		// asking timedBase of every class of a module of many classes
		// and calls cost more than the module's tokenizing.
		seen := map[int]bool{}
		for _, ci := range src.facts.arming {
			class, ok := testBaseOf(src, src.Mod.Calls[ci])
			if !ok || seen[class] {
				continue
			}
			seen[class] = true
			if _, ok := timedBase(src, class); ok {
				out = append(out, src.Mod.Defs[class].Name)
			}
		}
	}
	return out
}

// TimedBaseOf returns the timed base that the class of the test module
// src derives from directly, as an import names it ("from tests.helpers
// import TimedCase", "helpers.TimedCase").
func (q *Query) TimedBaseOf(src *Source, class int) (TimedBase, bool) {
	m := src.Mod
	d := m.Defs[class]
	for _, b := range d.Bases {
		r := m.ResolveAt(b, d.Parent, d.Pos)
		if r == b && !strings.Contains(b, ".") || r == "" {
			continue // a class of this module
		}
		i := strings.LastIndexByte(r, '.')
		if i <= 0 || i == len(r)-1 {
			continue
		}
		modName, name := r[:i], r[i+1:]
		if !q.ix.timed[name] {
			continue
		}
		for _, file := range moduleFiles(src.Dir, modName) {
			base := q.ix.byAbs[file]
			if base == nil {
				continue
			}
			for j, bd := range base.Mod.Defs {
				if bd.Kind == pyscan.Class && bd.Parent < 0 && bd.Name == name {
					if tb, ok := timedBase(base, j); ok {
						return tb, true
					}
				}
			}
			break
		}
	}
	return TimedBase{}, false
}

// TimerSignal names the signal the call c of m arms a timer for, without
// its module: "SIGALRM"; "" when it cannot tell.
func TimerSignal(m *pyscan.Module, c pyscan.Call) string {
	return strings.TrimPrefix(timerSignal(m, c), "signal.")
}

// TimedClass is a class of a test module that derives from a timed test
// base: the tests of the class run the base's timer.
type TimedClass struct {
	Class  int // index in the test module's Defs
	Base   TimedBase
	Signal string // the signal the base's timer rings with: SIGALRM, ...
}

// TimedClasses lists the classes of the test module src that derive from
// a timed test base, for own-timer's findings and init's shield alike.
func (q *Query) TimedClasses(src *Source) []TimedClass {
	var out []TimedClass
	// A def without bases (any function) derives from no timed base.
	for i := range src.Mod.Defs {
		if tb, ok := q.TimedBaseOf(src, i); ok {
			out = append(out, TimedClass{Class: i, Base: tb, Signal: TimerSignal(tb.Src.Mod, tb.Src.Mod.Calls[tb.Call])})
		}
	}
	return out
}
