package adopt

import (
	"sort"
	"strings"

	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/internal/python/region"
)

// Leftover is a module-level name of the conftest that only the removed
// fixtures used: an import, a constant such as the seconds read from the
// environment, or a helper function or class such as the one that computes
// them or handles the alarm.
// Adoption keeps it, as it keeps every line it did not replace; the user
// decides whether something else needs it.
type Leftover struct {
	Name string
	Line int // of the statement that binds it, in the adopted conftest
}

// Leftovers compares the conftest before adoption (old) with after (new)
// and returns the module-level names that old used and new, outside the
// region, no longer does.
func Leftovers(old, new []byte) []Leftover {
	before := uses(old)
	after := uses(new)
	m := pyscan.Scan(new)
	seen := map[string]bool{}
	var out []Leftover
	add := func(name string, line int) {
		if !seen[name] && before[name] > 0 && after[name] == 0 {
			seen[name] = true
			out = append(out, Leftover{name, line})
		}
	}
	for _, im := range m.Imports {
		if im.Scope < 0 {
			add(im.Bound, im.Pos.Line)
		}
	}
	for _, a := range m.Assigns {
		if a.Scope < 0 {
			add(a.Name, a.Pos.Line)
		}
	}
	for i, d := range m.Defs {
		// A fixture or a hook is used by pytest, by its name alone. A class
		// (a handler with __call__) is a helper like a function.
		helper := d.Kind == pyscan.Function && !m.IsFixture(i) && !strings.HasPrefix(d.Name, "pytest_") || d.Kind == pyscan.Class
		if d.Parent < 0 && helper {
			add(d.Name, d.Pos.Line)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

// uses counts, by name, the places outside the region that read a name:
// name tokens that are not an attribute (after a dot), not bound by an
// import and not the target of a module-level assignment.
func uses(src []byte) map[string]int {
	b, err := region.Find(src)
	inRegion := func(off int) bool { return err == nil && b.Found && off >= b.Start && off < b.End }
	m := pyscan.Scan(src)
	binding := map[pyscan.Pos]bool{}
	for _, im := range m.Imports {
		binding[im.Pos] = true
	}
	for _, a := range m.Assigns {
		binding[a.Pos] = true
	}
	for _, d := range m.Defs {
		binding[d.Pos] = true
	}
	count := map[string]int{}
	lx := pyscan.NewLexer(src)
	for _, l := range lx.Lines() {
		if first := string(l.Toks[0].Text); first == "import" || first == "from" {
			continue
		}
		for i, t := range l.Toks {
			if t.Kind != pyscan.Name || inRegion(t.Off) || binding[lx.Pos(t)] || i > 0 && string(l.Toks[i-1].Text) == "." {
				continue
			}
			count[string(t.Text)]++
		}
	}
	return count
}
