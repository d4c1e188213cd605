package suite

import (
	"slices"
	"strings"

	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/schema"
)

// The calls that arm a timer, and the fixtures that arm one themselves.

// ArmsTimer reports whether call c arms a timer or installs a timer
// signal's handler, and describes it. Disarming (a zero delay, the default
// or ignoring handler) does not count.
func ArmsTimer(m *pyscan.Module, c pyscan.Call) (string, bool) {
	if !mayArm(m, c.Callee) {
		return "", false
	}
	callee := m.ResolveCall(c)
	// A name used as an argument is looked up where the call is.
	resolve := func(name string) string { return m.ResolveAt(name, c.Scope, c.Pos) }
	arg := func(i int) (pyscan.Arg, bool) {
		if i < len(c.Args) && c.Args[i].Keyword == "" {
			return c.Args[i], true
		}
		return pyscan.Arg{}, false
	}
	if i, ok := delayArgs[callee]; ok {
		if a, ok := arg(i); ok && a.Kind == pyscan.ArgNumber && strings.Trim(a.Value, "0._") == "" {
			return "", false
		}
		return callee, true
	}
	sig, ok := arg(0)
	if callee != "signal.signal" || !ok || sig.Kind != pyscan.ArgName || !schema.IsTimerSignal(resolve(sig.Value)) {
		return "", false
	}
	if h, ok := arg(1); ok && h.Kind == pyscan.ArgName {
		switch resolve(h.Value) {
		case "signal.SIG_DFL", "signal.SIG_IGN":
			return "", false
		}
	}
	return "signal.signal(" + strings.TrimPrefix(resolve(sig.Value), "signal.") + ", ...)", true
}

// delayArgs are the positions of the delay among the arguments of the
// calls that arm a timer; a zero delay disarms it.
var delayArgs = map[string]int{"signal.alarm": 0, "signal.setitimer": 1}

// TimerUse is what a fixture's timer is to the tests that use it.
type TimerUse int

const (
	// NoTimer: the fixture arms none (installing a handler alone, or
	// disarming, arms nothing).
	NoTimer TimerUse = iota
	// Deadline: the timer stays armed while the test runs. The fixture
	// yields to the test, leaves the disarming to a finalizer
	// (request.addfinalizer), or returns with the timer still armed.
	Deadline
	// OwnSetup: the fixture arms and disarms the timer in its own body
	// and returns, as a loader that bounds its loading with an alarm
	// does; no test runs under it.
	OwnSetup
	// HandedOut: the fixture returns, arming the timer only in functions
	// nested in it, as "return timeout_function" hands its tests a
	// context manager that takes the seconds. The tests arm that timer
	// with seconds they choose, and replacing the fixture would take
	// away what they call.
	HandedOut
)

// FixtureTimer tells what the timer the fixture def of m arms, in its
// body or in a function nested in it, is to the tests that use it.
func FixtureTimer(m *pyscan.Module, def int) TimerUse {
	armsOwn, armsNested, disarmsOwn := false, false, false
	for _, c := range m.Calls {
		if c.Scope < 0 || !m.Inside(c.Scope, def) || !mayArm(m, c.Callee) {
			continue
		}
		what, arms := ArmsTimer(m, c)
		switch {
		case arms && strings.HasPrefix(what, "signal.signal"):
		case arms && c.Scope == def:
			armsOwn = true
		case arms:
			armsNested = true
		case c.Scope == def:
			switch m.ResolveCall(c) {
			case "signal.alarm", "signal.setitimer":
				disarmsOwn = true // a zero delay
			}
		}
	}
	switch {
	case !armsOwn && !armsNested:
		return NoTimer
	case SpansTest(m, def):
		return Deadline
	case !armsOwn:
		return HandedOut
	case disarmsOwn:
		return OwnSetup
	}
	return Deadline
}

