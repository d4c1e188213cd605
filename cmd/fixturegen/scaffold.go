package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/fixturegen/fixturegen/internal/gen/docs"
	"github.com/fixturegen/fixturegen/internal/gen/plan"
	"github.com/fixturegen/fixturegen/internal/onboard/scaffold"
	"github.com/fixturegen/fixturegen/internal/specedit"
	"github.com/fixturegen/fixturegen/schema"
)

func init() {
	var probe bool
	commands = append(commands, &command{
		name:    "scaffold",
		args:    "PATH",
		summary: "create a new test module that runs under the deadline",
		help: `
Creates the test module PATH (test_*.py or *_test.py, below the folder of
[paths].conftest, so the generated fixtures reach it) with:

  - pytestmark holding the group's xdist_group mark and
    usefixtures(<preload>, <deadline>), so every test in it runs under the
    alarm with the preload loaded first, on the group's worker;
  - one example test that passes as created: it checks that the preloaded
    modules are loaded when its body starts.

PATH must not exist; fixturegen never replaces a file with a scaffold. Like
every file fixturegen writes, PATH must stay inside the spec's folder: a
link on the way that leads out of it is refused.

With --probe, a [[probe.case]] that runs the example test cold is also
added to the spec. The spec's text is edited in place (its comments and
layout stay), and the probe tests are regenerated.

Examples:
  fixturegen scaffold tests/inbox/test_waker_reconnect.py
  fixturegen scaffold --probe tests/inbox/test_waker_reconnect.py`,
		flags: func(fs *pflag.FlagSet) {
			fs.BoolVar(&probe, "probe", false, "also add a probe case for the new test to the spec and regenerate")
		},
		run: func(c *context, args []string) error {
			if len(args) != 1 {
				return usageError{fmt.Sprintf("scaffold takes one PATH, the new test module; got %d arguments", len(args))}
			}
			return runScaffold(c, args[0], probe)
		},
	})
}

func runScaffold(c *context, target string, probe bool) error {
	spec, err := c.loadSpec()
	if err != nil {
		return err
	}
	specPath := spec.File
	abs, err := filepath.Abs(target)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(spec.Dir, abs)
	if err != nil {
		return err
	}
	m, err := scaffold.New(spec, filepath.ToSlash(rel))
	var se *scaffold.Error
	if errors.As(err, &se) {
		return usageError{se.Msg}
	}
	if err != nil {
		return err
	}
	display := filepath.Clean(target)
	exists := func() error {
		return fmt.Errorf("%s already exists; scaffold creates new modules only, so pick another name, or give the existing module the group mark and usefixtures(%q, %q) by hand",
			display, spec.Preload.Fixture, spec.Deadline.Fixture)
	}

	// Everything that can fail is worked out before the first write, so a
	// refusal leaves every file as it was: the new module, the docs file
	// refreshed after it, and with --probe the spec and the files
	// generated from it are checked against the project's links first.
	root, err := plan.Root(spec)
	if err != nil {
		return err
	}
	if err := root.Check(abs); err != nil {
		return err
	}
	if _, err := os.Lstat(abs); err == nil {
		return exists()
	}
	if docsAbs, _ := plan.DocsTarget(spec); docsAbs != "" {
		if err := root.Check(docsAbs); err != nil {
			return err
		}
	}
	var specText *plan.Change
	var changes []*plan.Change
	if probe {
		if spec.Paths.ProbePlugin == "" || spec.Paths.ProbeTests == "" {
			return fmt.Errorf("--probe needs [paths].probe_plugin and [paths].probe_tests in %s, the files that run probe cases", specPath)
		}
		if specText, err = plan.SpecText(spec); err != nil {
			return err
		}
		text, probed, err := specedit.AppendCase(spec, specText.Old, m.ProbeCase())
		if err != nil {
			return err
		}
		if changes, err = plan.Make(probed); err != nil {
			return err
		}
		specText.New = text
	}

	if err := root.New(abs, m.Content); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return exists()
		}
		return fmt.Errorf("create %s: %w", display, err)
	}
	fmt.Fprintf(c.stdout, "created %s\n", display)
	if probe {
		if err := specText.Write(); err != nil {
			return fmt.Errorf("write %s: %w", specPath, err)
		}
		fmt.Fprintf(c.stdout, "added probe case %s to %s\n", m.ProbeCase().Test, specPath)
		if err := writeChanges(c, changes); err != nil {
			return err
		}
	}
	// The docs block, when the spec keeps one, lists the modules that use
	// the alarm: it changes with the new module, and is refreshed now so
	// that the module passes fixturegen check as created.
	docChanges, err := docs.WithPlan(spec, nil)
	if err != nil {
		return err
	}
	if err := writeChanges(c, docChanges); err != nil {
		return err
	}
	if !probe {
		noteStale(c, spec)
	}
	return nil
}

// noteStale tells the user when the generated files lag behind the spec,
// since the new module needs the fixtures that generate writes.
func noteStale(c *context, spec *schema.Spec) {
	changes, err := plan.Make(spec)
	if err != nil {
		return
	}
	for _, ch := range changes {
		if ch.Changed() {
			fmt.Fprintf(c.stderr, "note: %s is not up to date with %s; run 'fixturegen generate' before running the new module\n", ch.Display, spec.File)
			return
		}
	}
}

// writeChanges writes each changed file of a plan and names it.
func writeChanges(c *context, changes []*plan.Change) error {
	for _, ch := range changes {
		if !ch.Changed() {
			continue
		}
		if err := ch.Write(); err != nil {
			return fmt.Errorf("write %s: %w", ch.Display, err)
		}
		fmt.Fprintf(c.stdout, "wrote %s\n", ch.Display)
	}
	return nil
}
