package rules

import (
	"fmt"
	"slices"

	"github.com/fixturegen/fixturegen/internal/python/pyquote"
	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/schema"
)

const RuleUnshieldedTimeout = "unshielded-timeout"

var unshieldedTimeoutRule = checked{
	Rule: Rule{
		ID:      RuleUnshieldedTimeout,
		Summary: "pytest-timeout's signal method without the shield",
		Meaning: "The pytest configuration sets a pytest-timeout timeout (`timeout`, or `--timeout` in `addopts`) with the signal method, pytest-timeout's default where SIGALRM exists, and the spec has no `[shield]` holding SIGALRM. Its handler raises wherever the main thread is, a module's first import included, and leaves that module half imported for the rest of the worker (pytest-timeout#184). Reported at the timeout.",
		Fix:     "Add `[shield]` to the spec and run `fixturegen generate`",
	},
	tree: func(r *rules, _ *suite.Tree) { r.unshieldedTimeout() },
}

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
