package treeread

// havePairSearch is true where indexPairBlocks is written in assembly.
const havePairSearch = true

// indexPairBlocks returns the lowest i < blocks with s[i] == a and
// s[i+d] == b, or -1. blocks is a multiple of 16 and blocks+d <= len(s):
// it compares 16 positions at a time, with SSE2, which every amd64
// processor has.
//
//go:noescape
func indexPairBlocks(s []byte, a, b byte, d, blocks int) int
