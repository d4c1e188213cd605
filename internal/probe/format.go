package probe

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/fixturegen/fixturegen/internal/cli/color"
	"github.com/fixturegen/fixturegen/internal/timerexc"
	"github.com/fixturegen/fixturegen/schema"
)

// Error says which nodes did not collect, with pytest's message.
func (nc *NotCollected) Error() string {
	what := "node " + nc.Nodes[0] + " does"
	if len(nc.Nodes) > 1 {
		what = "nodes " + strings.Join(nc.Nodes, ", ") + " do"
	}
	return fmt.Sprintf("%s not collect:\n%s", what, nc.Message)
}

// Text prints the report for people: the late imports, the failed
// attempts, the records at each arming, the inner run's failures, and the
// verdict with its fix. Each module, attempt and record state is printed
// once, with how often it came and the first test it came in; verbose
// lists every failed attempt and arming, and the inner run's whole output.
// spec names the deadline fixture and the recorded keys.
func (r *Report) Text(w io.Writer, spec *schema.Spec, p color.Painter, verbose bool) {
	window := "while a timeout was armed"
	if spec.HasDeadline() {
		window = "while " + spec.Deadline.Fixture + " was armed"
	}
	if len(r.Late) == 0 {
		fmt.Fprintf(w, "late imports: %s\n", p.Paint(color.Green, "none"))
	} else {
		fmt.Fprintf(w, "%s (first imported %s):\n", p.Paint(color.Red, "late imports"), window)
		for _, g := range tallyBy(r.Late, func(imp Import) string { return imp.Module }, func(imp Import) string { return imp.Node }) {
			line := fmt.Sprintf("  %s %7.2f s  %s%s", p.Paint(color.Red, fmt.Sprintf("%-40s", g.first.Module)), g.first.Seconds, g.first.Node, more(len(g.tests), "test"))
			// The first import of the module that a timer ended, if one did.
			if i := slices.IndexFunc(r.Late, func(imp Import) bool { return imp.Module == g.first.Module && imp.Timer != "" }); i >= 0 {
				line += ", interrupted by " + interrupter(spec, r.Late[i])
			}
			fmt.Fprintln(w, line)
		}
	}
	r.failedText(w, window, verbose)
	r.armedText(w, spec, p, verbose)
	if r.Code != 0 {
		r.outputText(w, verbose)
	}
	if r.OK() {
		if spec.HasDeadline() {
			fmt.Fprintf(w, "%s every recorded module was loaded at each arming, and nothing was imported late\n", p.Paint(color.Green, "ok:"))
		} else {
			fmt.Fprintf(w, "%s nothing was imported for the first time while a timeout was armed\n", p.Paint(color.Green, "ok:"))
		}
		return
	}
	if !spec.HasDeadline() {
		if add := r.ToPreload(nil); len(add) > 0 {
			shieldAdvice(w, spec, add)
		}
		return
	}
	if again := r.preloadedLate(spec.Preload.Modules); len(again) > 0 {
		fmt.Fprintf(w, "already in [preload].modules yet imported late: %s; a timer was armed before %s ran (one the test arms itself, not through %s), and preloading cannot help it\n",
			strings.Join(again, ", "), spec.Preload.Fixture, spec.Deadline.Fixture)
	}
	if add := r.ToPreload(spec.Preload.Modules); len(add) > 0 {
		fmt.Fprintf(w, "fix: fixturegen probe --fix (adds %s to [preload].modules and regenerates)\n", strings.Join(add, ", "))
	}
}

// shieldAdvice says what a spec that holds only the shield can do about
// late modules: pytest-timeout starts its timer before a test's fixtures
// run, so no preload fixture precedes it; an import when the conftest
// loads does, once per worker.
func shieldAdvice(w io.Writer, spec *schema.Spec, modules []string) {
	where := ", outside the fixturegen region"
	if spec.File == "" {
		// pytest-import-shield's probe, without a spec: no region anywhere.
		where = ""
	}
	fmt.Fprintf(w, "fix: import %s when %s loads, at its top%s:\n", strings.Join(modules, ", "), spec.Paths.Conftest, where)
	for _, m := range modules {
		fmt.Fprintf(w, "  import %s  # noqa: F401\n", m)
	}
	fmt.Fprintf(w, "pytest-timeout starts its timer before a test's fixtures run, so no fixture can take an import out of it; the conftest loads before any test, once per worker. The shield keeps each of these imports whole meanwhile, and the test it delays fails with pytest-timeout's own message.\n")
}

