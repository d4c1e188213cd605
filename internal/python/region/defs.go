package region

import (
	"bytes"
	"slices"

	"github.com/fixturegen/fixturegen/internal/python/pyscan"
)

// Def is a top-level name the user's code defines outside the region.
type Def struct {
	Name string
	Line int // 1-based
}

// UserDefs returns the module-level names that src defines outside its
// fixturegen region and that appear in names, in source order. A generated
// fixture or hook and a user's definition of the same name would silently
// replace one another, so generate refuses to write until one of them is
// renamed.
//
// Definitions are def and class statements and assignments at module
// level, read with pyscan, so a "def" inside a string or a nested block
// does not count.
func UserDefs(src []byte, names []string) []Def {
	first, last := Lines(src)
	outside := func(line int) bool { return first == 0 || line < first || line > last }
	m := pyscan.Scan(src)
	var defs []Def
	for _, d := range m.Defs {
		if d.Parent < 0 && slices.Contains(names, d.Name) && outside(d.Pos.Line) {
			defs = append(defs, Def{d.Name, d.Pos.Line})
		}
	}
	for _, a := range m.Assigns {
		if a.Scope < 0 && slices.Contains(names, a.Name) && outside(a.Pos.Line) {
			defs = append(defs, Def{a.Name, a.Pos.Line})
		}
	}
	slices.SortStableFunc(defs, func(a, b Def) int { return a.Line - b.Line })
	return defs
}

// Lines returns the 1-based lines of the begin and end markers of the
// region in src, or 0, 0 when src has no region or its markers are broken.
func Lines(src []byte) (first, last int) {
	b, err := Find(src)
	if err != nil || !b.Found {
		return 0, 0
	}
	return b.BeginLine, b.BeginLine + bytes.Count(src[b.Start:b.InnerEnd], []byte("\n"))
}
