package rules

import (
	"slices"

	"github.com/fixturegen/fixturegen/internal/python/pyquote"
	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/internal/python/pytesttimeout"
	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/schema"
)

const RuleUnshieldedTimeout = "unshielded-timeout"

var unshieldedTimeoutRule = checked{
	Rule: Rule{
		ID:      RuleUnshieldedTimeout,
		Summary: "pytest-timeout's signal method without the shield",
		Meaning: "The project sets pytest-timeout with the signal method, its default where SIGALRM exists, and the spec has no `[shield]` holding SIGALRM: in the pytest configuration (`timeout`, `--timeout` in `addopts`), a `pytest.mark.timeout` mark, a pytest command line of a CI workflow (GitHub Actions, GitLab CI, CircleCI, Azure Pipelines), tox's configuration, noxfile.py or Makefile, a `PYTEST_TIMEOUT` or `PYTEST_ADDOPTS` those files set, or pytest-timeout declared as a dependency (requirement files, pyproject.toml, Pipfile, setup.cfg, setup.py, tox's `deps`, an install command). Its handler raises wherever the main thread is, a module's first import included, and leaves that module half imported for the rest of the worker (pytest-timeout#184). Reported at each place; a method set to `thread` there (or in the configuration) needs no shield.",
		Fix:     "Add `[shield]` to the spec and run `fixturegen generate`",
		Marks:   timeoutMarks,
	},
	module: (*rules).unshieldedTimeoutMarks,
	tree:   func(r *rules, _ *suite.Tree) { r.unshieldedTimeout() },
}

// shieldsAlarm reports whether the spec's shield holds SIGALRM, the
// signal of pytest-timeout's signal method.
func shieldsAlarm(s *schema.Spec) bool {
	return s.Shield.On && slices.Contains(s.Shield.Signals, schema.SignalAlarm)
}

// timeoutMarks are the words of pytest-timeout's mark, for the scan to read
// the files that name it, when the spec does not shield SIGALRM.
func timeoutMarks(s *schema.Spec) []string {
	if shieldsAlarm(s) {
		return nil
	}
	return pytesttimeout.MarkWords
}

// unshieldedTimeout: pytest-timeout's signal method needs the shield,
// wherever the project sets it. Without the project's runs (Options
// built by hand), the configuration's own settings count.
func (r *rules) unshieldedTimeout() {
	if shieldsAlarm(r.spec) {
		return
	}
	var places []pytesttimeout.Place
	if p := r.opts.Project; p != nil {
		places = p.Timeouts.Places
	} else if cfg := r.opts.Config; cfg != nil {
		t := cfg.Timers()
		if t.SignalMethod() && t.TimeoutAt != nil {
			places = append(places, pytesttimeout.Place{Kind: pytesttimeout.Ini, File: cfg.File, Line: t.TimeoutAt.Line, Col: t.TimeoutAt.Col,
				Seconds: pyquote.Number(t.Timeout), Method: pytesttimeout.Signal})
		}
	}
	for _, p := range places {
		r.unshielded(p)
	}
}

// unshieldedTimeoutMarks: the timeout marks of a module.
func (r *rules) unshieldedTimeoutMarks(src *suite.Source) {
	if shieldsAlarm(r.spec) || len(src.Mod.Calls) == 0 {
		return
	}
	found := &pytesttimeout.Found{}
	if p := r.opts.Project; p != nil {
		if p.Timeouts.Off {
			return
		}
		found = p.Timeouts
	}
	for _, m := range pytesttimeout.Marks(src.Abs, src.Mod) {
		r.unshielded(found.WithMethod(m))
	}
}

// unshielded reports one place of pytest-timeout's signal method.
func (r *rules) unshielded(p pytesttimeout.Place) {
	if p.Method == pytesttimeout.Thread {
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
	case pytesttimeout.Command:
		msg = p.What + ": " + timeout + " runs with the signal method, " + why
	case pytesttimeout.Variable:
		msg = p.What + ": " + timeout + " runs with the signal method, " + why
	default:
		msg = p.What + ": its timeouts run with the signal method, " + why
	}
	fix := "add [shield] to " + r.spec.File + " and run `fixturegen generate`"
	if r.spec.Shield.On {
		fix = "add \"SIGALRM\" to [shield].signals in " + r.spec.File + " and run `fixturegen generate`"
	}
	r.add(RuleUnshieldedTimeout, display(r.cwd, p.File), pyscan.Pos{Line: p.Line, Col: p.Col}, msg, fix)
}
