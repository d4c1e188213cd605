package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/fixturegen/fixturegen/internal/cli/completion"
	"github.com/fixturegen/fixturegen/internal/onboard/starter"
	"github.com/fixturegen/fixturegen/internal/shell"
	"github.com/fixturegen/fixturegen/schema"
)

func initCommand() *command {
	var force bool
	var python string
	return &command{
		name:    "init",
		summary: "write a spec: from a hand-written contract, or a starter",
		help: `
Writes fixturegen.toml (or the file named by --spec) in the working
directory and prints what it found.

When a conftest.py below the working directory holds a hand-written
contract (a fixture that arms signal.setitimer or signal.alarm, in its body
or through a function of the conftest it calls, perhaps taking a fixture
that imports modules, perhaps autouse; a zero delay, as in signal.alarm(0),
disarms and does not count), init finds it by reading the conftests, then
learns what it does by running it: one pytest session, with the project's
Python (--python), runs each such fixture's setup and teardown once in a
throwaway test of the fixture's folder, as pytest would, and nothing else.
No test of the project runs and nothing is written into the project; the
timers are recorded, never armed, and the test calls the handler the
fixture installed as the alarm would. A variable the conftest reads
(os.environ, os.getenv) gets further runs, each with it set to a number, to
0 and to no number: in the same session when the fixture reads it, in a
session of its own when the conftest reads it once at import. A conftest
that asks whether pytest-timeout is loaded gets a session with it loaded.
From those runs:
  - the deadline fixture's name, autouse, seconds, timer (auto behind a
    hasattr(signal, "SIGALRM") guard, which no run here can show), the
    variables that set the seconds and which one wins (seconds_env), what
    a variable that holds no number does (seconds_env_invalid), what its
    handler raises and says, word for word (a message that states the
    seconds gets a {seconds} field with the format that gives the same
    text), a faulthandler dump, and whether it leaves the timing to
    pytest-timeout (defer_to_pytest_timeout) become [deadline],
  - the preload fixture's name and imports become [preload],
  - the xdist_group name that the test modules using them carry becomes
    [group] (an autouse deadline without one gets no [group]),
  - that conftest becomes [paths].conftest, and a probe plugin found beside
    it is noted.
Each value gets a comment naming the line it came from, and what the runs
could not show is listed for you to check. init invents no value: seconds
no run shows (the fixture's setup fails, a variable without a default)
stop it with exit status 2 at their line; a message or exception the
generated deadline cannot give is left commented out in the spec, with why.
init then prints the one command that replaces the hand-written fixtures
with the generated region, fixturegen generate --adopt, which keeps
everything else in the conftest.

When the project sets pytest-timeout with the signal method (its default
where SIGALRM exists), the spec gets the import shield, [shield] (signals,
import_grace, past_grace, rollback), which makes pytest-timeout's handler
wait for a module's first import instead of leaving the module half
imported. init names each place it found: timeout and --timeout in the
pytest configuration pytest reads for the tests (a tests/pytest.ini
included, as "pytest tests" reads it), timeout marks, and pytest-timeout
declared as a dependency. A place whose method is thread needs no
shield. It also names the way with no generated file: the plugin
pytest-import-shield, the line to add at each declaration of
pytest-timeout. Without a hand-written contract, the spec holds only
[shield] and [paths], with a conftest.py above every test pytest
collects: run fixturegen generate next.

Otherwise init writes a commented starter spec with defaults, and names
each timer a conftest arms that is no deadline (in a helper no fixture
calls, in a hook, in a fixture that armed nothing when it ran), with what
running it showed. A project without such a fixture runs no Python.

init never replaces an existing spec: it stops with exit status 2, unless
--force is given. Nor does it write a second spec below one that already
serves the working directory (run in tests/ of a project whose
fixturegen.toml is at the root, fixturegen commands run in tests/ would
read the new spec, and those run at the root the old one): it stops with
exit status 2 naming the spec above, unless --spec names the file to
write. A pyproject.toml that already holds [tool.fixturegen]
counts as a spec (--force does not help there: two specs are an error).
With --spec pyproject.toml, the spec is appended to pyproject.toml as
[tool.fixturegen] tables.

Examples:
  fixturegen init
  fixturegen init --python .venv/bin/python
  fixturegen init --force
  fixturegen --spec pyproject.toml init`,
		flags: func(fs *pflag.FlagSet) {
			fs.BoolVar(&force, "force", false, "replace an existing spec file")
			fs.StringVar(&python, "python", "", "the `PYTHON` interpreter that runs the fixtures (default: the project's own: $VIRTUAL_ENV, $UV_PROJECT_ENVIRONMENT, .venv, venv, PDM's, Poetry's, hatch's or tox's environment, in that order; else python3)")
			completion.Files(fs, "python")
		},
		run: func(c *context, args []string) error {
			if len(args) > 0 {
				return usageError{fmt.Sprintf("init takes no arguments, got %q", args[0])}
			}
			target := schema.DefaultFile
			if c.spec != "" {
				target = filepath.Clean(c.spec)
			} else if err := specAbove(); err != nil {
				return err
			}
			report, err := starter.Write(target, force, python)
			if report != nil {
				report.Text(c.stdout)
			}
			return err
		},
	}
}

// specAbove refuses an init, without --spec, in a folder below the folder
// of the spec that commands run here already read: a second spec would
// split the project, each command reading the one nearest to where it
// runs.
func specAbove() error {
	found, err := schema.FindUp(".")
	if err != nil || found == "" || filepath.Dir(found) == "." {
		return nil // none, or one here: starter.Write decides
	}
	return &schema.Error{File: found, Msg: fmt.Sprintf(
		"already the spec here (fixturegen commands run in this folder read it), so init writes no second spec below it; "+
			"edit it, or write it afresh with fixturegen -C %s init --force; for a project of its own in this folder, "+
			"name the new spec: fixturegen --spec %s init (commands run here will read that one, and those run above the other)",
		shell.Quote(filepath.Dir(found)), schema.DefaultFile)}
}
