// Package drift turns a plan (what the spec renders next to what is on
// disk) into check's findings: generated files that are missing, modified
// or orphaned, a conftest whose region is missing, hand-edited or has
// broken markers, and a docs file whose block is missing, stale or has
// broken markers.
package drift

import (
	"bytes"
	"fmt"
	"os"

	"github.com/fixturegen/fixturegen/internal/check/finding"
	"github.com/fixturegen/fixturegen/internal/check/rules"
	"github.com/fixturegen/fixturegen/internal/gen/diff"
	"github.com/fixturegen/fixturegen/internal/gen/plan"
	"github.com/fixturegen/fixturegen/internal/python/region"
	"github.com/fixturegen/fixturegen/internal/version"
	"github.com/fixturegen/fixturegen/schema"
)

// The drift rules Find reports, each declared once, the docs file's
// included. They compare the files generate writes with what the spec
// renders, so none needs a word in the scanned tree.
const (
	RuleMissingFile    = "missing-file"
	RuleStaleFile      = "stale-file"
	RuleRegionMissing  = "region-missing"
	RuleRegionEdited   = "region-edited"
	RuleVersionDrift   = "version-drift"
	RuleRegionMarkers  = "region-markers"
	RuleRegionEncoding = "region-encoding"
	RuleForeignFile    = "foreign-file"
	RuleOrphanedFile   = "orphaned-file"
	RuleDocsMissing    = "docs-missing"
	RuleDocsStale      = "docs-stale"
	RuleDocsMarkers    = "docs-markers"
)

func init() {
	for _, r := range []rules.Rule{
		{
			ID:      RuleMissingFile,
			Summary: "a file the spec plans does not exist",
			Meaning: "A file the spec plans does not exist. Reported at the spec key that plans it.",
			Fix:     "`fixturegen generate`",
		},
		{
			ID:      RuleStaleFile,
			Summary: "a generated file differs from what the spec renders",
			Meaning: "A generated file differs from what the spec renders: it was edited by hand, or the spec changed. Reported at the first changed line.",
			Fix:     "Move hand edits into the spec, then `fixturegen generate`",
		},
		{
			ID:      RuleRegionMissing,
			Summary: "the conftest has no fixturegen region",
			Meaning: "The conftest has no `# fixturegen:begin` ... `# fixturegen:end` region.",
			Fix:     "`fixturegen generate` (it appends the region and keeps the rest)",
		},
		{
			ID:      RuleRegionEdited,
			Summary: "the region differs from what the spec renders",
			Meaning: "The region differs from what the spec renders. Reported at the first changed line.",
			Fix:     "Move hand edits into the spec or outside the markers, then `fixturegen generate`",
		},
		{
			ID:      RuleVersionDrift,
			Summary: "another fixturegen version wrote the file",
			Meaning: "A generated file or the region differs from what this fixturegen renders, and it was written by another version: `written by fixturegen 0.3.0; this is 0.4.0`. The other version may render it differently, so this is not called a hand edit. Reported at the version line.",
			Fix:     "`fixturegen generate`",
		},
		{
			ID:      RuleRegionMarkers,
			Summary: "the region's markers are broken",
			Meaning: "The markers are duplicated, nested or unpaired; `generate` refuses to guess which region to keep.",
			Fix:     "Keep one begin and one end marker by hand, then `fixturegen generate`",
		},
		{
			ID:      RuleRegionEncoding,
			Summary: "the conftest holding the region is not UTF-8",
			Meaning: "The conftest is not UTF-8, so its region cannot be updated.",
			Fix:     "Save it as UTF-8",
		},
		{
			ID:      RuleForeignFile,
			Summary: "a file the spec plans lacks the generated header",
			Meaning: "A file without the generated header sits where the spec plans a generated file; `generate` will not overwrite it.",
			Fix:     "Move it away, or point `[paths]` elsewhere",
		},
		{
			ID:      RuleOrphanedFile,
			Summary: "a generated file the spec no longer plans",
			Meaning: "A file carries the generated header but the spec no longer plans it.",
			Fix:     "Delete it, or point `[paths]` at it again",
		},
		{
			ID:      RuleDocsMissing,
			Summary: "the docs file [paths].docs names does not exist",
			Meaning: "The Markdown file `[paths].docs` names does not exist.",
			Fix:     "`fixturegen docs` (or `fixturegen generate`)",
		},
		{
			ID:      RuleDocsStale,
			Summary: "the docs block is out of date",
			Meaning: "The reference tables between the `fixturegen:docs` markers of `[paths].docs` are out of date with the spec and the tests, or the file has no such block.",
			Fix:     "`fixturegen docs` (or `fixturegen generate`)",
		},
		{
			ID:      RuleDocsMarkers,
			Summary: "the docs block's markers are broken, or not UTF-8",
			Meaning: "The `fixturegen:docs` markers of `[paths].docs` are duplicated, nested or unpaired, or the file is not UTF-8, so the block cannot be updated.",
			Fix:     "Fix the file by hand, then `fixturegen docs`",
		},
	} {
		rules.Register(r)
	}
}

