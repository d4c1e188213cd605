package region

import (
	"bytes"
	"regexp"
)

// Def is a top-level name the user's code defines outside the region.
type Def struct {
	Name string
	Line int // 1-based
}

// topLevelDef matches a module-level def, class or assignment at column 0.
var topLevelDef = regexp.MustCompile(`^(?:async\s+def|def|class)\s+([A-Za-z_][A-Za-z0-9_]*)|^([A-Za-z_][A-Za-z0-9_]*)\s*(?::[^=]*)?=[^=]`)

// UserDefs returns the module-level names that src defines outside its
// fixturegen region and that appear in names. A generated fixture or hook
// and a user's definition of the same name would silently replace one
// another, so generate refuses to write until one of them is renamed.
//
// The scan is line based: it skips the region and the insides of
// triple-quoted strings, which is enough for the definitions that matter.
func UserDefs(src []byte, names []string) []Def {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	b, _ := Find(src)
	var defs []Def
	var inString []byte // the open triple quote, if any
	line := 0
	for off := 0; off < len(src); {
		line++
		lineEnd := len(src)
		if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
			lineEnd = off + i + 1
		}
		text := src[off:lineEnd]
		inRegion := b.Found && off >= b.Start && off < b.End
		if !inRegion && inString == nil {
			if m := topLevelDef.FindSubmatch(text); m != nil {
				name := string(m[1]) + string(m[2])
				if want[name] {
					defs = append(defs, Def{name, line})
				}
			}
		}
		if !inRegion {
			inString = trackTripleQuotes(text, inString)
		}
		off = lineEnd
	}
	return defs
}

// trackTripleQuotes returns the triple quote still open after text, given
// the one open before it.
func trackTripleQuotes(text, open []byte) []byte {
	for i := 0; i+3 <= len(text); i++ {
		if open == nil && text[i] == '#' {
			return nil
		}
		q := text[i : i+3]
		if string(q) != `"""` && string(q) != `'''` {
			continue
		}
		switch {
		case open == nil:
			open = q
		case bytes.Equal(open, q):
			open = nil
		default:
			continue
		}
		i += 2
	}
	return open
}
