package triage

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/fixturegen/fixturegen/internal/pytext"
	"github.com/fixturegen/fixturegen/internal/shell"
)

// judge holds what verdicts are judged against.
type judge struct {
	spec Spec
	// seconds is the deadline: the spec's, or the one a generated
	// deadline's message states; 0 when unknown.
	seconds float64
	// known holds modules the run shows were imported: preloaded,
	// imported late under the alarm, or named by a certain signature.
	known map[string]bool
}

// facts is what an attempt's inputs say about one test.
type facts struct {
	clues []Clue
	// unverified are the half-import signatures that name no module the
	// run shows loaded ("module 'mcp' has no attribute 'types'" with no
	// preload list): a symptom only after an interruption on the same
	// worker, whatever armed the timer.
	unverified []Clue
	duration   float64 // the longest run; negative when unknown
	withSetup  float64 // the longest run with its setup; negative when unknown
}

// facts gathers what the attempt's inputs say about each test, once the
// run's known modules are all in.
func (j *judge) facts(a *Attempt) map[string]*facts {
	fs := map[string]*facts{}
	get := func(node string) *facts {
		f := fs[node]
		if f == nil {
			f = &facts{duration: -1, withSetup: -1}
			fs[node] = f
		}
		return f
	}
	for _, s := range a.Sources {
		for _, c := range s.Clues {
			switch {
			case c.Node == "":
			case c.Kind != HalfImport || j.valid(c):
				f := get(c.Node)
				f.clues = append(f.clues, c)
			case c.Attr != "":
				f := get(c.Node)
				f.unverified = append(f.unverified, c)
			}
		}
	}
	for node, d := range a.durations {
		get(node).duration = d
	}
	for node, d := range a.withSetup {
		get(node).withSetup = d
	}
	return fs
}

// noFacts stands for a test the inputs say nothing about.
var noFacts = &facts{duration: -1, withSetup: -1}

// valid tells whether a half-import signature counts: certain ones
// always do; "module 'X' has no attribute 'Y'" only when X.Y is a module
// the run shows loaded, and an ImportError only of a module it shows
// imported earlier.
func (j *judge) valid(c Clue) bool {
	if c.Certain {
		return true
	}
	name := c.Module
	if c.Attr != "" {
		name += "." + c.Attr
	}
	if j.known[name] {
		return true
	}
	for m := range j.known {
		if strings.HasPrefix(m, name+".") {
			return true
		}
	}
	return false
}

// halfImports returns the run's half-import signatures: the verified ones,
// and the unverified too when afterInterruption.
func (f *facts) halfImports(afterInterruption bool) []Clue {
	out := slices.DeleteFunc(slices.Clone(f.clues), func(c Clue) bool { return c.Kind != HalfImport })
	if afterInterruption {
		out = append(out, f.unverified...)
	}
	return out
}

func (f *facts) first(kinds ...ClueKind) *Clue {
	if f == nil {
		return nil
	}
	for i := range f.clues {
		if slices.Contains(kinds, f.clues[i].Kind) {
			return &f.clues[i]
		}
	}
	return nil
}

// interruption says why a bad run of a test may have left an import half
// done, and how sure that is (3 certain, 2 strong, 1 weak, 0 not at all).
func (j *judge) interruption(r Run, f *facts, timeout float64) (string, int) {
	if c := f.first(ImportInterrupted); c != nil {
		return fmt.Sprintf("was interrupted by the deadline while importing %s", c.Module), 3
	}
	if !r.Outcome.bad() {
		return "", 0
	}
	if f.first(DeadlineFailure) != nil {
		return "failed on its deadline", 2
	}
	if f.first(Timeout) != nil {
		return "timed out (pytest-timeout)", 2
	}
	if f.first(HalfImport) != nil {
		return "", 0
	}
	d, whole := f.duration, f.withSetup
	switch {
	case j.seconds > 0 && d >= j.seconds*(1-deadlineSlack)-rounding:
		return fmt.Sprintf("ran %.2f s, past the %g s deadline, and was %s", d, j.seconds, r.Outcome), 2
	case timeout > 0 && whole >= timeout*(1-timeoutSlack)-rounding:
		return fmt.Sprintf("ran %.2f s with its setup, reaching pytest-timeout's %g s, and was %s", whole, timeout, r.Outcome), 2
	case r.Outcome != Rerun:
		return "", 0
	case d < 0:
		return "was rerun; how long it ran is unknown (pass --durations=0 to pytest, or give the JUnit XML)", 1
	case j.seconds == 0 && timeout == 0:
		return "was rerun; its deadline is unknown (pass --spec to compare its duration)", 1
	}
	return "", 0
}

