package treeread

import (
	"bytes"
)

// Matcher finds whether any of a few words occurs in a file. It is the
// first thing check does with every file, so it must cost far less than
// reading the file did.
//
// bytes.Contains looks for a word's first byte and checks from there; for
// words that start with common letters ("setitimer") that stops at every
// few bytes. The matcher instead looks, on amd64, for the places where the
// two rarest bytes of a word both sit, 16 places at a time (indexPair),
// and checks the word around each; such places are rare even where each
// byte alone is common, so the search seldom stops. Elsewhere it looks for
// the rarest byte of each word with bytes.IndexByte, which runs many bytes
// per cycle, and checks the word around each hit; words that share their
// rarest byte share a pass.
type Matcher struct {
	passes []pass
	words  []anchored
}

type pass struct {
	b     byte
	words []anchored
}

type anchored struct {
	word []byte
	at   int // where the pass's byte sits in word
	// lo and hi are where the word's two rarest bytes sit, lo < hi, for
	// the pair search; hi is -1 in a word of one byte.
	lo, hi int
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

// NewMatcher returns a Matcher for words, skipping empty ones.
func NewMatcher(words []string) *Matcher {
	m := &Matcher{}
	for _, word := range words {
		if word == "" {
			continue
		}
		w := []byte(word)
		at := 0
		for i := range w {
			if rank(w[i]) < rank(w[at]) {
				at = i
			}
		}
		// The second rarest byte, preferably another letter than the
		// rarest, so that the pair says more than either.
		better := func(i, j int) bool { // w[i] over w[j]
			if di, dj := w[i] != w[at], w[j] != w[at]; di != dj {
				return di
			}
			return rank(w[i]) < rank(w[j])
		}
		at2 := -1
		for i := range w {
			if i != at && (at2 < 0 || better(i, at2)) {
				at2 = i
			}
		}
		a := anchored{word: w, at: at, lo: min(at, at2), hi: max(at, at2)}
		if at2 < 0 {
			a.lo, a.hi = at, -1
		}
		m.words = append(m.words, a)
		b := w[at]
		found := false
		for i := range m.passes {
			if m.passes[i].b == b {
				m.passes[i].words = append(m.passes[i].words, a)
				found = true
			}
		}
		if !found {
			m.passes = append(m.passes, pass{b, []anchored{a}})
		}
	}
	return m
}

// Hits appends the offset of every occurrence of every word in data.
func (m *Matcher) Hits(data []byte, dst []int) []int {
	if !havePairSearch {
		return m.byteHits(data, dst)
	}
	for _, a := range m.words {
		if a.hi < 0 {
			for off := 0; ; {
				i := bytes.IndexByte(data[off:], a.word[0])
				if i < 0 {
					break
				}
				dst = append(dst, off+i)
				off += i + 1
			}
			continue
		}
		b0, b1, d := a.word[a.lo], a.word[a.hi], a.hi-a.lo
		for off := a.lo; off < len(data); {
			i := indexPair(data[off:], b0, b1, d)
			if i < 0 {
				break
			}
			start := off + i - a.lo
			if start+len(a.word) <= len(data) && bytes.Equal(data[start:start+len(a.word)], a.word) {
				dst = append(dst, start)
			}
			off += i + 1
		}
	}
	return dst
}

// indexPair returns the lowest i with s[i] == a and s[i+d] == b, or -1.
func indexPair(s []byte, a, b byte, d int) int {
	n := len(s) - d // the places i can be
	if n <= 0 {
		return -1
	}
	blocks := n &^ 15
	if blocks > 0 {
		if i := indexPairBlocks(s, a, b, d, blocks); i >= 0 {
			return i
		}
	}
	for i := blocks; i < n; i++ {
		if s[i] == a && s[i+d] == b {
			return i
		}
	}
	return -1
}

// byteHits is Hits with a pass of bytes.IndexByte per rarest byte.
func (m *Matcher) byteHits(data []byte, dst []int) []int {
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
					dst = append(dst, start)
				}
			}
			off = hit + 1
		}
	}
	return dst
}
