package treeread

import (
	"bytes"
	"math/rand"
	"slices"
	"testing"
)

func TestMatcherFindsEveryOccurrence(t *testing.T) {
	m := NewMatcher(([]string{"alarm", "setitimer", "ALRM"}))
	got, ascii := m.Find([]byte("alarm setitimer SIGALRM alarm"), nil)
	slices.SortFunc(got, func(a, b Hit) int { return a.Off - b.Off })
	want := []Hit{{0, 0}, {6, 1}, {19, 2}, {24, 0}}
	if !slices.Equal(got, want) {
		t.Errorf("hits = %v, want %v", got, want)
	}
	if haveTeddy && !ascii {
		t.Errorf("ascii = false for ASCII bytes")
	}
}

// plainHits is the reference: every offset where each word starts.
func plainHits(ws []string, data []byte) []Hit {
	var want []Hit
	for id, w := range ws {
		if w == "" {
			continue
		}
		for i := range data {
			if bytes.HasPrefix(data[i:], []byte(w)) {
				want = append(want, Hit{i, id})
			}
		}
	}
	return want
}

func sortHits(h []Hit) []Hit {
	slices.SortFunc(h, func(a, b Hit) int {
		if a.Off != b.Off {
			return a.Off - b.Off
		}
		return a.Word - b.Word
	})
	return h
}

// The Teddy search and the byte search find what a plain
// search finds, wherever the words sit and however often their bytes
// occur, for few words and for more than eight, short and long; and the
// Teddy search tells ASCII from the rest.
func TestMatcherAgreesWithPlainSearch(t *testing.T) {
	sets := [][]string{
		{"recovery_deadline", "mcp_sdk", "signal", "alarm", "ALRM", "xdist_group", "kk", "k"},
		{"recovery_deadline", "mcp_sdk", "signal", "setitimer", "alarm", "ALRM", "SIGPROF", "timeout", "xdist_group", "k", "", "sdk"},
		{"signal"},
		{"al", "", "a"},
	}
	rng := rand.New(rand.NewSource(1))
	alphabet := []byte("kmcp_sdrecovyalnigALRMxtu \n\xc3\xa9")
	for n := range 6000 {
		ws := sets[n%len(sets)]
		m := NewMatcher(ws)
		size := rng.Intn(200)
		if n%7 == 0 {
			size = rng.Intn(3000)
		}
		data := make([]byte, size)
		for i := range data {
			data[i] = alphabet[rng.Intn(len(alphabet))]
		}
		if n%3 == 0 {
			for i := range data {
				data[i] &= 0x7f
			}
		}
		for range rng.Intn(6) {
			w := ws[rng.Intn(len(ws))]
			if len(w) <= len(data) {
				copy(data[rng.Intn(len(data)-len(w)+1):], w)
			}
		}
		want := sortHits(plainHits(ws, data))
		for _, path := range []struct {
			name string
			find func() []Hit
		}{
			{"byte", func() []Hit { return m.byteHits(data, nil) }},
			{"teddy", func() []Hit {
				h, ascii := m.teddyHits(data, nil)
				if isASCII := !slices.ContainsFunc(data, func(b byte) bool { return b >= 0x80 }); ascii != isASCII {
					t.Fatalf("case %d %q: teddy says ascii %v", n, data, ascii)
				}
				return h
			}},
			{"find", func() []Hit { h, _ := m.Find(data, nil); return h }},
		} {
			if got := sortHits(path.find()); !slices.Equal(got, want) {
				t.Fatalf("case %d %q, words %q: %s hits %v, want %v", n, data, ws, path.name, got, want)
			}
		}
	}
}

// teddyAVX2, where it is assembly, answers as teddyGo does, from any
// place, on random bytes and fingerprints.
func TestTeddyAgreesWithGo(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for n := range 5000 {
		var ws []string
		for range 1 + rng.Intn(10) {
			w := make([]byte, 1+rng.Intn(5))
			for i := range w {
				w[i] = "abcx\x80"[rng.Intn(5)]
			}
			ws = append(ws, string(w))
		}
		m := NewMatcher(ws)
		data := make([]byte, rng.Intn(300))
		for i := range data {
			data[i] = "abcdxyz\x80\xff"[rng.Intn(9)]
		}
		from := 0
		if len(data) > 0 {
			from = rng.Intn(len(data))
		}
		at, mask, high := teddyAVX2(data, &m.masks, from)
		wat, wmask, whigh := teddyGo(data, &m.masks, from)
		if at != wat || mask != wmask || high != whigh {
			t.Fatalf("case %d: teddyAVX2(%q, %q, %d) = %d %x %x, want %d %x %x", n, data, ws, from, at, mask, high, wat, wmask, whigh)
		}
	}
}
