package suite

import "github.com/fixturegen/fixturegen/internal/python/pyscan"

// User is a test module whose tests run under the deadline fixture, with
// how each reaches it: what fixturegen docs lists as the modules that use
// the alarm. Options.ListUsers asks for them.
type User struct {
	Path  string // as the user reaches it, like Member.Path
	Tests int    // the module's tests, whether they use the deadline or not
	Uses  []Use
}

// Ways a test reaches the deadline fixture, for Use.How.
const (
	ViaPytestmark  = "pytestmark"  // a usefixtures mark in the module's or a class's pytestmark
	ViaUsefixtures = "usefixtures" // a usefixtures mark decorating the test or its class
	ViaAutouse     = "autouse"     // an autouse fixture that depends on it
	ViaParameter   = "parameter"   // a parameter of the test, or a fixture the parameter names
)

// Use is one test that runs under the deadline fixture.
type Use struct {
	Test string // the test's name, after its classes: "TestPump.test_drain"
	How  string // one of the Via constants
	// Via is the fixture the test asks for: the autouse fixture, or the
	// parameter (the deadline fixture itself, or one that depends on it).
	Via       string
	Line, Col int // where the test asks
}

// User returns the module src as a user of the deadline fixture; false
// when none of its tests uses it.
func (q *Query) User(src *Source) (User, bool) {
	tests := src.Tests()
	u := User{Path: src.Path, Tests: len(tests)}
	for _, t := range tests {
		via, ok := q.UsesDeadline(src, t)
		if !ok {
			continue
		}
		use := Use{Test: qualifiedName(src.Mod, t), Line: via.Pos.Line, Col: via.Pos.Col}
		switch {
		case via.Autouse != nil:
			use.How, use.Via = ViaAutouse, via.Autouse.Name
		case via.How == "usefixtures" && src.facts.inPytestmark(via.Pos):
			use.How = ViaPytestmark
		case via.How == "usefixtures":
			use.How = ViaUsefixtures
		default:
			use.How, use.Via = ViaParameter, via.Name
		}
		u.Uses = append(u.Uses, use)
	}
	return u, len(u.Uses) > 0
}

// inPytestmark reports whether the argument at pos belongs to a call in a
// pytestmark assignment, the module's or a class's.
func (f *facts) inPytestmark(pos pyscan.Pos) bool {
	m := f.src.Mod
	for _, calls := range f.pytestmark {
		for _, ci := range calls {
			for _, a := range m.Calls[ci].Args {
				if a.Pos == pos {
					return true
				}
			}
		}
	}
	return false
}

// qualifiedName is a def's name after the names of the classes around it.
func qualifiedName(m *pyscan.Module, def int) string {
	name := m.Defs[def].Name
	for p := m.Defs[def].Parent; p >= 0; p = m.Defs[p].Parent {
		name = m.Defs[p].Name + "." + name
	}
	return name
}
