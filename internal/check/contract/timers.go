package contract

import (
	"fmt"
	"slices"

	"github.com/fixturegen/fixturegen/internal/check/rule"
	"github.com/fixturegen/fixturegen/internal/gen/pyquote"
	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/internal/python/pytestcfg"
	"github.com/fixturegen/fixturegen/schema"
)

// The rules about the other timers a project's pytest configuration sets
// for each test: pytest-timeout's and pytest's faulthandler_timeout.

const RuleUnshieldedTimeout = "unshielded-timeout"

var _ = declare(rule.Rule{
	ID:      RuleUnshieldedTimeout,
	Summary: "pytest-timeout's signal method without the shield",
	Meaning: "The pytest configuration sets a pytest-timeout timeout (`timeout`, or `--timeout` in `addopts`) with the signal method, pytest-timeout's default where SIGALRM exists, and the spec has no `[shield]` holding SIGALRM. Its handler raises wherever the main thread is, a module's first import included, and leaves that module half imported for the rest of the worker (pytest-timeout#184). Reported at the timeout.",
	Fix:     "Add `[shield]` to the spec and run `fixturegen generate`",
}, check{tree: func(r *rules, _ *scan) { r.unshieldedTimeout() }})

const RuleTimerOrder = "timer-order"

var _ = declare(rule.Rule{
	ID:      RuleTimerOrder,
	Summary: "a timer that another always beats",
	Meaning: "Timers are set so that one can never act: `faulthandler_timeout` with `faulthandler_exit_on_timeout` at or below the deadline or pytest-timeout's timeout ends the process first; a deadline at or above pytest-timeout's timeout is always beaten by it. Reported at the timer that never acts.",
	Fix:     "Give each timer room: the deadline below pytest-timeout's timeout, and faulthandler_timeout above both",
}, check{tree: func(r *rules, _ *scan) { r.timerOrder() }})

// unshieldedTimeout: pytest-timeout's signal method needs the shield.
func (r *rules) unshieldedTimeout() {
	cfg := r.opts.Config
	if cfg == nil {
		return
	}
	t := cfg.Timers()
	if !t.SignalMethod() || t.TimeoutAt == nil || r.spec.Shield.On && slices.Contains(r.spec.Shield.Signals, schema.SignalAlarm) {
		return
	}
	fix := "add [shield] to " + r.spec.File + " and run `fixturegen generate`"
	if r.spec.Shield.On {
		fix = "add \"SIGALRM\" to [shield].signals in " + r.spec.File + " and run `fixturegen generate`"
	}
	r.add(RuleUnshieldedTimeout, display(r.cwd, cfg.File), argPos(t.TimeoutAt),
		fmt.Sprintf("pytest-timeout's %s s timeout runs with the signal method, whose handler raises wherever the main thread is: in a module's first import it leaves the module half imported for the rest of the worker", pyquote.Number(t.Timeout)),
		fix)
}

// timerOrder: a timer that rings at or after one that ends the test (or
// the process) first never acts.
func (r *rules) timerOrder() {
	cfg := r.opts.Config
	if cfg == nil {
		return
	}
	t := cfg.Timers()
	path := display(r.cwd, cfg.File)
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
	if deadline && timeout && r.spec.Deadline.Seconds >= t.Timeout {
		r.add(RuleTimerOrder, r.spec.File, r.specPos("deadline.seconds"),
			fmt.Sprintf("the %s s deadline of %s is at or above pytest-timeout's %s s timeout (%s:%d:%d), which always ends the test first, so the deadline never acts",
				pyquote.Number(r.spec.Deadline.Seconds), r.spec.Deadline.Fixture, pyquote.Number(t.Timeout), path, t.TimeoutAt.Line, t.TimeoutAt.Col),
			"set [deadline].seconds below pytest-timeout's timeout, or raise the timeout")
	}
}

func argPos(a *pytestcfg.Arg) pyscan.Pos {
	if a == nil {
		return pyscan.Pos{Line: 1, Col: 1}
	}
	return pyscan.Pos{Line: a.Line, Col: a.Col}
}
