package write

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// openat2Works reports whether this kernel lets the fast path run; where
// it does not, openBelow falls back by itself and the comparison below
// would compare the fallback with itself.
func openat2Works(t *testing.T) bool {
	t.Helper()
	fd, err := unix.Openat2(unix.AT_FDCWD, ".", &unix.OpenHow{Flags: unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC, Resolve: beneath})
	if err != nil {
		return false
	}
	unix.Close(fd)
	return true
}

// TestFastAndFallbackAgree runs every case of rootCases through the
// descriptor-based folders (openat2) and through the path-based fallback
// that systems without openat2 use, and requires the same outcome, the
// same message and the same tree afterwards from both.
func TestFastAndFallbackAgree(t *testing.T) {
	if !openat2Works(t) {
		t.Skip("this kernel has no openat2; both runs would take the fallback")
	}
	for i, tc := range rootCases {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			useOpenat2 = true
			fast := runRootCase(t, i)
			useOpenat2 = false
			defer func() { useOpenat2 = true }()
			fallback := runRootCase(t, i)
			if fast != fallback {
				t.Errorf("the paths disagree:\nopenat2:\n%s\nfallback:\n%s", fast, fallback)
			}
		})
	}
}

// TestSwappedFolderIsRefused swaps a checked folder for a link that leads
// outside, in the window between the check and the write, as a process
// racing fixturegen could. The write through openat2 must fail and leave
// the outside folder as it was. The same swap under the fallback does lead
// the write outside: that shows the test opens a real window.
func TestSwappedFolderIsRefused(t *testing.T) {
	if !openat2Works(t) {
		t.Skip("this kernel has no openat2; the fallback cannot catch the swap")
	}
	defer func() { useOpenat2 = true }()
	for _, tc := range []struct {
		missing, fast bool
	}{{false, true}, {true, true}, {false, false}} {
		missing := tc.missing
		useOpenat2 = tc.fast
		base := t.TempDir()
		project, outside := filepath.Join(base, "project"), filepath.Join(base, "outside")
		os.MkdirAll(filepath.Join(project, "tests"), 0o755)
		os.MkdirAll(outside, 0o755)
		root, err := NewRoot(project, ".")
		if err != nil {
			t.Fatal(err)
		}
		target := filepath.Join(project, "tests", "conftest.py")
		if missing {
			target = filepath.Join(project, "tests", "sub", "conftest.py")
		}
		beforeOpen = func() {
			if err := os.Rename(filepath.Join(project, "tests"), filepath.Join(project, "moved")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, filepath.Join(project, "tests")); err != nil {
				t.Fatal(err)
			}
		}
		err = root.File(target, []byte("evil\n"))
		beforeOpen = nil
		entries, _ := os.ReadDir(outside)
		if !tc.fast {
			if err != nil || len(entries) != 1 {
				t.Errorf("the fallback: %v, %d entries outside; want the write to land outside, showing the window", err, len(entries))
			}
			continue
		}
		if !errors.Is(err, errChanged) {
			t.Errorf("a write through a folder swapped for a link: %v, want %v", err, errChanged)
		}
		if len(entries) != 0 {
			t.Errorf("the outside folder holds %d entries after the refused write", len(entries))
		}
	}
}
