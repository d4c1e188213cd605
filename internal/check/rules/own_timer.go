package rules

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/internal/relpath"
	"github.com/fixturegen/fixturegen/schema"
)

const RuleOwnTimer = "own-timer"

var ownTimerRule = checked{
	Rule: Rule{
		ID:           RuleOwnTimer,
		Summary:      "code arms a timer without the deadline fixture",
		Meaning:      "Code arms a timer (`signal.setitimer`, `signal.alarm`, `signal.signal(SIGALRM, ...)`) in a test or fixture that does not use the deadline fixture, in a helper of a module whose tests do not all use it, or in a conftest's hook that pytest runs for every test (`pytest_runtest_call` and the like: a hand-written per-test deadline). A module imported for the first time under that alarm can be left half imported. Disarming (`setitimer(..., 0)`, `SIG_DFL`) is not flagged, nor is a timer whose signal's every handler the module installs returns (a function whose body holds no `raise` and no call, as one that counts the signals; `lambda *args: None`; `SIG_IGN`), as an EINTR test's does: it interrupts a system call and can leave no import half done. A timer a test base class arms (in `setUp`, or in a test method it passes on) in a module without tests is reported at each test class that derives from it, where its tests run, with the import shield (`[shield]`) as the fix; a timer whose signal the spec's `[shield]` holds back is not flagged.",
		Fix:          "Use the deadline fixture, which runs the preload first",
		Suppressible: true,
		Calls:        suite.TimerWords,
	},
	module: (*rules).ownTimer,
}

// ownTimer: code that arms a timer must run under the deadline fixture, so
// that the preload runs before the alarm can interrupt an import.
func (r *rules) ownTimer(src *suite.Source) {
	m := src.Mod
	deadline := r.spec.Deadline.Fixture
	// Computed once, for helpers, module-level code and inherited timers.
	allCovered := sync.OnceValue(func() bool { return r.AllTestsUseDeadline(src) })
	if src.Test {
		r.inheritedTimers(src, allCovered)
	}
	for _, ci := range src.ArmingCalls() {
		c := m.Calls[ci]
		what, ok := suite.ArmsTimer(m, c)
		if !ok || src.InRegion(c.Pos.Line) {
			continue
		}
		if suite.HandlerReturns(src, c) || shields(r.spec, suite.TimerSignal(m, c)) {
			// Its signal's handler returns (an EINTR test's), or the
			// import shield holds it back during a first import: the
			// alarm interrupts a system call, never an import.
			continue
		}
		if suite.InTestBase(src, c) {
			// A test base class's method, in a module without tests:
			// reported at the test classes that derive from it, where
			// it runs.
			continue
		}
		own := -1
		if c.Scope >= 0 {
			own = r.Owner(src, c.Scope)
		}
		use := suite.NoTimer // what the timer of the fixture own is to its tests
		if own >= 0 && src.IsFixture(own) {
			use = suite.FixtureTimer(m, own)
		}
		if strings.HasPrefix(what, "signal.signal") && (own < 0 || use == suite.OwnSetup || use == suite.HandedOut || !src.IsTest(own) && !src.IsFixture(own)) {
			// A handler installed at import, by a helper or by a fixture
			// that is no deadline arms nothing: the code that starts the
			// timer is reported where it does.
			continue
		}
		where := "at module level"
		if own >= 0 && (src.IsTest(own) || src.IsFixture(own)) {
			if _, ok := r.UsesDeadline(src, own); ok {
				continue
			}
			switch use {
			case suite.OwnSetup:
				r.add(RuleOwnTimer, src.Path, c.Pos,
					fmt.Sprintf("%s arms its own timer in fixture %s, which bounds its own setup with it and disarms it before any test runs; a module imported for the first time under that alarm can be left half imported", what, m.Defs[own].Name),
					"import the modules its setup loads before it arms the timer; where its setup imports nothing for the first time, say so with # fixturegen: ignore[own-timer] on this line")
				continue
			case suite.HandedOut:
				r.add(RuleOwnTimer, src.Path, c.Pos,
					fmt.Sprintf("%s arms its own timer in %s, which fixture %s hands to its tests to arm with seconds they choose; a module imported for the first time under that alarm can be left half imported", what, m.Defs[c.Scope].Name, m.Defs[own].Name),
					fmt.Sprintf("have fixture %s request %s, so that the preload runs before its tests arm the timer, or have those tests use %s in its place", m.Defs[own].Name, deadline, deadline))
				continue
			}
			kind := "test"
			if !src.IsTest(own) {
				kind = "fixture"
			}
			where = fmt.Sprintf("in %s %s, which does not use %s", kind, m.Defs[own].Name, deadline)
		} else {
			if allCovered() {
				continue
			}
			if own >= 0 && src.Conftest && suite.IsTestHook(m.Defs[own].Name) {
				r.add(RuleOwnTimer, src.Path, c.Pos,
					fmt.Sprintf("%s arms its own timer in hook %s, which pytest runs for every test below %s: a hand-written per-test deadline, and a module imported for the first time under its alarm can be left half imported", what, m.Defs[own].Name, filepath.ToSlash(relpath.Rel(r.cwd, src.Dir))),
					fmt.Sprintf("set autouse = true in the spec's [deadline], with this deadline's seconds, so that %s covers every test without interrupting an import, and delete the hook", deadline))
				continue
			}
			if own >= 0 {
				where = fmt.Sprintf("in helper %s", m.Defs[own].Name)
			}
			if src.Test {
				where += fmt.Sprintf(", and not every test in this module uses %s", deadline)
			} else {
				// A module without tests: its code runs where a test or
				// a fixture calls it, which this module cannot tell.
				where += fmt.Sprintf(", outside any test or fixture that uses %s", deadline)
			}
		}
		r.add(RuleOwnTimer, src.Path, c.Pos,
			fmt.Sprintf("%s arms its own timer %s; a module imported for the first time under that alarm can be left half imported", what, where),
			fmt.Sprintf("use the %s fixture instead (it imports the preload first), or take it as a parameter of the code that arms the timer", deadline))
	}
}

