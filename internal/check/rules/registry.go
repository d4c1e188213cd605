package rules

import (
	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/schema"
)

// static lists the rules Check applies, each declared in a file of its
// own with its check, which join the registry (rule.go) as the package is
// initialized, with the read's own findings (read_problems.go). A new
// rule is one more file and its line here.
//
// The per-module checks run in this order: hand-written-deadline comes
// last, as it edits what the others found in the module.
var static = []*checked{
	&ownTimerRule,
	&missingGroupRule,
	&shadowFixtureRule,
	&nameClashRule,
	&deadlineWithoutPreloadRule,
	&handWrittenDeadlineRule,
	&probeNodeRule,
	&preloadMissingRule,
	&distLoadgroupRule,
	&unshieldedTimeoutRule,
	&uncoveredTestsRule,
	&timerOrderRule,
	&unknownRuleRule,
}

func init() {
	for _, c := range static {
		Register(c.Rule)
	}
	for _, r := range readProblems {
		Register(r)
	}
}

// checked is a rule and how Check runs it: module on every module read,
// on every core (perModule); tree once, after; beside, for a check that
// reads no module, once, while the read runs. A rule that another's
// check or the read reports has none.
type checked struct {
	Rule
	module func(*rules, *suite.Source)
	tree   func(*rules, *suite.Tree)
	beside func(*rules)
}

func deadlineName(s *schema.Spec) []string { return []string{s.Deadline.Fixture} }
