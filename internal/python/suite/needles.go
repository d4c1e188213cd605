package suite

import (
	"slices"
	"strings"

	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/internal/python/treeread"
)

// prefilter decides, from a file's bytes, whether the rules could find
// anything in it, so that only those files are tokenized. It is exact: a
// file it rejects holds none of the words the rules look for, or holds
// them only where no rule reads (a fixture name only in comments or as a
// keyword argument, a mark only in comments, a timer call only in
// comments or strings).
//
// Its words are looked for in the bytes first; only when some are
// there does it ask where they lie: fixture names count where a
// file can request or define such a fixture (fixtureWords), and the other
// words are placed with one pyscan.Places for all of them. Places reads
// strings as the Scanner does, and counts the replacement fields of
// formatted strings as code.
type prefilter struct {
	// m looks for every word but the timer calls', which calls looks for
	// only in a file that names "signal": most files do not, and the
	// calls' words are common enough to cost a search of their own.
	m, calls *treeread.Matcher
	// roles says, for each word of m and calls, what it is to the rules: a fixture
	// name, a mark (which counts in code and in strings, as in
	// usefixtures("deadline")), "signal", or a timer call. A timer can
	// only be armed by a module that names the signal module, in its code
	// or in the string of an import call (import_module("signal")), so a
	// call in code counts only beside "signal". A word can be more than
	// one.
	roles    []role
	fixtures *fixtureWords
}

type role uint8

const (
	roleFixture role = 1 << iota
	roleMark
	roleSignal
	roleCall
	roleSyntax // a mark word that counts in code only
)

// newPrefilter looks for fixtures where a file can request or define them,
// for marks anywhere but in comments, and for calls in code beside
// "signal"; without calls it is a filter for names only. pats tell the
// defs that may be tests.
func newPrefilter(fixtures, marks, calls []string, pats *testPatterns) *prefilter {
	var words []string
	var roles []role
	add := func(w string, r role) {
		if w == "" {
			return
		}
		if i := slices.Index(words, w); i >= 0 {
			roles[i] |= r
			return
		}
		words = append(words, w)
		roles = append(roles, r)
	}
	for _, n := range fixtures {
		add(n, roleFixture)
	}
	for _, n := range marks {
		// A word with a space ("mark as", of an import) is syntax, not a
		// name that a string passes: it counts in code alone.
		if strings.Contains(n, " ") {
			add(n, roleSyntax)
		} else {
			add(n, roleMark)
		}
	}
	if len(calls) > 0 {
		add("signal", roleSignal)
		for _, c := range calls {
			add(c, roleCall)
		}
	}
	first, later := make([]string, len(words)), make([]string, len(words))
	for i, w := range words {
		if roles[i] == roleCall {
			later[i] = w
		} else {
			first[i] = w
		}
	}
	return &prefilter{m: treeread.NewMatcher(first), calls: treeread.NewMatcher(later), roles: roles, fixtures: newFixtureWords(fixtures, pats)}
}

// needleScratch is one reader's working memory for the prefilter.
type needleScratch struct {
	hits []treeread.Hit
	offs []int
}

// match reports whether data can matter to a rule: it looks for the
// words, then judges where the ones it found lie.
func (f *prefilter) match(data []byte, sc *needleScratch) bool {
	sc.hits = f.m.Find(data, sc.hits[:0])
	for _, h := range sc.hits {
		if f.roles[h.Word]&roleSignal != 0 {
			sc.hits = f.calls.Find(data, sc.hits)
			break
		}
	}
	if len(sc.hits) == 0 {
		return false
	}
	slices.SortFunc(sc.hits, func(a, b treeread.Hit) int { return a.Off - b.Off })
	// Fixture names first: they have their own reading of the bytes.
	var have role
	sc.offs = sc.offs[:0]
	for _, h := range sc.hits {
		have |= f.roles[h.Word]
		if f.roles[h.Word]&roleFixture != 0 {
			sc.offs = append(sc.offs, h.Off)
		}
	}
	if len(sc.offs) > 0 && f.fixtures.match(data, sc.offs) {
		return true
	}
	timers := have&roleSignal != 0 && have&roleCall != 0
	if have&(roleMark|roleSyntax) == 0 && !timers {
		return false
	}
	// Where each hit that could count lies, in one walk of the bytes.
	sc.offs = sc.offs[:0]
	counted := sc.hits[:0]
	for _, h := range sc.hits {
		if r := f.roles[h.Word]; r&(roleMark|roleSyntax) != 0 || timers && r&^roleFixture != 0 {
			counted = append(counted, h)
			sc.offs = append(sc.offs, h.Off)
		}
	}
	var signal, callInCode bool
	for i, p := range pyscan.Places(data, sc.offs) {
		r := f.roles[counted[i].Word]
		if r&roleMark != 0 && p != pyscan.InComment || r&roleSyntax != 0 && p == pyscan.InCode {
			return true
		}
		// The signal module may be named in a string:
		// importlib.import_module("signal").
		signal = signal || r&roleSignal != 0 && p != pyscan.InComment
		callInCode = callInCode || r&roleCall != 0 && p == pyscan.InCode
	}
	return signal && callInCode
}
