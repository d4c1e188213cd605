package treeread

import "golang.org/x/sys/cpu"

// haveTeddy is true where teddyAVX2 runs: amd64 processors with AVX2.
var haveTeddy = cpu.X86.HasAVX2

//go:noescape
func teddyAVX2(s []byte, masks *teddyMasks, from int) (at int, mask uint32, high uint32)
