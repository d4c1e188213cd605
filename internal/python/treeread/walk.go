// Package treeread reads the Python files of a test tree: Reader walks
// the roots the way pytest would reach them and hands each file's bytes to
// its caller, on as many goroutines as there are cores, and Matcher tells
// which of a few words a file holds. It knows nothing of check's rules;
// the words come from its caller.
//
// The walk skips the folders pytest never enters, reads the files symbolic
// links point to, and reports what it cannot enter (a folder it may not
// read, a link that leads back into itself or out of the tree, a dangling
// link) instead of failing. A link to a folder is never followed: a folder
// inside the tree is walked by its own path (so every file has one name,
// the one the user gave it), and one outside the tree is not walked at
// all, so the walk never leaves the folders it was given.
package treeread

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fixturegen/fixturegen/internal/python/pytestcfg"
	"github.com/fixturegen/fixturegen/internal/relpath"
)

// DefaultNoRecurse is pytest's default norecursedirs, plus __pycache__,
// which pytest never collects either.
var DefaultNoRecurse = []string{"*.egg", ".*", "_darcs", "build", "CVS", "dist", "node_modules", "venv", "{arch}", "__pycache__"}

// Problem is a place the walk could not go into.
type Problem struct {
	Path string
	Kind string // "unreadable", "symlink-loop", "symlink-outside" or "dangling-symlink"
	Msg  string
}

// walker walks test trees.
type walker struct {
	// NoRecurse holds the patterns of pytest's norecursedirs: folders
	// whose path they match (pytestcfg.MatchPath) are not entered.
	NoRecurse []string
	// Ignore, when set, is asked about the absolute path of each folder
	// before it is entered and of each .py file before it is visited, as
	// pytest asks its pytest_ignore_collect hook: --ignore, --ignore-glob.
	Ignore func(abs string) bool
	// Visit is called with each .py file, its path joined onto its root,
	// in lexical order within a folder, a folder's files before its
	// subfolders'.
	Visit func(path string)
	// stopped is set to end the walk early (Walk's visit says so).
	stopped bool
	// Problem is called for each place the walk could not go into.
	Problem func(Problem)
	// Bounds are the folders a link may point into, as given; Walk adds
	// its root. Set them all before the first Walk when there are several
	// roots, so that a link from one root into another is known to stay
	// in the tree.
	Bounds []string

	// readDir is os.ReadDir; tests replace it to fail where a root user
	// cannot be refused.
	readDir func(string) ([]os.DirEntry, error)

	// entered holds the real paths of the folders walked, so that roots
	// that overlap walk each folder once. Below a root no link is
	// followed, so a folder's real path is its root's joined with the
	// rest of its path.
	entered map[string]bool
	real    []string // Bounds with every link resolved
	cwd     string   // for the absolute paths of NoRecurse and Ignore
}

// Walk walks roots as Reader does, without reading a file, and calls
// visit with each .py file's path, in the walker's order, each once; the walk
// ends when visit returns true. It is the one walk of a test tree for
// those that only need its paths (which files pytest reaches, which it
// collects, whether it collects one), early stop included. Problems are
// left out: a folder the walk cannot enter holds nothing to find.
func Walk(roots []string, noRecurse []string, ignore func(abs string) bool, visit func(path string) (stop bool)) error {
	w := &walker{NoRecurse: noRecurse, Ignore: ignore, Bounds: roots, Problem: func(Problem) {}}
	w.Visit = func(p string) { w.stopped = visit(p) }
	for _, r := range roots {
		if w.stopped {
			break
		}
		if err := w.Walk(r); err != nil {
			return err
		}
	}
	return nil
}

// Walk visits the .py files under root; a root that is a file is visited
// itself. A root that does not exist is an error; every other trouble is a
// Problem and the walk goes on.
func (w *walker) Walk(root string) error {
	info, err := os.Stat(root)
	if err != nil {
		return err
	}
	if w.cwd == "" {
		if w.cwd, err = os.Getwd(); err != nil {
			return err
		}
	}
	if w.readDir == nil {
		w.readDir = os.ReadDir
	}
	if w.real == nil {
		for _, b := range w.Bounds {
			if r, err := w.realPath(b); err == nil {
				w.real = append(w.real, r)
			}
		}
	}
	real, err := w.realPath(root)
	if err == nil && !slices.Contains(w.real, real) {
		w.real = append(w.real, real)
	}
	if !info.IsDir() {
		if !info.Mode().IsRegular() {
			// A FIFO would make its reader wait for a writer.
			w.Problem(Problem{Path: root, Kind: "unreadable", Msg: "is not a regular file (a FIFO, a socket or a device); not read"})
			return nil
		}
		w.Visit(root)
		return nil
	}
	if err != nil {
		real = w.abs(root)
	}
	w.dir(root, real, true)
	return nil
}

