package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/fixturegen/fixturegen/internal/check/finding"
	"github.com/fixturegen/fixturegen/internal/gen/diff"
	"github.com/fixturegen/fixturegen/internal/gen/plan"
)

// verbosity is -q/--quiet and -v/--verbose, as ruff and pytest have them.
// What each prints is said per command in its --help; the rule throughout:
// -q prints what is needed to act (findings, errors, a diff asked for) and
// nothing else, so a clean run prints nothing; -v adds what the command
// read and what it left as it was. Errors go to stderr whatever is asked.
type verbosity struct{ quiet, verbose bool }

func (v *verbosity) define(fs *pflag.FlagSet) {
	fs.BoolVarP(&v.quiet, "quiet", "q", false, "print only what needs acting on: nothing when all is well")
	fs.BoolVarP(&v.verbose, "verbose", "v", false, "also print what was read, and each file left as it was")
}

// level is the verbosity as finding.Report takes it; -q with -v is a
// usage error, not a guess.
func (v *verbosity) level() (finding.Verbosity, error) {
	switch {
	case v.quiet && v.verbose:
		return 0, usageError{"-q/--quiet and -v/--verbose ask for opposite things; use one"}
	case v.quiet:
		return finding.Quiet, nil
	case v.verbose:
		return finding.Verbose, nil
	}
	return finding.Normal, nil
}

// writeMode is how generate and docs treat the files they would change,
// with the flags of ruff format: write them; --diff prints the unified diff
// of each and writes nothing; --check names each and writes nothing. Both
// exit 1 when a file would change, 0 when none would, so CI can run them
// as a check. -n/--dry-run is --diff's older name.
type writeMode struct {
	diff, check bool
	verbosity
}

func (m *writeMode) define(fs *pflag.FlagSet) {
	fs.BoolVar(&m.diff, "diff", false, "print a unified diff of what would change, write nothing, and exit 1 if anything would")
	fs.BoolVarP(&m.diff, "dry-run", "n", false, "the same as --diff")
	fs.BoolVar(&m.check, "check", false, "name each file that would change, write nothing, and exit 1 if any would")
	m.verbosity.define(fs)
}

// writes reports whether the command writes files, rather than showing
// what it would write.
func (m *writeMode) writes() bool { return !m.diff && !m.check }

// show prints what a run that writes nothing says of ch, which would
// change: its diff (--diff), or its name (--check; nothing under -q).
func (m *writeMode) show(c *context, ch *plan.Change) {
	switch {
	case m.diff:
		fmt.Fprint(c.stdout, c.paint.Diff(string(diff.Unified(ch.Display, ch.Old, ch.New))))
	case !m.quiet:
		fmt.Fprintf(c.stdout, "would write %s\n", ch.Display)
	}
}

// unchanged prints, under -v, the name of a file left as it was.
func (m *writeMode) unchanged(w io.Writer, ch *plan.Change) {
	if m.verbose {
		fmt.Fprintf(w, "unchanged %s\n", ch.Display)
	}
}
