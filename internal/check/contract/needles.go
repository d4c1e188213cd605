package contract

import (
	"slices"

	"github.com/fixturegen/fixturegen/internal/check/pyscan"
	"github.com/fixturegen/fixturegen/internal/check/treeread"
)

// prefilter decides, from a file's bytes, whether the rules could find
// anything in it, so that only those files are tokenized. It is exact: a
// file it rejects holds none of the words the rules look for, or holds
// them only where no rule reads (a fixture name only in comments or as a
// keyword argument, a timer call only in comments or strings).
type prefilter struct {
	// fixtures are fixture names, which count where a file can request
	// or define such a fixture (fixtureWords); marks are the names of
	// marks, which count in code and in strings. marks is nil when there
	// are none.
	fixtures *fixtureWords
	marks    *treeread.Matcher
	// A timer can only be armed by a module that names the signal module
	// in its code, so the timer words are looked for only when "signal"
	// is there. Both are nil in a filter for names only.
	signal *treeread.Matcher
	timers *treeread.Matcher
}

// newPrefilter looks for fixtures where a file can request or define them,
// for marks anywhere but in comments, and for calls in code beside
// "signal"; without calls it is a filter for names only. pats tell the
// defs that may be tests.
func newPrefilter(fixtures, marks, calls []string, pats *testPatterns) *prefilter {
	f := &prefilter{fixtures: newFixtureWords(fixtures, pats)}
	if len(marks) > 0 {
		f.marks = treeread.NewMatcher(marks)
	}
	if len(calls) > 0 {
		f.signal = treeread.NewMatcher([]string{"signal"})
		f.timers = treeread.NewMatcher(calls)
	}
	return f
}

// match reports whether data can matter to a rule.
func (f *prefilter) match(data []byte) bool {
	if f.fixtures.match(data) {
		return true
	}
	if f.marks != nil {
		if hits := f.marks.Hits(data, nil); len(hits) > 0 {
			slices.Sort(hits)
			for _, p := range pyscan.Places(data, hits) {
				if p != pyscan.InComment {
					return true
				}
			}
		}
	}
	if f.signal == nil {
		return false // a filter for names only
	}
	sig := f.signal.Hits(data, nil)
	if len(sig) == 0 {
		return false
	}
	tim := f.timers.Hits(data, nil)
	if len(tim) == 0 {
		return false
	}
	all := append(sig, tim...)
	slices.Sort(all)
	places := pyscan.Places(data, all)
	inCode := func(offs []int) bool {
		for _, o := range offs {
			i, _ := slices.BinarySearch(all, o)
			if places[i] == pyscan.InCode {
				return true
			}
		}
		return false
	}
	return inCode(sig) && inCode(tim)
}