// Result is the drift between the plan and the disk.
type Result struct {
	Findings []finding.Finding
	// Generate reports that fixturegen generate repairs some of them.
	Generate bool
}

// Find reports the drift in changes (from plan.Survey, the docs file
// included) and the orphaned generated files found by the scan. With diffs, each finding generate
// repairs carries the unified diff generate would apply.
func Find(spec *schema.Spec, changes []*plan.Change, orphans []string, diffs bool) *Result {
	r := &Result{}
	keys := specKeys(spec)
	add := func(rule, path string, line, col int, msg, fix string) *finding.Finding {
		r.Findings = append(r.Findings, finding.Finding{Rule: rule, Severity: finding.Error, Path: path,
			Line: max(line, 1), Col: max(col, 1), Message: msg, Fix: fix})
		return &r.Findings[len(r.Findings)-1]
	}
	regen := "run fixturegen generate"
	for _, ch := range changes {
		if ch.Docs {
			r.Generate = r.docs(spec, ch, diffs) || r.Generate
			continue
		}
		var f *finding.Finding
		switch {
		case ch.Problem != nil:
			switch ch.Problem.Kind {
			case plan.NotUTF8:
				add(RuleRegionEncoding, ch.Display, ch.Problem.Line, 1,
					"is not UTF-8, so fixturegen cannot update its region",
					"save the file as UTF-8, then "+regen)
			case plan.BrokenMarkers:
				add(RuleRegionMarkers, ch.Display, ch.Problem.Line, 1,
					ch.Problem.Detail+"; generate will not guess which region to keep",
					fmt.Sprintf("keep one %q line and one %q line by hand, then %s", region.Begin, region.End, regen))
			case plan.NotGenerated:
				add(RuleForeignFile, ch.Display, 1, 1,
					fmt.Sprintf("is planned by %s (%s) but lacks fixturegen's generated header, so generate will not overwrite it", spec.File, keys[ch.Path].name),
					fmt.Sprintf("move the file away, or point %s elsewhere", keys[ch.Path].name))
			}
			continue
		case !ch.Exists:
			k := keys[ch.Path]
			f = add(RuleMissingFile, spec.File, k.Line, k.Col,
				fmt.Sprintf("%s plans %s, which does not exist", k.name, ch.Display), regen)
		case !ch.Changed():
			continue
		case versionDrift(ch) != "":
			_, line, _ := ch.RecordedVersion()
			f = add(RuleVersionDrift, ch.Display, line, 1, versionDrift(ch), regen)
		case ch.Region:
			if b, err := region.Find(ch.Old); err == nil && !b.Found {
				f = add(RuleRegionMissing, ch.Display, 1, 1,
					fmt.Sprintf("has no fixturegen region (no %q line), so the fixtures of %s are not in it", region.Begin, spec.File),
					regen+" (it appends the region; the rest of the file is kept)")
			} else {
				f = add(RuleRegionEdited, ch.Display, firstDifference(ch.Old, ch.New), 1,
					fmt.Sprintf("fixturegen's region differs from what %s renders: it was edited by hand, or the spec changed since the last generate", spec.File),
					"move hand edits into the spec or outside the markers, then "+regen)
			}
		default:
			f = add(RuleStaleFile, ch.Display, firstDifference(ch.Old, ch.New), 1,
				fmt.Sprintf("differs from what %s renders: it was edited by hand, or the spec changed since the last generate", spec.File),
				"move hand edits into the spec, then "+regen)
		}
		// Every finding left here is one generate repairs.
		r.Generate = true
		if diffs {
			f.Diff = string(diff.Unified(ch.Display, ch.Old, ch.New))
		}
	}
	for _, o := range orphans {
		f := add(RuleOrphanedFile, o, 1, 1,
			fmt.Sprintf("carries fixturegen's generated header, but %s no longer plans it", spec.File),
			fmt.Sprintf("delete it (rm %s), or point the spec's [paths] at it again", o))
		if diffs {
			// The scan keeps no file's bytes, to stay small on large
			// trees; an orphan, rare, is read again for its diff.
			if old, err := os.ReadFile(o); err == nil {
				f.Diff = string(diff.Unified(o, old, nil))
			}
		}
	}
	return r
}

