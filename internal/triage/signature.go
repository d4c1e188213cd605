package triage

import (
	"bytes"
	"strconv"
)

// InterruptedToken starts the line the generated deadline writes into a
// test's failure when its alarm interrupted an import:
//
//	[fixturegen:import-interrupted module=mcp.server]
//
// It is recognised with certainty wherever it appears.
const InterruptedToken = "[fixturegen:import-interrupted module="

// Matcher finds clues in lines of failure text.
type Matcher struct {
	// Deadline is the start of the deadline's AssertionError message
	// (the spec's deadline.message), or "" when unknown.
	Deadline []byte
}

var (
	reToken       = lazyRegexp(`\[fixturegen:import-interrupted module=([A-Za-z_][\w.]*)\]`)
	reGrace       = lazyRegexp(`importing ([A-Za-z_][\w.]*) took longer than import_grace`)
	reObjectAt    = lazyRegexp(`'module' object at ([A-Za-z_][\w.]*) has no attribute '(\w+)'`)
	reModuleAttr  = lazyRegexp(`module '([A-Za-z_][\w.]*)' has no attribute '(\w+)'`)
	rePartial     = lazyRegexp(`partially initialized module '([A-Za-z_][\w.]*)'`)
	reCannot      = lazyRegexp(`cannot import name '(\w+)' from '([A-Za-z_][\w.]*)'`)
	reNoModule    = lazyRegexp(`No module named '([A-Za-z_][\w.]*)'`)
	reGenerated   = lazyRegexp(`(?:AssertionError|_FixturegenDeadlineExceeded): .*\((\d+(?:\.\d+)?) s, (?:real|user CPU|CPU) time\)`)
	reLateImport  = lazyRegexp(`imported (.+?) for the first time while`)
	reLateModules = lazyRegexp(`([A-Za-z_][\w.]*) \((\d+(?:\.\d+)?) s\)`)
)

// Byte strings that must occur for a regexp above to match; checking them
// first keeps the regexps off the great majority of lines.
var (
	bFixturegen = []byte("fixturegen")
	bGrace      = []byte("import_grace")
	bNoAttr     = []byte("has no attribute '")
	bPartial    = []byte("partially initialized module")
	bCannot     = []byte("cannot import name")
	bCircular   = []byte("(most likely due to a circular import)")
	bNoModule   = []byte("No module named")
	bTimeSuffix = []byte(" time)")
	bTimeout    = []byte("Timeout (>")
	bTimeoutBar = []byte("+ Timeout +")
	bFirstTime  = []byte("for the first time while")
)

// Match appends to clues what line shows. Node, Worker and Loc are left
// for the caller to fill.
func (m *Matcher) Match(line []byte, clues []Clue) []Clue {
	text := func() string { return string(bytes.TrimSpace(line)) }
	if bytes.Contains(line, bFixturegen) {
		for _, sm := range reToken().FindAllSubmatch(line, -1) {
			clues = append(clues, Clue{Kind: ImportInterrupted, Module: string(sm[1]), Certain: true, Text: text()})
		}
	}
	if bytes.Contains(line, bGrace) {
		if sm := reGrace().FindSubmatch(line); sm != nil {
			clues = append(clues, Clue{Kind: ImportInterrupted, Module: string(sm[1]), Certain: true, Text: text()})
		}
	}
	if bytes.Contains(line, bNoAttr) {
		if sm := reObjectAt().FindSubmatch(line); sm != nil {
			mod, attr := string(sm[1]), string(sm[2])
			// pytest's monkeypatch names the dotted path it resolved:
			// when that path ends in the missing attribute, the
			// attribute is the submodule itself.
			certain := len(mod) > len(attr) && mod[len(mod)-len(attr)-1:] == "."+attr
			clues = append(clues, Clue{Kind: HalfImport, Module: mod, Attr: attr, Certain: certain, Text: text()})
		} else if sm := reModuleAttr().FindSubmatch(line); sm != nil {
			clues = append(clues, Clue{Kind: HalfImport, Module: string(sm[1]), Attr: string(sm[2]), Text: text()})
		}
	}
	if bytes.Contains(line, bPartial) {
		if sm := rePartial().FindSubmatch(line); sm != nil {
			clues = append(clues, Clue{Kind: HalfImport, Module: string(sm[1]), Certain: true, Text: text()})
		}
	}
	if bytes.Contains(line, bCannot) {
		if sm := reCannot().FindSubmatch(line); sm != nil {
			circular := bytes.Contains(line, bCircular)
			clues = append(clues, Clue{Kind: HalfImport, Module: string(sm[2]), Attr: string(sm[1]), Certain: circular, Text: text()})
		}
	}
	if bytes.Contains(line, bNoModule) {
		if sm := reNoModule().FindSubmatch(line); sm != nil {
			clues = append(clues, Clue{Kind: HalfImport, Module: string(sm[1]), Text: text()})
		}
	}
	switch {
	case len(m.Deadline) > 0 && bytes.Contains(line, m.Deadline):
		c := Clue{Kind: DeadlineFailure, Text: text()}
		if sm := reGenerated().FindSubmatch(line); sm != nil {
			c.Seconds, _ = strconv.ParseFloat(string(sm[1]), 64)
		}
		clues = append(clues, c)
	case bytes.Contains(line, bTimeSuffix):
		if sm := reGenerated().FindSubmatch(line); sm != nil {
			c := Clue{Kind: DeadlineFailure, Text: text()}
			c.Seconds, _ = strconv.ParseFloat(string(sm[1]), 64)
			clues = append(clues, c)
		}
	}
	if bytes.Contains(line, bTimeout) || bytes.Contains(line, bTimeoutBar) {
		clues = append(clues, Clue{Kind: Timeout, Certain: true, Text: text()})
	}
	if bytes.Contains(line, bFirstTime) {
		if sm := reLateImport().FindSubmatch(line); sm != nil {
			for _, mm := range reLateModules().FindAllSubmatch(sm[1], -1) {
				clues = append(clues, Clue{Kind: LateImport, Module: string(mm[1]), Certain: true, Text: text()})
			}
		}
	}
	return clues
}
