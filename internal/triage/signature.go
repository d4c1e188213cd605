package triage

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"

	"github.com/fixturegen/fixturegen/internal/lazyregexp"
	"github.com/fixturegen/fixturegen/internal/pytext"
	"github.com/fixturegen/fixturegen/internal/timerexc"
	"github.com/fixturegen/fixturegen/schema"
)

// Matcher finds clues in lines of failure text.
type Matcher struct {
	// Deadline is the start of the deadline's failure message (the spec's
	// deadline.message, when it has no {seconds} field), or "" when
	// unknown.
	Deadline []byte
	// filled reads a deadline.message that places the seconds itself: its
	// literal text quoted, the field a number (the first one captured).
	// needle is its longest literal part, which every such failure holds.
	filled *regexp.Regexp
	needle []byte
	// percent is true when the captured field writes the seconds as a
	// percentage.
	percent bool
}

// NewMatcher returns a Matcher for the failures of a spec's
// deadline.message ("" when there is no spec). A message that places the
// seconds itself ("Test exceeded {seconds:g} seconds") is read as its
// failure says it, the seconds as whatever number its format wrote; one
// that does not is the start of a failure that ends "(<seconds> s, <timer>)".
func NewMatcher(message string) *Matcher {
	m := &Matcher{}
	f, p := schema.ParseMessage(message)
	switch {
	case message == "":
	case p != nil || !f.HasSeconds():
		// A message the loader refused reaches here only from a caller
		// that skipped it: read as text, as before fields existed.
		text := message
		if p == nil {
			text = f.Text()
		}
		m.Deadline = []byte(text)
	default:
		var b strings.Builder
		captured := false
		for _, part := range f {
			if part.Literal != "" {
				b.WriteString(regexp.QuoteMeta(part.Literal))
				if len(part.Literal) > len(m.needle) {
					m.needle = []byte(part.Literal)
				}
				continue
			}
			if !captured {
				m.percent = strings.HasSuffix(part.Spec, "%")
			}
			b.WriteString(numberPattern(part.Spec, !captured))
			captured = true
		}
		m.filled = regexp.MustCompile(b.String())
	}
	return m
}

// numberPattern matches a number as the format spec writes it (Python's
// format-spec mini-language): padded with its fill, signed, its digits
// grouped, with a fraction, an exponent or a percent sign. capture makes
// its digits a group.
func numberPattern(spec string, capture bool) string {
	fill := " "
	if rs := []rune(spec); len(rs) >= 2 && strings.ContainsRune("<>=^", rs[1]) {
		fill = string(rs[0])
	}
	pad := "(?:" + regexp.QuoteMeta(fill) + ")*"
	digits := `\d[\d,_]*(?:\.\d*)?(?:[eE][-+]?\d+)?`
	if capture {
		digits = "(" + digits + ")"
	}
	return pad + `[-+ ]?` + pad + digits + `%?` + pad
}

// seconds reads the seconds a filled message's number says.
func (m *Matcher) seconds(number []byte) float64 {
	v, err := strconv.ParseFloat(strings.NewReplacer(",", "", "_", "").Replace(string(number)), 64)
	if err != nil {
		return 0
	}
	if m.percent {
		v /= 100
	}
	return v
}

// The timers' messages are read as package timerexc reads them, where probe
// reads them too; the others are Python's and pytest's. Each compiles when
// first used: only triage uses these, and each one would cost every
// command's start-up.
var (
	reLateImport  = lazyregexp.New(pytext.Pattern(pytext.LateImportFormat, map[string]string{"node": "", "modules": `(.+?)`, "fixture": `[A-Za-z_]\w*`}))
	reLateModules = lazyregexp.New(pytext.Pattern(pytext.LateModuleFormat, map[string]string{"module": pytext.Module, "seconds": pytext.Number}))

	reObjectAt   = lazyregexp.New(`'module' object at ([A-Za-z_][\w.]*) has no attribute '(\w+)'`)
	reModuleAttr = lazyregexp.New(`module '([A-Za-z_][\w.]*)' has no attribute '(\w+)'`)
	rePartial    = lazyregexp.New(`partially initialized module '([A-Za-z_][\w.]*)'`)
	reCannot     = lazyregexp.New(`cannot import name '(\w+)' from '([A-Za-z_][\w.]*)'`)
	reNoModule   = lazyregexp.New(`No module named '([A-Za-z_][\w.]*)'`)
)

