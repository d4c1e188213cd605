package adopt

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/fixturegen/fixturegen/internal/gen/plan"
	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/internal/python/region"
	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/schema"
)

// Plan is the plan of generate --adopt (plan.Adopt with Remove): the
// conftest's hand-written preload and deadline fixtures give way to the
// region. A conftest below it that redefines the deadline fixture for its
// folder, arming a timer itself, loses that fixture too once the spec
// gives the folder its seconds ([deadline.module_seconds] "folder/**"),
// since pytest would run it in place of the generated one. It returns the
// fixtures each planned file no longer holds (Def.Path).
func Plan(spec *schema.Spec) ([]*plan.Change, []Def, error) {
	var removed []Def
	changes, err := plan.Adopt(spec, func(conftest []byte) []byte {
		base, defs := Remove(conftest, []string{spec.Preload.Fixture, spec.Deadline.Fixture},
			region.Block(filepath.Base(spec.File), nil))
		for _, d := range defs {
			d.Path = spec.Paths.Conftest
			removed = append(removed, d)
		}
		return base
	})
	if err != nil {
		return nil, nil, err
	}
	for _, folder := range overridden(spec) {
		c, err := plan.Edit(spec, path.Join(folder, "conftest.py"))
		if err != nil {
			return nil, nil, err
		}
		if !c.Exists || !armsTimer(c.Old, spec.Deadline.Fixture) {
			continue
		}
		base, defs := Remove(c.Old, []string{spec.Deadline.Fixture}, nil)
		if len(defs) == 0 {
			continue
		}
		c.New = base
		for _, d := range defs {
			d.Path, d.Overrides = c.Path, folder
			removed = append(removed, d)
		}
		changes = append(changes, c)
	}
	return changes, removed, nil
}

// overridden returns the folders below the spec's conftest that
// deadline.module_seconds gives seconds as a whole ("folder/**"), in the
// spec's order.
func overridden(spec *schema.Spec) []string {
	var out []string
	top := path.Dir(spec.Paths.Conftest)
	for _, m := range spec.Deadline.ModuleSeconds {
		folder, ok := strings.CutSuffix(m.Pattern, "/**")
		if ok && !strings.ContainsAny(folder, "*?") && (top == "." || strings.HasPrefix(folder, top+"/")) {
			out = append(out, folder)
		}
	}
	return out
}

// armsTimer reports whether src defines, at module level, a fixture named
// name that arms a timer in its body: a hand-written deadline, not a
// fixture of the same name that does something else.
func armsTimer(src []byte, name string) bool {
	m := pyscan.Scan(src)
	for i, d := range m.Defs {
		if d.Parent < 0 && m.IsFixture(i) && m.FixtureName(i) == name && suite.FixtureTimer(m, i) != suite.NoTimer {
			return true
		}
	}
	return false
}
