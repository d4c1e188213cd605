package main

import (
	"fmt"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/fixturegen/fixturegen/internal/gen/plan"
	"github.com/fixturegen/fixturegen/internal/onboard/adopt"
	"github.com/fixturegen/fixturegen/internal/onboard/discover"
	"github.com/fixturegen/fixturegen/internal/python/coverage"
	"github.com/fixturegen/fixturegen/internal/python/pyquote"
	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/schema"
)

func generateCommand() *command {
	var (
		mode     writeMode
		adopting bool
	)
	return &command{
		name:    "generate",
		summary: "write the conftest region, the probe plugin and the probe tests",
		help: `
Renders the spec and writes what changed:

  - the region between "# fixturegen:begin" and "# fixturegen:end" in
    [paths].conftest (created if missing; appended if the file has no
    markers; every byte outside the markers is kept),
  - the runtime the region loads ([paths].runtime, or _fixturegen_runtime.py
    beside the conftest), a whole file; with [shield], its import shield
    holds other handlers of the timer signals (pytest-timeout's, a test's
    own) while a first import runs, and a spec may hold only [shield],
  - [paths].probe_plugin and [paths].probe_tests, whole files, when set.

Each file is written to a temporary file in its folder and renamed into
place, keeping the mode, the owner (where the user may give it, as root
may) and the line endings ("\r\n" in a Windows checkout) of the file it
replaces. A file that would not change is not touched, so a second run
changes no byte and no modification time. While it writes, generate
holds the lock file .fixturegen.lock in the spec's folder: a second run on
the same spec waits for the first (up to 30 s), then plans again from what
the first wrote. A bad spec, broken markers, a user definition that clashes
with a generated fixture, a planned path that a link would lead out of
the spec's folder (or that is itself a link), or a [paths].conftest below
which none of the tests the project's pytest runs collect lies (a typo:
testz/ for tests/) stop the run before any file is written.

With --diff, generate prints the unified diff instead of writing; with
--check, it names each file it would write ("would write PATH"). Either
writes nothing and exits 1 when it would change a file, 0 when it would
not, as ruff format --diff and --check do, so CI can run it as a check.
-n/--dry-run is the same as --diff.

Output: "wrote PATH" for each file written (with what --adopt removed);
nothing when no file changes. -q prints nothing but errors and what
--diff asks for; -v also names the spec and each planned file left as it
was ("unchanged PATH").

With --adopt, hand-written definitions of the preload and deadline fixtures
in the conftest (each a module-level function decorated with
pytest.fixture, as fixturegen init found them) are removed along with their
decorators, and the region takes the place of the first of them. A
module-level alarm handler that only the hand-written deadline installed
goes with it. A conftest below that defines the deadline fixture again,
arming a timer for the tests of its folder, loses that fixture too when
[deadline.module_seconds] gives the folder its seconds ("folder/**", as
init writes it). Nothing else in those files changes. Preview it with
--adopt --diff.

Examples:
  fixturegen generate
  fixturegen generate --check
  fixturegen -C examples/inbox generate --diff
  fixturegen generate --adopt`,
		flags: func(fs *pflag.FlagSet) {
			mode.define(fs)
			fs.BoolVar(&adopting, "adopt", false, "replace the conftest's hand-written preload and deadline fixtures with the region")
		},
		run: func(c *context, args []string) error {
			if len(args) > 0 {
				return usageError{fmt.Sprintf("generate takes no arguments, got %q", args[0])}
			}
			if _, err := mode.level(); err != nil {
				return err
			}
			spec, changes, adopted, err := c.planGenerate(adopting)
			if err != nil {
				return err
			}
			// A run that writes holds the spec's lock, and plans again
			// under it, from what a run that held it before wrote. A run
			// that finds nothing to write, the usual one, takes no lock:
			// the files it read were each whole, old or new.
			if mode.writes() && slices.ContainsFunc(changes, (*plan.Change).Changed) {
				lock, err := c.lockSpec()
				if err != nil {
					return err
				}
				defer lock.Unlock()
				if spec, changes, adopted, err = c.planGenerate(adopting); err != nil {
					return err
				}
			}
			if mode.verbose {
				fmt.Fprintf(c.stdout, "spec: %s\n", spec.File)
			}
			out := c.stdout
			if mode.quiet {
				out = io.Discard
			}
			wouldChange := false
			for _, ch := range changes {
				if !ch.Changed() {
					mode.unchanged(c.stdout, ch)
					continue
				}
				if !mode.writes() {
					mode.show(c, ch)
					wouldChange = true
					continue
				}
				if err := ch.Write(); err != nil {
					return err
				}
				fmt.Fprintf(out, "wrote %s\n", ch.Display)
				removed := false
				for _, d := range adopted {
					if d.Path != ch.Path {
						continue
					}
					removed = true
					switch {
					case d.HandlerOf != "":
						fmt.Fprintf(out, "  removed %s (lines %d-%d), the alarm handler only the hand-written %s used\n", d.Name, d.First, d.Last, d.HandlerOf)
					case d.Overrides != "":
						fmt.Fprintf(out, "  removed the hand-written %s (lines %d-%d), which ran in place of the generated one for the tests below %s; [deadline.module_seconds] %q gives them their seconds\n", d.Name, d.First, d.Last, d.Overrides, d.Overrides+"/**")
					default:
						fmt.Fprintf(out, "  replaced the hand-written %s (lines %d-%d) with the generated one\n", d.Name, d.First, d.Last)
					}
				}
				if !removed {
					continue
				}
				for _, l := range adopt.Leftovers(ch.Old, ch.New) {
					fmt.Fprintf(out, "  %s:%d: %s is no longer used in this file (only what was replaced used it); remove it unless another module imports it from here\n", ch.Display, l.Line, l.Name)
				}
				if ch.Region {
					if err := c.keptHandlers(out, spec, ch); err != nil {
						return err
					}
					if err := c.unneededRearms(out, spec); err != nil {
						return err
					}
				}
			}
			// Like ruff format --diff and --check: a run that would
			// change something fails, so CI can use it as a check.
			return findingsIf(wouldChange)
		},
	}
}

