package main

import (
	"fmt"

	"github.com/fixturegen/fixturegen/internal/version"
)

func versionCommand() *command {
	return &command{
		name:    "version",
		summary: "print fixturegen's version",
		help: `
Prints "fixturegen VERSION". A release prints its number (0.4.0): the
wheel from the Python package index (pip install fixturegen-cli==0.4.0; the
distribution is fixturegen-cli, the command fixturegen), a release archive,
or go install github.com/fixturegen/fixturegen/cmd/fixturegen@v0.4.0. A
development build prints "dev" and, when the Go toolchain recorded it, the
commit it was built from. fixturegen --version and -V print the same.

Examples:
  fixturegen version
  fixturegen --version`,
		run: func(c *context, args []string) error {
			if len(args) > 0 {
				return usageError{"version takes no arguments"}
			}
			fmt.Fprintln(c.stdout, version.Long())
			return nil
		},
	}
}
