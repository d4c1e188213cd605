//go:build unix && !linux

package treeread

// ShortReadIsEOF is false where the walk gives no open folders: files are
// read until a read returns nothing.
func ShortReadIsEOF(int) bool { return false }
