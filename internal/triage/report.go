package triage

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/fixturegen/fixturegen/internal/check/finding"
)

// shownRuns is how many runs of a worker the text output lists; JSON
// lists them all.
const shownRuns = 30

// maxEvidence is how much of an evidence line the text output shows; JSON
// gives it whole.
const maxEvidence = 200

// Text prints the report for people: each attempt's workers, then each
// verdict with its evidence and next steps.
func (r *Report) Text(w io.Writer) {
	for _, warn := range r.Warnings {
		fmt.Fprintf(w, "warning: %s\n", warn)
	}
	for _, a := range r.Attempts {
		fmt.Fprintf(w, "attempt %s:", a.Label)
		for _, s := range a.Sources {
			fmt.Fprintf(w, " %s (%s, %d lines)", s.Path, s.Kind, s.Lines)
		}
		fmt.Fprintln(w)
		for _, wk := range a.Workers {
			r.workerText(w, wk)
		}
		for _, g := range a.Gaps() {
			fmt.Fprintf(w, "  not shown: %s\n", g)
		}
	}
	fmt.Fprintln(w)
	for _, v := range r.Verdicts {
		r.verdictText(w, v)
	}
}

func (r *Report) workerText(w io.Writer, wk *Worker) {
	bad := 0
	for _, run := range wk.Runs {
		if run.Outcome.bad() {
			bad++
		}
	}
	fmt.Fprintf(w, "  %s: %d runs, %d not passed\n", wk.Name, len(wk.Runs), bad)
	for i, run := range wk.Runs {
		if i == shownRuns {
			fmt.Fprintf(w, "    ... %d more runs (--format json lists them all)\n", len(wk.Runs)-shownRuns)
			break
		}
		d := ""
		if run.Duration >= 0 {
			d = fmt.Sprintf("%.2fs", run.Duration)
		}
		fmt.Fprintf(w, "    %-10s %7s  %s  (%s)\n", outcomeText(run.Outcome), d, run.Node, run.Loc)
	}
}

func outcomeText(o Outcome) string { return cmp.Or(string(o), "unfinished") }

func (r *Report) verdictText(w io.Writer, v Verdict) {
	title := strings.ReplaceAll(v.Kind, "-", " ")
	if v.Kind == PoisonedWorker {
		title = fmt.Sprintf("%s %s in attempt %s", title, v.Worker, v.Attempt)
	}
	fmt.Fprintf(w, "%s: %s\n", title, v.Summary)
	if v.Kind == PoisonedWorker {
		p := v.Poisoning
		fmt.Fprintf(w, "  poisoning test: %s (%s, attempt %s)\n", p.Node, seconds(p.Duration), p.Attempt)
		fmt.Fprintln(w, "  poisoned tests:")
		for _, t := range v.Poisoned {
			fmt.Fprintf(w, "    %s\n", t.Node)
		}
		if len(v.Modules) > 0 {
			fmt.Fprintf(w, "  modules: %s\n", strings.Join(v.Modules, ", "))
		}
	}
	if len(v.Evidence) > 0 {
		fmt.Fprintln(w, "  evidence:")
		for _, e := range v.Evidence {
			what := e.What
			if len(what) > maxEvidence {
				cut := maxEvidence
				for cut > 0 && !utf8.RuneStart(what[cut]) {
					cut--
				}
				what = what[:cut] + "..."
			}
			if e.Loc.File != "" {
				what = e.Loc.String() + ": " + what
			}
			fmt.Fprintf(w, "    %s\n", what)
		}
	}
	if len(v.Next) > 0 {
		fmt.Fprintln(w, "  next:")
		for _, n := range v.Next {
			fmt.Fprintf(w, "    %s\n", n)
		}
	}
	fmt.Fprintln(w)
}

func seconds(d float64) string {
	if d < 0 {
		return "duration unknown"
	}
	return fmt.Sprintf("%.2f s", d)
}

