package triage

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fixturegen/fixturegen/schema"
)

// Spec is what triage takes from fixturegen's spec. The zero Spec is
// valid: triage then works from the signatures alone.
type Spec struct {
	File            string
	DeadlineMessage string
	DeadlineSeconds float64
	Preload         []string
	// Probe is the command line that runs fixturegen probe, with the -C
	// and --spec triage was given; "fixturegen probe" when empty.
	Probe string
}

// FromSpec takes from fixturegen's spec what triage uses.
func FromSpec(spec *schema.Spec) Spec {
	return Spec{
		File:            spec.File,
		DeadlineMessage: spec.Deadline.Message,
		DeadlineSeconds: spec.Deadline.Seconds,
		Preload:         spec.Preload.Modules,
	}
}

// Verdict kinds. Their names are part of the JSON output.
const (
	PoisonedWorker   = "poisoned-worker"
	SlowRecoveryLoop = "slow-recovery-loop"
	NotThisClass     = "not-this-failure-class"
)

// Attempt is one run, job or attempt of the CI job: the inputs that
// share a label, and the worker timelines rebuilt from them.
type Attempt struct {
	Label   string
	Sources []*Source
	Workers []*Worker
	// Unplaced holds runs no input places on a worker.
	Unplaced []Run
	// Timeline is the kind of input the workers' order comes from.
	Timeline Kind
	facts    map[string]*facts
	// durations holds each test's longest run, from every input: the
	// call alone where --durations tells it apart, for the deadline, and
	// with its setup, for pytest-timeout, which times both.
	durations, withSetup map[string]float64
	// timeout is pytest-timeout's limit, when an input states it.
	timeout float64
}

// Worker is one pytest-xdist worker's runs, in the order it ran them.
// A worker named "group NAME" stands for the one worker a loadgroup ran
// on when the inputs do not name it.
type Worker struct {
	Name string
	Runs []Run
}

// TestRef names a test in a verdict.
type TestRef struct {
	Node     string  `json:"node"`
	Duration float64 `json:"duration"` // seconds; negative when unknown
	Attempt  string  `json:"attempt"`
	Why      string  `json:"why,omitempty"`
}

// Evidence is one input line behind a verdict.
type Evidence struct {
	Loc  Loc    `json:"-"`
	What string `json:"what"`
}

// Verdict is one diagnosis.
type Verdict struct {
	Kind      string
	Attempt   string
	Worker    string
	Poisoning *TestRef
	Poisoned  []TestRef
	Modules   []string
	// Certain is set when the generated deadline itself reported the
	// interrupted import.
	Certain  bool
	Summary  string
	Evidence []Evidence
	Next     []string
}

// Report is the whole diagnosis.
type Report struct {
	Spec     string
	Attempts []*Attempt
	Verdicts []Verdict
	Warnings []string
}

// Poisoned tells whether a verdict found a poisoned worker.
func (r *Report) Poisoned() bool {
	for _, v := range r.Verdicts {
		if v.Kind == PoisonedWorker {
			return true
		}
	}
	return false
}

// Analyze rebuilds each attempt's workers from the sources and judges
// them. Sources with the same label are one attempt. The sources' runs
// move into the attempts' workers: Analyze leaves each Source.Runs empty.
func Analyze(sources []*Source, spec Spec) *Report {
	rep := &Report{Spec: spec.File}
	byLabel := map[string]*Attempt{}
	for _, s := range sources {
		a := byLabel[s.Label]
		if a == nil {
			a = &Attempt{Label: s.Label}
			byLabel[s.Label] = a
			rep.Attempts = append(rep.Attempts, a)
		}
		a.Sources = append(a.Sources, s)
		rep.Warnings = append(rep.Warnings, s.Warnings...)
	}
	j := &judge{spec: spec, known: map[string]bool{}}
	for _, m := range spec.Preload {
		j.known[m] = true
	}
	for _, a := range rep.Attempts {
		a.rebuild()
		for _, s := range a.Sources {
			for _, c := range s.Clues {
				switch c.Kind {
				case LateImport, ImportInterrupted:
					j.known[c.Module] = true
				case HalfImport:
					if c.Certain {
						j.known[c.Module] = true
					}
				case DeadlineFailure:
					if j.seconds == 0 && c.Seconds > 0 {
						j.seconds = c.Seconds
					}
				}
			}
		}
	}
	if spec.DeadlineSeconds > 0 {
		j.seconds = spec.DeadlineSeconds
	}
	for _, a := range rep.Attempts {
		rep.Verdicts = append(rep.Verdicts, j.attempt(a)...)
	}
	rep.Verdicts = append(rep.Verdicts, j.slowLoops(rep.Attempts)...)
	if len(rep.Verdicts) == 0 {
		rep.Verdicts = append(rep.Verdicts, j.notThisClass(rep.Attempts))
	}
	return rep
}

