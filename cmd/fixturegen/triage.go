package main

import (
	"errors"
	"fmt"

	"github.com/spf13/pflag"

	"github.com/fixturegen/fixturegen/internal/triage"
	"github.com/fixturegen/fixturegen/schema"
)

func triageCommand() *command {
	var (
		format string
		labels []string
	)
	return &command{
		name:    "triage",
		args:    "FILE...",
		summary: "read a failed CI run's logs and name the test that poisoned a worker",
		help: `
Reads the evidence of one or more attempts of a CI job and says whether a
pytest-xdist worker was poisoned by an import that a deadline interrupted
half way: the test that did it, the tests it broke, the modules involved,
and the commands that confirm it.

Each FILE is told by its content: pytest's terminal output (-v, -vv or
plain, with pytest-xdist's [gwN] prefixes, RERUN lines, -r summaries,
failure sections and --durations), JUnit XML from --junitxml, or a
pytest-replay record file (one per worker). Files with the same label are
one attempt; the label is the file's path without its extension (so
run.log and run.xml go together), a pytest-replay file's folder, or the
matching --label.

The spec (--spec, or the nearest one up from the working folder) gives the
deadline's message and seconds and the preload; without one, triage works
from the signatures alone. docs/triage.md lists the signatures.

Exit status: 0 when no worker was poisoned, 1 when one was, 2 when an input
cannot be read or for usage and spec errors.

Examples:
  fixturegen triage job.log
  fixturegen triage job.log job.xml
  fixturegen triage --label attempt-1 a1.log --label attempt-2 a2.log
  fixturegen triage --format github job.log`,
		flags: func(fs *pflag.FlagSet) {
			addReportFormat(fs, &format)
			fs.StringArrayVar(&labels, "label", nil, "`LABEL` names the run, job or attempt of the FILE at the same position (repeatable; give one per FILE)")
		},
		run: func(c *context, args []string) error {
			if len(args) == 0 {
				return usageError{"triage needs at least one FILE: a pytest log, a JUnit XML report or a pytest-replay file"}
			}
			if err := checkReportFormat(format); err != nil {
				return err
			}
			if len(labels) > 0 && len(labels) != len(args) {
				return usageError{fmt.Sprintf("give one --label per FILE: %d labels for %d files", len(labels), len(args))}
			}
			spec, err := c.triageSpec()
			if err != nil {
				return err
			}
			sources, err := triage.ReadFiles(args, labels, spec)
			if err != nil {
				return err
			}
			spec.Probe = c.commandLine("probe")
			report := triage.Analyze(sources, spec)
			if err := writeReport(c.stdout, format, report); err != nil {
				return err
			}
			return findingsIf(report.Poisoned())
		},
	}
}

// triageSpec loads the spec named by --spec or found from the working
// folder upward, as every command finds it; without one, triage goes on with the signatures alone.
func (c *context) triageSpec() (triage.Spec, error) {
	path := c.spec
	if path == "" {
		found, err := schema.FindUp(".")
		var se *schema.Error
		if errors.As(err, &se) {
			return triage.Spec{}, err
		}
		if err != nil {
			return triage.Spec{}, nil // no spec found: signatures alone
		}
		path = found
	}
	spec, err := schema.Load(path)
	if err != nil {
		return triage.Spec{}, err
	}
	return triage.FromSpec(spec), nil
}