// planGenerate loads the spec and plans what generate writes, with the
// hand-written fixtures the region replaces when adopting.
func (c *context) planGenerate(adopting bool) (*schema.Spec, []*plan.Change, []adopt.Def, error) {
	spec, err := c.loadSpec()
	if err != nil {
		return nil, nil, nil, err
	}
	if err := schema.CheckCaseFiles(spec); err != nil {
		return nil, nil, nil, err
	}
	if err := checkConftest(spec); err != nil {
		return nil, nil, nil, err
	}
	if adopting {
		changes, adopted, err := adopt.Plan(spec)
		return spec, changes, adopted, err
	}
	changes, err := plan.Make(spec)
	return spec, changes, nil, err
}

// checkConftest refuses a [paths].conftest that no test the project's
// pytest runs collect lies below: a typo, which would write a region
// that protects nothing. A project whose pytest configuration cannot be
// read is left to check, which reports it.
func checkConftest(spec *schema.Spec) error {
	run, err := suite.SpecRun(spec)
	if err != nil {
		return nil
	}
	_, planned := plan.Targets(spec)
	return coverage.CheckConftest(spec, run, planned)
}

// keptHandlers names the handlers of a timer's signal that the adopted
// conftest still installs for the whole process, and why they stay: code
// that arms the timer with no handler of its own relies on them.
func (c *context) keptHandlers(out io.Writer, spec *schema.Spec, ch *plan.Change) error {
	kept := adopt.KeptHandlers(ch.New)
	if len(kept) == 0 {
		return nil
	}
	reliers, err := discover.ArmsWithoutHandler(spec.Dir, path.Dir(spec.Paths.Conftest))
	if err != nil {
		return err
	}
	why := "code that arms the timer outside the generated deadline may rely on it; remove it only if none does"
	if len(reliers) > 0 {
		shown := reliers
		if len(shown) > 3 {
			shown = append(shown[:3:3], fmt.Sprintf("%d more", len(reliers)-3))
		}
		why = "these arm the timer with no handler of their own and rely on it: " + strings.Join(shown, ", ")
	}
	for _, k := range kept {
		when := "at import"
		if k.InConfigure {
			when = "in pytest_configure"
		}
		fmt.Fprintf(out, "  %s:%d: kept the alarm handler %s, which this line installs %s for every alarm of the process: the generated deadline installs its own only while a test runs, and %s\n",
			ch.Display, k.Line, k.Handler, when, why)
	}
	return nil
}

// unneededRearms names the test modules' fixtures that arm the timer again
// for their module for the seconds deadline.module_seconds now gives it:
// the generated deadline arms those seconds itself.
func (c *context) unneededRearms(out io.Writer, spec *schema.Spec) error {
	if len(spec.Deadline.ModuleSeconds) == 0 {
		return nil
	}
	rearms, err := discover.FindRearms(spec.Dir, path.Dir(spec.Paths.Conftest))
	if err != nil {
		return err
	}
	for _, r := range rearms {
		if given, ok := spec.Deadline.SecondsOf(r.Module); !r.WholeModule || r.Seconds == 0 || !ok || given != r.Seconds {
			continue
		}
		fmt.Fprintf(out, "  %s: fixture %s arms the timer again for %s s, which deadline.module_seconds now gives every test of %s; remove it\n",
			r.At, r.Fixture, pyquote.Number(r.Seconds), r.Module)
	}
	return nil
}
