package rules

import (
	"fmt"

	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/internal/relpath"
)

const RuleDistLoadgroup = "dist-loadgroup"

var distLoadgroupRule = checked{
	Rule: Rule{
		ID:      RuleDistLoadgroup,
		Summary: "pytest-xdist runs without --dist loadgroup",
		Meaning: "The pytest configuration's `addopts` runs pytest-xdist (`-n`) without `--dist loadgroup`, so the group mark does nothing. Reported at the `-n` (or at the wrong `--dist`). Not checked when the spec has no `[group]`, nor when its `[preload].modules` is empty (no import for the group to keep on one worker).",
		Fix:     "Add `--dist loadgroup` to `addopts`",
	},
	tree: func(r *rules, _ *suite.Tree) { r.distLoadgroup() },
}

// distLoadgroup: with pytest-xdist in use, only --dist loadgroup honours
// xdist_group marks.
func (r *rules) distLoadgroup() {
	cfg := r.opts.Config
	if cfg == nil || r.spec.Group.Name == "" || len(r.spec.Preload.Modules) == 0 {
		return
	}
	x := cfg.Xdist()
	if x.Workers == nil || x.Disabled || x.Mode == "loadgroup" {
		return
	}
	path := relpath.Rel(r.cwd, cfg.File)
	group := fmt.Sprintf("pytest.mark.xdist_group(%q)", r.spec.Group.Name)
	if x.Dist != nil {
		r.add(RuleDistLoadgroup, path, pyscan.Pos{Line: x.Dist.Line, Col: x.Dist.Col},
			fmt.Sprintf("addopts distributes tests with --dist %s, which ignores %s: grouped modules can land on different workers", x.Mode, group),
			"use --dist loadgroup in addopts")
		return
	}
	r.add(RuleDistLoadgroup, path, pyscan.Pos{Line: x.Workers.Line, Col: x.Workers.Col},
		fmt.Sprintf("addopts runs pytest-xdist (%s) without --dist loadgroup, so %s does nothing: grouped modules can land on different workers", x.Workers.Text, group),
		"add --dist loadgroup to addopts")
}
