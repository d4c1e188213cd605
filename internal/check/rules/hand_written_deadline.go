package rules

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fixturegen/fixturegen/internal/check/finding"
	"github.com/fixturegen/fixturegen/internal/python/pyquote"
	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/internal/relpath"
)

const RuleHandwrittenDeadline = "hand-written-deadline"

var handWrittenDeadlineRule = checked{
	Rule: Rule{
		ID:           RuleHandwrittenDeadline,
		Summary:      "a hand-written per-test deadline, to adopt",
		Meaning:      "A fixture arms a timer itself (`signal.setitimer`, `signal.alarm`) without the deadline fixture: a hand-written per-test deadline, most often an autouse timeout. Its alarm can interrupt a module's first import in any test it covers. A fixture that arms and disarms its timer in its own body and yields nothing (a loader that bounds its own setup), or that returns a function of its own that arms it (a context manager its tests call with their seconds), is no deadline: `own-timer` reports its alarm. Reported once, at the fixture, in place of an `own-timer` finding per timer call (and, when it bears the spec's deadline name, of `shadow-fixture`, `deadline-without-preload` and `region-missing`).",
		Fix:          "Adopt it: `fixturegen init`, then `fixturegen generate --adopt` ([migrating](migrating.md#autouse-per-test-timeout)); with a spec already there, set `[deadline].fixture` to its name first. One that redefines the deadline fixture in a conftest below `[paths].conftest` gives its seconds to `[deadline.module_seconds]` as `\"<folder>/**\"`, and `generate --adopt` removes it",
		Suppressible: true,
		Calls:        suite.TimerWords,
	},
	module: (*rules).handwrittenDeadlines,
}

// handwrittenDeadlines: a fixture that arms an interval timer itself is a
// hand-written per-test deadline (most often an autouse timeout). It is
// one thing, reported once: in place of the own-timer findings of its
// timer calls, and, when it bears the spec's deadline name (init has
// read it into the spec), of the shadow-fixture and
// deadline-without-preload findings too. The fix is to adopt it.
//
// It runs after the other per-module rules and edits what they found in
// this module, so they need not know about it.
func (r *rules) handwrittenDeadlines(src *suite.Source) {
	for _, hw := range suite.ArmingFixtures(src) {
		fx := hw.Fixture
		if _, ok := r.UsesDeadline(src, fx.Def); ok {
			continue // under the deadline, the timer is own-timer's concern
		}
		if suite.FixtureTimer(src.Mod, fx.Def) != suite.Deadline {
			continue // no deadline of the tests: own-timer reports its timer
		}
		drop := map[pyscan.Pos]string{}
		for _, p := range hw.Calls {
			drop[p] = RuleOwnTimer
		}
		r.findings = slices.DeleteFunc(r.findings, func(f finding.Finding) bool {
			p := pyscan.Pos{Line: f.Line, Col: f.Col}
			return f.Path == src.Path && (drop[p] == f.Rule ||
				p == fx.Pos() && (f.Rule == RuleShadowFixture || f.Rule == RuleDeadlinePreload) && fx.Name == r.spec.Deadline.Fixture)
		})

		if !src.Conftest && r.AllTestsUseDeadline(src) {
			// A test module's own fixture, under the suite's deadline: it
			// re-arms the timer for this module's tests. The generated
			// deadline answers that alarm too, never during an import.
			if !r.tree.Adopt {
				continue
			}
			r.add(RuleHandwrittenDeadline, src.Path, fx.Pos(),
				fmt.Sprintf("fixture %s re-arms the timer (%s) for the tests of this module only, under the suite's hand-written %s, whose alarm handler can interrupt a module's first import",
					fx.Name, strings.Join(hw.Arms, " and "), r.spec.Deadline.Fixture),
				fmt.Sprintf("adopt the suite's deadline with fixturegen generate --adopt, and give this module its seconds in the spec, %s: the generated %s then arms them for this module's tests, never interrupting an import, and this fixture can go (kept, its alarm is answered by the generated deadline too, whose failure states the seconds it armed)",
					r.moduleSecondsKey(relpath.Slash(r.spec.Dir, src.Abs), src, hw), r.spec.Deadline.Fixture))
			continue
		}

		what := fmt.Sprintf("around each test that uses %s", fx.Name)
		switch {
		case fx.Autouse && src.Conftest:
			what = fmt.Sprintf("around every test below %s (autouse)", filepath.ToSlash(relpath.Rel(r.cwd, src.Dir)))
		case fx.Autouse:
			what = "around every test of this module (autouse)"
		}
		fix := fmt.Sprintf("adopt it: fixturegen init reads it into a spec, then fixturegen generate --adopt replaces it with the generated deadline; with a spec already here, set [deadline].fixture = %q first", fx.Name)
		if fx.Name == r.spec.Deadline.Fixture {
			fix = r.sameNameFix(src, hw)
		}
		r.add(RuleHandwrittenDeadline, src.Path, fx.Pos(),
			fmt.Sprintf("fixture %s is a hand-written per-test deadline: it arms %s %s, and a module a test imports for the first time under that alarm can be interrupted and left half imported",
				fx.Name, strings.Join(hw.Arms, " and "), what),
			fix)
	}
}

// sameNameFix is the fix for a hand-written deadline that bears the
// spec's deadline name: generate --adopt replaces it in the spec's
// conftest. A conftest below the spec's defines it again, overriding it
// for the tests below its folder: its seconds move into the spec first, as
// a module_seconds glob of the folder, and then generate --adopt removes it.
func (r *rules) sameNameFix(src *suite.Source, hw suite.ArmingFixture) string {
	if !src.Conftest || !strings.HasPrefix(src.Dir, filepath.Dir(r.opts.Conftest)+string(filepath.Separator)) {
		return "run fixturegen generate --adopt: it replaces this fixture with the generated deadline, which never interrupts an import"
	}
	dir := relpath.Slash(r.spec.Dir, src.Dir)
	pattern := dir + "/**"
	for _, m := range r.spec.Deadline.ModuleSeconds {
		if m.Pattern == pattern {
			return fmt.Sprintf("run fixturegen generate --adopt: the spec gives the tests below %s %s s ([deadline.module_seconds] %q), so it removes this fixture, and the generated deadline arms those seconds for them", dir, pyquote.Number(m.Seconds), pattern)
		}
	}
	return fmt.Sprintf("give the tests below %s their seconds in the spec, %s, then run fixturegen generate --adopt, which removes this fixture", dir, r.moduleSecondsKey(pattern, src, hw))
}

// moduleSecondsKey writes the deadline.module_seconds entry that gives
// the tests pattern matches the seconds hw arms in src, as the spec would
// hold it.
func (r *rules) moduleSecondsKey(pattern string, src *suite.Source, hw suite.ArmingFixture) string {
	secs := "N"
	m := src.Mod
	for _, c := range m.Calls {
		if !slices.Contains(hw.Calls, c.Pos) {
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
	return fmt.Sprintf("[deadline.module_seconds] %q = %s (fixturegen init writes it)", pattern, secs)
}
