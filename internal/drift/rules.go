package drift

import "github.com/fixturegen/fixturegen/internal/rule"

// The drift rules, each declared once; Find and Docs report them. They
// compare the files generate writes with what the spec renders, so none
// needs a word in the scanned tree.

const RuleMissingFile = "missing-file"

var _ = rule.Register(rule.Rule{
	ID:      RuleMissingFile,
	Summary: "a file the spec plans does not exist",
	Meaning: "A file the spec plans does not exist. Reported at the spec key that plans it.",
	Fix:     "`fixturegen generate`",
})

const RuleStaleFile = "stale-file"

var _ = rule.Register(rule.Rule{
	ID:      RuleStaleFile,
	Summary: "a generated file differs from what the spec renders",
	Meaning: "A generated file differs from what the spec renders: it was edited by hand, or the spec changed. Reported at the first changed line.",
	Fix:     "Move hand edits into the spec, then `fixturegen generate`",
})

const RuleRegionMissing = "region-missing"

var _ = rule.Register(rule.Rule{
	ID:      RuleRegionMissing,
	Summary: "the conftest has no fixturegen region",
	Meaning: "The conftest has no `# fixturegen:begin` ... `# fixturegen:end` region.",
	Fix:     "`fixturegen generate` (it appends the region and keeps the rest)",
})

const RuleRegionEdited = "region-edited"

var _ = rule.Register(rule.Rule{
	ID:      RuleRegionEdited,
	Summary: "the region differs from what the spec renders",
	Meaning: "The region differs from what the spec renders. Reported at the first changed line.",
	Fix:     "Move hand edits into the spec or outside the markers, then `fixturegen generate`",
})

const RuleVersionDrift = "version-drift"

var _ = rule.Register(rule.Rule{
	ID:      RuleVersionDrift,
	Summary: "another fixturegen version wrote the file",
	Meaning: "A generated file or the region differs from what this fixturegen renders, and it was written by another version: `written by fixturegen 0.3.0; this is 0.4.0`. The other version may render it differently, so this is not called a hand edit. Reported at the version line.",
	Fix:     "`fixturegen generate`",
})

const RuleRegionMarkers = "region-markers"

var _ = rule.Register(rule.Rule{
	ID:      RuleRegionMarkers,
	Summary: "the region's markers are broken",
	Meaning: "The markers are duplicated, nested or unpaired; `generate` refuses to guess which region to keep.",
	Fix:     "Keep one begin and one end marker by hand, then `fixturegen generate`",
})

const RuleRegionEncoding = "region-encoding"

var _ = rule.Register(rule.Rule{
	ID:      RuleRegionEncoding,
	Summary: "the conftest holding the region is not UTF-8",
	Meaning: "The conftest is not UTF-8, so its region cannot be updated.",
	Fix:     "Save it as UTF-8",
})

const RuleForeignFile = "foreign-file"

var _ = rule.Register(rule.Rule{
	ID:      RuleForeignFile,
	Summary: "a file the spec plans lacks the generated header",
	Meaning: "A file without the generated header sits where the spec plans a generated file; `generate` will not overwrite it.",
	Fix:     "Move it away, or point `[paths]` elsewhere",
})

const RuleOrphanedFile = "orphaned-file"

var _ = rule.Register(rule.Rule{
	ID:      RuleOrphanedFile,
	Summary: "a generated file the spec no longer plans",
	Meaning: "A file carries the generated header but the spec no longer plans it.",
	Fix:     "Delete it, or point `[paths]` at it again",
})

const RuleDocsMissing = "docs-missing"

var _ = rule.Register(rule.Rule{
	ID:      RuleDocsMissing,
	Summary: "the docs file [paths].docs names does not exist",
	Meaning: "The Markdown file `[paths].docs` names does not exist.",
	Fix:     "`fixturegen docs` (or `fixturegen generate`)",
})

const RuleDocsStale = "docs-stale"

var _ = rule.Register(rule.Rule{
	ID:      RuleDocsStale,
	Summary: "the docs block is out of date",
	Meaning: "The reference tables between the `fixturegen:docs` markers of `[paths].docs` are out of date with the spec and the tests, or the file has no such block.",
	Fix:     "`fixturegen docs` (or `fixturegen generate`)",
})

const RuleDocsMarkers = "docs-markers"

var _ = rule.Register(rule.Rule{
	ID:      RuleDocsMarkers,
	Summary: "the docs block's markers are broken, or not UTF-8",
	Meaning: "The `fixturegen:docs` markers of `[paths].docs` are duplicated, nested or unpaired, or the file is not UTF-8, so the block cannot be updated.",
	Fix:     "Fix the file by hand, then `fixturegen docs`",
})
