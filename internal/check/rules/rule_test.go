package rules

import (
	"slices"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/schema"
)

// withRules runs f with the registry holding rs alone.
func withRules(t *testing.T, rs []Rule, f func()) {
	saved := all
	all = nil
	defer func() { all = saved }()
	for _, r := range rs {
		Register(r)
	}
	f()
}

func TestRegistry(t *testing.T) {
	spec := &schema.Spec{}
	spec.Deadline.Fixture, spec.Preload.Fixture = "deadline", "preload"
	rs := []Rule{
		{ID: "b-rule", Summary: "s", Meaning: "m", Fix: "f", Suppressible: true,
			Fixtures: func(s *schema.Spec) []string { return []string{s.Deadline.Fixture, s.Preload.Fixture} }},
		{ID: "a-rule", Summary: "s", Meaning: "m", Fix: "f", Suppressible: true, Calls: []string{"alarm"},
			Fixtures: func(s *schema.Spec) []string { return []string{s.Deadline.Fixture, ""} }},
		{ID: "c-warning", Summary: "s", Meaning: "m", Fix: "f", Warning: true, Calls: []string{"alarm", "setitimer"}},
		{ID: "d-spec", Summary: "s", Meaning: "m", Fix: "f", Pytest: "p"},
	}
	withRules(t, rs, func() {
		var ids []string
		for _, r := range All() {
			ids = append(ids, r.ID)
		}
		if want := []string{"a-rule", "b-rule", "d-spec", "c-warning"}; !slices.Equal(ids, want) {
			t.Errorf("All() = %v, want %v", ids, want)
		}
		if got, want := Suppressible(), []string{"a-rule", "b-rule"}; !slices.Equal(got, want) {
			t.Errorf("Suppressible() = %v, want %v", got, want)
		}
		names, _, calls := Words(spec)
		if want := []string{"deadline", "preload"}; !slices.Equal(names, want) {
			t.Errorf("Words names = %v, want %v", names, want)
		}
		if want := []string{"alarm", "setitimer"}; !slices.Equal(calls, want) {
			t.Errorf("Words calls = %v, want %v", calls, want)
		}
		if got := Table(true); !strings.Contains(got, "| `c-warning` | m | f |") || strings.Contains(got, "a-rule") {
			t.Errorf("Table(true) =\n%s", got)
		}
		if got := PytestTable(); got != "| rule | from pytest's view |\n|---|---|\n| `d-spec` | p |\n" {
			t.Errorf("PytestTable() =\n%s", got)
		}
		if got, want := SuppressibleList(), "`a-rule` and `b-rule`.\n"; got != want {
			t.Errorf("SuppressibleList() = %q, want %q", got, want)
		}
		if got, want := List(), "Rules:\n  a-rule                     s\n  b-rule                     s\n  d-spec                     s\n\nWarnings (reported; the exit status is unchanged):\n  c-warning                  s\n"; got != want {
			t.Errorf("List() =\n%s\nwant\n%s", got, want)
		}
	})
}

func TestRegisterRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		rs   []Rule
	}{
		{"twice", []Rule{{ID: "x", Summary: "s", Meaning: "m", Fix: "f"}, {ID: "x", Summary: "s", Meaning: "m", Fix: "f"}}},
		{"no fix", []Rule{{ID: "x", Summary: "s", Meaning: "m"}}},
		{"long summary", []Rule{{ID: "x", Summary: strings.Repeat("s", 53), Meaning: "m", Fix: "f"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("Register did not panic")
				}
			}()
			withRules(t, tc.rs, func() {})
		})
	}
}