// dir walks the folder at path dir, whose real path is real.
func (w *walker) dir(dir, real string, root bool) {
	if w.entered[real] {
		return
	}
	if w.entered == nil {
		w.entered = map[string]bool{}
	}
	w.entered[real] = true
	entries, err := w.readDir(dir)
	if err != nil {
		w.Problem(Problem{Path: dir, Kind: "unreadable", Msg: "cannot read folder: " + reason(err)})
		if len(entries) == 0 {
			return
		}
	}
	// pytest skips a virtual environment wherever it sits below a root.
	if !root && slices.ContainsFunc(entries, func(e os.DirEntry) bool { return e.Name() == "pyvenv.cfg" }) {
		return
	}
	// A folder's files come before its subfolders, so that a walk that
	// stops at the first file it looks for (HasTestModule) reads as few
	// folders as it can.
	for _, folders := range []bool{false, true} {
		for _, e := range entries {
			if w.stopped {
				return
			}
			name, typ := e.Name(), e.Type()
			if typ.IsDir() != folders {
				continue
			}
			p := filepath.Join(dir, name)
			switch {
			case typ.IsRegular():
				if strings.HasSuffix(name, ".py") && !w.ignored(p) {
					w.Visit(p)
				}
			case typ.IsDir():
				if !w.skip(p) {
					w.dir(p, filepath.Join(real, name), false)
				}
			case typ&fs.ModeSymlink != 0:
				w.link(p, name)
			}
			// Anything else is a device, a pipe or a socket.
		}
	}
}

// link visits the .py file a link points to, and reports a link that
// leads nowhere, back up the tree or out of it.
func (w *walker) link(p, name string) {
	info, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if strings.HasSuffix(name, ".py") {
			w.Problem(Problem{Path: p, Kind: "dangling-symlink", Msg: "is a symbolic link to a file that does not exist"})
		}
	case err != nil:
		w.Problem(Problem{Path: p, Kind: "unreadable", Msg: "cannot follow symbolic link: " + reason(err)})
	case info.IsDir():
		if !w.skip(p) {
			w.folderLink(p)
		}
	case info.Mode().IsRegular() && strings.HasSuffix(name, ".py") && !w.ignored(p):
		w.Visit(p)
	}
}

// ignored reports whether Ignore leaves out the file at p.
func (w *walker) ignored(p string) bool {
	return w.Ignore != nil && w.Ignore(w.abs(p))
}

// folderLink reports a link to a folder that leads back into the folders
// above it, or out of the tree. A link to a folder elsewhere in the tree
// is left alone: the walk reaches that folder by its own path.
func (w *walker) folderLink(p string) {
	target, err := w.realPath(p)
	if err != nil {
		w.Problem(Problem{Path: p, Kind: "unreadable", Msg: "cannot follow symbolic link: " + reason(err)})
		return
	}
	if here, err := w.realPath(filepath.Dir(p)); err == nil && (here == target || relpath.Under(here, target)) {
		w.Problem(Problem{Path: p, Kind: "symlink-loop", Msg: "is a symbolic link to a folder that contains it; not followed"})
		return
	}
	for _, b := range w.real {
		if target == b || relpath.Under(target, b) {
			return // in the tree: walked by its own path
		}
	}
	w.Problem(Problem{Path: p, Kind: "symlink-outside", Msg: "is a symbolic link to " + target + ", outside the scanned folders; not followed"})
}

// realPath is a path's absolute form with every link resolved, as
// filepath.Abs and filepath.EvalSymlinks give it, from the working folder
// the walk already knows.
func (w *walker) realPath(p string) (string, error) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(w.cwd, p)
	}
	return filepath.EvalSymlinks(filepath.Clean(p))
}

// skip reports whether the folder at p is not to be entered.
func (w *walker) skip(p string) bool {
	abs := w.abs(p)
	for _, pat := range w.NoRecurse {
		if pytestcfg.MatchPath(pat, abs) {
			return true
		}
	}
	return w.Ignore != nil && w.Ignore(abs)
}

// abs is a path of the walk made absolute.
func (w *walker) abs(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(w.cwd, p)
}

// reason is an error without the path that every message already starts
// with.
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
