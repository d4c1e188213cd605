//go:build unix && !linux

package contract

// shortReadIsEOF is false where the walk gives no open folders: files are
// read until a read returns nothing.
func shortReadIsEOF(int) bool { return false }
