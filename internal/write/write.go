// Package write is the one way fixturegen writes a file: to a temporary file
// in the same folder, synced, then renamed over the target, so a reader (or
// a crash) sees the old content or the new, never a part.
package write

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// tempInfix joins a target's name and a random number in the names of
// temporary files: ".conftest.py.fixturegen-123456".
const tempInfix = ".fixturegen-"

// failAt, when a test sets it, is called after each step of a write with
// the step's name ("create", "write", "chmod", "sync", "close", "rename")
// and makes that step fail with the error it returns. Production code
// leaves it nil.
var failAt func(step string) error

func fail(step string) error {
	if failAt == nil {
		return nil
	}
	return failAt(step)
}

// File replaces path's content. Callers write only what changed, so an
// unchanged file keeps its modification time. A new file gets mode 0o644;
// an existing file keeps its mode. Missing parent folders are created.
func File(path string, content []byte) error {
	mode := fs.FileMode(0o644)
	if info, err := os.Stat(path); err == nil {
		if !info.Mode().IsRegular() {
			return fmt.Errorf("%s is not a regular file", path)
		}
		mode = info.Mode().Perm()
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	removeStale(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+tempInfix+"*")
	if err != nil {
		return err
	}
	// Remove the temporary file on every failure path; after a successful
	// rename the name no longer exists and Remove is a no-op.
	defer os.Remove(tmp.Name())
	if err := fail("create"); err != nil {
		tmp.Close()
		return err
	}
	if err := finish(tmp, content, mode); err != nil {
		return err
	}
	if err := fail("rename"); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// removeStale removes the temporary files that an earlier write of path
// left behind when it was killed (SIGKILL, a power cut) before it could
// clean up. Such a file can only exist when that write never reached its
// rename, so path still holds its old content and the write that follows
// replaces it: no one else reads these files. Two generate runs writing
// the same file at the same moment are not supported; the one whose
// temporary file is removed fails at its rename and changes nothing.
func removeStale(path string) {
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		return
	}
	for _, e := range entries {
		if IsTemp(e.Name(), filepath.Base(path)) && e.Type().IsRegular() {
			os.Remove(filepath.Join(filepath.Dir(path), e.Name()))
		}
	}
}

// IsTemp reports whether name is a temporary file that a write of the file
// called target, in the same folder, creates: "." + target + ".fixturegen-"
// and digits.
func IsTemp(name, target string) bool {
	suffix, ok := strings.CutPrefix(name, "."+target+tempInfix)
	if !ok || suffix == "" {
		return false
	}
	for _, r := range suffix {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
