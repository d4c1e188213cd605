package contract

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fixturegen/fixturegen/internal/check/finding"
	"github.com/fixturegen/fixturegen/internal/check/rule"
)

// suppress drops the findings that a "# fixturegen: ignore" comment on
// their line covers, and warns about the comments that name a rule check
// does not have.
func (s *scan) suppress(findings []finding.Finding) []finding.Finding {
	byPath := map[string]*source{}
	for _, src := range s.sources {
		if len(src.mod.Suppressions) > 0 {
			byPath[src.path] = src
		}
	}
	if len(byPath) == 0 {
		return findings
	}
	kept := findings[:0]
	for _, f := range findings {
		if src := byPath[f.Path]; src == nil || !suppressed(src, f) {
			kept = append(kept, f)
		}
	}
	suppressible := rule.Suppressible()
	for _, src := range byPath {
		for _, sup := range src.mod.Suppressions {
			for _, id := range sup.Rules {
				if slices.Contains(suppressible, id) {
					continue
				}
				kept = append(kept, finding.Finding{Rule: WarnUnknownRule, Severity: finding.Warning, Path: src.path,
					Line: sup.Pos.Line, Col: sup.Pos.Col,
					Message: fmt.Sprintf("fixturegen: ignore names %q, which is not a rule check reports on a Python file's line; it suppresses nothing", id),
					Fix:     "use one of: " + strings.Join(suppressible, ", ")})
			}
		}
	}
	return kept
}

func suppressed(src *source, f finding.Finding) bool {
	for _, sup := range src.mod.Suppressions {
		if sup.Line == f.Line && sup.Covers(f.Rule) {
			return true
		}
	}
	return false
}
