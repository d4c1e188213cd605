// Package adopt takes a conftest's hand-written preload and deadline
// fixtures out, so that fixturegen's region can take their place.
//
// It is what generate --adopt runs on the conftest before splicing the
// region: the module-level function definitions of the named fixtures, each
// with its decorators, are removed, and every other byte stays. When the
// conftest has no region yet, empty marker lines go where the first removed
// fixture was, so the generated fixtures appear where the hand-written
// ones stood rather than at the end of the file.
package adopt

import (
	"bytes"
	"slices"
	"sort"

	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/internal/python/region"
	"github.com/fixturegen/fixturegen/schema"
)

// Def is a hand-written fixture that Remove took out, or the alarm
// handler that went with it.
type Def struct {
	Name        string
	First, Last int // 1-based lines, from the first decorator to the end of the body
	// HandlerOf names the removed fixture that installed this function as
	// its timer signal's handler; "" for a fixture.
	HandlerOf string
	// Path is the conftest it was removed from, relative to the spec's
	// folder (set by Plan).
	Path string
	// Overrides is the folder, below the spec's conftest, for whose tests
	// a conftest there redefined the deadline fixture; "" for the spec's
	// own conftest.
	Overrides string
}

// Remove returns src without the module-level fixtures named in names (by
// the name tests request them by, which a name= argument of the decorator
// sets), and the fixtures it removed, in source order. placeholder (the
// marker lines of an empty region) takes the place of the first of them
// when src has no region and placeholder is not nil. Blank lines after a removed fixture go with it;
// comments stay.
//
// Definitions inside the region are fixturegen's and stay. When src has
// broken markers, or defines none of names, it is returned unchanged.
func Remove(src []byte, names []string, placeholder []byte) ([]byte, []Def) {
	bounds, err := region.Find(src)
	if err != nil {
		return src, nil
	}
	m := pyscan.Scan(src)
	extents := topLevel(src)
	var cuts []extent
	var defs []Def
	var removed []int
	inRegion := func(e extent) bool { return bounds.Found && e.start < bounds.End && e.end > bounds.Start }
	for i, d := range m.Defs {
		if d.Parent >= 0 || !m.IsFixture(i) || !slices.Contains(names, m.FixtureName(i)) {
			continue
		}
		e, ok := extents[d.Pos.Line]
		if !ok || inRegion(e) {
			continue
		}
		cuts = append(cuts, e)
		defs = append(defs, Def{Name: d.Name, First: e.firstLine, Last: e.lastLine})
		removed = append(removed, i)
	}
	if len(cuts) == 0 {
		return src, nil
	}
	for _, h := range handlers(src, m, removed, cuts) {
		// Both removed fixtures may install the one handler: it goes once.
		e, ok := extents[m.Defs[h.def].Pos.Line]
		if !ok || inRegion(e) || slices.Contains(cuts, e) {
			continue
		}
		cuts = append(cuts, e)
		defs = append(defs, Def{Name: m.Defs[h.def].Name, First: e.firstLine, Last: e.lastLine, HandlerOf: h.of})
	}
	// In source order, so the region takes the place of the first cut.
	sort.SliceStable(defs, func(i, j int) bool { return defs[i].First < defs[j].First })
	sort.SliceStable(cuts, func(i, j int) bool { return cuts[i].start < cuts[j].start })

	var result []byte
	prev := 0
	placedAt := -1 // where the placeholder ends in result, once written
	for i, e := range cuts {
		result = append(result, src[prev:e.start]...)
		prev = skipBlankLines(src, e.end)
		if i == 0 && !bounds.Found && placeholder != nil {
			result = append(result, placeholder...)
			placedAt = len(result)
		}
	}
	result = append(result, src[prev:]...)
	if placedAt >= 0 && len(bytes.TrimSpace(result[placedAt:])) > 0 {
		result = slices.Insert(result, placedAt, '\n', '\n')
	}
	// A file that ended with a removed fixture keeps one line ending, not
	// the blank lines that separated the fixture from what came before,
	// unless the placeholder took its place.
	if prev == len(src) && !(len(cuts) == 1 && placedAt >= 0) {
		if trimmed := bytes.TrimRight(result, " \t\r\n"); len(trimmed) > 0 {
			result = append(trimmed, '\n')
		}
	}
	return result, defs
}

