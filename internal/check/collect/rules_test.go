package collect

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	checkrules "github.com/fixturegen/fixturegen/internal/check/rules"
	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/schema"
)

func testSpec() *schema.Spec {
	spec := &schema.Spec{Dir: "/p", File: "/p/fixturegen.toml"}
	spec.Deadline.Fixture = "deadline"
	spec.Preload.Fixture = "preload"
	spec.Preload.Modules = []string{"json"} // a group keeps its import on one worker
	spec.Group.Name = "sdk"
	return spec
}

func TestFindings(t *testing.T) {
	item := func(id string, groups []string, scheduled string, fixtures ...string) Item {
		file, _, _ := strings.Cut(id, "::")
		return Item{NodeID: id, Path: "/p/" + file, File: "/p/" + file, Line: 3, Python: true, Groups: groups, Scheduled: scheduled, Fixtures: fixtures}
	}
	tests := []struct {
		name string
		view View
		want []string // "rule path:line"
	}{
		{"grouped and scheduled in the group", View{Xdist: "3.8.0", Items: []Item{
			item("t.py::a", []string{"sdk"}, "t.py::a@sdk", "preload", "deadline"),
		}}, nil},
		{"a deadline user outside the group", View{Xdist: "3.8.0", Items: []Item{
			item("t.py::a", nil, "t.py::a", "deadline"),
		}}, []string{"missing-group t.py:3"}},
		{"two group marks make another group", View{Xdist: "3.8.0", Items: []Item{
			item("t.py::a", []string{"other", "sdk"}, "t.py::a@other_sdk", "deadline"),
		}}, []string{"missing-group t.py:3"}},
		{"a deselected test does not run", View{Xdist: "3.8.0", Items: []Item{
			{NodeID: "t.py::a", Path: "/p/t.py", File: "/p/t.py", Line: 3, Fixtures: []string{"deadline"}, Scheduled: "t.py::a", Deselected: true},
		}}, nil},
		{"a void group, once per module", View{Pytest: "9.2.0", Xdist: "3.8.0", Items: []Item{
			item("t.py::a", []string{"sdk"}, "t.py::a"),
			item("t.py::b", []string{"sdk"}, "t.py::b"),
			item("u.py::c", []string{"x"}, "u.py::c"),
		}}, []string{"group-void t.py:3", "group-void u.py:3"}},
		{"no pytest-xdist, no loadgroup", View{Pytest: "9.2.0", Items: []Item{
			item("t.py::a", []string{"sdk"}, "t.py::a"),
		}}, nil},
		{"a deadline without the preload", View{Deadlines: []Deadline{
			{File: "/p/conftest.py", Line: 7, Col: 5, Preload: false, Without: "t.py::a"},
			{File: "/p/other/conftest.py", Line: 9, Col: 5, Preload: true},
		}}, []string{"deadline-without-preload conftest.py:7"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range Findings(testSpec(), &tt.view, "/p") {
				got = append(got, f.Rule+" "+f.Path+":"+strconv.Itoa(f.Line))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestFindingsGroupVoidNamesTheVersions(t *testing.T) {
	v := &View{Pytest: "9.2.0", Xdist: "3.8.0", Items: []Item{{NodeID: "t.py::a", Path: "/p/t.py", File: "/p/t.py", Line: 1, Groups: []string{"sdk"}, Scheduled: "t.py::a"}}}
	fs := Findings(testSpec(), v, "/p")
	if len(fs) != 1 || !strings.Contains(fs[0].Message, "pytest 9.2.0 and pytest-xdist 3.8.0") || !strings.Contains(fs[0].Message, `without "@sdk"`) {
		t.Fatalf("got %+v", fs)
	}
}

func TestProbeNodes(t *testing.T) {
	spec := testSpec()
	spec.File = "/nonexistent/fixturegen.toml"
	spec.Probe.Cases = []schema.Case{
		{Test: "collects", Node: "t.py::TestA::test_m[1]"},
		{Test: "collects_any_param", Node: "t.py::TestA::test_m"},
		{Test: "gone", Node: "t.py::test_gone"},
		{Test: "no_file", Node: "u.py::test_x"},
	}
	v := &View{Items: []Item{{NodeID: "t.py::TestA::test_m[1]", Path: "/p/t.py", Test: "TestA::test_m", Python: true}}}
	var got []string
	for _, f := range Findings(spec, v, "/p") {
		if f.Rule == checkrules.RuleProbeNode {
			got = append(got, f.Message)
		}
	}
	want := []string{
		"probe case gone runs t.py::test_gone, but pytest collects no test test_gone in t.py",
		"probe case no_file runs u.py::test_x, but pytest collects nothing from u.py",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestCompare(t *testing.T) {
	v := &View{Items: []Item{
		{Path: "/p/t.py", Test: "test_a", Python: true},
		{Path: "/p/t.py", Test: "TestB::test_p", Python: true}, // two parameters: one test
		{Path: "/p/t.py", Test: "TestB::test_p", Python: true},
		{Path: "/p/t.py", Test: "test_made", Python: true},
		{Path: "/p/README.md", Test: "README.md", Python: false},  // a doctest: not the model's
		{Path: "/p/gen.py", Test: "test_generated", Python: true}, // a generated file
	}}
	static := []suite.Test{
		{Abs: "/p/t.py", Name: "test_a"},
		{Abs: "/p/t.py", Name: "TestB::test_p"},
		{Abs: "/p/t.py", Name: "TestInit::test_x"},
	}
	g := Compare(v, static, map[string]bool{"/p/gen.py": true}, "/p")
	if g.Agree != 2 || !slices.Equal(g.Missed, []string{"t.py::test_made"}) || !slices.Equal(g.NotCollected, []string{"t.py::TestInit::test_x"}) {
		t.Errorf("got %+v", g)
	}
}

// TestJudgesDeclared: the rules --collect judges are those whose
// declaration says what pytest's view makes of them, as docs/check.md
// shows.
func TestJudgesDeclared(t *testing.T) {
	for _, r := range checkrules.All() {
		if (r.Pytest != "") != replaced(r.ID) {
			t.Errorf("rule %s: judged by --collect is %v, but its declaration's Pytest is %q", r.ID, replaced(r.ID), r.Pytest)
		}
	}
	for _, j := range judges {
		if !slices.ContainsFunc(checkrules.All(), func(r checkrules.Rule) bool { return r.ID == j.id }) {
			t.Errorf("--collect judges %s, which the registry does not have", j.id)
		}
	}
}