// probe is the command that names the late import of a test.
func (j *judge) probe(node string) string {
	return cmp.Or(j.spec.Probe, "fixturegen probe") + " " + shell.Quote(stripGroup(node))
}

// rounding is how far a duration may fall short of a limit and still be
// taken to reach it: --durations prints hundredths, and a run's setup and
// call are each rounded.
const rounding = 0.01

// timeoutSlack is the share of pytest-timeout's limit that a test's setup
// and call together may fall short of it and still be taken to reach it:
// pytest-timeout starts its timer before pytest starts timing the setup,
// and the hooks around and between the phases are not timed, which on a
// loaded machine adds up to a few percent of a short limit.
const timeoutSlack = 0.05

// deadlineSlack is the share of the deadline that a test's call phase may
// fall short of it and still be taken to reach it: the deadline fixture
// arms its timer in its setup, before pytest starts timing the call, and a
// loaded machine can keep the process waiting for a CPU in between, so a
// call the deadline ended reads a few hundredths short of it.
const deadlineSlack = 0.05

// attempt judges each worker of one attempt.
func (j *judge) attempt(a *Attempt) []Verdict {
	var out []Verdict
	for _, w := range a.Workers {
		// Walk the worker's runs, keeping the strongest interruption so
		// far, up to the first symptom that has one before it.
		cause, strength, why := -1, 0, ""
		ranBefore := map[string]bool{} // tests with a half-import signature seen running
		for i, r := range w.Runs {
			f := cmp.Or(a.facts[r.Node], noFacts)
			if len(f.halfImports(cause >= 0)) > 0 {
				// A test shows the symptom when it has no interruption
				// of its own, or in a later run than its interrupted one.
				if r.Outcome.bad() && cause >= 0 && (ranBefore[r.Node] || f.first(ImportInterrupted, DeadlineFailure, Timeout) == nil) {
					out = append(out, j.poisoned(a, w, cause, i, why, strength))
					break
				}
				ranBefore[r.Node] = true
			}
			if reason, s := j.interruption(r, f, a.timeout); s > strength {
				cause, strength, why = i, s, reason
			}
		}
	}
	return out
}

