//go:build unix

package schema

import (
	"os"
	"syscall"
)

// sameDevice reports whether folders a and b are on one file system; the
// spec search does not cross a mount point.
func sameDevice(a, b string) bool {
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	if errA != nil || errB != nil {
		return false
	}
	sa, okA := ia.Sys().(*syscall.Stat_t)
	sb, okB := ib.Sys().(*syscall.Stat_t)
	return okA && okB && sa.Dev == sb.Dev
}