// SpansTest reports whether the fixture def of m can keep a timer armed
// while the test runs: it yields to the test, or leaves the disarming to
// a finalizer (request.addfinalizer). One that only returns a value, such
// as a loader that bounds its own setup with an alarm, cannot.
func SpansTest(m *pyscan.Module, def int) bool {
	return m.Defs[def].Yields || slices.ContainsFunc(m.Calls, func(c pyscan.Call) bool {
		return c.Scope >= 0 && m.Inside(c.Scope, def) && strings.HasSuffix(c.Callee, "."+finalizerCall)
	})
}

// finalizerCall is the last name of request.addfinalizer.
const finalizerCall = "addfinalizer"

// IsTestHook reports whether name is a pytest hook that runs for each
// test: a timer armed in one, in a conftest, is a per-test deadline for
// every test below the conftest's folder, as an autouse fixture's is.
func IsTestHook(name string) bool {
	return slices.Contains([]string{"pytest_runtest_protocol", "pytest_runtest_setup", "pytest_runtest_call", "pytest_runtest_teardown", "pytest_pyfunc_call"}, name)
}

// mayArm rules out most calls by their last name, before their callee is
// looked up by scope: resolving keeps the last part of a dotted name
// (json.dumps is never a timer), and a bare name (len) is a timer only
// when an import names it after one ("arm" after "from signal import alarm
// as arm") or a star import may supply it.
func mayArm(m *pyscan.Module, callee string) bool {
	if !strings.Contains(callee, ".") {
		if len(m.StarImports) > 0 {
			return true
		}
		callee = m.Resolve(callee)
	}
	return timerCallees[lastName(callee)]
}

// timerCallees are the last names of the signal module's calls that can
// arm a timer or install its handler.
var timerCallees = map[string]bool{"setitimer": true, "alarm": true, "signal": true}

// TimerWords are the words of the signal module's calls that arm a timer
// or install a timer signal's handler: a read that asks about timers
// (Options.Calls) tokenizes the files that hold one.
var TimerWords = []string{"setitimer", "alarm", "ALRM", "SIGPROF"}

// ArmingFixture is a fixture outside the region that arms a timer in its
// body (or in a function nested in it).
type ArmingFixture struct {
	Fixture *Fixture
	Arms    []string     // what arms the timer: signal.setitimer, signal.alarm
	Calls   []pyscan.Pos // every timer call own-timer would report in it
}

func ArmingFixtures(src *Source) []ArmingFixture {
	m := src.Mod
	var out []ArmingFixture
	for _, byClass := range src.facts.fixtures {
		for _, fx := range byClass {
			if src.InRegion(fx.Pos().Line) {
				continue
			}
			hw := ArmingFixture{Fixture: fx}
			for _, c := range m.Calls {
				if c.Scope < 0 || !m.Inside(c.Scope, fx.Def) {
					continue
				}
				what, ok := ArmsTimer(m, c)
				if !ok || HandlerReturns(src, c) {
					// A timer whose handler returns (an EINTR test's
					// fixture) bounds nothing: no deadline.
					continue
				}
				hw.Calls = append(hw.Calls, c.Pos)
				if !strings.HasPrefix(what, "signal.signal") && !slices.Contains(hw.Arms, what) {
					hw.Arms = append(hw.Arms, what)
				}
			}
			if len(hw.Arms) > 0 {
				out = append(out, hw)
			}
		}
	}
	// The fixtures map has no order; findings do.
	slices.SortStableFunc(out, func(a, b ArmingFixture) int { return a.Fixture.Def - b.Fixture.Def })
	return out
}

// adoptable reports whether the conftest that holds the region defines,
// outside it, a fixture with the spec's deadline name that arms a timer:
// a hand-written deadline that init has read into the spec and generate
// --adopt will replace. The region is then missing by design, and the
// command that writes it is generate --adopt.
func adoptable(sources []*Source, opts *Options) bool {
	return slices.ContainsFunc(sources, func(src *Source) bool {
		return src.Abs == opts.Conftest &&
			slices.ContainsFunc(ArmingFixtures(src), func(hw ArmingFixture) bool { return hw.Fixture.Name == opts.Spec.Deadline.Fixture })
	})
}

