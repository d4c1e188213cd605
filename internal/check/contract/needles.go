package contract

import (
	"slices"

	"github.com/fixturegen/fixturegen/internal/check/pyscan"
	"github.com/fixturegen/fixturegen/internal/check/treeread"
)

// prefilter decides, from a file's bytes, whether the rules could find
// anything in it, so that only those files are tokenized. It is exact: a
// file it rejects holds none of the words the rules look for, or holds
// them only where no rule reads (a fixture name only in comments, a timer
// call only in comments or strings).
type prefilter struct {
	// names are fixture names and marks, which count in code and in
	// strings (usefixtures("deadline")).
	names *treeread.Matcher
	// A timer can only be armed by a module that names the signal module
	// in its code, so the timer words are looked for only when "signal"
	// is there. Both are nil in a filter for names only.
	signal *treeread.Matcher
	timers *treeread.Matcher
}

// newPrefilter looks for names anywhere but in comments, and for calls in
// code beside "signal"; without calls it is a filter for names only.
func newPrefilter(names, calls []string) *prefilter {
	f := &prefilter{names: treeread.NewMatcher(names)}
	if len(calls) > 0 {
		f.signal = treeread.NewMatcher([]string{"signal"})
		f.timers = treeread.NewMatcher(calls)
	}
	return f
}

// match reports whether data can matter to a rule.
func (f *prefilter) match(data []byte) bool {
	if hits := f.names.Hits(data, nil); len(hits) > 0 {
		slices.Sort(hits)
		for _, p := range pyscan.Places(data, hits) {
			if p != pyscan.InComment {
				return true
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
