package triage

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Attempt is one run, job or attempt of the CI job: the inputs that
// share a label, and the worker timelines rebuilt from them.
type Attempt struct {
	Label   string
	Sources []*Source
	Workers []*Worker
	// unplaced counts the runs no input places on a worker.
	unplaced int
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
	place := func(node, worker string) {
		if node != "" && worker != "" {
			workerOf[node] = worker
			if g := groupOf(node); g != "" {
				groupOn[g] = worker
			}
		}
	}
	unplaced := slices.ContainsFunc(a.Sources, func(s *Source) bool {
		return s.Kind == a.Timeline && slices.ContainsFunc(s.Runs, func(r Run) bool { return r.Worker == "" })
	})
	for _, s := range a.Sources {
		if !unplaced {
			break
		}
		for _, r := range s.Runs {
			place(r.Node, r.Worker)
		}
		for _, c := range s.Clues {
			place(c.Node, c.Worker)
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
	// Each test's last outcome in the other inputs, for pytest-replay's
	// timeline.
	last := map[string]Outcome{}
	index := map[string]*Worker{}
	for _, s := range a.Sources {
		// The timeline's runs move to their workers; keeping both would
		// double the memory a large log costs.
		runs := s.Runs
		s.Runs = nil
		if s.Kind != a.Timeline {
			if a.Timeline == KindReplay {
				for _, r := range runs {
					last[r.Node] = r.Outcome
				}
			}
			continue
		}
		for _, r := range runs {
			if r.Duration < 0 && once[r.Node] == 1 {
				r.Duration = a.durations[r.Node]
			}
			if r.Worker == "" {
				r.Worker = workerOf[r.Node]
				if g := groupOf(r.Node); r.Worker == "" && g != "" {
					r.Worker = cmp.Or(groupOn[g], "group "+g)
				}
			}
			if r.Worker == "" {
				a.unplaced++
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
	if a.unplaced > 0 {
		gaps = append(gaps, fmt.Sprintf("%d runs are on no known worker", a.unplaced))
	}
	return gaps
}
