package write

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// folder is an open folder that a write works in, held as an os.Root:
// every name given to its methods is a single entry of it, and nothing
// done through it reaches outside the project's folder, whatever a link
// on the way was swapped for after Root's check. Files are opened with
// open, not the Root's OpenFile, so that no open waits on a FIFO.
type folder struct {
	*os.Root
	dir string // its path, for messages
}

// openPath opens the folder dir, a path the user typed, making it when it
// is missing: the write goes where the path leads, as cp's would.
func openPath(dir string) (*folder, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &folder{Root: r, dir: dir}, nil
}

// errChanged is why a folder that the check found did not open inside
// the project.
var errChanged = errors.New("the folder changed since fixturegen checked it (a link or a file took its place); nothing was written there, so check the project's links and run again")

// openBelow opens the folder dir, a real path at or below root that Root's
// check found, and makes the folders missing below it, all through an
// os.Root of root: a folder swapped for a link that leads out of the
// project between the check and the write makes the write fail.
func openBelow(root, dir string, missing []string) (*folder, error) {
	project, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer project.Close()
	rel, err := filepath.Rel(root, dir)
	if err != nil {
		return nil, err
	}
	sub := filepath.Join(append([]string{rel}, missing...)...)
	path := filepath.Join(append([]string{dir}, missing...)...)
	if len(missing) > 0 {
		if err := project.MkdirAll(sub, 0o755); err != nil {
			return nil, changed(path, err)
		}
	}
	r, err := project.OpenRoot(sub)
	if err != nil {
		return nil, changed(path, err)
	}
	return &folder{Root: r, dir: path}, nil
}

// changed explains a folder the check found that did not open: one that
// is gone is not there, anything else (a link out of the project, a file
// in its place) means the tree changed under fixturegen.
func changed(path string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return &fs.PathError{Op: "open", Path: path, Err: errChanged}
}

// open opens name without blocking on a FIFO. Root's check refused a link
// in name's place; one put there since is followed only inside the
// project.
func (d *folder) open(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return d.Root.OpenFile(name, flag|nonBlock, perm)
}

func (d *folder) names() ([]string, error) {
	f, err := d.Root.Open(".")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}

// MaxFileSize is the largest planned file fixturegen reads. Conftests,
// probe files, specs and Markdown documents are far smaller; the bound
// keeps a file that never ends from taking all memory.
const MaxFileSize = 16 << 20

// ErrNotRegular is returned, with the file's information, for a path that
// is a folder, a FIFO, a device or a socket: fixturegen reads and writes
// regular files only, and opening the others can block or never end.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is returned for a file larger than MaxFileSize.
var ErrTooLarge = fmt.Errorf("larger than %d MiB", MaxFileSize>>20)

// ReadFile reads path, following links, as a user-typed path is read: it
// refuses what is not a regular file (with ErrNotRegular and the file's
// information) without blocking on it, and a file larger than MaxFileSize.
// A file the spec plans is read with Root.ReadFile instead.
func ReadFile(path string) ([]byte, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, nil, err
	}
	return readRegular(f)
}

// readRegular reads the open file f, a regular file of at most
// MaxFileSize bytes, and closes it.
func readRegular(f *os.File) ([]byte, fs.FileInfo, error) {
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, info, ErrNotRegular
	}
	if info.Size() > MaxFileSize {
		return nil, info, ErrTooLarge
	}
	// The size is a hint only: a file can grow while it is read. Room for
	// it and one read more lets the read that finds the end need no new
	// buffer, so a file that kept its size is read in one buffer, with two
	// reads.
	var buf bytes.Buffer
	buf.Grow(int(info.Size()) + bytes.MinRead)
	if _, err := buf.ReadFrom(io.LimitReader(f, MaxFileSize+1)); err != nil {
		return nil, info, err
	}
	if buf.Len() > MaxFileSize {
		return nil, info, ErrTooLarge
	}
	return buf.Bytes(), info, nil
}
