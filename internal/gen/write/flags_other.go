//go:build !unix

package write

// These systems have no FIFOs that an open could wait on.
const nonBlock = 0

// noFollow is the flag that makes an open fail on a link; these systems'
// opens have none.
const noFollow = 0