func (j *judge) poisoned(a *Attempt, w *Worker, cause, symptom int, why string, strength int) Verdict {
	bad := w.Runs[cause]
	bf := cmp.Or(a.facts[bad.Node], noFacts)
	v := Verdict{
		Kind:      PoisonedWorker,
		Attempt:   a.Label,
		Worker:    w.Name,
		Poisoning: &TestRef{Node: stripGroup(bad.Node), Duration: bf.duration, Attempt: a.Label, Why: why},
		Certain:   strength == 3,
	}
	v.Evidence = append(v.Evidence, Evidence{Loc: bad.Loc, What: fmt.Sprintf("%s %s on %s: %s", strings.ToUpper(string(bad.Outcome)), bad.Node, w.Name, why)})
	for _, c := range bf.clues {
		if c.Kind != HalfImport {
			v.Evidence = append(v.Evidence, Evidence{Loc: c.Loc, What: c.Text})
		}
		if (c.Kind == ImportInterrupted || c.Kind == LateImport) && !slices.Contains(v.Modules, c.Module) {
			v.Modules = append(v.Modules, c.Module)
		}
	}
	seen := map[string]bool{}
	for _, r := range w.Runs[cause+1:] {
		f := cmp.Or(a.facts[r.Node], noFacts)
		half := f.halfImports(true)
		if !r.Outcome.bad() || len(half) == 0 || seen[r.Node] {
			continue
		}
		seen[r.Node] = true
		v.Poisoned = append(v.Poisoned, TestRef{Node: stripGroup(r.Node), Duration: f.duration, Attempt: a.Label})
		v.Evidence = append(v.Evidence, Evidence{Loc: r.Loc, What: fmt.Sprintf("%s %s on %s", strings.ToUpper(string(r.Outcome)), r.Node, w.Name)})
		for i, c := range half {
			mod := c.Module
			if !c.Certain && c.Attr != "" {
				mod += "." + c.Attr
			}
			if !slices.Contains(v.Modules, mod) {
				v.Modules = append(v.Modules, mod)
			}
			if i < 2 {
				v.Evidence = append(v.Evidence, Evidence{Loc: c.Loc, What: c.Text})
			}
		}
	}
	v.Summary = fmt.Sprintf("%s %s, and %d later %s on %s failed with a half-import signature",
		stripGroup(bad.Node), why, len(v.Poisoned), pluralWord(len(v.Poisoned), "test"), w.Name)
	if bf.first(Timeout) != nil || strings.Contains(why, "pytest-timeout") {
		// pytest-timeout's handler cut the import short, as its timeout
		// line or the verdict's reason says: the plugin is the fix that
		// needs no spec and no generated file.
		v.Next = append(v.Next, pluginFix)
	}
	v.Next = append(v.Next, j.probe(bad.Node))
	var order []string
	inOrder := map[string]bool{}
	for _, r := range w.Runs[:symptom+1] {
		if n := shell.Quote(stripGroup(r.Node)); !inOrder[n] {
			inOrder[n] = true
			order = append(order, n)
		}
	}
	v.Next = append(v.Next, "python -m pytest -p no:randomly "+strings.Join(order, " "))
	if a.Timeline == KindReplay {
		for _, s := range a.Sources {
			if s.Kind != KindReplay || replayWorker(s.Path) != w.Name {
				continue
			}
			if groupOf(bad.Node) == "" {
				v.Next = append(v.Next, "python -m pytest -p no:randomly --replay "+shell.Quote(s.Path))
			} else {
				// pytest-replay looks the recorded ids up as they are
				// collected, and the loadgroup suffix is added later.
				v.Next = append(v.Next, "# "+s.Path+" records this worker's order, with loadgroup suffixes that --replay cannot find; the command above runs the same order")
			}
		}
	}
	return v
}

