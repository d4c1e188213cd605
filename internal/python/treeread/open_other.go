//go:build !unix

package treeread

import "os"

// openFlags open a listed file for reading; see open_unix.go.
const openFlags = os.O_RDONLY
