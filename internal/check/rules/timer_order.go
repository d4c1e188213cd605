package rules

import (
	"fmt"

	"github.com/fixturegen/fixturegen/internal/python/pyquote"
	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/internal/relpath"
	"github.com/fixturegen/fixturegen/schema"
)

const RuleTimerOrder = "timer-order"

var timerOrderRule = checked{
	Rule: Rule{
		ID:      RuleTimerOrder,
		Summary: "a timer that another always beats",
		Meaning: "Timers are set so that one can never act: `faulthandler_timeout` with `faulthandler_exit_on_timeout` at or below the deadline or pytest-timeout's timeout ends the process first; a deadline at or above pytest-timeout's timeout is always beaten by it. Reported at the timer that never acts.",
		Fix:     "Give each timer room: the deadline below pytest-timeout's timeout, and faulthandler_timeout above both",
	},
	tree: func(r *rules, _ *suite.Tree) { r.timerOrder() },
}

// timerOrder: a timer that rings at or after one that ends the test (or
// the process) first never acts.
func (r *rules) timerOrder() {
	cfg := r.opts.Config
	if cfg == nil {
		return
	}
	t := cfg.Timers()
	path := relpath.Rel(r.cwd, cfg.File)
	timeout := t.Timeout > 0 && !t.TimeoutOff
	deadline := r.spec.HasDeadline() && len(r.spec.Deadline.SecondsEnv) == 0 && r.spec.Deadline.Timer != schema.TimerVirtual && r.spec.Deadline.Timer != schema.TimerProf
	if t.Faulthandler > 0 && t.FaulthandlerExit {
		var beaten []string
		if deadline && t.Faulthandler <= r.spec.Deadline.Seconds {
			beaten = append(beaten, fmt.Sprintf("the %s s deadline of %s", pyquote.Number(r.spec.Deadline.Seconds), r.spec.Deadline.Fixture))
		}
		if timeout && t.Faulthandler <= t.Timeout {
			beaten = append(beaten, fmt.Sprintf("pytest-timeout's %s s timeout", pyquote.Number(t.Timeout)))
		}
		for _, b := range beaten {
			r.add(RuleTimerOrder, path, argPos(t.FaulthandlerAt),
				fmt.Sprintf("faulthandler_timeout = %s with faulthandler_exit_on_timeout ends the process at or before %s, which never acts", pyquote.Number(t.Faulthandler), b),
				"set faulthandler_timeout above the other timers")
		}
	}
	// A deadline that defers to pytest-timeout arms nothing where
	// pytest-timeout runs, so pytest-timeout's timeout beats nothing.
	if deadline && timeout && !r.spec.Deadline.DeferToPytestTimeout && r.spec.Deadline.Seconds >= t.Timeout {
		r.add(RuleTimerOrder, r.spec.File, r.specPos("deadline.seconds"),
			fmt.Sprintf("the %s s deadline of %s is at or above pytest-timeout's %s s timeout (%s:%d:%d), which always ends the test first, so the deadline never acts",
				pyquote.Number(r.spec.Deadline.Seconds), r.spec.Deadline.Fixture, pyquote.Number(t.Timeout), path, t.TimeoutAt.Line, t.TimeoutAt.Col),
			"set [deadline].seconds below pytest-timeout's timeout, or raise the timeout")
	}
}
