package treeread

import "bytes"

// Matcher finds where a few words occur in a file. It is the first thing
// check does with every file, so it must cost far less than reading the
// file did.
//
// bytes.Index stops at every occurrence of a word's first byte, and the
// timer words start with common letters ("setitimer", "signal", "alarm"):
// a pass per word stopped every few bytes. The matcher instead looks for
// the rarest byte of each word, in Python source, with bytes.IndexByte,
// and checks the words around each stop; words that share their rarest
// byte share a pass.
type Matcher struct {
	passes []pass
}

// Hit is one occurrence of a word.
type Hit struct {
	Off  int // where it starts
	Word int // its index in the words given to NewMatcher
}

// pass is one search: for the byte b, of the words that have it as their
// rarest.
type pass struct {
	b     byte
	words []anchored
}

type anchored struct {
	word []byte
	id   int // its index in the words given to NewMatcher
	at   int // where the pass's byte sits in word
}

// rarity ranks bytes by how often they occur in Python source, rarest
// first; bytes not listed (digits, most capitals, punctuation) count as
// rarer still.
const rarity = "qjzxkvywbgfhmpucldonaristeETSRNIAO_ .\n"

func rank(b byte) int { return bytes.IndexByte([]byte(rarity), b) }

// NewMatcher returns a Matcher for words; empty words are never found.
func NewMatcher(words []string) *Matcher {
	m := &Matcher{}
	for id, word := range words {
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
		a := anchored{word: w, id: id, at: at}
		found := false
		for i := range m.passes {
			if m.passes[i].b == w[at] {
				m.passes[i].words = append(m.passes[i].words, a)
				found = true
			}
		}
		if !found {
			m.passes = append(m.passes, pass{w[at], []anchored{a}})
		}
	}
	return m
}

// Find appends every occurrence of every word in data to dst, in no
// particular order.
//
// The search stops at every occurrence of a pass's byte, hundreds of
// thousands of times in a large tree, and nearly every stop is not a
// word: each stop costs a call to bytes.IndexByte and a comparison of
// the word's first and last bytes, and only those that agree compare the
// whole word.
func (m *Matcher) Find(data []byte, dst []Hit) []Hit {
	for pi := range m.passes {
		p := &m.passes[pi]
		for off := 0; off < len(data); {
			i := bytes.IndexByte(data[off:], p.b)
			if i < 0 {
				break
			}
			hit := off + i
			off = hit + 1
			for wi := range p.words {
				a := &p.words[wi]
				start, end := hit-a.at, hit-a.at+len(a.word)
				if start < 0 || end > len(data) || data[start] != a.word[0] || data[end-1] != a.word[len(a.word)-1] {
					continue
				}
				if string(data[start:end]) == string(a.word) {
					dst = append(dst, Hit{start, a.id})
				}
			}
		}
	}
	return dst
}
