package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/fixturegen/fixturegen/internal/cli/completion"
	"github.com/fixturegen/fixturegen/internal/onboard/starter"
	"github.com/fixturegen/fixturegen/schema"
)

func init() {
	var force bool
	var python string
	commands = append(commands, &command{
		name:    "init",
		summary: "write a spec: from a hand-written contract, or a starter",
		help: `
Writes fixturegen.toml (or the file named by --spec) in the working
directory and prints what it found.

When a conftest.py below the working directory holds a hand-written
contract (a fixture that arms signal.setitimer or signal.alarm in its own
body, perhaps taking a fixture that imports modules, perhaps autouse; a
zero delay, as in signal.alarm(0), disarms and does not count), init reads it
without running Python:
  - the deadline fixture's name, autouse, seconds (a number, or
    environment variables with a default, tried in order: seconds_env,
    also through a helper function of the conftest), timer (auto behind a
    hasattr(signal, "SIGALRM") guard), what its alarm handler does (the
    exception it raises, its message, a faulthandler dump; a handler
    installed at module level too), and a pluginmanager.hasplugin("timeout")
    branch (defer_to_pytest_timeout) become [deadline],
  - the preload fixture's name and imports become [preload],
  - the xdist_group name that the test modules using them carry becomes
    [group] (an autouse deadline without one gets no [group]),
  - that conftest becomes [paths].conftest, and a probe plugin found beside
    it is noted.
Each value gets a comment naming the line it came from, and what init could
not read as a literal is listed for you to check. init invents no value:
seconds it cannot read stop it with exit status 2 at their line; a message
or exception it cannot read is left commented out in the spec, with why.
init then prints the one command that replaces the hand-written fixtures
with the generated region, fixturegen generate --adopt, which keeps
everything else in the conftest.

When the project's pytest runs pytest-timeout with the signal method (a
timeout from timeout or --timeout in its configuration's addopts, or from
PYTEST_TIMEOUT, and timeout_method signal or unset: its default where
SIGALRM exists), the spec gets the import shield, [shield] (signals,
import_grace, past_grace, rollback), which makes pytest-timeout's handler
wait for a module's first import instead of leaving the module half
imported. Without a hand-written contract, that spec holds only [shield]
and [paths]: run fixturegen generate next.

Otherwise init writes a commented starter spec with defaults, and names
each timer a conftest arms outside a fixture's body (in a helper, with the
fixture that calls it), which it does not read.

init never replaces an existing spec: it stops with exit status 2, unless
--force is given. A pyproject.toml that already holds [tool.fixturegen]
counts as a spec (--force does not help there: two specs are an error).
With --spec pyproject.toml, the spec is appended to pyproject.toml as
[tool.fixturegen] tables.

Examples:
  fixturegen init
  fixturegen init --force
  fixturegen --spec pyproject.toml init`,
		flags: func(fs *pflag.FlagSet) {
			fs.BoolVar(&force, "force", false, "replace an existing spec file")
			fs.StringVar(&python, "python", "", "the `PYTHON` interpreter that runs the fixtures (default: the project's .venv/bin/python if present, else python3)")
			completion.Files(fs, "python")
		},
		run: func(c *context, args []string) error {
			if len(args) > 0 {
				return usageError{fmt.Sprintf("init takes no arguments, got %q", args[0])}
			}
			target := schema.DefaultFile
			if c.spec != "" {
				target = filepath.Clean(c.spec)
			}
			report, err := starter.Write(target, force, python)
			if report != nil {
				report.Text(c.stdout)
			}
			return err
		},
	})
}
