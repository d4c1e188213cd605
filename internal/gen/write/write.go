// Package write is the one way fixturegen writes a file: to a temporary file
// in the same folder, synced, then renamed over the target, so a reader (or
// a crash) sees the old content or the new, never a part.
//
// The files a spec plans are written through a Root, which keeps every
// write, and every read of a planned file, inside the spec's folder
// whatever links the project holds (see Root). File writes where it is
// told, for paths the user typed.
package write

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
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
// an existing file keeps its mode, and its owner and group where the
// system lets this user give them (root may: a file root rewrites for
// another user stays that user's). Missing parent folders are created.
// An error of the system comes back as an *OSError that names the path
// and the fix.
//
// File writes where it is told: use it for a path the user typed, and
// Root.File for a path the spec plans.
func File(path string, content []byte) error {
	var old fs.FileInfo
	if info, err := os.Stat(path); err == nil {
		if !info.Mode().IsRegular() {
			return fmt.Errorf("%s is not a regular file", path)
		}
		old = info
	}
	dir, err := openPath(filepath.Dir(path))
	if err != nil {
		return Explain(path, "create the folder of", err)
	}
	defer dir.Close()
	return explainAt(path, "write", filepath.Dir(path), replace(dir, filepath.Base(path), content, old))
}

// replace writes content to the file name in dir through a temporary file
// in dir renamed over it. old is what the file was, to keep its mode and
// owner; nil for a new file.
func replace(dir *folder, name string, content []byte, old fs.FileInfo) error {
	removeStale(dir, name)
	tmp, tmpName, err := createTemp(dir, name)
	if err != nil {
		return err
	}
	// Remove the temporary file on every failure path; after a successful
	// rename the name no longer exists and remove is a no-op.
	defer dir.Remove(tmpName)
	if err := fail("create"); err != nil {
		tmp.Close()
		return err
	}
	mode := fs.FileMode(0o644)
	if old != nil {
		mode = old.Mode().Perm()
		if err := keepOwner(tmp, old); err != nil {
			tmp.Close()
			return err
		}
	}
	if err := finish(tmp, content, mode); err != nil {
		return err
	}
	if err := fail("rename"); err != nil {
		return err
	}
	return dir.Rename(tmpName, name)
}

// createTemp creates a new temporary file for the target name in dir,
// readable and writable by its owner only until finish sets its mode.
func createTemp(dir *folder, target string) (*os.File, string, error) {
	for range 10000 {
		name := "." + target + tempInfix + strconv.FormatUint(uint64(rand.Uint32()), 10)
		f, err := dir.open(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			return f, name, nil
		}
		if !os.IsExist(err) {
			return nil, "", err
		}
	}
	return nil, "", &fs.PathError{Op: "createtemp", Path: filepath.Join(dir.dir, "."+target+tempInfix+"*"), Err: fs.ErrExist}
}

// removeStale removes the temporary files that an earlier write of name
// left behind when it was killed (SIGKILL, a power cut) before it could
// clean up. Such a file can only exist when that write never reached its
// rename, so the target still holds its old content and the write that
// follows replaces it: no one else reads these files. Commands that write
// a spec's files hold its lock (AcquireLock) while they do, so no other
// run's write is in progress here.
func removeStale(dir *folder, name string) {
	names, err := dir.names()
	if err != nil {
		return
	}
	for _, n := range names {
		if !IsTemp(n, name) {
			continue
		}
		if info, err := dir.Lstat(n); err == nil && info.Mode().IsRegular() {
			dir.Remove(n)
		}
	}
}

// IsTemp reports whether name is a temporary file that a write of the file
// called target, in the same folder, creates: "." + target + ".fixturegen-"
// and digits.
func IsTemp(name, target string) bool {
	suffix, ok := strings.CutPrefix(name, "."+target+tempInfix)
	return ok && suffix != "" && strings.Trim(suffix, "0123456789") == ""
}
