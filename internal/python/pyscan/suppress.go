package pyscan

import (
	"bytes"
	"slices"
	"strings"

	"github.com/fixturegen/fixturegen/internal/textpos"
)

// Suppression is a "# fixturegen: ignore" comment: the findings reported
// on its line are not reported, all of them, or only those of the rules
// it names in brackets ("# fixturegen: ignore[own-timer, missing-group]").
type Suppression struct {
	Line int
	// Rules are the rule names in the brackets, nil for a bare ignore.
	Rules []string
	// Pos is where the comment's "fixturegen" starts, for a warning about
	// a rule name that does not exist.
	Pos Pos
}

// Covers reports whether the suppression hides a finding of rule.
func (s Suppression) Covers(rule string) bool {
	return s.Rules == nil || slices.Contains(s.Rules, rule)
}

var suppressMark = []byte("fixturegen:")

// indexMark returns the offset of the first suppressMark in src, or -1.
// It looks for the mark's "x", which is about twenty times rarer in Python
// than the "f" bytes.Index would look for first, so that the search of a
// large module runs at the speed of bytes.IndexByte.
func indexMark(src []byte) int {
	const at = 2 // suppressMark[at] == 'x'
	if len(src) < len(suppressMark) {
		return -1
	}
	for off := at; ; {
		j := bytes.IndexByte(src[off:], 'x')
		if j < 0 {
			return -1
		}
		if k := off + j - at; bytes.HasPrefix(src[k:], suppressMark) {
			return k
		}
		off += j + 1
	}
}

// suppressions finds the "# fixturegen: ignore" comments of src. Most
// files have none, which one search tells.
func suppressions(src []byte) []Suppression {
	var offs []int
	for off := 0; ; {
		i := indexMark(src[off:])
		if i < 0 {
			break
		}
		offs = append(offs, off+i)
		off += i + len(suppressMark)
	}
	if offs == nil {
		return nil
	}
	places := Places(src, offs)
	var out []Suppression
	line, lineStart, at := 1, 0, 0
	for k, off := range offs {
		if places[k] != InComment {
			continue
		}
		// Line numbers as the Lexer counts them: "\r\n", "\n" and "\r"
		// each end a line.
		for ; at < off; at++ {
			if c := src[at]; c == '\n' || c == '\r' && (at+1 >= len(src) || src[at+1] != '\n') {
				line++
				lineStart = at + 1
			}
		}
		rules, ok := parseIgnore(string(src[off+len(suppressMark) : lineEnd(src, off)]))
		if !ok {
			continue
		}
		out = append(out, Suppression{Line: line, Rules: rules, Pos: Pos{line, textpos.Col(src[lineStart:off], off-lineStart)}})
	}
	return out
}

// parseIgnore reads what follows "fixturegen:" in a comment: " ignore",
// optionally followed by "[rule, ...]". It reports false for anything
// else, such as the region's "begin" and "end" markers.
func parseIgnore(s string) ([]string, bool) {
	s = strings.TrimLeft(s, " \t")
	rest, ok := strings.CutPrefix(s, "ignore")
	if !ok {
		return nil, false
	}
	if rest == "" || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '#' {
		return nil, true // bare: every rule
	}
	if rest[0] != '[' {
		return nil, false // "ignored", "ignore-this": not ours
	}
	inner, _, closed := strings.Cut(rest[1:], "]")
	if !closed {
		return nil, false
	}
	rules := []string{}
	for _, r := range strings.Split(inner, ",") {
		if r = strings.TrimSpace(r); r != "" {
			rules = append(rules, r)
		}
	}
	return rules, true
}
