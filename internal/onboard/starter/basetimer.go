package starter

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/internal/relpath"
	"github.com/fixturegen/fixturegen/schema"
)

// BaseTimer is a timer that a unittest base class arms in a module
// without tests (in setUp, or in a test method its subclasses inherit),
// with a handler that can raise, and that the spec's deadline does not
// cover: the tests of the classes deriving from it run under an alarm
// that can leave a module half imported. The deadline fixture cannot
// replace a timer setUp arms; the import shield holds its handler back.
// check reports it (own-timer) unless the spec's [shield] holds its
// signal, so init writes that [shield].
type BaseTimer struct {
	At      string // path:line:col of the call that arms it
	Base    string // the base class
	Method  string // its method that arms the timer
	What    string // signal.alarm, signal.setitimer
	Signal  string // SIGALRM
	Classes []string
	// Why says why the deadline does not cover it, for the report.
	Why string
}

// FindBaseTimers reads the project's tests as check reads them for the
// spec (the same tree, the same base classes), and returns the timers of
// test base classes that the spec's deadline leaves unshielded: the
// deadline does not run in every test of a deriving class, or runs in
// them without arming anything by default (armed_when_env_set), or is
// no autouse fixture, which tests deriving from a unittest base class do
// not request. A timer whose signal the shield cannot hold, or that the
// spec's [shield] holds already, is left out.
func FindBaseTimers(spec *schema.Spec, root string) ([]BaseTimer, error) {
	run, err := suite.SpecRun(spec)
	if err != nil {
		return nil, err
	}
	opts := suite.SpecTree(spec, run.Config(), filepath.Join(spec.Dir, filepath.FromSlash(spec.Paths.Conftest)), nil)
	if len(opts.Roots) == 0 {
		return nil, nil
	}
	opts.Fixtures = []string{spec.Deadline.Fixture, spec.Preload.Fixture}
	opts.Calls = suite.TimerWords
	t, err := suite.Read(opts)
	if err != nil {
		return nil, err
	}
	var out []BaseTimer
	byCall := map[string]int{}
	q := t.Query()
	for _, src := range t.Sources {
		if !src.Test {
			continue
		}
		for _, tc := range q.TimedClasses(src) {
			d, tb, sig := src.Mod.Defs[tc.Class], tc.Base, tc.Signal
			bm := tb.Src.Mod
			call := bm.Calls[tb.Call]
			if !slices.Contains(schema.ShieldSignals, sig) || spec.Shield.On && slices.Contains(spec.Shield.Signals, sig) {
				continue
			}
			why := uncovered(q, spec, src)
			if why == "" {
				continue
			}
			at := fmt.Sprintf("%s:%d:%d", relpath.Slash(root, tb.Src.Abs), call.Pos.Line, call.Pos.Col)
			class := fmt.Sprintf("%s (%s:%d)", d.Name, relpath.Slash(root, src.Abs), d.Pos.Line)
			if k, ok := byCall[at]; ok {
				out[k].Classes = append(out[k].Classes, class)
				continue
			}
			byCall[at] = len(out)
			out = append(out, BaseTimer{At: at, Base: bm.Defs[tb.Class].Name, Method: bm.Defs[tb.Method].Name,
				What: tb.What, Signal: sig, Classes: []string{class}, Why: why})
		}
	}
	return out, nil
}

// uncovered says why the deadline of spec does not cover the tests of
// the test module src, or "" when it covers them.
func uncovered(q *suite.Query, spec *schema.Spec, src *suite.Source) string {
	d := spec.Deadline
	switch {
	case !spec.HasDeadline():
		return "the spec has no deadline"
	case d.ArmedWhenEnvSet:
		return fmt.Sprintf("the deadline %s arms nothing unless $%s is set", d.Fixture, strings.Join(d.SecondsEnv, " or $"))
	case !d.Autouse:
		return fmt.Sprintf("the deadline %s is no autouse fixture, and a unittest class's tests request none", d.Fixture)
	case !q.AllTestsUseDeadline(src):
		return fmt.Sprintf("not every test of %s uses the deadline %s", src.Path, d.Fixture)
	}
	return ""
}

// ShieldBaseTimers adds to v the import shield for the timers found (one
// or more), with their signals, and says where they are in the table's
// comment.
func ShieldBaseTimers(v Values, timers []BaseTimer) Values {
	var signals, at []string
	for _, bt := range timers {
		signals = append(signals, bt.Signal)
		at = append(at, bt.At)
	}
	return addShield(v, signals, strings.Join(at, ", "))
}
