//go:build !amd64

package pyscan

// haveStopBits is false where stopBits has no assembly: Places keeps its
// byte-by-byte loop.
var haveStopBits = false

func stopBits(src []byte, quotes, ends []uint64) { stopBitsGo(src, quotes, ends) }
