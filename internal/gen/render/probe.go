package render

import (
	"fmt"
	"path"
	"strings"

	"github.com/fixturegen/fixturegen/internal/python/pyquote"
	"github.com/fixturegen/fixturegen/schema"
)

type probeView struct {
	PluginModule string // the plugin's module name, for pytest -p
	PluginDir    string // the plugin's folder, relative to the project folder
	RootDepth    int    // how many folders the probe tests sit below the project folder
	Record       []schema.Record
	Cases        []caseView
	// Timers are the interval timers whose arming the plugin watches:
	// the deadline's, or without a deadline those of the signals the
	// shield holds (pytest-timeout's, a test's own). WatchesAlarm is set
	// when ITIMER_REAL is one of them, which signal.alarm arms too.
	Timers       []schema.IntervalTimer
	WatchesAlarm bool
}

type caseView struct {
	Test string
	// LongName: the test's def line is longer than ruff format's 88
	// columns, so its return annotation goes on a line of its own, as
	// ruff format writes it.
	LongName bool
	Node     string
	Doc      string // built from validated names and numbers only
	Delays   []delay
}

type delay struct{ Name, Value string }

func newProbeView(spec *schema.Spec) probeView {
	v := probeView{Record: spec.Probe.Record, Timers: watchedTimers(spec)}
	for _, t := range v.Timers {
		v.WatchesAlarm = v.WatchesAlarm || t.Which == schema.IntervalTimers[schema.TimerReal].Which
	}
	if p := spec.Paths.ProbePlugin; p != "" {
		v.PluginModule = strings.TrimSuffix(path.Base(p), ".py")
		v.PluginDir = path.Dir(p)
	}
	if p := spec.Paths.ProbeTests; p != "" {
		if dir := path.Dir(p); dir != "." {
			v.RootDepth = strings.Count(dir, "/") + 1
		}
	}
	for _, c := range spec.Probe.Cases {
		v.Cases = append(v.Cases, newCaseView(c))
	}
	return v
}

// watchedTimers are the interval timers the probe plugin watches: the
// deadline's (none for the thread timer, which delivers no signal of its
// own; real's for auto), or for a spec that holds only the shield, those
// whose signals it holds.
func watchedTimers(spec *schema.Spec) []schema.IntervalTimer {
	if spec.HasDeadline() {
		if t, _ := timerView(spec.Deadline.Timer); t.Which != "" {
			return []schema.IntervalTimer{t}
		}
		return nil
	}
	var out []schema.IntervalTimer
	for _, sig := range spec.Shield.Signals {
		for _, kind := range []string{schema.TimerReal, schema.TimerVirtual, schema.TimerProf} {
			if t := schema.IntervalTimers[kind]; t.Signal == sig {
				out = append(out, t)
			}
		}
	}
	return out
}

func newCaseView(c schema.Case) caseView {
	cv := caseView{Test: c.Test, Node: c.Node, LongName: len("def "+c.Test+"() -> None:") > 88}
	doc := []string{"The alarm is armed only after every recorded module is loaded"}
	if d := c.PlantedDelay; d != nil {
		cv.Delays = append(cv.Delays,
			delay{"PLANTED_DELAY", pyquote.Number(d.Seconds)},
			delay{"PLANTED_DELAY_MODULE", d.Module})
		doc = append(doc, fmt.Sprintf("even when the first import of %s takes %s s", d.Module, pyquote.Number(d.Seconds)))
	}
	if c.ArmedDelay > 0 {
		cv.Delays = append(cv.Delays, delay{"ARMED_DELAY", pyquote.Number(c.ArmedDelay)})
		doc = append(doc, "and no import starts while it is armed")
	}
	cv.Doc = strings.Join(doc, ", ") + "."
	return cv
}
