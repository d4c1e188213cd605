package scaffold

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/fixturegen/fixturegen/internal/gen/plan"
	"github.com/fixturegen/fixturegen/internal/specedit"
	"github.com/fixturegen/fixturegen/schema"
)

// Created is what Create wrote, in order.
type Created struct {
	Module string // the new module, as the user named it
	// ProbeCase is the probe case's test added to Spec, "" without one.
	ProbeCase, Spec string
	Wrote           []string // the generated files and docs written after
	// Stale names a generated file that lags behind the spec, when the
	// spec was not regenerated: the new module needs its fixtures.
	Stale string
}

// Create is fixturegen scaffold: it writes the module New plans at target
// (a path as the user names it) with write.New, so an existing file is
// never replaced. With probe, it adds the module's probe case to the
// spec's text and regenerates the files the spec plans. Then it refreshes
// the docs block, which lists the modules that use the alarm, so the
// module passes fixturegen check as created.
//
// Everything that can fail is worked out before the first write, so a
// refusal leaves every file as it was. Once the module is written, Create
// returns what it wrote, even with the error of a later write.
func Create(spec *schema.Spec, target string, probe bool) (*Created, error) {
	abs, err := filepath.Abs(target)
	if err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(spec.Dir, abs)
	if err != nil {
		return nil, err
	}
	m, err := New(spec, filepath.ToSlash(rel))
	if err != nil {
		return nil, err
	}
	display := filepath.Clean(target)
	exists := func() error {
		return fmt.Errorf("%s already exists; scaffold creates new modules only, so pick another name, or give the existing module the group mark and usefixtures(%q, %q) by hand",
			display, spec.Preload.Fixture, spec.Deadline.Fixture)
	}

	// The new module, the docs file refreshed after it, and with probe the
	// spec and the files generated from it are checked against the
	// project's links first.
	root, err := plan.Root(spec)
	if err != nil {
		return nil, err
	}
	if err := root.Check(abs); err != nil {
		return nil, err
	}
	if _, err := os.Lstat(abs); err == nil {
		return nil, exists()
	}
	if docsAbs, _ := plan.DocsTarget(spec); docsAbs != "" {
		if err := root.Check(docsAbs); err != nil {
			return nil, err
		}
	}
	var specText *plan.Change
	var changes []*plan.Change
	if probe {
		if spec.Paths.ProbePlugin == "" || spec.Paths.ProbeTests == "" {
			return nil, fmt.Errorf("--probe needs [paths].probe_plugin and [paths].probe_tests in %s, the files that run probe cases", spec.File)
		}
		if specText, err = plan.SpecText(spec); err != nil {
			return nil, err
		}
		text, probed, err := specedit.AppendCase(spec, specText.Old, m.ProbeCase())
		if err != nil {
			return nil, err
		}
		if changes, err = plan.MakePython(probed); err != nil {
			return nil, err
		}
		specText.New = text
	}

	if err := root.New(abs, m.Content); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, exists()
		}
		return nil, fmt.Errorf("create %s: %w", display, err)
	}
	c := &Created{Module: display}
	if probe {
		if err := specText.Write(); err != nil {
			return c, err
		}
		c.ProbeCase, c.Spec = m.ProbeCase().Test, spec.File
		c.Wrote, err = plan.WriteChanged(changes)
		if err != nil {
			return c, err
		}
	}
	docs, err := plan.DocsFile(spec, "")
	if err != nil {
		return c, err
	}
	if docs != nil && docs.Changed() {
		if err := docs.Write(); err != nil {
			return c, err
		}
		c.Wrote = append(c.Wrote, docs.Display)
	}
	if !probe {
		c.Stale = stale(spec)
	}
	return c, nil
}

// stale is the first generated file that lags behind the spec, or "".
func stale(spec *schema.Spec) string {
	changes, err := plan.MakePython(spec)
	if i := slices.IndexFunc(changes, (*plan.Change).Changed); err == nil && i >= 0 {
		return changes[i].Display
	}
	return ""
}

// Text prints what was written, a line each.
func (c *Created) Text(w io.Writer) {
	fmt.Fprintf(w, "created %s\n", c.Module)
	if c.ProbeCase != "" {
		fmt.Fprintf(w, "added probe case %s to %s\n", c.ProbeCase, c.Spec)
	}
	for _, d := range c.Wrote {
		fmt.Fprintf(w, "wrote %s\n", d)
	}
}
