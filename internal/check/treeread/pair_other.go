//go:build !amd64

package treeread

// havePairSearch is false where indexPairBlocks has no assembly: the
// matcher searches for each word's rarest byte instead.
const havePairSearch = false

func indexPairBlocks(s []byte, a, b byte, d, blocks int) int {
	for i := range blocks {
		if s[i] == a && s[i+d] == b {
			return i
		}
	}
	return -1
}
