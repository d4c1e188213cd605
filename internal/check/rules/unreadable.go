package rules

import (
	"github.com/fixturegen/fixturegen/internal/python/suite"
)

const WarnUnreadable = suite.ProblemUnreadable

var unreadableRule = checked{
	Rule: Rule{
		ID:      WarnUnreadable,
		Summary: "a folder or file cannot be read",
		Meaning: "A folder or file cannot be read (permissions); a file larger than 16 MiB, or that is not a regular file (a FIFO, a socket, a device). Such a file costs at most one read of 64 KiB: check asks a file's size and type before it reads more, and never waits on a FIFO.",
		Fix:     "`chmod`, or leave it out of `--scan`",
		Warning: true,
	},
}
