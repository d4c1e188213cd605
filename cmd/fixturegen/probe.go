package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/fixturegen/fixturegen/internal/cli/color"
	"github.com/fixturegen/fixturegen/internal/gen/plan"
	"github.com/fixturegen/fixturegen/internal/probe"
	"github.com/fixturegen/fixturegen/internal/specedit"
	"github.com/fixturegen/fixturegen/schema"
)

func init() {
	var (
		format     string
		python     string
		fix        bool
		importTime bool
		quiet      bool
	)
	commands = append(commands, &command{
		name:    "probe",
		args:    "[NODE...]",
		summary: "run tests with the recording probe and list every late import",
		help: `
Runs the given pytest node ids (default: every [[probe.case]] node) in one
fresh interpreter, cold as on a new CI worker, with the recording probe
plugin and no planted delays. It reports every module whose first import
started while the alarm was armed (outermost imports only, with their cold
seconds) and the [probe.record] state at each arming.

PYTEST_ADDOPTS and the ini addopts do not reach the inner run, so reruns,
-n and --timeout from the project's configuration cannot change it.

While it runs, a line per test arrives on stderr with its outcome and
seconds, and on a terminal a live counter shows the time spent so far; -q
prints only the result.

The generated files must be up to date with the spec, since the inner run
uses the project's conftest: when they are not, probe stops and asks for
fixturegen generate first. A node that does not collect (no such test, a
syntax error) stops it too, naming the node and giving pytest's message.

Ctrl-C or SIGTERM is passed on to the inner pytest and everything it
started; after two seconds they are killed. The temporary folder is
removed, the tests that finished are listed, and the exit status is 130
(143 for SIGTERM).

Exit status: 0 when nothing was imported late, every record was true and
the tests passed; 1 otherwise; 2 for usage or spec errors, generated files
out of date, or a node that does not collect; 130 or 143 when interrupted.

With --fix, the late modules are added to [preload].modules in the spec
(only that array's text changes; comments elsewhere stay), the files are
regenerated, and the probe runs again to confirm: one command turns red
into green. The spec and every file generate writes are checked first (a
planned path that a link leads out of the spec's folder is refused, exit
2), before the tests run.

With --importtime, each preload module's cold import is measured alone in a
fresh interpreter (python -X importtime) and shown against the deadline,
slowest first, instead of probing tests.

Examples:
  fixturegen probe
  fixturegen probe tests/inbox/test_channel_reconnect.py::test_subscriber
  fixturegen probe --fix
  fixturegen probe --importtime`,
		flags: func(fs *pflag.FlagSet) {
			fs.StringVar(&format, "format", "text", "output `FORMAT`: text or json")
			fs.StringVar(&python, "python", "", "the `PYTHON` interpreter to run (default: the project's .venv/bin/python if present, else python3)")
			fs.BoolVar(&fix, "fix", false, "add the late modules to [preload].modules, regenerate, and probe again")
			fs.BoolVar(&importTime, "importtime", false, "measure each preload module's cold import against the deadline")
			fs.BoolVarP(&quiet, "quiet", "q", false, "print no progress, only the result")
			completeValues(fs, "format", "text", "json")
			completeFiles(fs, "python")
		},
		run: func(c *context, args []string) error {
			if format != "text" && format != "json" {
				return usageError{fmt.Sprintf("--format must be text or json, not %q", format)}
			}
			if fix && importTime {
				return usageError{"--fix and --importtime do different jobs; use one"}
			}
			spec, err := c.loadSpec()
			if err != nil {
				return err
			}
			if python == "" {
				python = probe.DefaultPython(spec)
			}
			if importTime {
				return runImportTime(c.stdout, spec, python, format)
			}
			nodes := args
			if len(nodes) == 0 {
				nodes = caseNodes(spec)
			}
			if len(nodes) == 0 {
				return usageError{fmt.Sprintf("no node ids to probe: name some, or add [[probe.case]] tables to %s", spec.File)}
			}
			if err := upToDate(c, spec); err != nil {
				return err
			}
			if fix {
				// Every file --fix may write is checked before the
				// project's tests run, so a refusal costs no run.
				if _, err := plan.SpecText(spec); err != nil {
					return err
				}
				if _, err := plan.Make(spec); err != nil {
					return err
				}
			}
			if !quiet {
				fmt.Fprintf(c.stderr, "probing %d node(s) with %s\n", len(nodes), python)
			}
			report, err := runProbe(c, spec, python, nodes, quiet)
			if err != nil {
				return err
			}
			if fix && len(report.Late) > 0 {
				printReport(c.stdout, c.paint, spec, report, format)
				if spec, err = fixPreload(c, spec, report.LateModules()); err != nil {
					return err
				}
				if !quiet {
					fmt.Fprintf(c.stderr, "probing again\n")
				}
				if report, err = runProbe(c, spec, python, nodes, quiet); err != nil {
					return err
				}
			}
			printReport(c.stdout, c.paint, spec, report, format)
			if !report.OK() {
				return errFindings
			}
			return nil
		},
	})
}

