package drift

import (
	"slices"

	"github.com/fixturegen/fixturegen/internal/gen/plan"
	"github.com/fixturegen/fixturegen/internal/python/region"
	"github.com/fixturegen/fixturegen/schema"
)

// BeforeAdoption leaves out of changes what generate --adopt has yet to
// write in a project whose conftest still holds its hand-written deadline:
// a conftest without a region, and the runtime beside it. Check reports
// that deadline as one finding, whose fix writes both; their absence is not
// drift of its own.
func BeforeAdoption(spec *schema.Spec, changes []*plan.Change) []*plan.Change {
	return slices.DeleteFunc(slices.Clone(changes), func(ch *plan.Change) bool {
		if ch.Region {
			b, err := region.Find(ch.Old)
			return err == nil && !b.Found
		}
		return ch.Path == spec.Paths.Runtime && !ch.Exists
	})
}
