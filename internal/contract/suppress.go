package contract

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fixturegen/fixturegen/internal/finding"
)

// Warning kinds, as printed next to the rule ids.
const (
	WarnUndecodable     = "undecodable"
	WarnSyntax          = "syntax"
	WarnUnreadable      = "unreadable"
	WarnSymlinkLoop     = "symlink-loop"
	WarnDanglingSymlink = "dangling-symlink"
	WarnSymlinkOutside  = "symlink-outside"
	WarnUnknownRule     = "unknown-rule"
)

// Suppressible lists the rules a "# fixturegen: ignore[...]" comment may
// name: those check reports at a line of a Python file it read. The others
// are reported at the spec, the pytest configuration, a link or a file
// check could not read, where no such comment can be.
var Suppressible = []string{
	RuleOwnTimer, RuleHandwrittenDeadline, RuleMissingGroup, RuleShadowFixture, RuleNameClash, RuleDeadlinePreload, WarnSyntax,
}

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
	for _, src := range byPath {
		for _, sup := range src.mod.Suppressions {
			for _, rule := range sup.Rules {
				if slices.Contains(Suppressible, rule) {
					continue
				}
				kept = append(kept, finding.Finding{Rule: WarnUnknownRule, Severity: finding.Warning, Path: src.path,
					Line: sup.Pos.Line, Col: sup.Pos.Col,
					Message: fmt.Sprintf("fixturegen: ignore names %q, which is not a rule check reports on a Python file's line; it suppresses nothing", rule),
					Fix:     "use one of: " + strings.Join(Suppressible, ", ")})
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
