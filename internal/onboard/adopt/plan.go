package adopt

import (
	"path/filepath"

	"github.com/fixturegen/fixturegen/internal/gen/plan"
	"github.com/fixturegen/fixturegen/internal/python/region"
	"github.com/fixturegen/fixturegen/schema"
)

// Plan is the plan of generate --adopt (plan.Adopt with Remove): the
// conftest's hand-written preload and deadline fixtures give way to the
// region. It returns the fixtures the conftest's plan no longer holds.
func Plan(spec *schema.Spec) ([]*plan.Change, []Def, error) {
	var removed []Def
	changes, err := plan.Adopt(spec, func(conftest []byte) []byte {
		base, defs := Remove(conftest, []string{spec.Preload.Fixture, spec.Deadline.Fixture},
			region.Block(filepath.Base(spec.File), nil))
		removed = defs
		return base
	})
	if err != nil {
		return nil, nil, err
	}
	return changes, removed, nil
}
