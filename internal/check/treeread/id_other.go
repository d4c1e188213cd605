//go:build !unix

package treeread

import "os"

// fileID is unused where the system gives files no inode numbers; the
// walker compares folders with os.SameFile instead.
type fileID struct{}

func idOf(os.FileInfo) (fileID, bool) { return fileID{}, false }
