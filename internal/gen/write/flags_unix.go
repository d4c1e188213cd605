//go:build unix

package write

import "syscall"

// Flags every open of a folder's entry carries: a link in the last place
// is not followed (the open fails), and a FIFO opens without waiting for a
// writer, so that reading it cannot hang before it is refused.
const (
	noFollow = syscall.O_NOFOLLOW
	nonBlock = syscall.O_NONBLOCK
)
