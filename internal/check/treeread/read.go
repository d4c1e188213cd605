package treeread

import (
	"errors"
	"fmt"
)

// MaxFileSize bounds one file in memory. A test module of 16 MiB is not a
// test module; such a file is reported and skipped rather than read.
const MaxFileSize = 16 << 20

var (
	// ErrTooLarge is returned for a file over MaxFileSize.
	ErrTooLarge = fmt.Errorf("is larger than %d MiB; not read", MaxFileSize>>20)
	// ErrNotRegular is returned for a FIFO, a socket or a device, which
	// are not waited for.
	ErrNotRegular = errors.New("is not a regular file (a FIFO, a socket or a device); not read")
)

// firstRead is what readFileAt reads of a file before it asks the file's
// size: more than almost every test module holds.
const firstRead = 64 << 10
