package collect

import (
	"github.com/fixturegen/fixturegen/internal/check/finding"
	"github.com/fixturegen/fixturegen/schema"
)

// Findings is findings without the shield's declarations, for the tests.
func Findings(spec *schema.Spec, v *View, cwd string) []finding.Finding {
	return findings(spec, v, cwd, nil)
}
