package treeread

import (
	"bytes"
	"math/rand"
	"slices"
	"testing"
)

func TestMatcherFindsEveryOccurrence(t *testing.T) {
	m := NewMatcher(([]string{"alarm", "setitimer", "ALRM"}))
	got := m.Find([]byte("alarm setitimer SIGALRM alarm"), nil)
	slices.SortFunc(got, func(a, b Hit) int { return a.Off - b.Off })
	want := []Hit{{0, 0}, {6, 1}, {19, 2}, {24, 0}}
	if !slices.Equal(got, want) {
		t.Errorf("hits = %v, want %v", got, want)
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

// Find finds what a search at every offset finds, overlapping
// occurrences and empty words included.
func TestMatcherAgreesWithPlainSearch(t *testing.T) {
	sets := [][]string{
		{"recovery_deadline", "mcp_sdk", "signal", "alarm", "ALRM", "xdist_group", "kk", "k"},
		{"al", "", "a"},
	}
	rng := rand.New(rand.NewSource(1))
	alphabet := []byte("kmcp_sdrecovyalnigALRMxtu \n\xc3\xa9")
	for n := range 2000 {
		ws := sets[n%len(sets)]
		data := make([]byte, rng.Intn(300))
		for i := range data {
			data[i] = alphabet[rng.Intn(len(alphabet))]
		}
		want := sortHits(plainHits(ws, data))
		if got := sortHits(NewMatcher(ws).Find(data, nil)); !slices.Equal(got, want) {
			t.Fatalf("case %d %q, words %q: hits %v, want %v", n, data, ws, got, want)
		}
	}
}
