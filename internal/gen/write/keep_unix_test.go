//go:build unix

package write

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A rewritten file keeps its mode, through File and through a Root, and a
// new file gets 0644 (less the umask).
func TestWriteKeepsMode(t *testing.T) {
	for _, mode := range []os.FileMode{0o600, 0o640, 0o755, 0o444 | 0o200} {
		for _, through := range []string{"File", "Root"} {
			dir := t.TempDir()
			p := filepath.Join(dir, "tests", "conftest.py")
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte("old\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(p, mode); err != nil {
				t.Fatal(err)
			}
			write := File
			if through == "Root" {
				root, err := NewRoot(dir, dir)
				if err != nil {
					t.Fatal(err)
				}
				write = root.File
			}
			if err := write(p, []byte("new\n")); err != nil {
				t.Fatal(err)
			}
			info, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if got := info.Mode().Perm(); got != mode {
				t.Errorf("%s: a file of mode %v has mode %v after the write", through, mode, got)
			}
			if b, _ := os.ReadFile(p); string(b) != "new\n" {
				t.Errorf("%s: the file holds %q", through, b)
			}
		}
	}
}

// Root rewriting a file another user owns gives the new content that
// user and group, as the file had them; without root, the test cannot
// make a file another user owns, so it skips, saying why.
func TestWriteKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root can make a file that another user owns; run as root to test it")
	}
	const uid, gid = 4242, 4343
	for _, through := range []string{"File", "Root"} {
		dir := t.TempDir()
		p := filepath.Join(dir, "conftest.py")
		if err := os.WriteFile(p, []byte("old\n"), 0o640); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(p, uid, gid); err != nil {
			t.Fatal(err)
		}
		write := File
		if through == "Root" {
			root, err := NewRoot(dir, dir)
			if err != nil {
				t.Fatal(err)
			}
			write = root.File
		}
		if err := write(p, []byte("new\n")); err != nil {
			t.Fatal(err)
		}
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		st := info.Sys().(*syscall.Stat_t)
		if st.Uid != uid || st.Gid != gid || info.Mode().Perm() != 0o640 {
			t.Errorf("%s: after the write the file is %d:%d mode %v, want %d:%d mode 0640", through, st.Uid, st.Gid, info.Mode().Perm(), uid, gid)
		}
	}
}