// HandlerReturns reports whether the signal the call c of src arms a
// timer for (or installs a handler of) is answered by a handler that
// returns to the code it interrupted: a function of src whose body holds no raise
// statement and no call (it counts, or passes), a lambda that calls
// nothing, or SIG_IGN. Such a timer, an EINTR test's, interrupts a system
// call and nothing else: it cannot leave an import half done. The
// handlers judged are those installed in the function that arms the
// timer, or, when it installs none, in the methods of its class (setUp);
// with none there, the handler is installed elsewhere and may raise.
func HandlerReturns(src *Source, c pyscan.Call) bool {
	m := src.Mod
	sig := timerSignal(m, c)
	if sig == "" || c.Scope < 0 {
		return false
	}
	class := -1
	if p := m.Defs[c.Scope].Parent; p >= 0 && m.Defs[p].Kind == pyscan.Class {
		class = p
	}
	var handlers []pyscan.Call
	local := false
	// A handler is installed by a call of signal.signal, which the
	// module's arming calls hold.
	for _, hi := range src.facts.arming {
		h := m.Calls[hi]
		if h.Scope < 0 || len(h.Args) < 2 || h.Args[1].Keyword != "" || m.ResolveCall(h) != "signal.signal" || timerSignal(m, h) != sig {
			continue
		}
		switch {
		case h.Scope == c.Scope:
			if !local {
				local, handlers = true, handlers[:0]
			}
			handlers = append(handlers, h)
		case !local && class >= 0 && m.Defs[h.Scope].Parent == class:
			handlers = append(handlers, h)
		}
	}
	found := false
	for _, h := range handlers {
		switch a := h.Args[1]; a.Kind {
		case pyscan.ArgLambda:
			if a.Value != "" {
				return false
			}
		case pyscan.ArgName:
			switch m.ResolveAt(a.Value, h.Scope, h.Pos) {
			case "signal.SIG_IGN":
			case "signal.SIG_DFL":
				continue // disarms: answers nothing
			case "":
				// Bound in the module: a function of it, or a handler
				// saved from an earlier signal.signal and put back.
				name := lastName(a.Value)
				if !slices.ContainsFunc(m.Defs, func(d pyscan.Def) bool { return d.Kind == pyscan.Function && d.Name == name }) {
					continue // the saved handler, put back
				}
				fallthrough
			default:
				if !functionsReturn(m, a.Value) {
					return false
				}
			}
		default:
			return false
		}
		found = true
	}
	return found
}

// timerSignal names the signal the call c of m arms a timer for, or
// installs a handler of, as signal.SIGALRM; "" when it cannot tell.
func timerSignal(m *pyscan.Module, c pyscan.Call) string {
	callee := m.ResolveCall(c)
	if callee == "signal.alarm" {
		return "signal.SIGALRM"
	}
	if len(c.Args) == 0 || c.Args[0].Keyword != "" || c.Args[0].Kind != pyscan.ArgName {
		return ""
	}
	first := m.ResolveAt(c.Args[0].Value, c.Scope, c.Pos)
	switch callee {
	case "signal.signal":
		return first
	case "signal.setitimer":
		return itimerSignals[first]
	}
	return ""
}

// itimerSignals are the signals of the interval timers.
var itimerSignals = map[string]string{"signal.ITIMER_REAL": "signal.SIGALRM", "signal.ITIMER_VIRTUAL": "signal.SIGVTALRM", "signal.ITIMER_PROF": "signal.SIGPROF"}

// functionsReturn reports whether name (a function of m, or a method
// named self.x or cls.x) names functions of m that all return to their
// caller: none holds a raise statement or a call. False when m defines no
// function so named.
func functionsReturn(m *pyscan.Module, name string) bool {
	if head, rest, ok := strings.Cut(name, "."); ok {
		if (head != "self" && head != "cls") || strings.Contains(rest, ".") {
			return false
		}
		name = rest
	}
	found := false
	for _, d := range m.Defs {
		if d.Kind != pyscan.Function || d.Name != name {
			continue
		}
		if d.Raises || d.HasCalls {
			return false
		}
		found = true
	}
	return found
}
