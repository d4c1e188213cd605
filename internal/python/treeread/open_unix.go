//go:build unix

package treeread

import (
	"os"
	"syscall"
)

// openFlags open a listed file for reading without blocking. For a
// regular file the flag changes nothing but what os.OpenFile does around
// the open: it would otherwise put the descriptor into non-blocking mode
// for the runtime's poller, which refuses regular files, and take it out
// again, four fcntl calls per file, more system calls than the open, the
// stat, the read and the close together. A FIFO swapped in after the walk
// opens at once instead of waiting for a writer, and is refused by its
// stat.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK
