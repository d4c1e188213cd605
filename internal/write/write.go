// Package write is the one way fixturegen writes a file: to a temporary file
// in the same folder, synced, then renamed over the target, so a reader (or
// a crash) sees the old content or the new, never a part.
package write

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

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
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".fixturegen-*")
	if err != nil {
		return err
	}
	// Remove the temporary file on every failure path; after a successful
	// rename the name no longer exists and Remove is a no-op.
	defer os.Remove(tmp.Name())
	if err := finish(tmp, content, mode); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	return nil
}
