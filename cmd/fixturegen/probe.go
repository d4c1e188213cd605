package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/fixturegen/fixturegen/internal/cli/completion"
	"github.com/fixturegen/fixturegen/internal/gen/render"
	"github.com/fixturegen/fixturegen/internal/probe"
	"github.com/fixturegen/fixturegen/internal/pytext"
	"github.com/fixturegen/fixturegen/internal/python/venv"
	"github.com/fixturegen/fixturegen/schema"
)

func probeCommand() *command {
	var (
		format     string
		python     string
		fix        bool
		importTime bool
		quiet      bool
		verbose    bool
	)
	return &command{
		name:    "probe",
		args:    "[NODE...]",
		summary: "run tests with the recording probe and list every late import",
		help: `
Runs the given pytest node ids (default: every [[probe.case]] node) in one
fresh interpreter, cold as on a new CI worker, with the recording probe
plugin and no planted delays. It reports every module first loaded while
the alarm was armed (outermost imports only, with their cold seconds) and
the [probe.record] state at each arming. A first import that a timer's
exception ended (the deadline's, pytest-timeout's Failed: Timeout, a
test's own alarm handler) is late too, and says what ended it. One that
raised anything else (ImportError and its kind: a missing optional
module, mock.patch probing the prefix of a dotted target) loaded nothing:
it is a failed attempt, counted in one line.

Each module, failed attempt and record state is printed once, with how
often it came and the first test; -v (--verbose) lists every failed
attempt and arming, and the inner run's whole output where it failed.
--format json holds every import, attempt, arming and test result.

PYTEST_ADDOPTS and the ini addopts do not reach the inner run, so reruns,
-n and --timeout from the project's configuration cannot change it; the
options that say how pytest imports the tests stay (--import-mode,
--rootdir), and the ini's pythonpath applies as in any pytest run.

For a spec that holds only the import shield ([shield], for pytest-timeout
users), probe runs the nodes (default: the whole suite, as pytest collects
it) under pytest-timeout as the project configures it (the ini, the
--timeout of addopts, PYTEST_TIMEOUT, marks), and lists every module
first imported while a timeout was armed. --fix has nothing to write
there: pytest-timeout's timer starts before a test's fixtures, so the fix
is an import where the conftest loads, which probe prints. Without a spec,
when the interpreter has the pytest plugin pytest-import-shield installed,
probe runs the same way from the working folder, the plugin's shield
holding pytest-timeout's handler (--fix and --importtime need a spec).

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
into green. Only late modules are added (those that loaded, and those a
timer interrupted), each once, none already listed, and only those a fresh
interpreter imports with pytest's import path (the ini's pythonpath, the
rootdir, the import mode); when a test that passed before the fix fails after it (the preload
fixture cannot import the module), every file written is put back and the
exit status is 1. The spec and every file generate writes are checked
first (a planned path that a link leads out of the spec's folder is
refused, exit 2), before the tests run.

With --importtime, each preload module's cold import is measured alone in a
fresh interpreter (python -X importtime, with pytest's import path) and
shown against the deadline, slowest first, instead of probing tests. A
module that does not import stops it with one line: the module, the
Python and the error.

Examples:
  fixturegen probe
  fixturegen probe tests/inbox/test_channel_reconnect.py::test_subscriber
  fixturegen probe --fix
  fixturegen probe -v tests/test_client.py
  fixturegen probe --importtime`,
		flags: func(fs *pflag.FlagSet) {
			fs.StringVar(&format, "format", "text", "output `FORMAT`: text or json")
			fs.StringVar(&python, "python", "", "the `PYTHON` interpreter to run (default: the project's own, found as init finds it; else python3)")
			fs.BoolVar(&fix, "fix", false, "add the late modules to [preload].modules, regenerate, and probe again")
			fs.BoolVar(&importTime, "importtime", false, "measure each preload module's cold import against the deadline")
			fs.BoolVarP(&quiet, "quiet", "q", false, "print no progress, only the result")
			fs.BoolVarP(&verbose, "verbose", "v", false, "list every failed import attempt and arming, and the inner run's whole output")
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
			spec, err := c.loadSpec()
			plugin := false
			if err != nil {
				// No spec: a pytest-import-shield user is probed as a spec
				// holding only the shield would be.
				if spec, python, plugin = pluginProbe(c, python); !plugin {
					return err
				}
			}
			if python == "" {
				python = venv.Python(spec.Dir)
			}
			if plugin && (fix || importTime) {
				return usageError{fmt.Sprintf("--fix and --importtime work on a spec, and there is none: %s protects the suite without one; run fixturegen probe to see the first imports a timeout lands in", pytext.PluginDistribution)}
			}
			if importTime && !spec.HasDeadline() {
				return usageError{fmt.Sprintf("--importtime measures the preload's modules against the deadline, and %s holds only the import shield: run fixturegen probe to see the first imports a timeout lands in", spec.File)}
			}
			if importTime {
				times, err := probe.ImportTimes(spec, python)
				if err != nil {
					return err
				}
				if format == "json" {
					return probe.ImportTimesJSON(c.stdout, times)
				}
				probe.ImportTimesText(c.stdout, spec, python, times)
				return nil
			}
			nodes := args
			if len(nodes) == 0 {
				nodes = probe.CaseNodes(spec)
			}
			if len(nodes) == 0 && spec.HasDeadline() {
				return usageError{fmt.Sprintf("no node ids to probe: name some, or add [[probe.case]] tables to %s", spec.File)}
			}
			if plugin {
				fmt.Fprintf(c.stderr, "no spec: probing as %s does, under pytest-timeout as the project configures it\n", pytext.PluginDistribution)
			} else if err := probe.UpToDate(spec, c.commandLine("generate")); err != nil {
				return err
			}
			if fix && spec.HasDeadline() {
				if err := probe.CanFix(spec); err != nil {
					return err
				}
			}
			if !quiet {
				what := fmt.Sprintf("%d node(s)", len(nodes))
				if len(nodes) == 0 {
					what = "the suite, as pytest collects it,"
				}
				fmt.Fprintf(c.stderr, "probing %s with %s\n", what, python)
			}
			// printReport writes a report in --format, in full with --verbose.
			printReport := func(spec *schema.Spec, r *probe.Report) {
				if format == "json" {
					r.JSON(c.stdout)
				} else {
					r.Text(c.stdout, spec, c.paint, verbose)
				}
			}
			report, err := runProbe(c, spec, python, nodes, quiet)
			if err != nil {
				return err
			}
			if err := leaveOutUnimportable(c, spec, python, report, nodes); err != nil {
				return err
			}
			if add := report.ToPreload(spec.Preload.Modules); fix && len(add) > 0 && spec.HasDeadline() {
				printReport(spec, report)
				not, opt := report.NotImportable, report.Optional
				if spec, report, err = fixAndConfirm(c, spec, python, nodes, quiet, printReport, report, add); err != nil {
					return err
				}
				report.NotImportable, report.Optional = not, opt
			}
			printReport(spec, report)
			if fix && !spec.HasDeadline() {
				fmt.Fprintf(c.stderr, "--fix wrote nothing: %s holds only the import shield ([shield]), which has no preload fixture, and pytest-timeout's timer starts before any fixture; the fix above imports the late modules where the conftest loads\n", spec.File)
			}
			return findingsIf(!report.OK())
		},
	}
}

