package schema

import (
	"os"
	"strings"
	"testing"
)

// The search does not cross a mount point: from /proc/sys it stops at
// /proc, whose parent / is on another device.
func TestFindUpStopsAtAMountPoint(t *testing.T) {
	if _, err := os.Stat("/proc/sys"); err != nil {
		t.Skip("no /proc/sys to start from")
	}
	if sameDevice("/proc", "/") {
		t.Skip("/proc is not mounted apart from /")
	}
	t.Chdir("/proc/sys")
	_, err := FindUp(".")
	if err == nil || !strings.Contains(err.Error(), "in /proc/sys or any folder above it up to /proc;") {
		t.Errorf("FindUp from /proc/sys = %v, want a search that stopped at /proc", err)
	}
}
