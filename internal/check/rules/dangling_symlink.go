package rules

import (
	"github.com/fixturegen/fixturegen/internal/python/suite"
)

const WarnDanglingSymlink = suite.ProblemDanglingSymlink

var danglingSymlinkRule = checked{
	Rule: Rule{
		ID:      WarnDanglingSymlink,
		Summary: "a .py link to a file that does not exist",
		Meaning: "A `.py` link points to a file that does not exist.",
		Fix:     "Remove the link, or restore the file",
		Warning: true,
	},
}
