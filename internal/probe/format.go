package probe

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/fixturegen/fixturegen/internal/cli/color"
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

// Text prints the report for people: the late imports, the records at
// each arming, the inner run's output when it failed, and the verdict
// with its fix. spec names the deadline fixture and the recorded keys.
func (r *Report) Text(w io.Writer, spec *schema.Spec, p color.Painter) {
	if len(r.Late) == 0 {
		fmt.Fprintf(w, "late imports: %s\n", p.Paint(color.Green, "none"))
	} else {
		fmt.Fprintf(w, "%s (first imported while %s was armed):\n", p.Paint(color.Red, "late imports"), spec.Deadline.Fixture)
		for _, imp := range r.Late {
			fmt.Fprintf(w, "  %s %7.2f s  %s\n", p.Paint(color.Red, fmt.Sprintf("%-40s", imp.Module)), imp.Seconds, imp.Node)
		}
	}
	if len(r.Failed) > 0 {
		fmt.Fprintf(w, "failed import attempts under the alarm (no module loaded, so nothing to preload; --fix leaves them out):\n")
		for _, f := range r.Failed {
			fmt.Fprintf(w, "  %-40s %-20s %s\n", f.Module, f.Error, f.Node)
		}
	}
	if len(r.Armed) == 0 {
		fmt.Fprintf(w, "armed: never; these tests do not use %s, so the probe proves nothing about them\n", spec.Deadline.Fixture)
	}
	for i, rec := range r.Armed {
		var parts []string
		for _, key := range spec.Probe.Record {
			style := color.Green
			if !rec[key.Key] {
				style = color.Red
			}
			parts = append(parts, p.Paint(style, fmt.Sprintf("%s=%t", key.Key, rec[key.Key])))
		}
		fmt.Fprintf(w, "armed: %s  %s\n", nodeAt(r.ArmedNodes, i), strings.Join(parts, " "))
	}
	if r.Code != 0 {
		fmt.Fprintf(w, "the inner pytest run exited %d; its output:\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	if r.OK() {
		fmt.Fprintf(w, "%s every recorded module was loaded at each arming, and nothing was imported late\n", p.Paint(color.Green, "ok:"))
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

// preloadedLate returns the late modules that are in preloaded already.
func (r *Report) preloadedLate(preloaded []string) []string {
	add := map[string]bool{}
	for _, m := range r.ToPreload(preloaded) {
		add[m] = true
	}
	var out []string
	for _, m := range r.LateModules() {
		if !add[m] {
			out = append(out, m)
		}
	}
	return out
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
	}{OK: r.OK(), Code: r.Code, Nodes: r.Nodes, Late: r.Late, Failed: r.Failed, Armed: []armed{}}
	if doc.Late == nil {
		doc.Late = []Import{}
	}
	if doc.Failed == nil {
		doc.Failed = []FailedImport{}
	}
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

// ImportTimesJSON prints the import times as one JSON array, each with
// its share of the deadline.
func ImportTimesJSON(w io.Writer, spec *schema.Spec, times []ImportTime) error {
	type row struct {
		Module          string  `json:"module"`
		Seconds         float64 `json:"seconds"`
		DeadlineShare   float64 `json:"deadline_share"`
		Heaviest        string  `json:"heaviest,omitempty"`
		HeaviestSeconds float64 `json:"heaviest_seconds,omitempty"`
	}
	rows := []row{}
	for _, t := range times {
		rows = append(rows, row{t.Module, t.Seconds, t.Seconds / spec.Deadline.Seconds, t.Heaviest, t.HeaviestSeconds})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rows)
}