// rebuild orders the attempt's runs by worker. The order comes from the
// kind of input that places the most runs on a worker (pytest-replay,
// then -v output, then JUnit XML); the other inputs only tell where the
// rest ran.
func (a *Attempt) rebuild() {
	placed := map[Kind]int{}
	for _, s := range a.Sources {
		for _, r := range s.Runs {
			if r.Worker != "" {
				placed[s.Kind] += 2
			} else {
				placed[s.Kind]++
			}
		}
	}
	a.Timeline = KindLog
	best := -1
	for _, k := range []Kind{KindReplay, KindLog, KindJUnit} {
		if placed[k] > best {
			a.Timeline, best = k, placed[k]
		}
	}
	// Where each test and each loadgroup ran, from every input, needed
	// only when the timeline leaves some run without its worker.
	workerOf := map[string]string{}
	groupOn := map[string]string{}
	unplaced := false
	for _, s := range a.Sources {
		if s.Kind == a.Timeline {
			unplaced = unplaced || slices.ContainsFunc(s.Runs, func(r Run) bool { return r.Worker == "" })
		}
	}
	for _, s := range a.Sources {
		if !unplaced {
			break
		}
		for _, r := range s.Runs {
			if r.Worker != "" {
				workerOf[r.Node] = r.Worker
				if g := groupOf(r.Node); g != "" {
					groupOn[g] = r.Worker
				}
			}
		}
		for _, c := range s.Clues {
			if c.Worker != "" && c.Node != "" {
				workerOf[c.Node] = c.Worker
				if g := groupOf(c.Node); g != "" {
					groupOn[g] = c.Worker
				}
			}
		}
	}
	a.durations, a.withSetup = map[string]float64{}, map[string]float64{}
	for _, s := range a.Sources {
		a.timeout = max(a.timeout, s.Timeout)
		for node, d := range s.Durations {
			a.durations[node] = max(a.durations[node], d)
			a.withSetup[node] = max(a.withSetup[node], d+s.Setups[node])
		}
		for node, d := range s.Setups {
			a.withSetup[node] = max(a.withSetup[node], d+s.Durations[node])
		}
		for _, r := range s.Runs {
			if r.Duration >= 0 {
				a.durations[r.Node] = max(a.durations[r.Node], r.Duration)
				a.withSetup[r.Node] = max(a.withSetup[r.Node], r.Duration)
			}
		}
	}
	// A --durations line gives a test's longest run; it is the duration
	// of the run when the test ran once.
	once := map[string]int{}
	for _, s := range a.Sources {
		if s.Kind != a.Timeline || len(s.Durations) == 0 {
			continue
		}
		for _, r := range s.Runs {
			if _, ok := s.Durations[r.Node]; ok {
				once[r.Node]++
			}
		}
	}
	// Each test's last outcome, for pytest-replay's timeline.
	last := map[string]Outcome{}
	for _, s := range a.Sources {
		if a.Timeline == KindReplay && s.Kind != KindReplay {
			for _, r := range s.Runs {
				last[r.Node] = r.Outcome
			}
		}
	}
	index := map[string]*Worker{}
	for _, s := range a.Sources {
		if s.Kind != a.Timeline {
			s.Runs = nil
			continue
		}
		// The runs move to their workers; keeping both would double
		// the memory a large log costs.
		runs := s.Runs
		s.Runs = nil
		for _, r := range runs {
			if r.Duration < 0 && once[r.Node] == 1 {
				r.Duration = a.durations[r.Node]
			}
			if r.Worker == "" {
				r.Worker = workerOf[r.Node]
			}
			if r.Worker == "" {
				if g := groupOf(r.Node); g != "" {
					r.Worker = groupOn[g]
					if r.Worker == "" {
						r.Worker = "group " + g
					}
				}
			}
			if r.Worker == "" {
				a.Unplaced = append(a.Unplaced, r)
				continue
			}
			w := index[r.Worker]
			if w == nil {
				w = &Worker{Name: r.Worker}
				index[r.Worker] = w
				a.Workers = append(a.Workers, w)
			}
			w.Runs = append(w.Runs, r)
		}
	}
	slices.SortStableFunc(a.Workers, func(x, y *Worker) int { return strings.Compare(x.Name, y.Name) })
	a.lastOutcomes(last)
}

