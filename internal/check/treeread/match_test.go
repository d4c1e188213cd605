package treeread

import (
	"bytes"
	"math/rand"
	"slices"
	"testing"
)

func TestMatcherFindsEveryOccurrence(t *testing.T) {
	m := NewMatcher(([]string{"alarm", "setitimer", "ALRM"}))
	got := m.Hits([]byte("alarm setitimer SIGALRM alarm"), nil)
	if len(got) != 4 {
		t.Errorf("hits = %v, want 4 offsets", got)
	}
}

// The pair search and the byte search find what a plain search finds,
// wherever the words sit and however often their bytes occur.
func TestMatcherAgreesWithPlainSearch(t *testing.T) {
	ws := []string{"recovery_deadline", "mcp_sdk", "signal", "alarm", "ALRM", "xdist_group", "kk", "k"}
	m := NewMatcher((ws))
	rng := rand.New(rand.NewSource(1))
	alphabet := []byte("kmcp_sdrecovyalnigALRMx \n")
	for n := range 2000 {
		data := make([]byte, rng.Intn(200))
		for i := range data {
			data[i] = alphabet[rng.Intn(len(alphabet))]
		}
		for range rng.Intn(4) {
			w := ws[rng.Intn(len(ws))]
			if len(w) <= len(data) {
				copy(data[rng.Intn(len(data)-len(w)+1):], w)
			}
		}
		var want []int
		for _, w := range ws {
			for i := range data {
				if bytes.HasPrefix(data[i:], []byte(w)) {
					want = append(want, i)
				}
			}
		}
		slices.Sort(want)
		got := m.Hits(data, nil)
		slices.Sort(got)
		byByte := m.byteHits(data, nil)
		slices.Sort(byByte)
		if !slices.Equal(got, want) || !slices.Equal(byByte, want) {
			t.Fatalf("case %d %q: hits %v, byte hits %v, want %v", n, data, got, byByte, want)
		}
	}
}

func TestIndexPair(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for range 20000 {
		// Mostly c, so that a pair is rare and found in any block.
		s := make([]byte, rng.Intn(300))
		for i := range s {
			s[i] = "abcccccccc"[rng.Intn(10)]
		}
		d := 1 + rng.Intn(20)
		want := -1
		for i := 0; i+d < len(s); i++ {
			if s[i] == 'a' && s[i+d] == 'b' {
				want = i
				break
			}
		}
		if got := indexPair(s, 'a', 'b', d); got != want {
			t.Fatalf("indexPair(%q, a, b, %d) = %d, want %d", s, d, got, want)
		}
	}
}
