// Package pytree lists the Python files of a test tree the way pytest
// would reach them: it skips the folders pytest never enters, follows
// symbolic links, and reports what it cannot enter (a folder it may not
// read, a link that leads back into itself, a dangling link) instead of
// failing.
package pytree

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// DefaultNoRecurse is pytest's default norecursedirs, plus __pycache__,
// which pytest never collects either.
var DefaultNoRecurse = []string{"*.egg", ".*", "_darcs", "build", "CVS", "dist", "node_modules", "venv", "{arch}", "__pycache__"}

// Problem is a place the walk could not go into.
type Problem struct {
	Path string
	Kind string // "unreadable", "symlink-loop" or "dangling-symlink"
	Msg  string
}

// Walker walks test trees.
type Walker struct {
	// NoRecurse holds glob patterns (as in pytest's norecursedirs) for
	// folder names not to enter.
	NoRecurse []string
	// Visit is called with each .py file, its path joined onto its root.
	Visit func(path string)
	// Problem is called for each place the walk could not go into.
	Problem func(Problem)

	// readDir is os.ReadDir; tests replace it to fail where a root user
	// cannot be refused.
	readDir func(string) ([]os.DirEntry, error)

	seen     map[fileID]bool // folders entered, to enter each once
	seenList []os.FileInfo   // the same, where files have no ID
}

// Walk visits the .py files under root, in lexical order; a root that is
// a file is visited itself. A root that does not exist is an error; every
// other trouble is a Problem and the walk goes on.
func (w *Walker) Walk(root string) error {
	info, err := os.Stat(root)
	if err != nil {
		return err
	}
	if !info.IsDir() {
		w.Visit(root)
		return nil
	}
	w.seenBefore(info)
	w.dir(root, []os.FileInfo{info})
	return nil
}

// dir walks one folder; ancestors holds the folders above it and itself.
func (w *Walker) dir(dir string, ancestors []os.FileInfo) {
	readDir := w.readDir
	if readDir == nil {
		readDir = os.ReadDir
	}
	entries, err := readDir(dir)
	if err != nil {
		w.Problem(Problem{Path: dir, Kind: "unreadable", Msg: "cannot read folder: " + reason(err)})
		if len(entries) == 0 {
			return
		}
	}
	// pytest skips a virtual environment wherever it sits.
	for _, e := range entries {
		if e.Name() == "pyvenv.cfg" && len(ancestors) > 1 {
			return
		}
	}
	for _, e := range entries {
		name := e.Name()
		p := filepath.Join(dir, name)
		typ := e.Type()
		if typ&fs.ModeSymlink != 0 {
			info, err := os.Stat(p)
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					if strings.HasSuffix(name, ".py") {
						w.Problem(Problem{Path: p, Kind: "dangling-symlink", Msg: "is a symbolic link to a file that does not exist"})
					}
					continue
				}
				w.Problem(Problem{Path: p, Kind: "unreadable", Msg: "cannot follow symbolic link: " + reason(err)})
				continue
			}
			if info.IsDir() {
				if w.skip(name) {
					continue
				}
				if loopsBack(info, ancestors) {
					w.Problem(Problem{Path: p, Kind: "symlink-loop", Msg: "is a symbolic link to a folder that contains it; not followed"})
					continue
				}
				if w.seenBefore(info) {
					continue
				}
				w.dir(p, append(ancestors[:len(ancestors):len(ancestors)], info))
				continue
			}
			if info.Mode().IsRegular() && strings.HasSuffix(name, ".py") {
				w.Visit(p)
			}
			continue
		}
		switch {
		case typ.IsDir():
			if w.skip(name) {
				continue
			}
			info, err := e.Info()
			if err != nil {
				w.Problem(Problem{Path: p, Kind: "unreadable", Msg: "cannot read folder: " + reason(err)})
				continue
			}
			if w.seenBefore(info) {
				continue
			}
			w.dir(p, append(ancestors[:len(ancestors):len(ancestors)], info))
		case typ.IsRegular() && strings.HasSuffix(name, ".py"):
			w.Visit(p)
		}
	}
}

func (w *Walker) skip(name string) bool {
	for _, pat := range w.NoRecurse {
		if ok, _ := path.Match(pat, name); ok {
			return true
		}
	}
	return false
}

func loopsBack(info os.FileInfo, ancestors []os.FileInfo) bool {
	for _, a := range ancestors {
		if os.SameFile(a, info) {
			return true
		}
	}
	return false
}

// seenBefore reports whether a folder was entered already (through a
// link, or as the target of one); it remembers info otherwise.
func (w *Walker) seenBefore(info os.FileInfo) bool {
	if id, ok := idOf(info); ok {
		if w.seen == nil {
			w.seen = map[fileID]bool{}
		}
		if w.seen[id] {
			return true
		}
		w.seen[id] = true
		return false
	}
	for _, s := range w.seenList {
		if os.SameFile(s, info) {
			return true
		}
	}
	w.seenList = append(w.seenList, info)
	return false
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
