package schema

import (
	"fmt"
	"strings"
)

// pythonKeywords is every hard keyword of Python 3. A name in this set cannot
// be a fixture, a function or a module part, so the generated code would not
// even compile. Soft keywords (match, case, type, _) are ordinary names and
// stay allowed.
var pythonKeywords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true,
	"assert": true, "async": true, "await": true, "break": true, "class": true,
	"continue": true, "def": true, "del": true, "elif": true, "else": true,
	"except": true, "finally": true, "for": true, "from": true, "global": true,
	"if": true, "import": true, "in": true, "is": true, "lambda": true,
	"nonlocal": true, "not": true, "or": true, "pass": true, "raise": true,
	"return": true, "try": true, "while": true, "with": true, "yield": true,
}

// IsIdentifier reports whether s can stand as a name in generated Python: an
// ASCII identifier ([A-Za-z_][A-Za-z0-9_]*) that is not a hard keyword.
// Non-ASCII identifiers are valid Python but are refused, so that every name
// fixturegen writes looks the same in any editor, terminal and diff.
func IsIdentifier(s string) bool {
	return identifierProblem(s) == ""
}

// identifierProblem says why s is not an identifier, as a clause that follows
// "not %q: " in a message, or returns "" when s is one.
func identifierProblem(s string) string {
	if s == "" {
		return "it is empty"
	}
	for i, r := range s {
		switch {
		case r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
		case r >= '0' && r <= '9':
			if i == 0 {
				return "it starts with a digit"
			}
		default:
			return fmt.Sprintf("it contains %q; only ASCII letters, digits and _ are allowed", r)
		}
	}
	if pythonKeywords[s] {
		return "it is a Python keyword"
	}
	return ""
}

// moduleProblem says why s is not a dotted module name, in the same form as
// identifierProblem.
func moduleProblem(s string) string {
	if s == "" {
		return "it is empty"
	}
	for _, part := range strings.Split(s, ".") {
		if part == "" {
			return "it has an empty part (a leading, trailing or doubled dot)"
		}
		if p := identifierProblem(part); p != "" {
			return fmt.Sprintf("part %q %s", part, strings.TrimPrefix(p, "it "))
		}
	}
	return ""
}
