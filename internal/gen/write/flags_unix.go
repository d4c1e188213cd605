//go:build unix

package write

import "syscall"

// nonBlock is in every open of a file fixturegen reads or writes: a FIFO
// opens without waiting for a writer, so that reading it cannot hang
// before it is refused.
const nonBlock = syscall.O_NONBLOCK

// noFollow makes an open fail on a link: the lock file is never a link
// that leads elsewhere.
const noFollow = syscall.O_NOFOLLOW
