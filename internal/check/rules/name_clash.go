package rules

import (
	"fmt"

	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/internal/python/suite"
)

const RuleNameClash = "name-clash"

// RuleNameClash is reported by shadow-fixture's check, which reads the
// conftest.
var nameClashRule = checked{
	Rule: Rule{
		ID:           RuleNameClash,
		Summary:      "the conftest defines a name the region defines",
		Meaning:      "The conftest defines, outside the region, a name the region defines (the runtime's loader `_fixturegen_load`, the names it binds, `pytest_fixturegen_configure`); one replaces the other, and `generate` refuses to run. A `pytest_configure` of the conftest's own does not clash: the region binds the runtime's hook under its own name.",
		Fix:          "Rename or remove it",
		Suppressible: true,
	},
}

func (r *rules) clash(src *suite.Source, name string, pos pyscan.Pos) {
	r.add(RuleNameClash, src.Path, pos,
		fmt.Sprintf("defines %s outside fixturegen's region, which defines it too; one replaces the other, and fixturegen generate refuses to run", name),
		"rename or remove this definition")
}