// versionDrift is the version-drift message for a changed file, ch,
// written by another fixturegen version ("written by fixturegen 0.3.0;
// this is 0.4.0: run `fixturegen generate`"), and "" when this version
// wrote it. A file that differs from what this version renders is then
// drift between versions, not a hand edit: the other version may render
// it differently. A file written by this version differs by hand edits.
func versionDrift(ch *plan.Change) string {
	if !ch.Exists || !ch.Changed() {
		return ""
	}
	recorded, line, ok := ch.RecordedVersion()
	other := "fixturegen " + recorded
	switch {
	case !ok && line == 0:
		return "" // no region or block at all: reported by its own rule
	case !ok:
		other = "a fixturegen that recorded no version"
	case recorded == version.Version():
		return ""
	case version.IsDev(recorded):
		other = "a development build of fixturegen"
	}
	this := version.Version()
	if version.IsDev(this) {
		this = "a development build"
	}
	return fmt.Sprintf("written by %s; this is %s: run `fixturegen generate`", other, this)
}

type specKey struct {
	name string
	schema.Span
}

// specKeys maps each planned path to the spec key that plans it and that
// key's position.
func specKeys(spec *schema.Spec) map[string]specKey {
	out := map[string]specKey{}
	for key, p := range map[string]string{
		"conftest":     spec.Paths.Conftest,
		"probe_plugin": spec.Paths.ProbePlugin,
		"probe_tests":  spec.Paths.ProbeTests,
	} {
		out[p] = specKey{"paths." + key, spec.Positions["paths."+key]}
	}
	// The runtime is planned by paths.runtime, or, when that is not written,
	// beside the conftest.
	out[spec.Paths.Runtime] = specKey{"paths.conftest (the runtime beside it)", spec.Positions["paths.conftest"]}
	if sp, ok := spec.Positions["paths.runtime"]; ok {
		out[spec.Paths.Runtime] = specKey{"paths.runtime", sp}
	}
	return out
}

// firstDifference returns the first line (1-based) of old that new does
// not have in the same place.
func firstDifference(old, new []byte) int {
	line := 1
	for len(old) > 0 && len(new) > 0 {
		i := bytes.IndexByte(old, '\n')
		j := bytes.IndexByte(new, '\n')
		if i < 0 || j < 0 || !bytes.Equal(old[:i], new[:j]) {
			return line
		}
		old, new = old[i+1:], new[j+1:]
		line++
	}
	if len(old) == 0 && line > 1 {
		return line - 1 // new only adds lines at the end: point at the last line
	}
	return line
}
