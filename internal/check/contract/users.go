package contract

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

// user lists src among the users when one of its tests uses the deadline.
func (r *rules) user(src *source) {
	tests := r.ix.tests(src)
	u := User{Path: src.path, Tests: len(tests)}
	f := src.facts
	for _, t := range tests {
		via, ok := r.usesDeadline(src, t)
		if !ok {
			continue
		}
		use := Use{Test: qualifiedName(src.mod, t), Line: via.pos.Line, Col: via.pos.Col}
		switch {
		case via.autouse != nil:
			use.How, use.Via = ViaAutouse, via.autouse.name
		case via.how == "usefixtures" && f.inPytestmark(via.pos):
			use.How = ViaPytestmark
		case via.how == "usefixtures":
			use.How = ViaUsefixtures
		default:
			use.How, use.Via = ViaParameter, via.name
		}
		u.Uses = append(u.Uses, use)
	}
	if len(u.Uses) > 0 {
		r.users = append(r.users, u)
	}
}

// inPytestmark reports whether the argument at pos belongs to a call in a
// pytestmark assignment, the module's or a class's.
func (f *facts) inPytestmark(pos pyscan.Pos) bool {
	m := f.src.mod
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
