package docs

import (
	"github.com/fixturegen/fixturegen/internal/plan"
	"github.com/fixturegen/fixturegen/internal/write"
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
