package treeread

import (
	"bytes"
	"math/bits"
)

// Matcher finds where a few words occur in a file. It is the first thing
// check does with every file, so it must cost far less than reading the
// file did.
//
// bytes.Contains looks for a word's first byte and checks from there; for
// words that start with common letters ("setitimer") that stops at every
// few bytes, and each word costs a pass over the file. The matcher instead
// makes one pass for all its words. On amd64 with AVX2 it looks, 32 places
// at a time, for places where three bytes of some word sit (teddyAVX2, in
// the manner of the Teddy search of Intel's Hyperscan): each word has its
// fingerprint, the three rarest bytes in a row it holds, and up to eight
// fingerprints are looked for at once, so the search seldom stops and
// costs the same for one word as for eight. Elsewhere it looks for the
// rarest byte of each word with bytes.IndexByte, words that share their
// rarest byte sharing a pass. Both find the same hits (a test feeds them
// random inputs).
type Matcher struct {
	passes []pass
	words  []anchored
	// masks are the fingerprints' tables for teddyAVX2, and buckets the
	// words of each bucket, as indices in words.
	masks   teddyMasks
	buckets [8][]int
}

// Hit is one occurrence of a word.
type Hit struct {
	Off  int // where it starts
	Word int // its index in the words given to NewMatcher
}

type pass struct {
	b     byte
	words []anchored
}

type anchored struct {
	word []byte
	id   int // its index in the words given to NewMatcher
	at   int // where the pass's byte sits in word
	// fp is where its fingerprint starts, for the Teddy search: the three
	// bytes from there, or the whole word when it is shorter.
	fp int
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

// fingerprint is the length of the Teddy search's fingerprints.
const fingerprint = 3

// teddyMasks are the tables teddyAVX2 looks nibbles up in: for each byte
// of the fingerprint, one table for its low nibble and one for its high
// nibble, each of 16 bytes repeated for both halves of a 32-byte register.
// Byte n of a table has bit k set when bucket k's fingerprint byte has the
// nibble n there; word i sits in bucket i%8.
type teddyMasks [2 * fingerprint][32]byte

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
		// The rarest three bytes in a row, by the sum of their ranks.
		score := func(i int) int {
			n := 0
			for _, b := range w[i:min(i+fingerprint, len(w))] {
				n += rank(b) + 1
			}
			return n
		}
		for i := 1; i+fingerprint <= len(w); i++ {
			if score(i) < score(a.fp) {
				a.fp = i
			}
		}
		m.buckets[len(m.words)%8] = append(m.buckets[len(m.words)%8], len(m.words))
		bucket := byte(1) << (len(m.words) % 8)
		for p := range fingerprint {
			lo, hi := &m.masks[2*p], &m.masks[2*p+1]
			if a.fp+p >= len(w) {
				// Past the end of a short word: any byte will do.
				for n := range 32 {
					lo[n] |= bucket
					hi[n] |= bucket
				}
				continue
			}
			b := w[a.fp+p]
			lo[b&15] |= bucket
			lo[16+b&15] |= bucket
			hi[b>>4] |= bucket
			hi[16+b>>4] |= bucket
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

// Find appends every occurrence of every word in data to dst, in no
// particular order. ascii reports that data holds only ASCII bytes, which
// spares the caller a check that it is valid UTF-8; it is false when data
// holds another byte, or where the search does not look at every byte
// (without AVX2).
func (m *Matcher) Find(data []byte, dst []Hit) (hits []Hit, ascii bool) {
	switch {
	case len(m.words) == 0:
		return dst, false
	case haveTeddy:
		return m.teddyHits(data, dst)
	}
	return m.byteHits(data, dst), false
}

// teddyHits is Find with teddyAVX2.
func (m *Matcher) teddyHits(data []byte, dst []Hit) ([]Hit, bool) {
	var high uint32
	i := 0
	for {
		at, mask, h := teddyAVX2(data, &m.masks, i)
		high |= h
		if mask == 0 {
			i = at
			break
		}
		dst = m.candidates(data, at, mask, dst)
		i = at + 32
	}
	if i < len(data) {
		// The last places, fewer than 34, are looked at in a copy
		// padded with zero bytes, which no word holds.
		var pad [66]byte
		copy(pad[:], data[i:])
		for j := 0; ; {
			at, mask, h := teddyAVX2(pad[:], &m.masks, j)
			high |= h
			if mask == 0 {
				break
			}
			dst = m.candidates(data, i+at, mask, dst)
			j = at + 32
		}
	}
	return dst, high == 0
}

// candidates checks the words whose fingerprints may sit at the places
// at+j for the bits j of mask, and appends those found.
func (m *Matcher) candidates(data []byte, at int, mask uint32, dst []Hit) []Hit {
	for mask != 0 {
		f := at + bits.TrailingZeros32(mask)
		mask &= mask - 1
		// The buckets whose fingerprint sits at f, as teddyAVX2 found
		// them; only their words are checked.
		buckets := byte(0xff)
		for p := range fingerprint {
			if f+p < len(data) {
				b := data[f+p]
				buckets &= m.masks[2*p][b&15] & m.masks[2*p+1][b>>4]
			} else {
				buckets &= m.masks[2*p][0] & m.masks[2*p+1][0] // the padding's zero byte
			}
		}
		for ; buckets != 0; buckets &= buckets - 1 {
			for _, w := range m.buckets[bits.TrailingZeros8(buckets)] {
				a := &m.words[w]
				start := f - a.fp
				if start >= 0 && start+len(a.word) <= len(data) && data[f] == a.word[a.fp] &&
					bytes.Equal(data[start:start+len(a.word)], a.word) {
					dst = append(dst, Hit{start, a.id})
				}
			}
		}
	}
	return dst
}

// teddyGo is teddyAVX2 in Go, one place at a time: the reference the
// assembly is tested against, and its stand-in where there is none.
func teddyGo(s []byte, masks *teddyMasks, from int) (at int, mask uint32, high uint32) {
	for i := from; i+34 <= len(s); i += 32 {
		for j := range 32 {
			if s[i+j] >= 0x80 {
				high |= 1 << j
			}
			buckets := byte(0xff)
			for p := range fingerprint {
				b := s[i+j+p]
				buckets &= masks[2*p][b&15] & masks[2*p+1][b>>4]
			}
			if buckets != 0 {
				mask |= 1 << j
			}
		}
		if mask != 0 {
			return i, mask, high
		}
		at = i + 32
	}
	return max(at, from), 0, high
}

// byteHits is Find with a pass of bytes.IndexByte per rarest byte.
func (m *Matcher) byteHits(data []byte, dst []Hit) []Hit {
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
					dst = append(dst, Hit{start, a.id})
				}
			}
			off = hit + 1
		}
	}
	return dst
}
