package pyscan

import "golang.org/x/sys/cpu"

// haveStopBits is true where stopBits compares 32 bytes at a time; Places
// then jumps from stop byte to stop byte, and elsewhere it keeps its
// byte-by-byte loop, which is faster than stop bits worked out in Go.
var haveStopBits = cpu.X86.HasAVX2

// stopBitsAVX2 is stopBitsGo in assembly, with AVX2. len(ends) must be
// len(quotes), and len(src) at least 64 times that.
//
//go:noescape
func stopBitsAVX2(src []byte, quotes, ends []uint64)

func stopBits(src []byte, quotes, ends []uint64) {
	if haveStopBits {
		stopBitsAVX2(src, quotes, ends[:len(quotes)])
		return
	}
	stopBitsGo(src, quotes, ends)
}
