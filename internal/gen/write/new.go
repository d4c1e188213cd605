package write

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// create makes the file name in dir with content, mode 0o644, and fails
// with an error that matches fs.ErrExist when something already has that
// name, even when it appears between a caller's check and the write.
//
// Like replace, it writes a temporary file in the same folder first; it
// then hard-links that file to name, which the system refuses atomically
// when name exists, so a reader never sees a partial file and nothing is
// ever replaced. Where the file system has no hard links, it falls back to
// creating name with O_EXCL and writing it in place.
func create(dir *folder, name string, content []byte) error {
	if _, err := dir.Lstat(name); err == nil {
		return &fs.PathError{Op: "create", Path: filepath.Join(dir.dir, name), Err: fs.ErrExist}
	}
	tmp, tmpName, err := createTemp(dir, name)
	if err != nil {
		return err
	}
	defer dir.Remove(tmpName)
	if err := finish(tmp, content, 0o644); err != nil {
		return err
	}
	err = dir.Link(tmpName, name)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return err
	}
	return createInPlace(dir, name, content)
}

// createInPlace is create for file systems without hard links.
func createInPlace(dir *folder, name string, content []byte) error {
	f, err := dir.open(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if err := finish(f, content, 0o644); err != nil {
		dir.Remove(name)
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
