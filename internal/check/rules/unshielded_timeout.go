package rules

import (
	"fmt"

	"github.com/fixturegen/fixturegen/internal/python/pyquote"
	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/internal/python/pytesttimeout"
	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/internal/relpath"
	"github.com/fixturegen/fixturegen/schema"
)

const RuleUnshieldedTimeout = "unshielded-timeout"

var unshieldedTimeoutRule = checked{
	Rule: Rule{
		ID:      RuleUnshieldedTimeout,
		Summary: "pytest-timeout's signal method without the shield",
		Meaning: "pytest-timeout runs with its signal method, its default where SIGALRM exists, where pytest reads it: in the pytest configuration (`timeout`, `--timeout` in `addopts`), a `pytest.mark.timeout` mark, or pytest-timeout declared as a dependency (requirement files, pyproject.toml's dependencies, extras and groups, Pipfile, setup.cfg, setup.py); and neither is `pytest-import-shield` declared in the same dependency set as pytest-timeout, nor does the spec's `[shield]` hold SIGALRM. pytest-timeout's handler raises wherever the main thread is, a module's first import included, and leaves that module half imported for the rest of the worker (pytest-timeout#184). Reported at each declaration, setting and mark; a method set to `thread` there (or in the configuration) needs no shield.",
		Fix:     "Add `pytest-import-shield` next to pytest-timeout in the dependency set that declares it (the finding names it), or add `[shield]` to the spec and run `fixturegen generate`",
		Marks:   timeoutMarks,
	},
	module: (*rules).unshieldedTimeoutMarks,
	tree:   func(r *rules, _ *suite.Tree) { r.unshieldedTimeout() },
}

// timeoutMarks are the words of pytest-timeout's mark, for the scan to read
// the files that name it, when the spec does not shield SIGALRM, the
// signal of pytest-timeout's signal method.
func timeoutMarks(s *schema.Spec) []string {
	if shields(s, schema.SignalAlarm) {
		return nil
	}
	return pytesttimeout.MarkWords
}

// unshieldedTimeout: pytest-timeout's signal method needs the shield,
// wherever pytest reads it. Without the project's run (Options
// built by hand), the configuration's own settings count.
func (r *rules) unshieldedTimeout() {
	if shields(r.spec, schema.SignalAlarm) {
		return
	}
	var places []pytesttimeout.Place
	if p := r.opts.Project; p != nil {
		places = p.Timeouts.Places
		if p.Timeouts.Off {
			return
		}
	} else if cfg := r.opts.Config; cfg != nil {
		t := cfg.Timers()
		if t.SignalMethod() && t.TimeoutAt != nil {
			places = append(places, pytesttimeout.Place{Kind: pytesttimeout.Ini, File: cfg.File, Line: t.TimeoutAt.Line, Col: t.TimeoutAt.Col,
				Seconds: pyquote.Number(t.Timeout), Method: pytesttimeout.Signal})
		}
	}
	found := r.timeouts()
	for _, p := range places {
		r.unshielded(found, p)
	}
}

// timeouts is what the project's files say of pytest-timeout; empty
// without the project.
func (r *rules) timeouts() *pytesttimeout.Found {
	if p := r.opts.Project; p != nil {
		return p.Timeouts
	}
	return &pytesttimeout.Found{}
}

// unshieldedTimeoutMarks: the timeout marks of a module.
func (r *rules) unshieldedTimeoutMarks(src *suite.Source) {
	if shields(r.spec, schema.SignalAlarm) || len(src.Mod.Calls) == 0 {
		return
	}
	found := r.timeouts()
	if found.Off {
		return
	}
	for _, m := range pytesttimeout.Marks(src.Abs, src.Mod) {
		r.unshielded(found, found.WithMethod(m))
	}
}

// unshielded reports one place of pytest-timeout's signal method that
// neither the plugin nor the spec shields, with the one line that fixes
// it: the plugin declared beside pytest-timeout.
func (r *rules) unshielded(found *pytesttimeout.Found, p pytesttimeout.Place) {
	if p.Method == pytesttimeout.Thread || found.Shielded(p) {
		return
	}
	const why = "whose handler raises wherever the main thread is: in a module's first import it leaves the module half imported for the rest of the worker"
	timeout := "pytest-timeout's timeout"
	if p.Seconds != "" {
		timeout = "pytest-timeout's " + p.Seconds + " s timeout"
	}
	var msg string
	switch p.Kind {
	case pytesttimeout.Ini, pytesttimeout.Addopts:
		msg = timeout + " runs with the signal method, " + why
	case pytesttimeout.Mark:
		msg = p.What + " times the tests it marks with pytest-timeout's signal method, " + why
	default:
		msg = p.What + ": its timeouts run with the signal method, " + why + "; " + pytesttimeout.Plugin + " is not declared beside it"
	}
	var fix string
	switch un := found.Unshielded(); {
	case p.Kind == pytesttimeout.Dependency:
		fix = p.Set.Fix(r.cwd)
	case len(un) > 0:
		fix = un[0].Set.Fix(r.cwd) + fmt.Sprintf(" (line %d)", un[0].Line)
	case r.spec.Shield.On:
		fix = "add \"SIGALRM\" to [shield].signals in " + r.spec.File + " and run `fixturegen generate`"
	default:
		fix = "declare `" + pytesttimeout.Plugin + "` beside pytest-timeout in the project's test dependencies, or add [shield] to " + r.spec.File + " and run `fixturegen generate`"
	}
	r.add(RuleUnshieldedTimeout, relpath.Rel(r.cwd, p.File), pyscan.Pos{Line: p.Line, Col: p.Col}, msg, fix)
}
