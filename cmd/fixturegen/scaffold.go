package main

import (
	"cmp"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/fixturegen/fixturegen/internal/onboard/scaffold"
	"github.com/fixturegen/fixturegen/schema"
)

func scaffoldCommand() *command {
	var probe bool
	return &command{
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
			lock, err := c.lockSpec()
			if err != nil {
				return err
			}
			defer lock.Unlock()
			spec, err := c.loadSpec()
			if err != nil {
				return err
			}
			if !spec.HasDeadline() {
				// A new module below the conftest is shielded as it is: there is
				// nothing for scaffold to write, and no deadline to write it for.
				dir := cmp.Or(strings.TrimSuffix(spec.Paths.Conftest, "conftest.py"), "./")
				return &schema.Error{File: spec.File, Msg: fmt.Sprintf(
					"holds only the import shield ([shield]), which covers every test below %s as it stands: a new test module there needs nothing from fixturegen. scaffold writes a module that runs under a deadline; add [deadline] and [preload] to the spec for one", dir)}
			}
			created, err := scaffold.Create(spec, args[0], probe)
			if created != nil {
				created.Text(c.stdout)
			}
			var se *scaffold.Error
			if errors.As(err, &se) {
				return usageError{se.Msg}
			}
			if err != nil {
				return err
			}
			if created.Stale != "" {
				fmt.Fprintf(c.stderr, "note: %s is not up to date with %s; run 'fixturegen generate' before running the new module\n", created.Stale, spec.File)
			}
			return nil
		},
	}
}