// shields reports whether the spec's import shield holds back the
// handler of signal (SIGALRM) while a module is first imported.
func shields(s *schema.Spec, signal string) bool {
	return signal != "" && s.Shield.On && slices.Contains(s.Shield.Signals, signal)
}

// inheritedTimers reports, at each class of the test module src that
// derives from a test base class of a module without tests that arms a
// timer in a method (setUp, or a test method it passes on), that timer:
// it runs in the tests of the class, and a module imported for the first
// time under it can be left half imported. The deadline fixture cannot
// replace a timer that unittest's setUp arms; the import shield can hold
// its handler back.
func (r *rules) inheritedTimers(src *suite.Source, allCovered func() bool) {
	for _, tc := range r.TimedClasses(src) {
		d, tb, sig := src.Mod.Defs[tc.Class], tc.Base, tc.Signal
		bm := tb.Src.Mod
		call := bm.Calls[tb.Call]
		if shields(r.spec, sig) || allCovered() {
			continue
		}
		base := bm.Defs[tb.Class]
		msg := fmt.Sprintf("class %s derives from %s (%s:%d), whose method %s arms %s (%s:%d) in the tests of %s, which do not use %s: a module imported for the first time under that alarm can be left half imported",
			d.Name, base.Name, tb.Src.Path, base.Pos.Line, bm.Defs[tb.Method].Name, tb.What, tb.Src.Path, call.Pos.Line, d.Name, r.spec.Deadline.Fixture)
		fix := fmt.Sprintf("use the %s fixture in the tests of %s in place of the timer (it imports the preload first)", r.spec.Deadline.Fixture, base.Name)
		switch {
		case !slices.Contains(schema.ShieldSignals, sig):
		case r.spec.Shield.On:
			fix = fmt.Sprintf("add %q to [shield].signals in the spec and run fixturegen generate: the import shield then holds the handler back until a first import is done (%s's %s takes no fixture)", sig, base.Name, bm.Defs[tb.Method].Name)
		default:
			fix = fmt.Sprintf("add the import shield to the spec, a [shield] table with signals = [%q], and run fixturegen generate: it holds the handler back until a first import is done (%s's %s takes no fixture)", sig, base.Name, bm.Defs[tb.Method].Name)
		}
		r.add(RuleOwnTimer, src.Path, d.Pos, msg, fix)
	}
}