// lastOutcomes gives a rerun test's last run the outcome the log or the
// XML of the attempt shows: pytest-replay records the first failure for
// every later run of the test.
func (a *Attempt) lastOutcomes(last map[string]Outcome) {
	if len(last) == 0 {
		return
	}
	for _, w := range a.Workers {
		seen := map[string]bool{}
		for i := len(w.Runs) - 1; i >= 0; i-- {
			r := &w.Runs[i]
			if o, ok := last[r.Node]; ok && !seen[r.Node] && r.Outcome != "" {
				r.Outcome = o
			}
			seen[r.Node] = true
		}
	}
}

// Gaps lists what the attempt's inputs could not show.
func (a *Attempt) Gaps() []string {
	timed := slices.ContainsFunc(a.Sources, func(s *Source) bool { return s.Kind != KindLog })
	var gaps []string
	for _, s := range a.Sources {
		if s.Kind != a.Timeline && len(a.Sources) > 1 {
			continue
		}
		for _, g := range s.Gaps {
			if g == gapDurations && timed {
				continue
			}
			if !slices.Contains(gaps, g) {
				gaps = append(gaps, g)
			}
		}
	}
	if n := len(a.Unplaced); n > 0 {
		gaps = append(gaps, fmt.Sprintf("%d runs are on no known worker", n))
	}
	return gaps
}

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
	clues     []Clue
	duration  float64 // the longest run; negative when unknown
	withSetup float64 // the longest run with its setup; negative when unknown
}

