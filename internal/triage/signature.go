package triage

import (
	"bytes"
	"strconv"

	"github.com/fixturegen/fixturegen/internal/pytext"
	"github.com/fixturegen/fixturegen/internal/timerexc"
)

// Matcher finds clues in lines of failure text.
type Matcher struct {
	// Deadline is the start of the deadline's failure message (the spec's
	// deadline.message), or "" when unknown.
	Deadline []byte
}

// The timers' messages are read as package timerexc reads them, where probe
// reads them too; the others are Python's and pytest's.
var (
	reToken       = timerexc.Token
	reGrace       = timerexc.Grace
	reGenerated   = timerexc.Generated
	reLateImport  = lazyRegexp(pytext.Pattern(pytext.LateImportFormat, map[string]string{"node": "", "modules": `(.+?)`, "fixture": `[A-Za-z_]\w*`}))
	reLateModules = lazyRegexp(pytext.Pattern(pytext.LateModuleFormat, map[string]string{"module": pytext.Module, "seconds": pytext.Number}))

	reObjectAt   = lazyRegexp(`'module' object at ([A-Za-z_][\w.]*) has no attribute '(\w+)'`)
	reModuleAttr = lazyRegexp(`module '([A-Za-z_][\w.]*)' has no attribute '(\w+)'`)
	rePartial    = lazyRegexp(`partially initialized module '([A-Za-z_][\w.]*)'`)
	reCannot     = lazyRegexp(`cannot import name '(\w+)' from '([A-Za-z_][\w.]*)'`)
	reNoModule   = lazyRegexp(`No module named '([A-Za-z_][\w.]*)'`)
)

// Byte strings that must occur for a regexp above to match; checking them
// first keeps the regexps off the great majority of lines.
var (
	// bFixturegen is in every line the runtime writes into a failure or
	// a warning: its token, or the command it tells the user to run.
	bFixturegen = []byte("fixturegen")
	bToken      = timerexc.TokenNeedle
	bGrace      = timerexc.GraceNeedle
	bNoAttr     = []byte("has no attribute '")
	bPartial    = []byte("partially initialized module")
	bCannot     = []byte("cannot import name")
	bCircular   = []byte("(most likely due to a circular import)")
	bNoModule   = []byte("No module named")
	bTimeSuffix = timerexc.GeneratedNeedle
	bTimeout    = timerexc.TimeoutNeedle
	bTimeoutBar = timerexc.TimeoutBanner
	bFirstTime  = []byte(pytext.Needle(pytext.LateImportFormat))
)

// Match appends to clues what line shows. Node, Worker and Loc are left
// for the caller to fill.
func (m *Matcher) Match(line []byte, clues []Clue) []Clue {
	text := func() string { return string(bytes.TrimSpace(line)) }
	if bytes.Contains(line, bToken) {
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
