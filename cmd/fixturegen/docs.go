package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/fixturegen/fixturegen/internal/gen/plan"
)

func docsCommand() *command {
	var mode writeMode
	return &command{
		name:    "docs",
		args:    "[FILE]",
		summary: "write the contract's reference tables into a Markdown file",
		help: `
Writes, between the lines "<!-- fixturegen:docs:begin ... -->" and
"<!-- fixturegen:docs:end -->" of the Markdown file FILE (default: the
spec's [paths].docs), the tables a project's document about its alarm
contract would otherwise keep by hand:

  - the settings: deadline and timer, the failure message, on_import,
    late_imports, the preload and the worker group, each with the fixture
    or mark it lives in and its spec key;
  - the modules in the xdist group, with why each is there (it uses the
    deadline fixture, patches a preloaded module, or only marks itself);
  - the modules whose tests use the alarm, and how: through pytestmark, an
    autouse fixture, or a parameter.

For a spec that holds only the import shield ([shield]), the tables are the
shield's settings (its signals, import grace, what happens past the grace,
the rollback) and the tests it covers: every test below the conftest.

The modules come from the same static scan of the test tree that
fixturegen check runs. A file without markers gets the block appended; a
missing file is created. Everything outside the markers is kept, and a
file that would not change is not touched.

With [paths].docs set, fixturegen generate writes the block too, and
fixturegen check reports it when it is out of date.

--diff and --check write nothing and exit 1 when the file would change,
as generate's do (-n/--dry-run is --diff). Output: "wrote FILE" when the
file changes; -q prints nothing but errors and what --diff asks for; -v
also says "unchanged FILE".

Examples:
  fixturegen docs
  fixturegen docs docs/alarm-contract.md
  fixturegen docs --diff`,
		flags: func(fs *pflag.FlagSet) {
			mode.define(fs)
		},
		run: func(c *context, args []string) error {
			if len(args) > 1 {
				return usageError{fmt.Sprintf("docs takes at most one FILE, got %d arguments", len(args))}
			}
			if _, err := mode.level(); err != nil {
				return err
			}
			spec, err := c.loadSpec()
			if err != nil {
				return err
			}
			file := ""
			if len(args) == 1 {
				file = args[0]
			}
			ch, err := plan.DocsFile(spec, file)
			if err != nil {
				return err
			}
			if ch == nil {
				return usageError{fmt.Sprintf("name the Markdown FILE to write, or set [paths].docs in %s", spec.File)}
			}
			// A write holds the spec's lock, and plans again under it
			// (see generate).
			if mode.writes() && ch.Changed() {
				lock, err := c.lockSpec()
				if err != nil {
					return err
				}
				defer lock.Unlock()
				if ch, err = plan.DocsFile(spec, file); err != nil {
					return err
				}
			}
			switch {
			case !ch.Changed():
				mode.unchanged(c.stdout, ch)
			case !mode.writes():
				mode.show(c, ch)
				return errFindings
			default:
				if err := ch.Write(); err != nil {
					return err
				}
				if !mode.quiet {
					fmt.Fprintf(c.stdout, "wrote %s\n", ch.Display)
				}
			}
			return nil
		},
	}
}