// interrupter names what ended an import: the timer and its exception.
func interrupter(spec *schema.Spec, imp Import) string {
	who := "a timer"
	switch {
	case imp.Timer == string(timerexc.Deadline) && spec.HasDeadline():
		who = spec.Deadline.Fixture
	case imp.Timer == string(timerexc.Deadline):
		who = "a deadline"
	case imp.Timer == string(timerexc.PytestTimeout):
		who = "pytest-timeout"
	case strings.HasSuffix(imp.Timer, " handler"):
		who = "the " + imp.Timer
	}
	return who + " (" + imp.Error + ")"
}

// tally is the items of one key: the first, how many there were, and the
// tests they came in.
type tally[T any] struct {
	first T
	count int
	tests map[string]bool
}

// tallyBy groups items by key, in the order each key first came; node
// names the test an item came in.
func tallyBy[T any, K comparable](items []T, key func(T) K, node func(T) string) []*tally[T] {
	var out []*tally[T]
	at := map[K]*tally[T]{}
	for _, it := range items {
		t := at[key(it)]
		if t == nil {
			t = &tally[T]{first: it, tests: map[string]bool{}}
			at[key(it)] = t
			out = append(out, t)
		}
		t.count++
		t.tests[node(it)] = true
	}
	return out
}

// more says how many more of what there were beyond the first of n:
// " and 3 more tests"; "" for one.
func more(n int, what string) string {
	if n <= 1 {
		return ""
	}
	return " and " + count(n-1, "more "+what)
}

// failedText prints the failed attempts: one line that counts them, or
// with verbose each module and error once, with its count and first test.
func (r *Report) failedText(w io.Writer, window string, verbose bool) {
	if len(r.Failed) == 0 {
		return
	}
	node := func(f FailedImport) string { return f.Node }
	groups := tallyBy(r.Failed, func(f FailedImport) [2]string { return [2]string{f.Module, f.Error} }, node)
	if !verbose {
		tests := tallyBy(r.Failed, node, node)
		fmt.Fprintf(w, "failed import attempts %s: %s, %s in %s; none loaded a module, so there is nothing to preload (--verbose lists them)\n",
			window, count(len(groups), "module"), count(len(r.Failed), "attempt"), count(len(tests), "test"))
		return
	}
	fmt.Fprintf(w, "failed import attempts %s (no module loaded, so nothing to preload; --fix leaves them out):\n", window)
	for _, g := range groups {
		line := fmt.Sprintf("  %-40s %-20s %s%s", g.first.Module, g.first.Error, g.first.Node, more(len(g.tests), "test"))
		if g.count > len(g.tests) {
			line += fmt.Sprintf(" (%s)", count(g.count, "attempt"))
		}
		fmt.Fprintln(w, line)
	}
}

// count says n of what, in the plural when n is not 1.
func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// armedText prints the records at each arming: each state once, at the
// first test that armed with it, with how many more did; with verbose,
// every arming.
func (r *Report) armedText(w io.Writer, spec *schema.Spec, p color.Painter, verbose bool) {
	if len(r.Armed) == 0 {
		if spec.HasDeadline() {
			fmt.Fprintf(w, "armed: never; these tests do not use %s, so the probe proves nothing about them\n", spec.Deadline.Fixture)
		} else {
			fmt.Fprintf(w, "armed: never; no timeout was armed with a signal in these tests (pytest-timeout's timeout is not set for them, or its method is thread), so the probe proves nothing about them\n")
		}
		return
	}
	states := func(rec map[string]bool) string {
		var parts []string
		for _, key := range spec.Probe.Record {
			style := color.Green
			if !rec[key.Key] {
				style = color.Red
			}
			parts = append(parts, p.Paint(style, fmt.Sprintf("%s=%t", key.Key, rec[key.Key])))
		}
		if len(parts) == 0 {
			return ""
		}
		return "  " + strings.Join(parts, " ")
	}
	type arming struct{ node, states string }
	armings := make([]arming, len(r.Armed))
	for i, rec := range r.Armed {
		armings[i] = arming{nodeAt(r.ArmedNodes, i), states(rec)}
	}
	if verbose {
		for _, a := range armings {
			fmt.Fprintf(w, "armed: %s%s\n", a.node, a.states)
		}
		return
	}
	for _, g := range tallyBy(armings, func(a arming) string { return a.states }, func(a arming) string { return a.node }) {
		line := "armed: " + g.first.node + g.first.states
		if g.count > 1 {
			line += fmt.Sprintf("  (and %s alike)", count(g.count-1, "more arming"))
		}
		fmt.Fprintln(w, line)
	}
}

