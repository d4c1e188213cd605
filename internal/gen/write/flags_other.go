//go:build !unix

package write

// These systems have no FIFOs that an open could wait on.
const nonBlock = 0
