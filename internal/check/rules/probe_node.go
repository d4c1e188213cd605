package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/internal/python/suite"
)

const RuleProbeNode = "probe-node"

var probeNodeRule = checked{
	Rule: Rule{
		ID:      RuleProbeNode,
		Summary: "a probe case names a test that does not exist",
		Meaning: "A probe case's node id names a file, class or test function that does not exist. Reported at the case's `node` in the spec.",
		Fix:     "Point the node at an existing test",
		Pytest:  "a probe case's node that pytest does not collect",
	},
	tree: (*rules).probeNodes, // the cases' files are read whatever they hold
}

// probeNodes: each probe case must name a test that exists.
func (r *rules) probeNodes(t *suite.Tree) {
	byAbs := map[string]*suite.Source{}
	for _, src := range t.Sources {
		byAbs[src.Abs] = src
	}
	for i, c := range r.spec.Probe.Cases {
		file, rest, _ := strings.Cut(c.Node, "::")
		abs := filepath.Join(r.spec.Dir, filepath.FromSlash(file))
		pos := r.specPos(fmt.Sprintf("probe.case[%d].node", i))
		src := byAbs[abs]
		if src == nil {
			if _, err := os.Stat(abs); err != nil {
				r.add(RuleProbeNode, r.spec.File, pos,
					fmt.Sprintf("probe case %s runs %s, but %s does not exist", c.Test, c.Node, file),
					"point node at an existing test, or restore the file")
			}
			continue // unreadable or undecodable: already a warning
		}
		names, _, _ := strings.Cut(rest, "[")
		parts := strings.Split(names, "::")
		if !hasDef(src.Mod, parts) {
			r.add(RuleProbeNode, r.spec.File, pos,
				fmt.Sprintf("probe case %s runs %s, but %s has no %s", c.Test, c.Node, file, describeNode(parts)),
				"point node at an existing test, or restore the test")
		}
	}
}

// hasDef reports whether the module defines the nested names: classes,
// then a function.
func hasDef(m *pyscan.Module, parts []string) bool {
	parent := -1
	for i, name := range parts {
		kind := pyscan.Class
		if i == len(parts)-1 {
			kind = pyscan.Function
		}
		found := -1
		for j, d := range m.Defs {
			if d.Parent == parent && d.Name == name && d.Kind == kind {
				found = j
			}
		}
		if found < 0 {
			return false
		}
		parent = found
	}
	return true
}

func describeNode(parts []string) string {
	if len(parts) == 1 {
		return "test function " + parts[0]
	}
	return "test " + strings.Join(parts, ".")
}
