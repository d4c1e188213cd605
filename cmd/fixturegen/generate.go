package main

import (
	"fmt"
	"path"
	"strings"

	"github.com/spf13/pflag"

	"github.com/fixturegen/fixturegen/internal/gen/diff"
	"github.com/fixturegen/fixturegen/internal/gen/plan"
	"github.com/fixturegen/fixturegen/internal/onboard/adopt"
	"github.com/fixturegen/fixturegen/internal/onboard/discover"
	"github.com/fixturegen/fixturegen/internal/python/pyquote"
	"github.com/fixturegen/fixturegen/schema"
)

func init() {
	var dryRun, adopting bool
	commands = append(commands, &command{
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
place. A file that would not change is not touched, so a second run changes
no byte and no modification time. A bad spec, broken markers, a user
definition that clashes with a generated fixture, or a planned path that a
link would lead out of the spec's folder (or that is itself a link) stop
the run before any file is written.

With --dry-run, generate prints the unified diff instead of writing, and
exits 1 when it would change a file, 0 when it would not (as ruff format
--diff does), so CI can run it as a check.

With --adopt, hand-written definitions of the preload and deadline fixtures
in the conftest (each a module-level function decorated with
pytest.fixture, as fixturegen init found them) are removed along with their
decorators, and the region takes the place of the first of them. A
module-level alarm handler that only the hand-written deadline installed
goes with it. A conftest below that defines the deadline fixture again,
arming a timer for the tests of its folder, loses that fixture too when
[deadline.module_seconds] gives the folder its seconds ("folder/**", as
init writes it). Nothing else in those files changes. Preview it with
--adopt --dry-run.

Examples:
  fixturegen generate
  fixturegen -C examples/inbox generate --dry-run
  fixturegen generate --adopt`,
		flags: func(fs *pflag.FlagSet) {
			fs.BoolVarP(&dryRun, "dry-run", "n", false, "print a unified diff of what would change, write nothing, and exit 1 if anything would")
			fs.BoolVar(&adopting, "adopt", false, "replace the conftest's hand-written preload and deadline fixtures with the region")
		},
		run: func(c *context, args []string) error {
			if len(args) > 0 {
				return usageError{fmt.Sprintf("generate takes no arguments, got %q", args[0])}
			}
			spec, err := c.loadSpec()
			if err != nil {
				return err
			}
			if err := schema.CheckCaseFiles(spec); err != nil {
				return err
			}
			var (
				changes []*plan.Change
				adopted []adopt.Def // the hand-written fixtures the region replaces
			)
			if adopting {
				changes, adopted, err = adopt.Plan(spec)
			} else {
				changes, err = plan.Make(spec)
			}
			if err != nil {
				return err
			}
			wouldChange := false
			for _, ch := range changes {
				if !ch.Changed() {
					continue
				}
				if dryRun {
					fmt.Fprint(c.stdout, c.paint.Diff(string(diff.Unified(ch.Display, ch.Old, ch.New))))
					wouldChange = true
					continue
				}
				if err := ch.Write(); err != nil {
					return fmt.Errorf("write %s: %w", ch.Display, err)
				}
				fmt.Fprintf(c.stdout, "wrote %s\n", ch.Display)
				removed := false
				for _, d := range adopted {
					if d.Path != ch.Path {
						continue
					}
					removed = true
					switch {
					case d.HandlerOf != "":
						fmt.Fprintf(c.stdout, "  removed %s (lines %d-%d), the alarm handler only the hand-written %s used\n", d.Name, d.First, d.Last, d.HandlerOf)
					case d.Overrides != "":
						fmt.Fprintf(c.stdout, "  removed the hand-written %s (lines %d-%d), which ran in place of the generated one for the tests below %s; [deadline.module_seconds] %q gives them their seconds\n", d.Name, d.First, d.Last, d.Overrides, d.Overrides+"/**")
					default:
						fmt.Fprintf(c.stdout, "  replaced the hand-written %s (lines %d-%d) with the generated one\n", d.Name, d.First, d.Last)
					}
				}
				if !removed {
					continue
				}
				for _, l := range adopt.Leftovers(ch.Old, ch.New) {
					fmt.Fprintf(c.stdout, "  %s:%d: %s is no longer used in this file (only what was replaced used it); remove it unless another module imports it from here\n", ch.Display, l.Line, l.Name)
				}
				if ch.Region {
					if err := c.keptHandlers(spec, ch); err != nil {
						return err
					}
					if err := c.unneededRearms(spec); err != nil {
						return err
					}
				}
			}
			// Like ruff format --diff: a dry run that would change
			// something fails, so CI can use it as a check.
			if wouldChange {
				return errFindings
			}
			return nil
		},
	})
}

// keptHandlers names the handlers of a timer's signal that the adopted
// conftest still installs for the whole process, and why they stay: code
// that arms the timer with no handler of its own relies on them.
func (c *context) keptHandlers(spec *schema.Spec, ch *plan.Change) error {
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
		fmt.Fprintf(c.stdout, "  %s:%d: kept the alarm handler %s, which this line installs %s for every alarm of the process: the generated deadline installs its own only while a test runs, and %s\n",
			ch.Display, k.Line, k.Handler, when, why)
	}
	return nil
}

// unneededRearms names the test modules' fixtures that arm the timer again
// for their module for the seconds deadline.module_seconds now gives it:
// the generated deadline arms those seconds itself.
func (c *context) unneededRearms(spec *schema.Spec) error {
	if len(spec.Deadline.ModuleSeconds) == 0 {
		return nil
	}
	rearms, err := discover.FindRearms(spec.Dir, path.Dir(spec.Paths.Conftest))
	if err != nil {
		return err
	}
	for _, r := range rearms {
		if !r.WholeModule || r.Seconds == 0 {
			continue
		}
		given, ok := spec.Deadline.SecondsOf(r.Module)
		if !ok || given != r.Seconds {
			continue
		}
		fmt.Fprintf(c.stdout, "  %s: fixture %s arms the timer again for %s s, which deadline.module_seconds now gives every test of %s; remove it\n",
			r.At, r.Fixture, pyquote.Number(r.Seconds), r.Module)
	}
	return nil
}
