//go:build unix

package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/fixturegen/fixturegen/internal/testenv"
)

// TestGenerateReadOnlyFolder runs the real generate as a user who may not
// write in the folder of a file it must create: the message names the
// file, what could not be done and the fix, in words, with no temporary
// file's name and no system call's. Run as root, the test runs fixturegen
// as the unprivileged user 65534 (root may write anywhere); otherwise as
// the user running it.
func TestGenerateReadOnlyFolder(t *testing.T) {
	example, err := filepath.Abs("../../examples/inbox")
	if err != nil {
		t.Fatal(err)
	}
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		cred = &syscall.Credential{Uid: 65534, Gid: 65534}
	}
	// A folder every user may enter, holding a copy of this test binary
	// (which is fixturegen under that name) and the project.
	top := t.TempDir()
	setMode(t, filepath.Dir(top), 0o755)
	setMode(t, top, 0o755)
	bin := filepath.Join(top, "fixturegen")
	copyExecutable(t, bin)
	dir := filepath.Join(top, "project")
	if err := testenv.CopyTree(example, dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "tests/inbox/_fixturegen_runtime.py")); err != nil {
		t.Fatal(err)
	}
	if cred != nil {
		filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
			if err == nil {
				err = os.Lchown(p, int(cred.Uid), int(cred.Gid))
			}
			return err
		})
	}
	inbox := filepath.Join(dir, "tests/inbox")
	setMode(t, inbox, 0o555)
	defer setMode(t, inbox, 0o755)

	cmd := exec.Command(bin, "generate")
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	out, err := cmd.CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 2 {
		t.Fatalf("generate in a read-only folder: %v, want exit 2\n%s", err, out)
	}
	want := "fixturegen generate: tests/inbox/_fixturegen_runtime.py: cannot write it: the folder tests/inbox does not let this user write (permission denied); make it writable (its owner can run chmod u+w tests/inbox), or run fixturegen as a user who may write there\n"
	if string(out) != want {
		t.Errorf("generate printed:\n%s\nwant:\n%s", out, want)
	}
	if entries, _ := os.ReadDir(inbox); len(entries) != 5 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the read-only folder holds %s", strings.Join(names, " "))
	}
}

func setMode(t *testing.T, p string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}

// copyExecutable copies this test binary to dst, executable by everyone.
func copyExecutable(t *testing.T, dst string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestGenerateKeepsOwnerAndMode rewrites, with the real generate, a
// conftest of mode 0640 that another user owns (when the test runs as
// root; only the mode otherwise): the new conftest keeps both.
func TestGenerateKeepsOwnerAndMode(t *testing.T) {
	example, err := filepath.Abs("../../examples/inbox")
	if err != nil {
		t.Fatal(err)
	}
	bin := fixturegenBinary(t)
	dir := t.TempDir()
	if err := testenv.CopyTree(example, dir); err != nil {
		t.Fatal(err)
	}
	conftest := filepath.Join(dir, "tests/inbox/conftest.py")
	root := os.Geteuid() == 0
	const uid, gid = 4242, 4343
	if root {
		if err := os.Chown(conftest, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(conftest, 0o640); err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(dir, "fixturegen.toml")
	text, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, spec, strings.Replace(string(text), "seconds = 1\n", "seconds = 2\n", 1))
	if out, err := exec.Command(bin, "-C", dir, "generate").CombinedOutput(); err != nil {
		t.Fatalf("generate: %v\n%s", err, out)
	}
	info, err := os.Stat(conftest)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(conftest); !strings.Contains(string(b), "after 2 seconds") {
		t.Fatalf("generate did not rewrite the conftest:\n%s", b)
	}
	if info.Mode().Perm() != 0o640 {
		t.Errorf("the rewritten conftest has mode %v, want 0640", info.Mode().Perm())
	}
	if st := info.Sys().(*syscall.Stat_t); root && (st.Uid != uid || st.Gid != gid) {
		t.Errorf("the rewritten conftest belongs to %d:%d, want %d:%d", st.Uid, st.Gid, uid, gid)
	}
}
