package collect

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fixturegen/fixturegen/internal/check/finding"
	checkrules "github.com/fixturegen/fixturegen/internal/check/rules"
	"github.com/fixturegen/fixturegen/internal/python/pytesttimeout"
	"github.com/fixturegen/fixturegen/internal/relpath"
	"github.com/fixturegen/fixturegen/schema"
)

// RuleGroupVoid is the rule of group tests whose group does not reach the
// scheduler under --dist loadgroup. It is part of fixturegen's interface.
const RuleGroupVoid = "group-void"

var _ = checkrules.Register(checkrules.Rule{
	ID:      RuleGroupVoid,
	Summary: "--collect: the group is lost under --dist loadgroup",
	Meaning: "Only with `--collect`. Under `--dist loadgroup`, pytest-xdist appends `@<group>` to each grouped test's node id on every worker, and the scheduler keeps tests with the same suffix together. Here the suffix does not reach the node id (pytest 9.2 without the generated guard), so the group's tests spread over workers. One finding per module, at its first such test; the message names the pytest and pytest-xdist versions.",
	Fix:     "`fixturegen generate` (the runtime's loadgroup guard puts the suffix back), or pin pytest below 9.2",
	Pytest:  "grouped tests whose node id lacks `@<group>` after collection under `--dist loadgroup` (see below)",
})

// RuleShieldNotLoaded is the rule of pytest-import-shield declared as a
// dependency but not loaded by pytest. It is part of fixturegen's
// interface.
const RuleShieldNotLoaded = "shield-not-loaded"

var _ = checkrules.Register(checkrules.Rule{
	ID:      RuleShieldNotLoaded,
	Summary: "--collect: the declared shield plugin is not loaded",
	Meaning: "Only with `--collect`. The project declares `pytest-import-shield` as a dependency (which satisfies `unshielded-timeout`), but pytest, run with the project's Python, does not load it: it is not installed there, or `-p no:import_shield` turns it off. pytest-timeout's signal method then runs unshielded. Reported at the declaration.",
	Fix:     "install the project's test dependencies in the Python its tests run with (or name that Python with `--python`), and drop `-p no:import_shield`",
	Pytest:  "`config.pluginmanager.hasplugin(\"import_shield\")` in the collecting pytest",
})

// shieldLoaded: a declared plugin must be loaded.
func (r *rules) shieldLoaded() {
	if len(r.plugin) == 0 || r.v.ImportShield {
		return
	}
	p := r.plugin[0]
	r.add(RuleShieldNotLoaded, r.display(p.File), p.Line, p.Col,
		fmt.Sprintf("%s, but pytest %s does not load it: config.pluginmanager.hasplugin(\"import_shield\") is false, so pytest-timeout's signal method runs unshielded", p.What, r.v.Pytest),
		"install the test dependencies in the Python the tests run with (or name it with --python), and drop -p no:import_shield")
}

// judges are the rules check --collect judges from pytest's view, each
// with its check; their static findings give way to these. Each declares,
// in the registry, what pytest's view makes of it (checkrules.Rule.Pytest).
var judges = []judge{
	{checkrules.RuleMissingGroup, (*rules).missingGroup},
	{RuleGroupVoid, (*rules).groupVoid},
	{checkrules.RuleDeadlinePreload, (*rules).deadlinePreload},
	{checkrules.RuleProbeNode, (*rules).probeNodes},
	{RuleShieldNotLoaded, (*rules).shieldLoaded},
}

// replaced reports whether pytest's view replaces the static findings of
// rule id.
func replaced(id string) bool {
	return slices.ContainsFunc(judges, func(j judge) bool { return j.id == id })
}

type judge struct {
	id    string
	check func(*rules)
}

// Judge replaces the static check's findings of the rules that model
// collection with those of pytest's view, and sets the tests the static
// model saw against pytest's; planned holds the generated files.
func Judge(spec *schema.Spec, v *View, static *checkrules.Result, planned map[string]bool) ([]finding.Finding, *finding.ModelGap, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, nil, err
	}
	out := slices.DeleteFunc(slices.Clone(static.Findings), func(f finding.Finding) bool { return replaced(f.Rule) })
	out = append(out, findings(spec, v, cwd, static.Plugin)...)
	finding.Sort(out)
	return out, Compare(v, static.Tests, planned, cwd), nil
}

// findings applies the contract's collection rules to pytest's view
// (judges), with the declarations of pytest-import-shield, which
// shield-not-loaded confirms pytest loads. Paths are shown relative to
// cwd where they lie below it.
func findings(spec *schema.Spec, v *View, cwd string, plugin []pytesttimeout.Place) []finding.Finding {
	r := &rules{spec: spec, v: v, cwd: cwd, plugin: plugin}
	for _, j := range judges {
		j.check(r)
	}
	finding.Sort(r.findings)
	return r.findings
}

type rules struct {
	spec     *schema.Spec
	v        *View
	cwd      string
	plugin   []pytesttimeout.Place
	findings []finding.Finding
}

