package main

import (
	"fmt"
	"os"
	"runtime/debug"

	"github.com/spf13/pflag"

	"github.com/fixturegen/fixturegen/internal/check"
	"github.com/fixturegen/fixturegen/internal/check/rules"
	"github.com/fixturegen/fixturegen/internal/cli/completion"
)

func checkCommand() *command {
	var (
		showDiff  bool
		format    string
		scanDirs  []string
		listGroup bool
		collectOn bool
		python    string
		verb      verbosity
	)
	return &command{
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

Output, in text: each finding and its fix, then a summary line ("in sync
and the contract holds", or the count of findings and the command that
fixes the drift). -q prints the findings alone: no summary, nothing when
all is well. -v first says what check read: the spec, pytest's
configuration and rootdir, the folders scanned and how many Python files
they held, and each generated file's state. JSON and GitHub output are the
same whatever is asked.

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
		more: rules.List,
		flags: func(fs *pflag.FlagSet) {
			fs.BoolVar(&showDiff, "diff", false, "print the unified diff generate would apply for each drifted file")
			addReportFormat(fs, &format)
			fs.StringArrayVar(&scanDirs, "scan", nil, "scan `DIR` for the contract rules instead of the spec's test folders (repeatable)")
			fs.BoolVar(&listGroup, "list-group", false, "list the modules in the xdist group and why each is there, instead of checking")
			fs.BoolVar(&collectOn, "collect", false, "also ask pytest (pytest --collect-only) which tests exist, with which fixtures and groups")
			fs.StringVar(&python, "python", "", "with --collect, the `PYTHON` interpreter to run (default: the project's own, found as init finds it; else python3)")
			verb.define(fs)
			completion.Dirs(fs, "scan")
			completion.Files(fs, "python")
		},
		run: func(c *context, args []string) error {
			paceCollector()
			if len(args) > 0 {
				return usageError{fmt.Sprintf("check takes no arguments, got %q; name folders with --scan", args[0])}
			}
			if err := checkReportFormat(format); err != nil {
				return err
			}
			level, err := verb.level()
			if err != nil {
				return err
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
			spec, err := c.loadSpec()
			if err != nil {
				return err
			}
			report, fix, err := check.Run(spec, check.Options{Scan: scanDirs, ListGroup: listGroup, Collect: collectOn, Python: python, Diffs: showDiff})
			if out, ok := check.IsCollectionError(err); ok {
				fmt.Fprint(c.stderr, out)
			}
			if err != nil {
				return err
			}
			switch fix {
			case check.FixAdopt:
				report.FixCommand = c.commandLine("generate --adopt")
			case check.FixGenerate:
				report.FixCommand = c.commandLine("generate")
			}
			report.Paint, report.Verbosity = c.paint, level
			if err := writeReport(c.stdout, format, report); err != nil {
				return err
			}
			errs, _ := report.Counts()
			return findingsIf(errs > 0 && !listGroup)
		},
	}
}

// paceCollector lets the heap grow to five times what the last collection
// kept before the next one (GOGC=400), instead of twice, for check alone.
// check keeps a few facts of each file it reads and drops the rest, so at
// the default pace the collector ran every few megabytes read, for a heap
// that never grows large (peak RSS stays under 32 MiB on the trees of
// bench/README.md, which has the figures). GOGC in the environment still
// decides.
func paceCollector() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(400)
	}
}
