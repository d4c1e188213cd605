package triage

import (
	"slices"

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

// TestRef names a test in a verdict.
type TestRef struct {
	Node     string  `json:"node"`
	Duration float64 `json:"duration"` // seconds; negative when unknown
	Attempt  string  `json:"attempt"`
	Why      string  `json:"why,omitempty"`
}

// Evidence is one input line behind a verdict.
type Evidence struct {
	Loc
	What string `json:"what"`
}

// Verdict is one diagnosis. Its JSON field names are part of fixturegen's
// interface.
type Verdict struct {
	Kind    string `json:"kind"`
	Attempt string `json:"attempt,omitempty"`
	Worker  string `json:"worker,omitempty"`
	// Certain is set when the generated deadline itself reported the
	// interrupted import.
	Certain   bool       `json:"certain"`
	Summary   string     `json:"summary"`
	Poisoning *TestRef   `json:"poisoning_test,omitempty"`
	Poisoned  []TestRef  `json:"poisoned_tests"`
	Modules   []string   `json:"modules"`
	Evidence  []Evidence `json:"evidence"`
	Next      []string   `json:"next"`
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
	return slices.ContainsFunc(r.Verdicts, func(v Verdict) bool { return v.Kind == PoisonedWorker })
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
	// The spec's deadline, or else the first one a failure states.
	j := &judge{spec: spec, known: map[string]bool{}, seconds: max(spec.DeadlineSeconds, 0)}
	for _, m := range spec.Preload {
		j.known[m] = true
	}
	for _, a := range rep.Attempts {
		a.rebuild()
		for _, s := range a.Sources {
			for _, c := range s.Clues {
				switch {
				case c.Kind == LateImport, c.Kind == ImportInterrupted, c.Kind == HalfImport && c.Certain:
					j.known[c.Module] = true
				case c.Kind == DeadlineFailure && j.seconds == 0 && c.Seconds > 0:
					j.seconds = c.Seconds
				}
			}
		}
	}
	for _, a := range rep.Attempts {
		a.facts = j.facts(a)
		rep.Verdicts = append(rep.Verdicts, j.attempt(a)...)
	}
	// One verdict per test: a test a poisoned-worker verdict names, as the
	// poisoning test or a poisoned one, failed on its deadline because of
	// an import under the alarm, so it is no slow recovery loop too.
	named := map[string]bool{}
	for _, v := range rep.Verdicts {
		named[v.Poisoning.Node] = true
		for _, p := range v.Poisoned {
			named[p.Node] = true
		}
	}
	rep.Verdicts = append(rep.Verdicts, j.slowLoops(rep.Attempts, named)...)
	if len(rep.Verdicts) == 0 {
		rep.Verdicts = append(rep.Verdicts, j.notThisClass(rep.Attempts))
	}
	return rep
}