// Byte strings that must occur for a regexp above to match; checking them
// first keeps the regexps off the great majority of lines.
var (
	// bFixturegen is in every line the runtime writes into a failure or
	// a warning: its token, or the command it tells the user to run.
	bFixturegen = []byte("fixturegen")
	bNoAttr     = []byte("has no attribute '")
	bPartial    = []byte("partially initialized module")
	bCannot     = []byte("cannot import name")
	bCircular   = []byte("(most likely due to a circular import)")
	bNoModule   = []byte("No module named")
	bFirstTime  = []byte(pytext.Needle(pytext.LateImportFormat))
)

// Match appends to clues what line shows. Node, Worker and Loc are left
// for the caller to fill.
func (m *Matcher) Match(line []byte, clues []Clue) []Clue {
	text := func() string { return string(bytes.TrimSpace(line)) }
	// find runs re on the line only when the line holds its needle.
	find := func(needle []byte, re func() *regexp.Regexp) [][]byte {
		if !bytes.Contains(line, needle) {
			return nil
		}
		return re().FindSubmatch(line)
	}
	if bytes.Contains(line, timerexc.TokenNeedle) {
		for _, sm := range timerexc.Token().FindAllSubmatch(line, -1) {
			clues = append(clues, Clue{Kind: ImportInterrupted, Module: string(sm[1]), Certain: true, Text: text()})
		}
	}
	if sm := find(timerexc.GraceNeedle, timerexc.Grace); sm != nil {
		clues = append(clues, Clue{Kind: ImportInterrupted, Module: string(sm[1]), Certain: true, Text: text()})
	}
	if sm := find(bNoAttr, reObjectAt); sm != nil {
		mod, attr := string(sm[1]), string(sm[2])
		// pytest's monkeypatch names the dotted path it resolved: when
		// that path ends in the missing attribute, the attribute is the
		// submodule itself.
		certain := len(mod) > len(attr) && mod[len(mod)-len(attr)-1:] == "."+attr
		clues = append(clues, Clue{Kind: HalfImport, Module: mod, Attr: attr, Certain: certain, Text: text()})
	} else if sm := find(bNoAttr, reModuleAttr); sm != nil {
		clues = append(clues, Clue{Kind: HalfImport, Module: string(sm[1]), Attr: string(sm[2]), Text: text()})
	}
	if sm := find(bPartial, rePartial); sm != nil {
		clues = append(clues, Clue{Kind: HalfImport, Module: string(sm[1]), Certain: true, Text: text()})
	}
	if sm := find(bCannot, reCannot); sm != nil {
		circular := bytes.Contains(line, bCircular)
		clues = append(clues, Clue{Kind: HalfImport, Module: string(sm[2]), Attr: string(sm[1]), Certain: circular, Text: text()})
	}
	if sm := find(bNoModule, reNoModule); sm != nil {
		clues = append(clues, Clue{Kind: HalfImport, Module: string(sm[1]), Text: text()})
	}
	var filled [][]byte
	if m.filled != nil && bytes.Contains(line, m.needle) {
		filled = m.filled.FindSubmatch(line)
	}
	generated := find(timerexc.GeneratedNeedle, timerexc.Generated)
	switch {
	case filled != nil:
		clues = append(clues, Clue{Kind: DeadlineFailure, Text: text(), Seconds: m.seconds(filled[1])})
	case generated != nil || len(m.Deadline) > 0 && bytes.Contains(line, m.Deadline):
		c := Clue{Kind: DeadlineFailure, Text: text()}
		if generated != nil {
			c.Seconds, _ = strconv.ParseFloat(string(generated[1]), 64)
		}
		clues = append(clues, c)
	}
	if bytes.Contains(line, timerexc.TimeoutNeedle) || bytes.Contains(line, timerexc.TimeoutBanner) {
		clues = append(clues, Clue{Kind: Timeout, Certain: true, Text: text()})
	}
	if sm := find(bFirstTime, reLateImport); sm != nil {
		for _, mm := range reLateModules().FindAllSubmatch(sm[1], -1) {
			clues = append(clues, Clue{Kind: LateImport, Module: string(mm[1]), Certain: true, Text: text()})
		}
	}
	return clues
}

// matchAt appends the clues text shows about node, all at loc.
func (m *Matcher) matchAt(clues []Clue, text []byte, node string, loc Loc) []Clue {
	start := len(clues)
	clues = m.Match(text, clues)
	for i := start; i < len(clues); i++ {
		clues[i].Node, clues[i].Loc = node, loc
	}
	return clues
}
