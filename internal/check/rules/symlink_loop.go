package rules

import (
	"github.com/fixturegen/fixturegen/internal/python/suite"
)

const WarnSymlinkLoop = suite.ProblemSymlinkLoop

var symlinkLoopRule = checked{
	Rule: Rule{
		ID:      WarnSymlinkLoop,
		Summary: "a link to a folder that contains it",
		Meaning: "A symbolic link leads to a folder that contains it; it is not followed.",
		Fix:     "Remove the link",
		Warning: true,
	},
}
