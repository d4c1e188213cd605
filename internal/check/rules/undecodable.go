package rules

import (
	"github.com/fixturegen/fixturegen/internal/python/suite"
)

const WarnUndecodable = suite.ProblemUndecodable

var undecodableRule = checked{
	Rule: Rule{
		ID:      WarnUndecodable,
		Summary: "a Python file in no encoding fixturegen knows",
		Meaning: "A Python file is not UTF-8 and declares no encoding, or one neither Python nor fixturegen knows.",
		Fix:     "Save it as UTF-8, or declare its encoding",
		Warning: true,
	},
}
