package rules

import (
	"github.com/fixturegen/fixturegen/internal/python/suite"
)

const WarnSyntax = suite.ProblemSyntax

var syntaxRule = checked{
	Rule: Rule{
		ID:           WarnSyntax,
		Summary:      "a Python file has a syntax error",
		Meaning:      "A Python file has an unterminated string, a bracket never closed, unmatched or closed by the wrong one, or a bad dedent, reported with CPython's message where CPython reports it (`'(' was never closed` at the bracket, not at the end of the file); rules may miss code after it. (In the region's conftest it is an error.)",
		Fix:          "`python -m py_compile FILE` shows it",
		Warning:      true,
		Suppressible: true,
	},
}