// outputText prints what the inner run said of its failures: each test
// that failed or errored with the first line of what it raised, and
// pytest's last line; with verbose, or when no test failed (pytest itself
// stopped), its whole output.
func (r *Report) outputText(w io.Writer, verbose bool) {
	failed := slices.DeleteFunc(slices.Clone(r.Results), func(res Result) bool { return res.Outcome != "failed" && res.Outcome != "error" })
	if verbose || len(failed) == 0 {
		fmt.Fprintf(w, "the inner pytest run exited %d; its output:\n%s%s", r.Code, r.Stdout, r.Stderr)
		return
	}
	fmt.Fprintf(w, "the inner pytest run exited %d (--verbose shows its whole output):\n", r.Code)
	for _, res := range failed {
		fmt.Fprintf(w, "  %-7s %s: %s\n", res.Outcome, res.Node, res.Message)
	}
	if last := lastLine(r.Stdout); last != "" {
		fmt.Fprintf(w, "  %s\n", last)
	}
}

// lastLine is the last line of out that is neither empty nor the probe's
// report: pytest's counts ("1 failed, 1 passed in 1.39s").
func lastLine(out string) string {
	for _, l := range slices.Backward(strings.Split(out, "\n")) {
		if l := strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, `{"code"`) {
			return l
		}
	}
	return ""
}

// preloadedLate returns the late modules that are in preloaded already.
func (r *Report) preloadedLate(preloaded []string) []string {
	return slices.DeleteFunc(r.LateModules(), func(m string) bool { return !slices.Contains(preloaded, m) })
}

// JSON prints the report as one JSON document, for scripts.
func (r *Report) JSON(w io.Writer) error {
	type armed struct {
		Node    string          `json:"node"`
		Records map[string]bool `json:"records"`
	}
	doc := struct {
		OK     bool           `json:"ok"`
		Code   int            `json:"code"`
		Nodes  []string       `json:"nodes"`
		Late   []Import       `json:"late"`
		Failed []FailedImport `json:"failed"`
		Armed  []armed        `json:"armed"`
		// The late modules left out of the fix; see Report.
		NotImportable []string   `json:"not_importable"`
		Optional      []Optional `json:"optional"`
		Results       []Result   `json:"results"`
	}{OK: r.OK(), Code: r.Code, Nodes: orEmpty(r.Nodes), Late: orEmpty(r.Late), Failed: orEmpty(r.Failed), Armed: []armed{},
		NotImportable: orEmpty(r.NotImportable), Optional: orEmpty(r.Optional), Results: orEmpty(r.Results)}
	for i, rec := range r.Armed {
		doc.Armed = append(doc.Armed, armed{nodeAt(r.ArmedNodes, i), rec})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// nodeAt is the test that armed the alarm the i-th time.
func nodeAt(nodes []string, i int) string {
	if i < len(nodes) && nodes[i] != "" {
		return nodes[i]
	}
	return "(outside a test)"
}

// ImportTimesText prints each preload module's cold import against the
// deadline, as ImportTimes measured them with python.
func ImportTimesText(w io.Writer, spec *schema.Spec, python string, times []ImportTime) {
	fmt.Fprintf(w, "cold import of each preload module, alone in a fresh %s, against the %gs deadline:\n", python, spec.Deadline.Seconds)
	for _, t := range times {
		share := 100 * t.Seconds / spec.Deadline.Seconds
		fmt.Fprintf(w, "  %-40s %7.3f s  %5.0f%% of the deadline", t.Module, t.Seconds, share)
		if t.Heaviest != "" {
			fmt.Fprintf(w, "  (heaviest: %s %.3f s)", t.Heaviest, t.HeaviestSeconds)
		}
		fmt.Fprintln(w)
	}
}

// ImportTimesJSON prints the import times as one JSON array.
func ImportTimesJSON(w io.Writer, times []ImportTime) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(orEmpty(times))
}

// orEmpty is s, or an empty slice for nil, so that JSON shows [] and not
// null.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
