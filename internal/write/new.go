package write

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// New creates path with content, mode 0o644, and fails with an error that
// matches fs.ErrExist when something already has that name, even when it
// appears between a caller's check and the write. Missing parent folders
// are created.
//
// Like File, it writes a temporary file in the same folder first; it then
// hard-links that file to path, which the system refuses atomically when
// path exists, so a reader never sees a partial file and nothing is ever
// replaced. Where the file system has no hard links, it falls back to
// creating path with O_EXCL and writing it in place.
func New(path string, content []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if _, err := os.Lstat(path); err == nil {
		return &fs.PathError{Op: "create", Path: path, Err: fs.ErrExist}
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".fixturegen-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := finish(tmp, content, 0o644); err != nil {
		return err
	}
	err = os.Link(tmp.Name(), path)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return err
	}
	return newInPlace(path, content)
}

// newInPlace is New for file systems without hard links.
func newInPlace(path string, content []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if err := finish(f, content, 0o644); err != nil {
		os.Remove(path)
		return err
	}
	return nil
}

// finish writes content to f, sets its mode, syncs and closes it.
func finish(f *os.File, content []byte, mode fs.FileMode) error {
	steps := []struct {
		name string
		do   func() error
	}{
		{"write", func() error { _, err := f.Write(content); return err }},
		{"chmod", func() error { return f.Chmod(mode) }},
		{"sync", f.Sync},
	}
	for _, s := range steps {
		err := s.do()
		if err == nil {
			err = fail(s.name)
		}
		if err != nil {
			f.Close()
			return err
		}
	}
	if err := f.Close(); err != nil {
		return err
	}
	return fail("close")
}
