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

// folder is an open folder that a write works in: every name given to its
// methods is a single entry of it, and none of them follows a link in that
// entry. On Linux it holds the folder's descriptor, so the folder cannot be
// swapped for a link while it is in use (see folder_linux.go); elsewhere it
// is the folder's path.
type folder interface {
	path() string
	lstat(name string) (fs.FileMode, error)
	// open opens name without following a link there and without
	// blocking on a FIFO.
	open(name string, flag int, perm fs.FileMode) (*os.File, error)
	rename(from, to string) error
	link(from, to string) error
	remove(name string) error
	names() ([]string, error)
	close()
}

// pathFolder is a folder reached by its path.
type pathFolder struct{ dir string }

// openPath makes the folders missing below dir and returns the last.
func openPath(dir string, missing []string) (folder, error) {
	full := filepath.Join(append([]string{dir}, missing...)...)
	if err := os.MkdirAll(full, 0o755); err != nil {
		return nil, err
	}
	return pathFolder{full}, nil
}

func (d pathFolder) path() string { return d.dir }

func (d pathFolder) lstat(name string) (fs.FileMode, error) {
	info, err := os.Lstat(filepath.Join(d.dir, name))
	if err != nil {
		return 0, err
	}
	return info.Mode(), nil
}

func (d pathFolder) open(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(filepath.Join(d.dir, name), flag|noFollow|nonBlock, perm)
}

func (d pathFolder) rename(from, to string) error {
	return os.Rename(filepath.Join(d.dir, from), filepath.Join(d.dir, to))
}

func (d pathFolder) link(from, to string) error {
	return os.Link(filepath.Join(d.dir, from), filepath.Join(d.dir, to))
}

func (d pathFolder) remove(name string) error { return os.Remove(filepath.Join(d.dir, name)) }

func (d pathFolder) names() ([]string, error) {
	entries, err := os.ReadDir(d.dir)
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	return names, err
}

func (pathFolder) close() {}

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
