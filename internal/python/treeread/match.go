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
	word string
	id   int // its index in the words given to NewMatcher
	at   int // where the pass's byte sits in word
	// first and last are the word's first and last bytes, kept beside it
	// for the comparison made at every stop.
	first, last byte
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
		at := 0
		for i := range word {
			if rank(word[i]) < rank(word[at]) {
				at = i
			}
		}
		a := anchored{word: word, id: id, at: at, first: word[0], last: word[len(word)-1]}
		found := false
		for i := range m.passes {
			if m.passes[i].b == word[at] {
				m.passes[i].words = append(m.passes[i].words, a)
				found = true
			}
		}
		if !found {
			m.passes = append(m.passes, pass{word[at], []anchored{a}})
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
		words := p.words
		for off := 0; off < len(data); {
			i := bytes.IndexByte(data[off:], p.b)
			if i < 0 {
				break
			}
			hit := off + i
			off = hit + 1
			for wi := range words {
				a := &words[wi]
				start := hit - a.at
				end := start + len(a.word)
				if start < 0 || end > len(data) || data[start] != a.first || data[end-1] != a.last {
					continue
				}
				if string(data[start:end]) == a.word {
					dst = append(dst, Hit{start, a.id})
				}
			}
		}
	}
	return dst
}