func (r *rules) add(rule, path string, line, col int, msg, fix string) {
	r.findings = append(r.findings, finding.Finding{Rule: rule, Severity: finding.Error, Path: path,
		Line: max(line, 1), Col: max(col, 1), Message: msg, Fix: fix})
}

func (r *rules) display(abs string) string { return relpath.Rel(r.cwd, abs) }

// missingGroup: every test whose closure holds the deadline fixture must be
// scheduled in the group.
func (r *rules) missingGroup() {
	deadline, group := r.spec.Deadline.Fixture, r.spec.Group.Name
	if len(r.spec.Preload.Modules) == 0 {
		return // no import for the group to keep on one worker (see the static rule)
	}
	for i := range r.v.Items {
		it := &r.v.Items[i]
		if it.Deselected || !slices.Contains(it.Fixtures, deadline) || it.Group() == group {
			continue
		}
		msg := fmt.Sprintf("test %s has %s in its fixture closure but is not marked pytest.mark.xdist_group(%q)", it.NodeID, deadline, group)
		if g := it.Group(); g != "" {
			msg += fmt.Sprintf("; pytest-xdist schedules it in group %q instead", g)
		}
		r.add(checkrules.RuleMissingGroup, r.display(it.File), it.Line, 1, msg,
			fmt.Sprintf("add pytest.mark.xdist_group(%q) to the module's pytestmark", group))
	}
}

// groupVoid: under --dist loadgroup, each grouped test's node id must carry
// its group, or the scheduler spreads the group over workers. One cause
// (the pytest and pytest-xdist in use) makes every group test void, so
// there is one finding per module, at its first such test.
func (r *rules) groupVoid() {
	if r.v.Xdist == "" {
		return // no pytest-xdist, no loadgroup
	}
	var order []string
	void := map[string][]*Item{}
	for i := range r.v.Items {
		it := &r.v.Items[i]
		if it.Deselected || it.GroupReaches() {
			continue
		}
		if void[it.Path] == nil {
			order = append(order, it.Path)
		}
		void[it.Path] = append(void[it.Path], it)
	}
	for _, path := range order {
		items := void[path]
		first := items[0]
		tests := "test " + first.NodeID
		if len(items) > 1 {
			tests = fmt.Sprintf("%d tests (%s, ...)", len(items), first.NodeID)
		}
		r.add(RuleGroupVoid, r.display(first.File), first.Line, 1,
			fmt.Sprintf("%s marked pytest.mark.xdist_group(%q) lose the group under --dist loadgroup with pytest %s and pytest-xdist %s: the node id pytest-xdist schedules is %q, without %q, so the group's tests spread over workers",
				tests, first.Group(), r.v.Pytest, r.v.Xdist, first.Scheduled, "@"+first.Group()),
			"run fixturegen generate: the generated runtime's loadgroup guard puts the group back into the node ids; or pin pytest below 9.2")
	}
}

// deadlinePreload: every deadline fixture the tests use must, as pytest
// resolves it, depend on the preload fixture.
func (r *rules) deadlinePreload() {
	for _, d := range r.v.Deadlines {
		if d.Preload {
			continue
		}
		r.add(checkrules.RuleDeadlinePreload, r.display(d.File), d.Line, d.Col,
			fmt.Sprintf("fixture %s, as pytest resolves it for %s (overrides included), does not depend on %s, so pytest may arm the alarm before the preload imports run", r.spec.Deadline.Fixture, d.Without, r.spec.Preload.Fixture),
			fmt.Sprintf("restore def %s(%s, ...): run fixturegen generate, or add the parameter", r.spec.Deadline.Fixture, r.spec.Preload.Fixture))
	}
}

// probeNodes: each probe case's node must be among the collected items.
func (r *rules) probeNodes() {
	for i, c := range r.spec.Probe.Cases {
		file, rest, _ := strings.Cut(c.Node, "::")
		abs := filepath.Join(r.spec.Dir, filepath.FromSlash(file))
		if slices.ContainsFunc(r.v.Items, func(it Item) bool {
			_, tail, _ := strings.Cut(it.NodeID, "::")
			return it.Path == abs && (tail == rest || it.Test == rest)
		}) {
			continue
		}
		why := fmt.Sprintf("pytest collects no test %s in %s", rest, file)
		if !slices.ContainsFunc(r.v.Items, func(it Item) bool { return it.Path == abs }) {
			why = fmt.Sprintf("pytest collects nothing from %s", file)
		}
		sp := r.spec.Positions[fmt.Sprintf("probe.case[%d].node", i)] // add reports an unwritten key at 1:1
		r.add(checkrules.RuleProbeNode, r.spec.File, sp.Line, sp.Col,
			fmt.Sprintf("probe case %s runs %s, but %s", c.Test, c.Node, why),
			"point node at a test pytest collects (python -m pytest --collect-only -q lists them)")
	}
}
