package rules

import (
	"github.com/fixturegen/fixturegen/internal/python/suite"
)

const WarnSymlinkOutside = suite.ProblemSymlinkOutside

var symlinkOutsideRule = checked{
	Rule: Rule{
		ID:      WarnSymlinkOutside,
		Summary: "a link to a folder outside the scanned ones",
		Meaning: "A symbolic link leads to a folder outside the scanned folders; it is not followed.",
		Fix:     "Scan that folder too (`--scan`), or replace the link with the folder",
		Warning: true,
	},
}
