// Package suggest finds the word a user probably meant: a spec key, a
// command or a flag, for the "did you mean" of an error message.
package suggest

import (
	"math"
	"strings"
)

// Closest returns the word of allowed that key most likely misspells, or
// "". Case and the -/_ confusion count as the same word; otherwise a word
// at most two edits away (and less than half its length) is a likely typo.
func Closest(key string, allowed []string) string {
	norm := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), "-", "_") }
	for _, a := range allowed {
		if norm(a) == norm(key) {
			return a
		}
	}
	best, bestDist := "", 3
	for _, a := range allowed {
		d := editDistance(norm(key), norm(a))
		if d < bestDist && d*2 < len(a) {
			best, bestDist = a, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes; keys
// are short, so the quadratic table is cheap.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return math.MaxInt
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
