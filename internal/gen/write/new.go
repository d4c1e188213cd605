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
//
// New writes where it is told: use it for a path the user typed, and
// Root.New for a path below the spec's folder.
func New(path string, content []byte) error {
	dir, err := openPath(filepath.Dir(path))
	if err != nil {
		return Explain(path, "create the folder of", err)
	}
	defer dir.close()
	return explainAt(path, "create", filepath.Dir(path), create(dir, filepath.Base(path), content))
}

// create is New for the file name in dir.
func create(dir *folder, name string, content []byte) error {
	if _, err := dir.lstat(name); err == nil {
		return &fs.PathError{Op: "create", Path: filepath.Join(dir.path(), name), Err: fs.ErrExist}
	}
	tmp, tmpName, err := createTemp(dir, name)
	if err != nil {
		return err
	}
	defer dir.remove(tmpName)
	if err := finish(tmp, content, 0o644); err != nil {
		return err
	}
	err = dir.link(tmpName, name)
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
		dir.remove(name)
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