// slowLoops finds tests that failed on their deadline on every attempt
// and worker they ran on, at least twice, with no passing run; but those
// in explained (node ids without their group), which another verdict
// already accounts for.
func (j *judge) slowLoops(attempts []*Attempt, explained map[string]bool) []Verdict {
	type tally struct {
		attempts, deadline int
		runs               int // bad runs in the attempts with a deadline failure
		passed             bool
		evidence           []Evidence
		duration           float64
	}
	// Only tests that failed on their deadline somewhere are candidates.
	candidate := map[string]bool{}
	for _, a := range attempts {
		for node, f := range a.facts {
			if f.first(DeadlineFailure) != nil {
				candidate[node] = true
			}
		}
	}
	tests := map[string]*tally{}
	var order []string
	for _, a := range attempts {
		fs := a.facts
		ran := map[string]bool{}
		for _, w := range a.Workers {
			for _, r := range w.Runs {
				if !candidate[r.Node] {
					continue
				}
				t := tests[r.Node]
				if t == nil {
					t = &tally{duration: -1}
					tests[r.Node] = t
					order = append(order, r.Node)
				}
				t.passed = t.passed || r.Outcome == Passed
				if r.Outcome.bad() && fs[r.Node].first(DeadlineFailure) != nil {
					t.runs++
				}
				if ran[r.Node] {
					continue
				}
				ran[r.Node] = true
				t.attempts++
				if c := fs[r.Node].first(DeadlineFailure); c != nil && fs[r.Node].first(HalfImport, ImportInterrupted) == nil {
					t.deadline++
					t.evidence = append(t.evidence, Evidence{Loc: c.Loc, What: c.Text})
					t.duration = max(t.duration, fs[r.Node].duration)
				}
			}
		}
	}
	var out []Verdict
	for _, node := range order {
		t := tests[node]
		// One failure alone may be a first import that took the window;
		// a slow loop fails again when rerun or retried.
		if t.passed || t.deadline == 0 || t.deadline < t.attempts || t.runs < 2 || explained[stripGroup(node)] {
			continue
		}
		out = append(out, Verdict{
			Kind:      SlowRecoveryLoop,
			Summary:   fmt.Sprintf("%s failed on its deadline on every attempt and worker it ran on (%d of %d): the code it guards is slow or stuck; the preload is not involved", stripGroup(node), t.deadline, t.attempts),
			Poisoning: &TestRef{Node: stripGroup(node), Duration: t.duration, Why: "failed on its deadline on every run"},
			Evidence:  t.evidence,
			Next:      []string{"python -m pytest -p no:randomly " + shell.Quote(stripGroup(node))},
		})
	}
	return out
}

// notThisClass says plainly why nothing matched.
func (j *judge) notThisClass(attempts []*Attempt) Verdict {
	v := Verdict{Kind: NotThisClass}
	failed := 0
	var hints []Evidence
	for _, a := range attempts {
		for _, w := range a.Workers {
			seen := map[string]bool{}
			for _, r := range w.Runs {
				if !r.Outcome.bad() || seen[r.Node] {
					continue
				}
				seen[r.Node] = true
				failed++
				f := a.facts[r.Node]
				if len(v.Evidence) < 10 {
					v.Evidence = append(v.Evidence, Evidence{Loc: r.Loc, What: fmt.Sprintf("%s %s on %s", strings.ToUpper(string(r.Outcome)), r.Node, w.Name)})
				}
				switch {
				case f.first(HalfImport) != nil:
					hints = append(hints, Evidence{What: fmt.Sprintf("%s shows a half-import signature on %s, but no earlier test on that worker was interrupted in what the input shows", stripGroup(r.Node), w.Name)})
				case f.first(DeadlineFailure) != nil:
					hints = append(hints, Evidence{What: fmt.Sprintf("%s failed on its deadline on %s without a later half-import failure: a first import under the alarm may have taken the window", stripGroup(r.Node), w.Name)})
					v.Next = append(v.Next, j.probe(r.Node))
				}
			}
		}
	}
	v.Summary = fmt.Sprintf("no worker was poisoned by a half-done import: %d failing %s, none with a half-import signature after an interrupted test on its worker",
		failed, pluralWord(failed, "test"))
	if failed == 0 {
		v.Summary = "no worker was poisoned by a half-done import: every test passed"
	}
	messages := slices.ContainsFunc(attempts, func(a *Attempt) bool {
		return slices.ContainsFunc(a.Sources, func(s *Source) bool { return s.Kind != KindReplay })
	})
	if failed > 0 && !messages {
		v.Summary += "; pytest-replay files hold no failure messages, so give the log or the JUnit XML of the same attempt too, under the same --label"
	}
	v.Evidence = append(v.Evidence, hints...)
	return v
}

func pluralWord(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// pluginFix is the step that ends a poisoning under pytest-timeout: the
// import shield as a pytest plugin, installed next to pytest-timeout.
var pluginFix = "pip install " + pytext.PluginDistribution + "  # add it next to pytest-timeout in the test requirements: a first import then finishes before pytest-timeout's handler fails the test"
