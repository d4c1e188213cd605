package rules

import (
	"fmt"
	"slices"

	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/internal/relpath"
	"github.com/fixturegen/fixturegen/schema"
)

// shadows reports name-clash too.
const RuleShadowFixture = "shadow-fixture"

var shadowFixtureRule = checked{
	Rule: Rule{
		ID:           RuleShadowFixture,
		Summary:      "a fixture shadows the preload or deadline fixture",
		Meaning:      "Another fixture with the preload's or the deadline's name would shadow the generated one.",
		Fix:          "Rename or remove it",
		Suppressible: true,
		Fixtures:     func(s *schema.Spec) []string { return []string{s.Deadline.Fixture, s.Preload.Fixture} },
	},
	module: (*rules).shadows,
}

// shadows: no definition may replace the generated fixtures or helpers.
// In a conftest whose markers are broken, the region's own definitions
// cannot be told from the user's: region-markers is reported alone there,
// and once the markers are whole the next check reads the rest.
func (r *rules) shadows(src *suite.Source) {
	if src.MarkersBroken {
		return
	}
	names := []string{r.spec.Preload.Fixture, r.spec.Deadline.Fixture}
	reported := map[int]bool{}
	for _, byClass := range src.Fixtures() {
		for _, fx := range byClass {
			if !slices.Contains(names, fx.Name) || src.InRegion(fx.Pos().Line) {
				continue
			}
			reported[fx.Def] = true
			r.add(RuleShadowFixture, src.Path, fx.Pos(),
				fmt.Sprintf("defines fixture %s, which shadows the one fixturegen generates in %s", fx.Name, relpath.Rel(r.cwd, r.opts.Conftest)),
				fmt.Sprintf("rename or remove this fixture; change the generated one through %s and fixturegen generate", r.spec.File))
		}
	}
	if !src.HoldsRegion {
		return
	}
	m := src.Mod
	for i, d := range m.Defs {
		if d.Parent < 0 && !reported[i] && slices.Contains(r.opts.GeneratedNames, d.Name) && !src.InRegion(d.Pos.Line) {
			r.clash(src, d.Name, d.Pos)
		}
	}
	for _, a := range m.Assigns {
		if a.Scope < 0 && slices.Contains(r.opts.GeneratedNames, a.Name) && !src.InRegion(a.Pos.Line) {
			r.clash(src, a.Name, a.Pos)
		}
	}
}