// skipBlankLines moves off past the lines that hold only blanks.
func skipBlankLines(src []byte, off int) int {
	for off < len(src) {
		line, _, _ := bytes.Cut(src[off:], []byte("\n"))
		if len(bytes.TrimSpace(line)) > 0 {
			break
		}
		off += len(line) + 1 // past its line ending, or past the end
	}
	return min(off, len(src))
}

// extent is the byte span of one module-level def statement, from the
// start of its first decorator line to the end of its body's last line.
type extent struct {
	start, end          int
	firstLine, lastLine int
}

// topLevel returns the extent of every module-level def and async def, by
// the line of its name. A def ends with the last logical line before the
// next statement at module level (or the end of the file), whether its
// body is indented or on its header line.
func topLevel(src []byte) map[int]extent {
	out := map[int]extent{}
	lines := pyscan.NewLexer(src).Lines()
	deco := -1 // the first of the decorator lines just read
	for i, l := range lines {
		if l.Level > 0 {
			continue
		}
		switch first := string(l.Toks[0].Text); {
		case first == "@":
			if deco < 0 {
				deco = i
			}
			continue
		case first == "def" || first == "async":
			start, last := i, i
			if deco >= 0 {
				start = deco
			}
			for last+1 < len(lines) && lines[last+1].Level > 0 {
				last++
			}
			n := 1 // the name's token
			if first == "async" {
				n = 2
			}
			if n >= len(l.Toks) {
				break // a header without a name
			}
			end := lines[last].End
			out[l.Toks[n].Line] = extent{start: lines[start].Toks[0].LineStart, firstLine: lines[start].Toks[0].Line,
				end: min(end.Off+len(end.Text), len(src)), lastLine: end.Line}
		}
		deco = -1
	}
	return out
}

// handler is a module-level function that a removed fixture installs as
// its timer signal's handler.
type handler struct {
	def int    // index in Module.Defs
	of  string // the fixture
}

// handlers finds the module-level functions that the removed fixtures pass
// to signal.signal for a timer signal, and that nothing else in src names:
// the hand-written deadline's own handler, which the generated deadline
// replaces. A handler that other code also names stays.
func handlers(src []byte, m *pyscan.Module, removed []int, cuts []extent) []handler {
	var out []handler
	for _, fx := range removed {
		for _, c := range m.Calls {
			if !m.Inside(c.Scope, fx) || m.Resolve(c.Callee) != "signal.signal" || len(c.Args) < 2 {
				continue
			}
			sig, h := c.Args[0], c.Args[1]
			if sig.Kind != pyscan.ArgName || !schema.IsTimerSignal(m.Resolve(sig.Value)) || h.Kind != pyscan.ArgName {
				continue
			}
			for i, d := range m.Defs {
				if d.Parent < 0 && d.Kind == pyscan.Function && d.Name == h.Value && !m.IsFixture(i) &&
					namedOnlyIn(src, d.Name, d.Pos, cuts) {
					out = append(out, handler{def: i, of: m.FixtureName(fx)})
				}
			}
		}
	}
	return out
}

// namedOnlyIn reports whether every use of name as code in src, besides
// its definition at def, lies in one of the cuts.
func namedOnlyIn(src []byte, name string, def pyscan.Pos, cuts []extent) bool {
	lx := pyscan.NewLexer(src)
	for t := lx.Next(); t.Kind != pyscan.EOF; t = lx.Next() {
		if t.Kind != pyscan.Name || string(t.Text) != name || lx.Pos(t) == def {
			continue
		}
		if !slices.ContainsFunc(cuts, func(e extent) bool { return t.Off >= e.start && t.Off < e.end }) {
			return false
		}
	}
	return true
}
