// Fixturegen generates and checks the fixtures that keep a SIGALRM deadline
// from interrupting a module's first import in a pytest suite.
//
// A project describes its contract in fixturegen.toml (or in the
// [tool.fixturegen] table of its pyproject.toml): the deadline fixture
// and its seconds, the preload fixture and the modules it imports before the
// alarm is armed, the pytest-xdist worker group, and the probe cases that
// prove the contract holds. Fixturegen writes the fixtures into a marked
// region of a conftest.py, writes the recording probe plugin and the probe
// tests, and checks in CI that none of it has drifted.
//
// Usage:
//
//	fixturegen [-C DIR] [--spec FILE] COMMAND [flags]
//
// Commands:
//
//	generate   write the conftest region, the probe plugin and the probe tests
//	check      report drift from the spec and breaches of the contract
//	probe      run tests with the recording probe and list every late import
//	init       write a spec: from a hand-written contract, or a starter
//	scaffold   create a new test module that runs under the deadline
//	docs       write the contract's reference tables into a Markdown file
//	completion print a bash, zsh or fish completion script
//	version    print fixturegen's version
//
// Without --spec, the spec is the nearest fixturegen.toml, or pyproject.toml
// with a [tool.fixturegen] table, from the working folder up to the
// repository root.
//
// Exit status: 0 when all is well, 1 when check finds drift or a contract
// finding, the probe finds a late import, or generate --diff or --check would
// change a file, 2 for usage, spec or internal errors, 130 or 143 when a
// probe is stopped by Ctrl-C or SIGTERM.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
