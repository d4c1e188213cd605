package suite

import (
	"bytes"

	"github.com/fixturegen/fixturegen/internal/python/pyscan"
)

// fixtureWords tells, from a file's bytes, whether the file can request or
// define a fixture of one of a few names, so that only those files are
// tokenized. A fixture name is often a common word ("timeout") that a
// test suite names everywhere: in keyword arguments, attributes and
// messages. The rules read a fixture name only where Scan puts it in
//
//   - a parameter of a test or a fixture (a request),
//   - the name of a fixture's def,
//   - a string literal whose value is the name (a usefixtures argument, a
//     fixture's name="..."),
//
// so a word found anywhere else cannot matter. Fixtures are defined only
// by decorators that resolve to pytest's fixture, and usefixtures is a
// mark of that name: a file without the bytes "fixture" has neither, and
// only the parameters of defs that may be tests can request a fixture in
// it.
//
// It errs one way only: where it cannot tell, the file is tokenized.
type fixtureWords struct {
	words [][]byte
	pats  *testPatterns
}

func newFixtureWords(names []string, pats *testPatterns) *fixtureWords {
	w := &fixtureWords{pats: pats}
	for _, n := range names {
		if n != "" {
			w.words = append(w.words, []byte(n))
		}
	}
	return w
}

var fixtureWord = []byte("fixture")

// match reports whether data can request or define one of the fixtures,
// from the offsets of the fixture names in it, in order. It may reorder
// and overwrite hits.
func (w *fixtureWords) match(data []byte, hits []int) bool {
	// Most hits of a common word are parts of longer names or attributes
	// ("settimeout", "self.timeout"), which count nowhere, not even in a
	// string: they are dropped before anything reads the file around them.
	kept := hits[:0]
	for _, h := range hits {
		end := h + w.wordLen(data, h)
		if h > 0 && pyscan.IsNameByte(data[h-1]) || end < len(data) && pyscan.IsNameByte(data[end]) {
			continue // part of a longer name
		}
		if prev := lastNonBlank(data, h); prev >= 0 && data[prev] == '.' {
			continue // an attribute, or a module in a relative import
		}
		kept = append(kept, h)
	}
	if len(kept) == 0 {
		return false
	}
	if !bytes.Contains(data, fixtureWord) {
		// Only a test's parameters count, and a parameter list lies in
		// code: when none holds a hit, where the hits lie does not matter.
		if !pyscan.InParams(data, kept, w.mayBeTest) {
			return false
		}
		var code []int
		for i, place := range pyscan.Places(data, kept) {
			if place == pyscan.InCode {
				code = append(code, kept[i])
			}
		}
		return pyscan.InParams(data, code, w.mayBeTest)
	}
	var params []int // hits in code that only a parameter list can make count
	for i, place := range pyscan.Places(data, kept) {
		h := kept[i]
		switch place {
		case pyscan.InComment:
			continue
		case pyscan.InString:
			if literalIs(data, h, h+w.wordLen(data, h)) {
				return true
			}
			continue
		}
		if prev := lastNonBlank(data, h); afterDef(data, prev) || continued(data, prev) {
			return true // a fixture's def, or a line too hard to read from its bytes
		}
		params = append(params, h)
	}
	// Any def may be a fixture.
	return pyscan.InParams(data, params, func([]byte) bool { return true })
}

// wordLen is the length of the name found at h.
func (w *fixtureWords) wordLen(data []byte, h int) int {
	n := 0
	for _, word := range w.words {
		if len(word) > n && bytes.HasPrefix(data[h:], word) {
			n = len(word)
		}
	}
	return n
}

// mayBeTest reports whether a function of this name may be a test:
// python_functions names it, or it is named as unittest's loader names a
// test case's tests.
func (w *fixtureWords) mayBeTest(name []byte) bool {
	return bytes.HasPrefix(name, []byte("test")) || matchName(w.pats.funcs, string(name))
}

// literalIs reports whether the string literal around data[start:end]
// may have exactly those bytes as its value: a quote sits on each side,
// or an escaped line break, which the value leaves out. Any other byte
// beside them is a character of the value.
func literalIs(data []byte, start, end int) bool {
	if start == 0 || end >= len(data) {
		return false
	}
	switch data[start-1] {
	case '"', '\'', '\n', '\r':
	default:
		return false
	}
	switch data[end] {
	case '"', '\'', '\\':
		return true
	}
	return false
}

// lastNonBlank returns the offset of the last byte before i that is not a
// space, a tab or a form feed, or -1.
func lastNonBlank(data []byte, i int) int {
	for i--; i >= 0 && (data[i] == ' ' || data[i] == '\t' || data[i] == '\f'); i-- {
	}
	return i
}

// afterDef reports whether the keyword def ends at p.
func afterDef(data []byte, p int) bool {
	return p >= 2 && string(data[p-2:p+1]) == "def" && (p == 2 || !pyscan.IsNameByte(data[p-3]))
}

// continued reports whether the line break at p may follow a backslash
// that continues the line, which would make the name at the start of the
// next line part of the statement before it.
func continued(data []byte, p int) bool {
	if p < 1 || data[p] != '\n' && data[p] != '\r' {
		return false
	}
	if data[p] == '\n' && data[p-1] == '\r' {
		p--
	}
	return p >= 1 && data[p-1] == '\\'
}