// caseNodes returns the probe cases' node ids, once each, in spec order.
func caseNodes(spec *schema.Spec) []string {
	var nodes []string
	seen := map[string]bool{}
	for _, c := range spec.Probe.Cases {
		if !seen[c.Node] {
			seen[c.Node] = true
			nodes = append(nodes, c.Node)
		}
	}
	return nodes
}

// fixPreload adds modules to the spec's [preload].modules, writes the spec
// and regenerates, all checked before the first write.
func fixPreload(c *context, spec *schema.Spec, modules []string) (*schema.Spec, error) {
	specText, err := plan.SpecText(spec)
	if err != nil {
		return nil, err
	}
	out, fixed, err := specedit.AppendModules(spec, specText.Old, modules)
	if err != nil {
		return nil, err
	}
	changes, err := plan.Make(fixed)
	if err != nil {
		return nil, err
	}
	specText.New = out
	if err := specText.Write(); err != nil {
		return nil, fmt.Errorf("write %s: %w", spec.File, err)
	}
	fmt.Fprintf(c.stdout, "added %s to [preload].modules in %s\n", strings.Join(modules, ", "), spec.File)
	for _, ch := range changes {
		if !ch.Changed() {
			continue
		}
		if err := ch.Write(); err != nil {
			return nil, fmt.Errorf("write %s: %w", ch.Display, err)
		}
		fmt.Fprintf(c.stdout, "wrote %s\n", ch.Display)
	}
	return fixed, nil
}

func printReport(w io.Writer, p color.Painter, spec *schema.Spec, r *probe.Report, format string) {
	if format == "json" {
		type armed struct {
			Node    string          `json:"node"`
			Records map[string]bool `json:"records"`
		}
		doc := struct {
			OK    bool           `json:"ok"`
			Code  int            `json:"code"`
			Nodes []string       `json:"nodes"`
			Late  []probe.Import `json:"late"`
			Armed []armed        `json:"armed"`
		}{OK: r.OK(), Code: r.Code, Nodes: r.Nodes, Late: r.Late, Armed: []armed{}}
		if doc.Late == nil {
			doc.Late = []probe.Import{}
		}
		for i, rec := range r.Armed {
			doc.Armed = append(doc.Armed, armed{nodeAt(r.ArmedNodes, i), rec})
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.Encode(doc)
		return
	}
	if len(r.Late) == 0 {
		fmt.Fprintf(w, "late imports: %s\n", p.Paint(color.Green, "none"))
	} else {
		fmt.Fprintf(w, "%s (first imported while %s was armed):\n", p.Paint(color.Red, "late imports"), spec.Deadline.Fixture)
		for _, imp := range r.Late {
			fmt.Fprintf(w, "  %s %7.2f s  %s\n", p.Paint(color.Red, fmt.Sprintf("%-40s", imp.Module)), imp.Seconds, imp.Node)
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
	} else if len(r.Late) > 0 {
		fmt.Fprintf(w, "fix: fixturegen probe --fix (adds %s to [preload].modules and regenerates)\n", strings.Join(r.LateModules(), ", "))
	}
}

func nodeAt(nodes []string, i int) string {
	if i < len(nodes) && nodes[i] != "" {
		return nodes[i]
	}
	return "(outside a test)"
}

func runImportTime(w io.Writer, spec *schema.Spec, python, format string) error {
	times, err := probe.ImportTimes(spec, python)
	if err != nil {
		return err
	}
	if format == "json" {
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
	fmt.Fprintf(w, "cold import of each preload module, alone in a fresh %s, against the %gs deadline:\n", python, spec.Deadline.Seconds)
	for _, t := range times {
		share := 100 * t.Seconds / spec.Deadline.Seconds
		fmt.Fprintf(w, "  %-40s %7.3f s  %5.0f%% of the deadline", t.Module, t.Seconds, share)
		if t.Heaviest != "" {
			fmt.Fprintf(w, "  (heaviest: %s %.3f s)", t.Heaviest, t.HeaviestSeconds)
		}
		fmt.Fprintln(w)
	}
	return nil
}
