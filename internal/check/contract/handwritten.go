package contract

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fixturegen/fixturegen/internal/check/finding"
	"github.com/fixturegen/fixturegen/internal/python/pyscan"
)

// handwrittenDeadlines: a fixture that arms an interval timer itself is a
// hand-written per-test deadline (most often an autouse timeout). It is
// one thing, reported once: in place of the own-timer findings of its
// timer calls, and, when it bears the spec's deadline name (init has
// read it into the spec), of the shadow-fixture and
// deadline-without-preload findings too. The fix is to adopt it.
//
// It runs after the other per-module rules and edits what they found in
// this module, so they need not know about it.
func (r *rules) handwrittenDeadlines(src *source) {
	for _, hw := range armingFixtures(src) {
		fx := hw.fx
		if _, ok := r.usesDeadline(src, fx.def); ok {
			continue // under the deadline, the timer is own-timer's concern
		}
		drop := map[pyscan.Pos]string{}
		for _, p := range hw.calls {
			drop[p] = RuleOwnTimer
		}
		kept := r.findings[:0]
		for _, f := range r.findings {
			p := pyscan.Pos{Line: f.Line, Col: f.Col}
			switch {
			case f.Path != src.path:
			case drop[p] == f.Rule:
				continue
			case p == fx.pos() && (f.Rule == RuleShadowFixture || f.Rule == RuleDeadlinePreload) && fx.name == r.spec.Deadline.Fixture:
				continue
			}
			kept = append(kept, f)
		}
		r.findings = kept

		if !src.conftest && r.allTestsUseDeadline(src) {
			// A test module's own fixture, under the suite's deadline: it
			// re-arms the timer for this module's tests. The generated
			// deadline answers that alarm too, never during an import.
			if !r.suiteDeadlineHandWritten() {
				continue
			}
			r.findings = append(r.findings, finding.Finding{Rule: RuleHandwrittenDeadline, Severity: finding.Error,
				Path: src.path, Line: fx.pos().Line, Col: fx.pos().Col,
				Message: fmt.Sprintf("fixture %s re-arms the timer (%s) for the tests of this module only, under the suite's hand-written %s, whose alarm handler can interrupt a module's first import",
					fx.name, strings.Join(hw.arms, " and "), r.spec.Deadline.Fixture),
				Fix: fmt.Sprintf("adopt the suite's deadline with fixturegen generate --adopt, and give this module its seconds in the spec, %s: the generated %s then arms them for this module's tests, never interrupting an import, and this fixture can go (kept, its alarm is answered by the generated deadline too, whose failure states the seconds it armed)",
					r.moduleSecondsKey(src, hw), r.spec.Deadline.Fixture)})
			continue
		}

		what := fmt.Sprintf("around each test that uses %s", fx.name)
		switch {
		case fx.autouse && src.conftest:
			what = fmt.Sprintf("around every test below %s (autouse)", filepath.ToSlash(display(r.cwd, src.dir)))
		case fx.autouse:
			what = "around every test of this module (autouse)"
		}
		fix := fmt.Sprintf("adopt it: fixturegen init reads it into a spec, then fixturegen generate --adopt replaces it with the generated deadline; with a spec already here, set [deadline].fixture = %q first", fx.name)
		if fx.name == r.spec.Deadline.Fixture {
			fix = "run fixturegen generate --adopt: it replaces this fixture with the generated deadline, which never interrupts an import"
		}
		r.findings = append(r.findings, finding.Finding{Rule: RuleHandwrittenDeadline, Severity: finding.Error,
			Path: src.path, Line: fx.pos().Line, Col: fx.pos().Col,
			Message: fmt.Sprintf("fixture %s is a hand-written per-test deadline: it arms %s %s, and a module a test imports for the first time under that alarm can be interrupted and left half imported",
				fx.name, strings.Join(hw.arms, " and "), what),
			Fix: fix})
	}
}

// suiteDeadlineHandWritten reports whether the conftest the spec plans the
// region in still holds, outside it, a hand-written fixture with the
// spec's deadline name: one that generate --adopt will replace.
func (r *rules) suiteDeadlineHandWritten() bool {
	cs := r.ix.conftests[filepath.Dir(r.opts.Conftest)]
	if cs == nil || cs.abs != r.opts.Conftest {
		return false
	}
	for _, hw := range armingFixtures(cs) {
		if hw.fx.name == r.spec.Deadline.Fixture {
			return true
		}
	}
	return false
}

// armingFixture is a fixture outside the region that arms a timer in its
// body (or in a function nested in it).
type armingFixture struct {
	fx    *fixture
	arms  []string     // what arms the timer: signal.setitimer, signal.alarm
	calls []pyscan.Pos // every timer call own-timer would report in it
}

func armingFixtures(src *source) []armingFixture {
	m := src.mod
	var out []armingFixture
	if src.facts == nil {
		return nil
	}
	for _, byClass := range src.facts.fixtures {
		for _, fx := range byClass {
			if src.inRegion(fx.pos().Line) {
				continue
			}
			hw := armingFixture{fx: fx}
			for _, c := range m.Calls {
				if c.Scope < 0 || !m.Inside(c.Scope, fx.def) {
					continue
				}
				what, ok := armsTimer(m, c)
				if !ok {
					continue
				}
				hw.calls = append(hw.calls, c.Pos)
				if !strings.HasPrefix(what, "signal.signal") && !slices.Contains(hw.arms, what) {
					hw.arms = append(hw.arms, what)
				}
			}
			if len(hw.arms) > 0 {
				out = append(out, hw)
			}
		}
	}
	// The fixtures map has no order; findings do.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].fx.def < out[j-1].fx.def; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// adoptable reports whether the conftest that holds the region defines,
// outside it, a fixture with the spec's deadline name that arms a timer:
// a hand-written deadline that init has read into the spec and generate
// --adopt will replace. The region is then missing by design, and the
// command that writes it is generate --adopt.
func adoptable(sources []*source, opts *Options) bool {
	for _, src := range sources {
		if src.abs != opts.Conftest || src.facts == nil {
			continue
		}
		for _, hw := range armingFixtures(src) {
			if hw.fx.name == opts.Spec.Deadline.Fixture {
				return true
			}
		}
	}
	return false
}

// moduleSecondsKey writes the deadline.module_seconds entry that gives
// src's tests the seconds hw arms, as the spec would hold it.
func (r *rules) moduleSecondsKey(src *source, hw armingFixture) string {
	rel, err := filepath.Rel(r.spec.Dir, src.abs)
	if err != nil {
		rel = src.path
	}
	secs := "N"
	m := src.mod
	for _, c := range m.Calls {
		if !slices.Contains(hw.calls, c.Pos) {
			continue
		}
		i := 0
		if m.ResolveCall(c) == "signal.setitimer" {
			i = 1
		}
		if i < len(c.Args) && c.Args[i].Keyword == "" && c.Args[i].Kind == pyscan.ArgNumber {
			secs = c.Args[i].Value
			break
		}
	}
	return fmt.Sprintf("[deadline.module_seconds] %q = %s (fixturegen init writes it)", filepath.ToSlash(rel), secs)
}
