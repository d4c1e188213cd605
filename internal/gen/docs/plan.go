package docs

import (
	"path/filepath"

	"github.com/fixturegen/fixturegen/internal/gen/plan"
	"github.com/fixturegen/fixturegen/internal/gen/write"
	"github.com/fixturegen/fixturegen/schema"
)

// Plan plans the docs block in the Markdown file at abs, from the facts
// of a fresh scan of the spec's tree; root is nil for a file the user
// named (see plan.Docs).
func Plan(spec *schema.Spec, root *write.Root, abs, display string) (*plan.Change, error) {
	b, err := block(spec)
	if err != nil {
		return nil, err
	}
	return plan.Docs(spec, root, abs, display, b)
}

// block renders the docs block from a fresh scan of the spec's tree.
func block(spec *schema.Spec) ([]byte, error) {
	facts, err := Facts(spec)
	if err != nil {
		return nil, err
	}
	return Block(spec, facts)
}

// PlanFile plans the docs block for fixturegen docs: in file, or, when
// file is "", in the spec's [paths].docs; nil when neither names one. A
// file typed on the command line is written where it is, as any command
// writes where it is told; [paths].docs, from the spec, stays inside the
// spec's folder.
func PlanFile(spec *schema.Spec, file string) (*plan.Change, error) {
	if file != "" {
		abs, err := filepath.Abs(file)
		if err != nil {
			return nil, err
		}
		return Plan(spec, nil, abs, filepath.Clean(file))
	}
	abs, display := plan.DocsTarget(spec)
	if abs == "" {
		return nil, nil
	}
	root, err := plan.Root(spec)
	if err != nil {
		return nil, err
	}
	return Plan(spec, root, abs, display)
}

// WithPlan adds the spec's docs file, when it names one, to the changes
// generate writes, so that one generate repairs all drift check reports.
func WithPlan(spec *schema.Spec, changes []*plan.Change) ([]*plan.Change, error) {
	abs, display := plan.DocsTarget(spec)
	if abs == "" {
		return changes, nil
	}
	root, err := plan.Root(spec)
	if err != nil {
		return nil, err
	}
	ch, err := Plan(spec, root, abs, display)
	if err != nil {
		return nil, err
	}
	return append(changes, ch), nil
}
