//go:build !unix

package write

import (
	"io/fs"
	"os"
)

// keepOwner does nothing here: a file's owner and access on these systems
// (Windows' ACLs) are not copied; only its mode is kept.
func keepOwner(f *os.File, old fs.FileInfo) error { return fail("chown") }
