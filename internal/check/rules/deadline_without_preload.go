package rules

import (
	"fmt"

	"github.com/fixturegen/fixturegen/internal/python/suite"
)

const RuleDeadlinePreload = "deadline-without-preload"

var deadlineWithoutPreloadRule = checked{
	Rule: Rule{
		ID:           RuleDeadlinePreload,
		Summary:      "a deadline fixture lost its preload parameter",
		Meaning:      "A deadline fixture no longer depends on the preload fixture (the reference's \"lost its mcp_sdk parameter\"): pytest may arm the alarm before the preload runs.",
		Fix:          "Restore the parameter (`fixturegen generate` does, for the generated one)",
		Suppressible: true,
		Fixtures:     deadlineName,
		Pytest:       "a deadline fixture that, as pytest resolves it for some test (overrides included), does not reach the preload fixture; the message names that test",
	},
	module: (*rules).deadlinePreload,
}

// deadlinePreload: every deadline fixture must depend on the preload
// fixture, or a cold import can run under the alarm again.
func (r *rules) deadlinePreload(src *suite.Source) {
	for _, byClass := range src.Fixtures() {
		for _, fx := range byClass {
			if fx.Name != r.spec.Deadline.Fixture {
				continue
			}
			rs := r.Requests(src, fx.Def, false)
			if _, ok := r.Reaches(src, fx.Class, rs, r.spec.Preload.Fixture); ok {
				continue
			}
			r.add(RuleDeadlinePreload, src.Path, fx.Pos(),
				fmt.Sprintf("fixture %s does not depend on %s, so pytest may arm the alarm before the preload imports run", fx.Name, r.spec.Preload.Fixture),
				fmt.Sprintf("restore def %s(%s, ...): run fixturegen generate, or add the parameter", fx.Name, r.spec.Preload.Fixture))
		}
	}
}
