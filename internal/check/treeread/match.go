package treeread

import "bytes"

// Matcher finds where a few words occur in a file. It is the first thing
// check does with every file, so it makes one bytes.Index pass per word,
// which the standard library runs with the processor's vector
// instructions.
type Matcher struct {
	words [][]byte // indexed as the words given to NewMatcher; nil for ""
}

// Hit is one occurrence of a word.
type Hit struct {
	Off  int // where it starts
	Word int // its index in the words given to NewMatcher
}

// NewMatcher returns a Matcher for words; empty words are never found.
func NewMatcher(words []string) *Matcher {
	m := &Matcher{words: make([][]byte, len(words))}
	for i, w := range words {
		if w != "" {
			m.words[i] = []byte(w)
		}
	}
	return m
}

// Find appends every occurrence of every word in data to dst, word after
// word, each word's in the order they occur.
func (m *Matcher) Find(data []byte, dst []Hit) []Hit {
	for id, w := range m.words {
		if w == nil {
			continue
		}
		for off := 0; ; {
			i := bytes.Index(data[off:], w)
			if i < 0 {
				break
			}
			dst = append(dst, Hit{off + i, id})
			off += i + 1
		}
	}
	return dst
}
