package suite

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fixturegen/fixturegen/internal/python/pytestcfg"
	"github.com/fixturegen/fixturegen/internal/relpath"
	"github.com/fixturegen/fixturegen/schema"
)

// SpecTree returns the options of a read of the spec's own tree, as check
// and the docs file both read it: conftest and planned are the absolute
// paths of the conftest that holds the region and of the whole files
// generate writes (left out of the read), cfg is pytest's configuration,
// and the roots are the default roots that exist.
func SpecTree(spec *schema.Spec, cfg *pytestcfg.Config, conftest string, planned map[string]bool) Options {
	opts := Options{Spec: spec, Planned: planned, Conftest: conftest, Config: cfg}
	for _, r := range DefaultRoots(spec) {
		if _, err := os.Stat(r); err == nil {
			opts.Roots = append(opts.Roots, r)
		}
	}
	return opts
}

// SpecRun is the pytest run of the spec's tests (pytestcfg.Project):
// pytest in the spec's folder, on the default roots. check, generate
// and the docs file all read pytest's configuration through it.
func SpecRun(spec *schema.Spec) (pytestcfg.Run, error) {
	return pytestcfg.Project(spec.Dir, DefaultRoots(spec))
}

// DefaultRoots are the folders check scans when none is named: for each
// file the spec names (the conftest, the probe files and the probe cases'
// test files), the first folder of its path under the spec's folder, as
// the user reaches it. A file at the top of the spec's folder makes the
// whole folder the root.
func DefaultRoots(spec *schema.Spec) []string {
	files := []string{spec.Paths.Conftest, spec.Paths.ProbePlugin, spec.Paths.ProbeTests}
	for _, c := range spec.Probe.Cases {
		file, _, _ := strings.Cut(c.Node, "::")
		files = append(files, file)
	}
	base := filepath.Dir(spec.File)
	var roots []string
	for _, f := range files {
		if f == "" {
			continue
		}
		first, _, nested := strings.Cut(f, "/")
		root := base
		if nested {
			root = filepath.Join(base, first)
		}
		if !slices.Contains(roots, root) {
			roots = append(roots, root)
		}
	}
	// A root inside another is scanned with it.
	return slices.DeleteFunc(slices.Clone(roots), func(r string) bool {
		return slices.ContainsFunc(roots, func(o string) bool { return o != r && (o == "." || relpath.Under(r, o)) })
	})
}
