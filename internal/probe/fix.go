package probe

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/fixturegen/fixturegen/internal/gen/plan"
	"github.com/fixturegen/fixturegen/internal/specedit"
	"github.com/fixturegen/fixturegen/schema"
)

// CaseNodes returns the probe cases' node ids, once each, in spec order:
// what probe runs when no node is named.
func CaseNodes(spec *schema.Spec) []string {
	return unique(spec.Probe.Cases, func(c schema.Case) string { return c.Node })
}

// unique returns the keys of items once each, in the order first seen.
func unique[T any](items []T, key func(T) string) []string {
	var out []string
	for _, it := range items {
		if k := key(it); !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// UpToDate stops the probe when the generated files differ from what the
// spec renders: the inner run loads the project's conftest, so a stale
// region would be probed instead of the spec. Probing freshly rendered
// files would mean writing into the project, which probe never does.
// generate is the command line the error tells the user to run.
func UpToDate(spec *schema.Spec, generate string) error {
	changes, err := plan.SurveyPython(spec)
	if err != nil {
		return err
	}
	var stale []string
	for _, ch := range changes {
		if ch.Changed() {
			stale = append(stale, ch.Display)
		}
	}
	if len(stale) == 0 {
		return nil
	}
	verb := "is"
	if len(stale) > 1 {
		verb = "are"
	}
	return fmt.Errorf("%s %s not up to date with %s, and the probe runs the project's files: run `%s` first",
		strings.Join(stale, ", "), verb, spec.File, generate)
}

// CanFix checks every file probe --fix may write, the spec and each
// planned file, so that a refusal (a link out of the spec's folder, a
// read-only file) comes before the project's tests run, not after.
func CanFix(spec *schema.Spec) error {
	if _, err := plan.SpecText(spec); err != nil {
		return err
	}
	_, err := plan.MakePython(spec)
	return err
}

// Fixed is what probe --fix wrote.
type Fixed struct {
	Spec    *schema.Spec // the spec with the modules added
	Modules []string     // the modules added to [preload].modules
	Wrote   []string     // the generated files written, as displayed

	// written is every file written, the spec first, with its content
	// before, so that Undo can put it back.
	written []*plan.Change
}

// Fix adds modules to the spec's [preload].modules (only that array's
// text changes), writes the spec and regenerates, all checked before the
// first write. Once the spec is written it returns what it wrote, even
// with the error of a later write, so the user learns what changed.
func Fix(spec *schema.Spec, modules []string) (*Fixed, error) {
	specText, err := plan.SpecText(spec)
	if err != nil {
		return nil, err
	}
	out, fixed, err := specedit.AppendModules(spec, specText.Old, modules)
	if err != nil {
		return nil, err
	}
	changes, err := plan.MakePython(fixed)
	if err != nil {
		return nil, err
	}
	specText.New = out
	if err := specText.Write(); err != nil {
		return nil, err
	}
	f := &Fixed{Spec: fixed, Modules: modules, written: []*plan.Change{specText}}
	f.Wrote, err = plan.WriteChanged(changes)
	// WriteChanged writes the changed files in order and stops at the
	// first failure, so the first len(f.Wrote) of them were written.
	changed := slices.DeleteFunc(slices.Clone(changes), func(ch *plan.Change) bool { return !ch.Changed() })
	f.written = append(f.written, changed[:len(f.Wrote)]...)
	return f, err
}

// Undo puts back every file Fix wrote as it was before, the spec last:
// what --fix does when the suite fails after the fix where it passed
// before it. It returns the files put back, as displayed.
func (f *Fixed) Undo() ([]string, error) {
	var back []string
	for _, ch := range slices.Backward(f.written) {
		undo := *ch
		undo.New = ch.Old
		var err error
		if ch.Exists {
			err = undo.Write()
		} else {
			err = os.Remove(ch.Abs)
		}
		if err != nil {
			return back, fmt.Errorf("put back %s: %w", ch.Display, err)
		}
		back = append(back, ch.Display)
	}
	return back, nil
}

// Text prints what Fix wrote.
func (f *Fixed) Text(w io.Writer) {
	fmt.Fprintf(w, "added %s to [preload].modules in %s\n", strings.Join(f.Modules, ", "), f.Spec.File)
	for _, d := range f.Wrote {
		fmt.Fprintf(w, "wrote %s\n", d)
	}
}
