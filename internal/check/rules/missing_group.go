package rules

import (
	"cmp"
	"fmt"

	"github.com/fixturegen/fixturegen/internal/python/suite"
)

const RuleMissingGroup = "missing-group"

var missingGroupRule = checked{
	Rule: Rule{
		ID:           RuleMissingGroup,
		Summary:      "deadline users outside the xdist group",
		Meaning:      "Tests use the deadline fixture (as a parameter, through `usefixtures`, or through an autouse fixture that depends on it) but are not marked `pytest.mark.xdist_group(\"<group>\")`, or are in another group. Not checked when the spec has no `[group]`, nor when its `[preload].modules` is empty: the group keeps the tests on the worker whose imports the preload manages, and an empty preload manages none.",
		Fix:          "Add the mark to the module's `pytestmark`",
		Suppressible: true,
		Fixtures:     deadlineName,
		Pytest:       "each test whose fixture closure holds the deadline fixture but that pytest-xdist would not schedule in the group, at the test's `file:line`",
	},
	module: (*rules).missingGroup,
}

// missingGroup: a module whose tests use the deadline fixture must be in
// the xdist group, so that under --dist loadgroup they share the worker
// whose imports the preload manages.
func (r *rules) missingGroup(src *suite.Source) {
	// A spec without [group] keeps no tests together: nothing is missing.
	// Nor does an empty preload ask for it: one group would put every
	// user of the deadline on one worker for no import to share.
	if !src.Test || r.spec.Group.Name == "" || len(r.spec.Preload.Modules) == 0 {
		return
	}
	var first suite.Request
	var names []string
	other := ""
	for _, t := range src.Tests() {
		via, ok := r.UsesDeadline(src, t)
		if !ok {
			continue
		}
		in, o := r.InGroup(src, t)
		if in {
			continue
		}
		if len(names) == 0 {
			first = via
		}
		names = append(names, src.Mod.Defs[t].Name)
		other = cmp.Or(other, o)
	}
	if len(names) == 0 {
		return
	}
	deadline := r.spec.Deadline.Fixture
	how := map[string]string{
		"parameter":   "as a parameter",
		"usefixtures": "through usefixtures",
		"autouse":     "through an autouse fixture",
	}[first.How]
	if first.Autouse != nil {
		how = "through the autouse fixture " + first.Autouse.Where()
	} else if first.Name != deadline {
		how = fmt.Sprintf("through the fixture %s", first.Name)
	}
	tests, uses, is, it := fmt.Sprintf("test %s", names[0]), "uses", "is", "it"
	if len(names) > 1 {
		tests, uses, is, it = fmt.Sprintf("%d tests (%s, ...)", len(names), names[0]), "use", "are", "they"
	}
	msg := fmt.Sprintf("%s %s %s %s but %s not marked pytest.mark.xdist_group(%q)", tests, uses, deadline, how, is, r.spec.Group.Name)
	if other != "" {
		msg += fmt.Sprintf("; %s %s in group %q instead", it, is, other)
	}
	r.add(RuleMissingGroup, src.Path, first.Pos, msg,
		fmt.Sprintf("add pytest.mark.xdist_group(%q) to the module's pytestmark", r.spec.Group.Name))
}
