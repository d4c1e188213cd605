package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/fixturegen/fixturegen/internal/cli/completion"
	"github.com/fixturegen/fixturegen/internal/probe"
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
plugin and no planted delays. It reports every module first loaded while
the alarm was armed (outermost imports only, with their cold seconds) and
the [probe.record] state at each arming. An import under the alarm that
raised (a missing optional module, the prefix of a mock.patch target that
is a class) loaded nothing: it is listed apart, as a failed attempt.

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
into green. Only modules that loaded are added, each once, none already
listed; when a test that passed before the fix fails after it (the preload
fixture cannot import the module), every file written is put back and the
exit status is 1. The spec and every file generate writes are checked
first (a planned path that a link leads out of the spec's folder is
refused, exit 2), before the tests run.

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
			completion.Values(fs, "format", "text", "json")
			completion.Files(fs, "python")
		},
		run: func(c *context, args []string) error {
			if format != "text" && format != "json" {
				return usageError{fmt.Sprintf("--format must be text or json, not %q", format)}
			}
			if fix && importTime {
				return usageError{"--fix and --importtime do different jobs; use one"}
			}
			spec, err := c.loadDeadlineSpec("fixturegen probe")
			if err != nil {
				return err
			}
			if python == "" {
				python = probe.DefaultPython(spec)
			}
			if importTime {
				times, err := probe.ImportTimes(spec, python)
				if err != nil {
					return err
				}
				if format == "json" {
					return probe.ImportTimesJSON(c.stdout, spec, times)
				}
				probe.ImportTimesText(c.stdout, spec, python, times)
				return nil
			}
			nodes := args
			if len(nodes) == 0 {
				nodes = probe.CaseNodes(spec)
			}
			if len(nodes) == 0 {
				return usageError{fmt.Sprintf("no node ids to probe: name some, or add [[probe.case]] tables to %s", spec.File)}
			}
			if err := probe.UpToDate(spec, c.commandLine("generate")); err != nil {
				return err
			}
			if fix {
				if err := probe.CanFix(spec); err != nil {
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
			if err := leaveOutUnimportable(c, spec, python, report); err != nil {
				return err
			}
			if add := report.ToPreload(spec.Preload.Modules); fix && len(add) > 0 {
				printReport(c, spec, report, format)
				not := report.NotImportable
				if spec, report, err = fixAndConfirm(c, spec, python, nodes, quiet, format, report, add); err != nil {
					return err
				}
				report.NotImportable = not
			}
			printReport(c, spec, report, format)
			if !report.OK() {
				return errFindings
			}
			return nil
		},
	})
}

// leaveOutUnimportable marks the late modules that do not import in a
// fresh interpreter started in the spec's folder, so that neither the
// report's fix nor --fix names them, and says so.
func leaveOutUnimportable(c *context, spec *schema.Spec, python string, report *probe.Report) error {
	_, not, err := probe.Importable(spec, python, report.ToPreload(spec.Preload.Modules))
	if err != nil || len(not) == 0 {
		return err
	}
	report.NotImportable = not
	fmt.Fprintf(c.stderr, "left out of [preload].modules: %s, which do not import in a fresh %s started in %s (a module a test writes and imports itself); preloading them would fail every test\n", strings.Join(not, ", "), python, spec.Dir)
	return nil
}

// fixAndConfirm adds the modules to the spec's preload, regenerates and
// probes again. When a test that passed before the fix fails after it, or
// a node no longer collects, the fix is undone: --fix never leaves a suite
// worse than it found it.
func fixAndConfirm(c *context, spec *schema.Spec, python string, nodes []string, quiet bool, format string, before *probe.Report, add []string) (*schema.Spec, *probe.Report, error) {
	lock, err := c.lockDir(filepath.Dir(spec.File))
	if err != nil {
		return nil, nil, err
	}
	fixed, err := probe.Fix(spec, add)
	lock.Unlock()
	if fixed != nil {
		fixed.Text(c.stdout)
	}
	if err != nil {
		return nil, nil, err
	}
	if !quiet {
		fmt.Fprintf(c.stderr, "probing again\n")
	}
	after, err := runProbe(c, fixed.Spec, python, nodes, quiet)
	var nc *probe.NotCollected
	switch {
	case errors.As(err, &nc):
		return nil, nil, undoFix(c, fixed, fmt.Sprintf("after the fix, %v", err))
	case err != nil:
		return nil, nil, err
	}
	if broken := probe.Broken(before, after); len(broken) > 0 {
		printReport(c, fixed.Spec, after, format)
		return nil, nil, undoFix(c, fixed, fmt.Sprintf("after the fix, %s passed before and did not after", strings.Join(broken, ", ")))
	}
	return fixed.Spec, after, nil
}

// undoFix puts back what --fix wrote and says why.
func undoFix(c *context, fixed *probe.Fixed, why string) error {
	lock, err := c.lockDir(filepath.Dir(fixed.Spec.File))
	if err != nil {
		return err
	}
	back, err := fixed.Undo()
	lock.Unlock()
	for _, d := range back {
		fmt.Fprintf(c.stdout, "put back %s\n", d)
	}
	if err != nil {
		return err
	}
	return fmt.Errorf("%s; the fix is undone: preload %s by hand, or look at why its import fails in %s", why, strings.Join(fixed.Modules, ", "), fixed.Spec.Preload.Fixture)
}

// printReport prints the probe's report in --format.
func printReport(c *context, spec *schema.Spec, r *probe.Report, format string) {
	if format == "json" {
		r.JSON(c.stdout)
		return
	}
	r.Text(c.stdout, spec, c.paint)
}
