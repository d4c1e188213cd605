package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fixturegen/fixturegen/internal/check/finding"
	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/internal/python/suite"
)

const WarnUnknownRule = "unknown-rule"

// WarnUnknownRule is reported by suppress, which judges the suppression
// comments.
var unknownRuleRule = checked{
	Rule: Rule{
		ID:      WarnUnknownRule,
		Summary: "a suppression comment names no suppressible rule",
		Meaning: "A `# fixturegen: ignore[...]` comment names a rule that no comment can suppress, or none at all; it suppresses nothing.",
		Fix:     "Fix the rule's name",
		Warning: true,
	},
}

// suppress drops the findings that a "# fixturegen: ignore" comment on
// their line covers, and warns about the comments that name a rule check
// does not have.
func suppress(t *suite.Tree, findings []finding.Finding) []finding.Finding {
	byPath := map[string]*suite.Source{}
	for _, src := range t.Sources {
		if len(src.Mod.Suppressions) > 0 {
			byPath[src.Path] = src
		}
	}
	if len(byPath) == 0 {
		return findings
	}
	kept := slices.DeleteFunc(findings, func(f finding.Finding) bool {
		src := byPath[f.Path]
		return src != nil && slices.ContainsFunc(src.Mod.Suppressions, func(sup pyscan.Suppression) bool {
			return sup.Line == f.Line && sup.Covers(f.Rule)
		})
	})
	suppressible := Suppressible()
	for _, src := range byPath {
		for _, sup := range src.Mod.Suppressions {
			for _, id := range sup.Rules {
				if slices.Contains(suppressible, id) {
					continue
				}
				kept = append(kept, finding.Finding{Rule: WarnUnknownRule, Severity: finding.Warning, Path: src.Path,
					Line: sup.Pos.Line, Col: sup.Pos.Col,
					Message: fmt.Sprintf("fixturegen: ignore names %q, which is not a rule check reports on a Python file's line; it suppresses nothing", id),
					Fix:     "use one of: " + strings.Join(suppressible, ", ")})
			}
		}
	}
	return kept
}
