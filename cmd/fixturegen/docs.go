package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/fixturegen/fixturegen/internal/diff"
	"github.com/fixturegen/fixturegen/internal/docs"
	"github.com/fixturegen/fixturegen/internal/drift"
	"github.com/fixturegen/fixturegen/internal/finding"
	"github.com/fixturegen/fixturegen/internal/mdblock"
	"github.com/fixturegen/fixturegen/internal/plan"
	"github.com/fixturegen/fixturegen/internal/relpath"
	"github.com/fixturegen/fixturegen/internal/write"
	"github.com/fixturegen/fixturegen/schema"
)

func init() {
	var dryRun bool
	commands = append(commands, &command{
		name:    "docs",
		args:    "[FILE]",
		summary: "write the contract's reference tables into a Markdown file",
		help: `
Writes, between the lines "<!-- fixturegen:docs:begin ... -->" and
"<!-- fixturegen:docs:end -->" of the Markdown file FILE (default: the
spec's [paths].docs), the tables a project's document about its alarm
contract would otherwise keep by hand:

  - the settings: deadline and timer, the failure message, on_import,
    late_imports, the preload and the worker group, each with the fixture
    or mark it lives in and its spec key;
  - the modules in the xdist group, with why each is there (it uses the
    deadline fixture, patches a preloaded module, or only marks itself);
  - the modules whose tests use the alarm, and how: through pytestmark, an
    autouse fixture, or a parameter.

The modules come from the same static scan of the test tree that
fixturegen check runs. A file without markers gets the block appended; a
missing file is created. Everything outside the markers is kept, and a
file that would not change is not touched.

With [paths].docs set, fixturegen generate writes the block too, and
fixturegen check reports it when it is out of date.

Examples:
  fixturegen docs
  fixturegen docs docs/alarm-contract.md
  fixturegen docs --dry-run`,
		flags: func(fs *pflag.FlagSet) {
			fs.BoolVarP(&dryRun, "dry-run", "n", false, "print a unified diff of what would change, write nothing, and exit 1 if anything would")
		},
		run: func(c *context, args []string) error {
			if len(args) > 1 {
				return usageError{fmt.Sprintf("docs takes at most one FILE, got %d arguments", len(args))}
			}
			spec, err := c.loadSpec()
			if err != nil {
				return err
			}
			abs, display := docsTarget(spec)
			// A FILE typed on the command line is written where it is, as
			// any command writes where it is told; [paths].docs, from the
			// spec, stays inside the spec's folder.
			var root *write.Root
			if len(args) == 1 {
				if abs, err = filepath.Abs(args[0]); err != nil {
					return err
				}
				display = filepath.Clean(args[0])
			} else if abs != "" {
				if root, err = plan.Root(spec); err != nil {
					return err
				}
			}
			if abs == "" {
				return usageError{fmt.Sprintf("name the Markdown FILE to write, or set [paths].docs in %s", spec.File)}
			}
			ch, err := planDocs(spec, root, abs, display)
			if err != nil {
				return err
			}
			if !ch.Changed() {
				return nil
			}
			if dryRun {
				fmt.Fprint(c.stdout, c.paint.Diff(string(diff.Unified(ch.Display, ch.Old, ch.New))))
				return errFindings
			}
			if err := ch.Write(); err != nil {
				return fmt.Errorf("write %s: %w", ch.Display, err)
			}
			fmt.Fprintf(c.stdout, "wrote %s\n", ch.Display)
			return nil
		},
	})
}

// docsTarget is the spec's [paths].docs, absolute and as the user reaches
// it; both are "" when it is not set.
func docsTarget(spec *schema.Spec) (abs, display string) {
	if spec.Paths.Docs == "" {
		return "", ""
	}
	rel := filepath.FromSlash(spec.Paths.Docs)
	abs = filepath.Join(spec.Dir, rel)
	return abs, relpath.FromWD(abs)
}

// planDocs plans the docs block in the Markdown file at abs, from the facts
// of a fresh scan of the spec's tree; root is nil for a file the user
// named (see plan.Docs).
func planDocs(spec *schema.Spec, root *write.Root, abs, display string) (*plan.Change, error) {
	block, err := docsBlock(spec)
	if err != nil {
		return nil, err
	}
	return plan.Docs(spec, root, abs, display, block)
}

// docsBlock renders the docs block from a fresh scan of the spec's tree.
func docsBlock(spec *schema.Spec) ([]byte, error) {
	facts, err := docs.Facts(spec)
	if err != nil {
		return nil, err
	}
	return docs.Block(spec, facts)
}

// withDocs adds the spec's docs file, when it names one, to the changes
// generate writes, so that one generate repairs all drift check reports.
func withDocs(spec *schema.Spec, changes []*plan.Change) ([]*plan.Change, error) {
	abs, display := docsTarget(spec)
	if abs == "" {
		return changes, nil
	}
	root, err := plan.Root(spec)
	if err != nil {
		return nil, err
	}
	ch, err := planDocs(spec, root, abs, display)
	if err != nil {
		return nil, err
	}
	return append(changes, ch), nil
}

// Rule ids of the docs drift that check reports.
const (
	ruleDocsStale   = "docs-stale"
	ruleDocsMissing = "docs-missing"
	ruleDocsMarkers = "docs-markers"
)

// docsDrift reports the spec's docs block when it is missing, out of date
// or has broken markers; nothing when the spec names no docs file.
func docsDrift(spec *schema.Spec, diffs bool) ([]finding.Finding, error) {
	abs, display := docsTarget(spec)
	if abs == "" {
		return nil, nil
	}
	block, err := docsBlock(spec)
	if err != nil {
		return nil, err
	}
	root, err := plan.Root(spec)
	if err != nil {
		return nil, err
	}
	ch, err := plan.SurveyDocs(spec, root, abs, display, block)
	if err != nil {
		return nil, err
	}
	f := finding.Finding{Severity: finding.Error, Path: display, Line: 1, Col: 1,
		Fix: "run fixturegen docs (or fixturegen generate)"}
	switch {
	case ch.Problem != nil:
		f.Rule, f.Line = ruleDocsMarkers, ch.Problem.Line
		f.Message = "the docs block cannot be updated: " + ch.Problem.Detail
		if ch.Problem.Detail == "" {
			f.Message = "the docs file is not UTF-8, so its block cannot be updated"
		}
		f.Fix = "fix the file by hand, then run fixturegen docs"
	case !ch.Changed():
		return nil, nil
	case drift.VersionDrift(ch) != "":
		f.Rule, f.Message = drift.RuleVersionDrift, drift.VersionDrift(ch)
		_, f.Line, _ = ch.RecordedVersion()
	case !ch.Exists:
		f.Rule = ruleDocsMissing
		f.Message = fmt.Sprintf("the docs file that %s names does not exist", spec.File)
	default:
		b, _ := mdblock.Find(ch.Old)
		f.Rule = ruleDocsStale
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
	return []finding.Finding{f}, nil
}
