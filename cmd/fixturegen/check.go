package main

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strings"

	"github.com/spf13/pflag"

	"github.com/fixturegen/fixturegen/internal/collect"
	"github.com/fixturegen/fixturegen/internal/contract"
	"github.com/fixturegen/fixturegen/internal/drift"
	"github.com/fixturegen/fixturegen/internal/finding"
	"github.com/fixturegen/fixturegen/internal/plan"
	"github.com/fixturegen/fixturegen/internal/probe"
	"github.com/fixturegen/fixturegen/internal/pytestcfg"
	"github.com/fixturegen/fixturegen/internal/render"
	"github.com/fixturegen/fixturegen/internal/rule"
)

func init() {
	var (
		showDiff  bool
		format    string
		scanDirs  []string
		listGroup bool
		collectOn bool
		python    string
	)
	commands = append(commands, &command{
		name:    "check",
		summary: "report drift from the spec and breaches of the contract",
		help: `
Checks, without running Python or writing anything:

  - drift: the files generate writes, compared with what the spec renders
    now (missing, modified or orphaned generated files; a conftest region
    that is missing, hand-edited or has broken markers);
  - the contract, over the Python test tree: code that arms its own timer
    without the deadline fixture, deadline users outside the xdist group,
    fixtures that shadow the generated ones, a deadline fixture that lost
    its preload parameter, a hand-written per-test deadline (a fixture
    that arms a timer itself) to adopt, probe cases naming missing tests, first-party
    preload modules that do not exist, and pytest-xdist without
    --dist loadgroup in the pytest configuration.

The tree is the top folder of each file the spec names (usually tests/),
or the folders given with --scan. Each finding is printed as
"path:line:col: RULE message" with its fix; docs/check.md lists the rules.
A comment "# fixturegen: ignore[RULE, ...]" (or a bare "# fixturegen:
ignore") on the line a finding is reported at suppresses it.

With --collect, check also asks pytest itself: it runs pytest
--collect-only with the project's Python and a plugin of its own (nothing
is written into the project), and judges missing-group,
deadline-without-preload and probe-node from the tests pytest collects,
their fixture closures and marks, instead of from its model. It adds
group-void: group tests whose node id loses its group under --dist
loadgroup. A last section lists the tests the static model and pytest
disagree on. A collection error prints pytest's output and exits 2.

Exit status: 0 when all is well, 1 when there is a finding (warnings about
files check could not read do not count), 2 for usage, spec or internal
errors. A spec error comes out in the --format asked for too: in the JSON
document as a finding of rule "error", or as a GitHub annotation.

Examples:
  fixturegen check
  fixturegen check --diff
  fixturegen check --format github
  fixturegen check --scan tests --scan integration
  fixturegen check --list-group
  fixturegen check --collect`,
		more: func() string { return "Rules:\n" + rule.List() },
		flags: func(fs *pflag.FlagSet) {
			fs.BoolVar(&showDiff, "diff", false, "print the unified diff generate would apply for each drifted file")
			fs.StringVar(&format, "format", "text", "output `FORMAT`: text, json or github (workflow annotations)")
			fs.StringArrayVar(&scanDirs, "scan", nil, "scan `DIR` for the contract rules instead of the spec's test folders (repeatable)")
			fs.BoolVar(&listGroup, "list-group", false, "list the modules in the xdist group and why each is there, instead of checking")
			fs.BoolVar(&collectOn, "collect", false, "also ask pytest (pytest --collect-only) which tests exist, with which fixtures and groups")
			fs.StringVar(&python, "python", "", "with --collect, the `PYTHON` interpreter to run (default: the project's .venv/bin/python if present, else python3)")
			completeValues(fs, "format", "text", "json", "github")
			completeDirs(fs, "scan")
			completeFiles(fs, "python")
		},
		run: func(c *context, args []string) error {
			if len(args) > 0 {
				return usageError{fmt.Sprintf("check takes no arguments, got %q; name folders with --scan", args[0])}
			}
			if format != "text" && format != "json" && format != "github" {
				return usageError{fmt.Sprintf("--format must be text, json or github, not %q", format)}
			}
			if collectOn && listGroup {
				return usageError{"--collect and --list-group do different jobs; use one"}
			}
			if python != "" && !collectOn {
				return usageError{"--python is for --collect"}
			}
			for _, d := range scanDirs {
				if _, err := os.Stat(d); err != nil {
					return usageError{fmt.Sprintf("--scan %s: no such file or folder", d)}
				}
			}
			// check is a short run with a small live heap that allocates
			// quickly while it tokenizes; collecting at every doubling of
			// that heap would cost more than the scan. A memory limit keeps
			// the peak well under 64 MiB however large the tree.
			debug.SetGCPercent(800)
			debug.SetMemoryLimit(40 << 20)
			spec, err := c.loadSpec()
			if err != nil {
				return err
			}
			// pytest's collection takes far longer than the static check, so
			// it starts first and runs alongside.
			var pytestView func() (*collect.View, error)
			if collectOn {
				if python == "" {
					python = probe.DefaultPython(spec)
				}
				pytestView = collect.Start(spec, python, scanDirs)
				defer pytestView()
			}
			changes, err := plan.Survey(spec)
			if err != nil {
				return err
			}
			cfg, err := pytestcfg.Find(spec.Dir)
			if err != nil {
				return err
			}
			opts := contract.Options{
				Spec:           spec,
				Roots:          scanDirs,
				Planned:        map[string]bool{},
				GeneratedNames: render.RegionNames(spec),
				Config:         cfg,
				ListGroup:      listGroup,
				ListTests:      collectOn,
				NamedRoots:     len(scanDirs) > 0,
			}
			for _, ch := range changes {
				if ch.Region {
					opts.Conftest = ch.Abs
				} else {
					opts.Planned[ch.Abs] = true
				}
			}
			if len(opts.Roots) == 0 {
				for _, r := range contract.DefaultRoots(spec) {
					if _, err := os.Stat(r); err == nil {
						opts.Roots = append(opts.Roots, r)
					}
				}
			}
			res, err := contract.Check(opts)
			if err != nil {
				return err
			}
			var model *finding.ModelGap
			if collectOn {
				view, err := pytestView()
				var ce *collect.CollectionError
				if errors.As(err, &ce) {
					fmt.Fprint(c.stderr, ce.Output)
				}
				if err != nil {
					return err
				}
				if res.Findings, model, err = collect.Judge(spec, view, res, opts.Planned); err != nil {
					return err
				}
			}
			if res.Adopt {
				changes = drift.BeforeAdoption(spec, changes)
			}
			d := drift.Find(spec, changes, res.Generated, showDiff)
			stale, err := drift.Docs(spec, showDiff)
			if err != nil {
				return err
			}
			d.Findings = append(d.Findings, stale...)
			d.Generate = d.Generate || len(stale) > 0
			report := &finding.Report{Spec: spec.File, Findings: append(d.Findings, res.Findings...), Model: model}
			if cwd, err := os.Getwd(); err == nil {
				report.TidyPaths(cwd)
			}
			finding.Sort(report.Findings)
			switch {
			case res.Adopt:
				report.FixCommand = c.commandLine("generate --adopt")
			case d.Generate:
				report.FixCommand = c.commandLine("generate")
			}
			if listGroup {
				report.Listing, report.Group, report.Members = true, spec.Group.Name, res.Members
			}
			switch format {
			case "json":
				if err := report.JSON(c.stdout); err != nil {
					return err
				}
			case "github":
				report.GitHub(c.stdout)
			default:
				report.Paint = c.paint
				report.Text(c.stdout)
			}
			if errs, _ := report.Counts(); errs > 0 && !listGroup {
				return errFindings
			}
			return nil
		},
	})
}

// commandLine is the fixturegen command line that runs sub with the same
// -C and --spec as this run, so the fix it names works when pasted.
func (c *context) commandLine(sub string) string {
	parts := []string{"fixturegen"}
	if c.dir != "" {
		parts = append(parts, "-C", shellQuote(c.dir))
	}
	if c.spec != "" {
		parts = append(parts, "--spec", shellQuote(c.spec))
	}
	return strings.Join(append(parts, sub), " ")
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+=:,@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
