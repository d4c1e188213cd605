//go:build unix

package write

import "syscall"

// nonBlock is in every open of a file fixturegen reads or writes: a FIFO
// opens without waiting for a writer, so that reading it cannot hang
// before it is refused.
const nonBlock = syscall.O_NONBLOCK