// pluginProbe returns the spec a probe without a spec runs with, when the
// interpreter (python, or the project's) has pytest-import-shield
// installed: the plugin's own, the shield alone with its defaults, in the
// working folder. ok is false otherwise.
func pluginProbe(c *context, python string) (spec *schema.Spec, py string, ok bool) {
	if c.spec != "" {
		return nil, python, false
	}
	dir, err := os.Getwd()
	if err != nil {
		return nil, python, false
	}
	spec = render.PluginSpec()
	// No file: the report then names no spec and no region.
	spec.Dir, spec.File = dir, ""
	if python == "" {
		python = venv.Python(spec.Dir)
	}
	check := exec.Command(python, "-c", "import importlib.metadata as m, sys; m.version(sys.argv[1])", pytext.PluginDistribution)
	check.Dir = dir
	if check.Run() != nil {
		return nil, python, false
	}
	return spec, python, true
}

// leaveOutUnimportable marks the late modules that the project imports
// only where their package may be missing, and those that do not import
// in a fresh interpreter started in the spec's folder with pytest's
// import path for nodes, so that neither the report's fix nor --fix
// names them, and says so.
func leaveOutUnimportable(c *context, spec *schema.Spec, python string, report *probe.Report, nodes []string) error {
	where := "left out of [preload].modules"
	if !spec.HasDeadline() {
		where = "left out of the fix"
	}
	// A module the project imports only where its package may be
	// missing stays optional: the preload would make it mandatory.
	opt, err := probe.Optionals(spec, python, report.ToPreload(spec.Preload.Modules))
	if err != nil {
		return err
	}
	report.Optional = opt
	// One line per place, which names the package's optional import.
	var places []string
	byPlace := map[string][]string{}
	for _, o := range opt {
		if byPlace[o.Where] == nil {
			places = append(places, o.Where)
		}
		byPlace[o.Where] = append(byPlace[o.Where], o.Module)
	}
	for _, p := range places {
		fmt.Fprintf(c.stderr, "%s: %s, which the project imports only where the package may be missing (%s: under try/except ImportError, importorskip or find_spec); preloading would fail every test where it is not installed, so add it by hand only if every environment that runs the tests installs it\n", where, strings.Join(byPlace[p], ", "), p)
	}
	not, err := probe.Unimportable(spec, python, report.ToPreload(spec.Preload.Modules), nodes)
	if err != nil || len(not) == 0 {
		return err
	}
	report.NotImportable = not
	fmt.Fprintf(c.stderr, "%s: %s, which do not import in a fresh %s started in %s with pytest's import path (a module a test writes and imports itself); preloading them would fail every test\n", where, strings.Join(not, ", "), python, spec.Dir)
	return nil
}

// fixAndConfirm adds the modules to the spec's preload, regenerates and
// probes again. When a test that passed before the fix fails after it, or
// a node no longer collects, the fix is undone: --fix never leaves a suite
// worse than it found it.
func fixAndConfirm(c *context, spec *schema.Spec, python string, nodes []string, quiet bool, printReport func(*schema.Spec, *probe.Report), before *probe.Report, add []string) (*schema.Spec, *probe.Report, error) {
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
		printReport(fixed.Spec, after)
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
