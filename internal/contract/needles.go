package contract

import "bytes"

// matcher finds whether any of a few words occurs in a file. It is the
// first thing check does with every file, so it must cost far less than
// reading the file did.
//
// bytes.Contains looks for a word's first byte and checks from there; for
// words that start with common letters ("setitimer") that stops at every
// few bytes. The matcher instead looks for the rarest byte of each word
// with bytes.IndexByte, which runs many bytes per cycle, and checks the
// word around each hit. Words that share their rarest byte share a pass.
type matcher struct {
	passes []pass
}

type pass struct {
	b     byte
	words []anchored
}

type anchored struct {
	word []byte
	at   int // where the pass's byte sits in word
}

// rarity ranks bytes by how often they occur in Python source, rarest
// first; bytes not listed (digits, capitals, punctuation) count as rare.
const rarity = "qjzxkvywbgfhmpucldonaristeETSRNIAO_ .\n"

func rank(b byte) int {
	i := bytes.IndexByte([]byte(rarity), b)
	if i < 0 {
		return -1
	}
	return i
}

func newMatcher(words [][]byte) *matcher {
	m := &matcher{}
	for _, w := range words {
		if len(w) == 0 {
			continue
		}
		at := 0
		for i := range w {
			if rank(w[i]) < rank(w[at]) {
				at = i
			}
		}
		b := w[at]
		found := false
		for i := range m.passes {
			if m.passes[i].b == b {
				m.passes[i].words = append(m.passes[i].words, anchored{w, at})
				found = true
			}
		}
		if !found {
			m.passes = append(m.passes, pass{b, []anchored{{w, at}}})
		}
	}
	return m
}

// any reports whether data holds one of the words.
func (m *matcher) any(data []byte) bool {
	for _, p := range m.passes {
		for off := 0; ; {
			i := bytes.IndexByte(data[off:], p.b)
			if i < 0 {
				break
			}
			hit := off + i
			for _, a := range p.words {
				start := hit - a.at
				if start >= 0 && start+len(a.word) <= len(data) && bytes.Equal(data[start:start+len(a.word)], a.word) {
					return true
				}
			}
			off = hit + 1
		}
	}
	return false
}