func (j *judge) facts(a *Attempt) map[string]*facts {
	if a.facts != nil {
		return a.facts
	}
	fs := map[string]*facts{}
	a.facts = fs
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
			if c.Node != "" && (c.Kind != HalfImport || j.valid(c)) {
				f := get(c.Node)
				f.clues = append(f.clues, c)
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
	if c := f.first(DeadlineFailure); c != nil {
		return "failed on its deadline", 2
	}
	if c := f.first(Timeout); c != nil {
		return "timed out (pytest-timeout)", 2
	}
	if f != nil && f.first(HalfImport) != nil {
		return "", 0
	}
	d, whole := -1.0, -1.0
	if f != nil {
		d, whole = f.duration, f.withSetup
	}
	switch {
	case j.seconds > 0 && d >= j.seconds-rounding:
		return fmt.Sprintf("ran %.2f s, past the %s s deadline, and was %s", d, num(j.seconds), verb(r.Outcome)), 2
	case timeout > 0 && whole >= timeout-rounding:
		return fmt.Sprintf("ran %.2f s with its setup, reaching pytest-timeout's %s s, and was %s", whole, num(timeout), verb(r.Outcome)), 2
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
	cmd := j.spec.Probe
	if cmd == "" {
		cmd = "fixturegen probe"
	}
	return cmd + " " + shellQuote(stripGroup(node))
}

// rounding is how far a duration may fall short of a limit and still be
// taken to reach it: --durations prints hundredths, and a run's setup and
// call are each rounded.
const rounding = 0.01

func verb(o Outcome) string {
	if o == Rerun {
		return "rerun"
	}
	return string(o)
}

func num(f float64) string { return strings.TrimSuffix(fmt.Sprintf("%g", f), ".0") }

// attempt judges each worker of one attempt.
func (j *judge) attempt(a *Attempt) []Verdict {
	fs := j.facts(a)
	var out []Verdict
	for _, w := range a.Workers {
		// Walk the worker's runs, keeping the strongest interruption so
		// far, up to the first symptom that has one before it.
		cause, strength, why := -1, 0, ""
		ranBefore := map[string]bool{} // tests with a half-import signature seen running
		for i, r := range w.Runs {
			f := fs[r.Node]
			if f.first(HalfImport) != nil {
				// A test shows the symptom when it has no interruption
				// of its own, or in a later run than its interrupted one.
				if r.Outcome.bad() && cause >= 0 && (ranBefore[r.Node] || f.first(ImportInterrupted, DeadlineFailure, Timeout) == nil) {
					out = append(out, j.poisoned(a, w, fs, cause, i, why, strength))
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

func (j *judge) poisoned(a *Attempt, w *Worker, fs map[string]*facts, cause, symptom int, why string, strength int) Verdict {
	bad := w.Runs[cause]
	bf := fs[bad.Node]
	if bf == nil {
		bf = &facts{duration: -1, withSetup: -1}
	}
	dur := bf.duration
	v := Verdict{
		Kind:      PoisonedWorker,
		Attempt:   a.Label,
		Worker:    w.Name,
		Poisoning: &TestRef{Node: stripGroup(bad.Node), Duration: dur, Attempt: a.Label, Why: why},
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
		f := fs[r.Node]
		if !r.Outcome.bad() || f.first(HalfImport) == nil || seen[r.Node] {
			continue
		}
		seen[r.Node] = true
		d := -1.0
		if f != nil {
			d = f.duration
		}
		v.Poisoned = append(v.Poisoned, TestRef{Node: stripGroup(r.Node), Duration: d, Attempt: a.Label})
		v.Evidence = append(v.Evidence, Evidence{Loc: r.Loc, What: fmt.Sprintf("%s %s on %s", strings.ToUpper(string(r.Outcome)), r.Node, w.Name)})
		shown := 0
		for _, c := range f.clues {
			if c.Kind != HalfImport {
				continue
			}
			mod := c.Module
			if !c.Certain && c.Attr != "" {
				mod += "." + c.Attr
			}
			if !slices.Contains(v.Modules, mod) {
				v.Modules = append(v.Modules, mod)
			}
			if shown < 2 {
				v.Evidence = append(v.Evidence, Evidence{Loc: c.Loc, What: c.Text})
				shown++
			}
		}
	}
	v.Summary = fmt.Sprintf("%s %s, and %d later %s on %s failed with a half-import signature",
		stripGroup(bad.Node), why, len(v.Poisoned), pluralWord(len(v.Poisoned), "test"), w.Name)
	v.Next = append(v.Next, j.probe(bad.Node))
	var order []string
	inOrder := map[string]bool{}
	for _, r := range w.Runs[:symptom+1] {
		if n := shellQuote(stripGroup(r.Node)); !inOrder[n] {
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
				v.Next = append(v.Next, "python -m pytest -p no:randomly --replay "+shellQuote(s.Path))
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
// and worker they ran on, at least twice, with no passing run.
func (j *judge) slowLoops(attempts []*Attempt) []Verdict {
	type tally struct {
		attempts, deadline int
		runs               int // bad runs in the attempts with a deadline failure
		passed             bool
		evidence           []Evidence
		duration           float64
		order              int
	}
	// Only tests that failed on their deadline somewhere are candidates.
	candidate := map[string]bool{}
	for _, a := range attempts {
		for node, f := range j.facts(a) {
			if f.first(DeadlineFailure) != nil {
				candidate[node] = true
			}
		}
	}
	tests := map[string]*tally{}
	var order []string
	for _, a := range attempts {
		fs := j.facts(a)
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
				if r.Outcome == Passed {
					t.passed = true
				}
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
		if t.passed || t.deadline == 0 || t.deadline < t.attempts || t.runs < 2 {
			continue
		}
		out = append(out, Verdict{
			Kind:      SlowRecoveryLoop,
			Summary:   fmt.Sprintf("%s failed on its deadline on every attempt and worker it ran on (%d of %d): the code it guards is slow or stuck; the preload is not involved", stripGroup(node), t.deadline, t.attempts),
			Poisoning: &TestRef{Node: stripGroup(node), Duration: t.duration, Why: "failed on its deadline on every run"},
			Evidence:  t.evidence,
			Next:      []string{"python -m pytest -p no:randomly " + shellQuote(stripGroup(node))},
		})
	}
	return out
}

// notThisClass says plainly why nothing matched.
func (j *judge) notThisClass(attempts []*Attempt) Verdict {
	v := Verdict{Kind: NotThisClass}
	failed := 0
	var hints []string
	for _, a := range attempts {
		fs := j.facts(a)
		for _, w := range a.Workers {
			seen := map[string]bool{}
			for _, r := range w.Runs {
				if !r.Outcome.bad() || seen[r.Node] {
					continue
				}
				seen[r.Node] = true
				failed++
				f := fs[r.Node]
				if len(v.Evidence) < 10 {
					v.Evidence = append(v.Evidence, Evidence{Loc: r.Loc, What: fmt.Sprintf("%s %s on %s", strings.ToUpper(string(r.Outcome)), r.Node, w.Name)})
				}
				switch {
				case f.first(HalfImport) != nil:
					hints = append(hints, fmt.Sprintf("%s shows a half-import signature on %s, but no earlier test on that worker was interrupted in what the input shows", stripGroup(r.Node), w.Name))
				case f.first(DeadlineFailure) != nil:
					hints = append(hints, fmt.Sprintf("%s failed on its deadline on %s without a later half-import failure: a first import under the alarm may have taken the window", stripGroup(r.Node), w.Name))
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
	for _, h := range hints {
		v.Evidence = append(v.Evidence, Evidence{What: h})
	}
	return v
}

func pluralWord(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+=:,@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