// The JSON document. Its field names are part of fixturegen's interface.
type (
	jsonReport struct {
		Spec     string        `json:"spec"`
		Poisoned bool          `json:"poisoned"`
		Verdicts []Verdict     `json:"verdicts"`
		Attempts []jsonAttempt `json:"attempts"`
		Warnings []string      `json:"warnings"`
	}
	jsonAttempt struct {
		Label    string       `json:"label"`
		Inputs   []*Source    `json:"inputs"`
		Timeline string       `json:"timeline"`
		Workers  []jsonWorker `json:"workers"`
		Gaps     []string     `json:"not_shown"`
	}
	jsonWorker struct {
		Name string    `json:"name"`
		Runs []jsonRun `json:"runs"`
	}
	jsonRun struct {
		Node     string   `json:"node"`
		Outcome  string   `json:"outcome"`
		Duration *float64 `json:"duration"`
		File     string   `json:"file"`
		Line     int      `json:"line"`
		Col      int      `json:"col,omitempty"`
	}
)

// JSON prints the report as one JSON document.
func (r *Report) JSON(w io.Writer) error {
	doc := jsonReport{Spec: r.Spec, Poisoned: r.Poisoned(), Verdicts: []Verdict{}, Attempts: []jsonAttempt{}, Warnings: orEmpty(r.Warnings)}
	for _, v := range r.Verdicts {
		v.Poisoned, v.Modules, v.Evidence, v.Next = orEmpty(v.Poisoned), orEmpty(v.Modules), orEmpty(v.Evidence), orEmpty(v.Next)
		doc.Verdicts = append(doc.Verdicts, v)
	}
	for _, a := range r.Attempts {
		ja := jsonAttempt{Label: a.Label, Inputs: a.Sources, Timeline: string(a.Timeline), Workers: []jsonWorker{}, Gaps: orEmpty(a.Gaps())}
		for _, wk := range a.Workers {
			jw := jsonWorker{Name: wk.Name, Runs: make([]jsonRun, 0, len(wk.Runs))}
			for _, run := range wk.Runs {
				jr := jsonRun{Node: run.Node, Outcome: outcomeText(run.Outcome), File: run.Loc.File, Line: run.Loc.Line, Col: run.Loc.Col}
				if run.Duration >= 0 {
					jr.Duration = &run.Duration
				}
				jw.Runs = append(jw.Runs, jr)
			}
			ja.Workers = append(ja.Workers, jw)
		}
		doc.Attempts = append(doc.Attempts, ja)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

// GitHub prints one workflow annotation per verdict that found something,
// at its first evidence line, then the text report for the log.
func (r *Report) GitHub(w io.Writer) {
	for _, warn := range r.Warnings {
		fmt.Fprintf(w, "::warning title=%s::%s\n", finding.EscapeProperty("fixturegen triage"), finding.EscapeData(warn))
	}
	for _, v := range r.Verdicts {
		if v.Kind == NotThisClass {
			continue
		}
		kind, title := "error", "fixturegen triage: poisoned worker "+v.Worker
		if v.Kind == SlowRecoveryLoop {
			kind, title = "warning", "fixturegen triage: slow recovery loop"
		}
		msg := v.Summary
		if len(v.Next) > 0 {
			msg += "\nnext: " + strings.Join(v.Next, "\nnext: ")
		}
		where := ""
		if len(v.Evidence) > 0 && v.Evidence[0].Loc.File != "" {
			l := v.Evidence[0].Loc
			where = fmt.Sprintf("file=%s,line=%d,", finding.EscapeProperty(l.File), l.Line)
			if l.Col > 0 {
				where += fmt.Sprintf("col=%d,", l.Col)
			}
		}
		fmt.Fprintf(w, "::%s %stitle=%s::%s\n", kind, where, finding.EscapeProperty(title), finding.EscapeData(msg))
	}
	// The warnings were annotated already.
	text := *r
	text.Warnings = nil
	text.Text(w)
}

// orEmpty is s, or an empty slice for nil, so that JSON shows [] and not
// null.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
