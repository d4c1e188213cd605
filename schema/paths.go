package schema

import (
	"path"
	"strconv"
	"strings"
)

// relPathProblem checks a path from the spec, which must name a file inside
// the spec's folder, and returns it cleaned. The problem, if any, is a clause
// that follows "not %q: " in a message.
//
// Paths use forward slashes on every system, so that one spec works on all
// of them; a backslash or a drive letter is a path written for one system.
func relPathProblem(p string) (clean, problem string) {
	switch {
	case p == "":
		return "", "it is empty"
	case strings.Contains(p, `\`):
		return "", "it contains a backslash; separate folders with /"
	case strings.HasPrefix(p, "/"):
		return "", "it is absolute; write it relative to the spec's folder"
	case len(p) >= 2 && p[1] == ':' && (p[0] >= 'a' && p[0] <= 'z' || p[0] >= 'A' && p[0] <= 'Z'):
		return "", "it starts with a drive letter; write it relative to the spec's folder"
	}
	clean = path.Clean(p)
	switch {
	case clean == ".":
		return "", "it names the spec's folder, not a file in it"
	case clean == ".." || strings.HasPrefix(clean, "../"):
		return "", "it leads outside the spec's folder"
	}
	return clean, ""
}

// nodeIDProblem checks a pytest node id ("tests/test_x.py::test_name",
// "tests/test_x.py::TestClass::test_name[param]") and returns it with its
// file part cleaned. The problem is in the same form as relPathProblem's.
func nodeIDProblem(id string) (clean, problem string) {
	file, rest, found := strings.Cut(id, "::")
	if !found {
		return "", "it has no ::test_name part"
	}
	cleanFile, p := relPathProblem(file)
	if p != "" {
		return "", "its file part " + strings.TrimPrefix(p, "it ")
	}
	if !strings.HasSuffix(cleanFile, ".py") {
		return "", "its file part does not end in .py"
	}
	// Everything from the first '[' on is the parameter id, which pytest
	// builds from arbitrary values; only its brackets are checked.
	names, param, hasParam := strings.Cut(rest, "[")
	if hasParam && !strings.HasSuffix(param, "]") {
		return "", "its parameter part does not end in ]"
	}
	for _, name := range strings.Split(names, "::") {
		if p := identifierProblem(name); p != "" {
			if name == "" {
				return "", "it has an empty name between ::"
			}
			return "", "name " + strconv.Quote(name) + " " + strings.TrimPrefix(p, "it ")
		}
	}
	return cleanFile + "::" + rest, ""
}

// sameFile reports whether two cleaned paths name the same file. Case is
// ignored because on macOS and Windows it does not tell files apart, and a
// spec must mean the same thing everywhere.
func sameFile(a, b string) bool {
	return a != "" && strings.EqualFold(a, b)
}
