package render

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/schema"
)

// TestRegionNames checks RegionNames against the module-level names the
// rendered region really defines, for every golden spec.
func TestRegionNames(t *testing.T) {
	specs, _ := filepath.Glob("testdata/*.toml")
	specs = append(specs, "../../../examples/inbox/fixturegen.toml")
	for _, file := range specs {
		t.Run(filepath.Base(file), func(t *testing.T) {
			spec, err := schema.Load(file)
			if err != nil {
				t.Fatal(err)
			}
			files, err := Render(spec)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range files {
				if !f.Region {
					continue
				}
				// Every name the region defines at module level is one of
				// RegionNames.
				want := RegionNames(spec)
				m := pyscan.Scan(f.Content)
				for _, d := range m.Defs {
					if d.Parent < 0 && !slices.Contains(want, d.Name) {
						t.Errorf("the region defines %s, which RegionNames leaves out", d.Name)
					}
				}
				for _, a := range m.Assigns {
					if a.Scope < 0 && !slices.Contains(want, a.Name) {
						t.Errorf("the region assigns %s, which RegionNames leaves out", a.Name)
					}
				}
				// And each of RegionNames is defined there: by a def, or as
				// a target of a module-level assignment (pyscan does not
				// record the targets of a tuple assignment).
				defined := map[string]bool{}
				for _, line := range strings.Split(string(f.Content), "\n") {
					if name, ok := strings.CutPrefix(line, "def "); ok {
						name, _, _ = strings.Cut(name, "(")
						defined[name] = true
					} else if targets, _, ok := strings.Cut(line, " = "); ok && !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "#") {
						for _, n := range strings.Split(targets, ",") {
							defined[strings.TrimSpace(n)] = true
						}
					}
				}
				for _, n := range want {
					if !defined[n] {
						t.Errorf("RegionNames has %s, which the region does not define", n)
					}
				}
			}
		})
	}
}
