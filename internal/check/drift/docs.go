package drift

import (
	"fmt"

	"github.com/fixturegen/fixturegen/internal/check/finding"
	"github.com/fixturegen/fixturegen/internal/gen/diff"
	"github.com/fixturegen/fixturegen/internal/gen/plan"
	"github.com/fixturegen/fixturegen/internal/python/region"
	"github.com/fixturegen/fixturegen/schema"
)

// docs reports the plan's docs file, ch, when it is missing, out of date
// or has broken markers, and reports whether it did. With diffs, the
// finding carries the unified diff fixturegen docs would apply.
func (r *Result) docs(spec *schema.Spec, ch *plan.Change, diffs bool) bool {
	f := finding.Finding{Severity: finding.Error, Path: ch.Display, Line: 1, Col: 1,
		Fix: "run fixturegen docs (or fixturegen generate)"}
	switch {
	case ch.Problem != nil:
		f.Rule, f.Line = RuleDocsMarkers, ch.Problem.Line
		f.Message = "the docs block cannot be updated: " + ch.Problem.Detail
		if ch.Problem.Detail == "" {
			f.Message = "the docs file is not UTF-8, so its block cannot be updated"
		}
		f.Fix = "fix the file by hand, then run fixturegen docs"
	case !ch.Changed():
		return false
	case versionDrift(ch) != "":
		f.Rule, f.Message = RuleVersionDrift, versionDrift(ch)
		_, f.Line, _ = ch.RecordedVersion()
	case !ch.Exists:
		f.Rule = RuleDocsMissing
		f.Message = fmt.Sprintf("the docs file that %s names does not exist", spec.File)
	default:
		b, _ := region.Docs.Find(ch.Old)
		f.Rule = RuleDocsStale
		f.Message = "the reference tables between the fixturegen:docs markers are out of date with the spec and the tests"
		if b.Found {
			f.Line = b.BeginLine
		} else {
			f.Message = "has no fixturegen:docs block for the reference tables"
		}
	}
	if diffs && ch.New != nil {
		f.Diff = string(diff.Unified(ch.Display, ch.Old, ch.New))
	}
	r.Findings = append(r.Findings, f)
	return true
}
