// Package treeread reads the Python files of a test tree, fast: Reader
// walks the roots the way pytest would reach them and hands each file's
// bytes to its caller on every core, and Matcher tells which of a few
// words a file holds. It knows nothing of check's rules; the words come
// from its caller.
//
// The walk skips the folders pytest never enters, reads the files symbolic
// links point to, and reports what it cannot enter (a folder it may not
// read, a link that leads back into itself or out of the tree, a dangling
// link) instead of failing. A link to a folder is never followed: a folder
// inside the tree is walked by its own path (so every file has one name,
// the one the user gave it), and one outside the tree is not walked at
// all, so the walk never leaves the folders it was given.
//
// Reader.Plain, and every system but Linux, take the portable path:
// os.ReadDir, files opened by path, asked their type and size, and read
// until a read returns nothing. The tricks below replace it where they
// pay; each figure is check's CPU time with the trick against without it
// (two builds side by side, bench/median_ratio.py), on bench/trees.sh's
// tree of 10,000 modules unless said otherwise (bench/README.md):
//
//   - Linux: folders are listed with getdents64 into one buffer
//     (list_linux.go) and kept open, and files are opened relative to
//     them with openat (openat_linux.go): no object per entry, no path
//     resolved twice, and no path joined for a file unless a message
//     names it. 6% of check's CPU time.
//   - Unix: a file is read into a 64 KiB buffer before it is asked its
//     size (read_posix.go), so a test module costs open, read, read,
//     close and no fstat. With the above, the fast path costs 0.75 of
//     the plain one's CPU time.
//   - Each reader keeps its buffer, and Read keeps the batches it handed
//     out rather than copying every file into one list: about 800 fewer
//     page faults of 4,170 on the tree of 10,000 modules. The buffer
//     starts with room for 1 MiB, of which a file takes pages only for
//     what it fills; one that doubled from 64 KiB left its pages behind
//     at each step: on CPython's Lib/test, with 73 modules over 64 KiB,
//     2,264 page faults before and 2,054 to 2,102 after (medians of 30
//     runs), CPU 0.98.
//   - A folder's files go to the readers before its subfolders are
//     stat'ed: on CPython's Lib/test the first file was read 0.5 ms after
//     the walk started instead of 1.3 ms, check's wall time 0.94 to 0.98
//     of before (measured with the walk on a goroutine of its own that
//     yielded once it had handed over its first folder; the calling
//     goroutine walks now, see Reader.Read).
//   - The calling goroutine walks, and the readers start when a second
//     batch waits for them: a project of one batch is walked and read
//     without waking another thread, 0.89 to 0.92 of check's wall time
//     on a one-module project.
//   - amd64 with AVX2: Matcher makes one pass for all its words, 32
//     places per turn, looking for each word's fingerprint of three bytes
//     with the nibble tables of the Teddy search (teddy_amd64.s), and the
//     same pass tells an ASCII file, which its caller need not check for
//     valid UTF-8. 0.88 against the SSE2 search of each word's two
//     rarest bytes it replaced (0.82 on sympy, 0.91 on the tree where
//     every module names the timer calls). Without AVX2, Matcher uses
//     bytes.IndexByte; the SSE2 search, which served amd64 without AVX2,
//     was dropped: no machine this project measures on runs it.
//
// Taking a short read for the end of the file on the file systems whose
// magic number promises it saved 0-2% and is not done.
package treeread

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fixturegen/fixturegen/internal/check/pytestcfg"
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
	// Visit is called with each .py file, its path joined onto its root.
	Visit func(path string)
	// Folder, when set, is called instead of Visit for the .py files of
	// each folder below a root, all at once and before the walk goes into
	// the folder's subfolders: with the folder's path joined onto its root
	// (the files' paths are filepath.Join(dir, name)), the files' names in
	// lexical order, and an open descriptor of the folder, or -1 where the
	// system gives none. The descriptor lets the caller open the files
	// relative to the folder, as grep does, without opening the folder a
	// second time; the caller owns it and must close it. A root that is a
	// file still goes to Visit.
	Folder func(dir string, fd int, names []string)
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

	seen     map[fileID]bool // folders entered, to enter each once
	seenList []os.FileInfo   // the same, where files have no ID
	real     []string        // Bounds with every link resolved
	cwd      string          // for the absolute paths of NoRecurse and Ignore
	buf      []byte          // for listDir
	// With Folder, a folder's entries and files are done with before its
	// subfolders are walked, so their arrays serve every folder.
	entries []entry
	files   []string
}

// entry is a name in a folder and its type, as the folder's listing gives
// it (fs.ModeDir, fs.ModeSymlink, 0 for a regular file, fs.ModeIrregular
// for anything else).
type entry struct {
	name string
	typ  fs.FileMode
}

// list returns a folder's entries sorted by name, as os.ReadDir does, and,
// when keep is set, a descriptor of the folder left open for the caller
// (or -1).
func (w *walker) list(dir string, keep bool) ([]entry, int, error) {
	if w.readDir == nil {
		var reuse []entry
		if w.Folder != nil {
			reuse = w.entries[:0]
		}
		entries, fd, err := w.listDir(dir, keep, reuse)
		if w.Folder != nil {
			w.entries = entries
		}
		return entries, fd, err
	}
	des, err := w.readDir(dir)
	entries := make([]entry, len(des))
	for i, e := range des {
		entries[i] = entry{e.Name(), e.Type()}
	}
	return entries, -1, err
}

// Walk visits the .py files under root, in lexical order; a root that is
// a file is visited itself. A root that does not exist is an error; every
// other trouble is a Problem and the walk goes on.
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
	if w.real == nil {
		for _, b := range w.Bounds {
			if r, err := w.realPath(b); err == nil {
				w.real = append(w.real, r)
			}
		}
	}
	// A root is most often one of the bounds, whose real path is known.
	if !slices.Contains(w.Bounds, root) {
		if r, err := w.realPath(root); err == nil {
			w.real = append(w.real, r)
		}
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
	w.seenBefore(info)
	w.dir(root, []os.FileInfo{info})
	return nil
}

// dir walks one folder; ancestors holds the folders above it and itself.
func (w *walker) dir(dir string, ancestors []os.FileInfo) {
	entries, fd, err := w.list(dir, w.Folder != nil)
	if err != nil {
		w.Problem(Problem{Path: dir, Kind: "unreadable", Msg: "cannot read folder: " + reason(err)})
		if len(entries) == 0 {
			closeFD(fd)
			return
		}
	}
	// pytest skips a virtual environment wherever it sits.
	for _, e := range entries {
		if e.name == "pyvenv.cfg" && len(ancestors) > 1 {
			closeFD(fd)
			return
		}
	}
	// With Folder, the folder's files are gathered and handed over before
	// its subfolders are walked, so that the caller can start on them.
	var files []string
	if w.Folder != nil {
		files = w.files[:0]
	}
	var subdirs []subdir
	visit := func(p, name string) {
		if w.Folder == nil {
			w.Visit(p)
		} else {
			files = append(files, name)
		}
	}
	enter := func(p string, info os.FileInfo) {
		next := append(ancestors[:len(ancestors):len(ancestors)], info)
		if w.Folder == nil {
			w.dir(p, next)
		} else {
			subdirs = append(subdirs, subdir{p, next})
		}
	}
	// With Folder, a folder's regular files are handed over before its
	// subfolders are looked at, a stat each, so that the readers start on
	// them at once. On CPython's Lib/test, whose first folder holds 462
	// modules and 39 subfolders, the first file was read 1.3 ms after the
	// walk started, and 0.5 ms with this and the walk, then on a
	// goroutine of its own, yielding once it had handed over the first
	// folder (medians of 15 runs at a load average of 2). A folder with
	// links hands its files over after the whole loop, since a link may
	// lead to a file.
	early := w.Folder != nil && !slices.ContainsFunc(entries, func(e entry) bool { return e.typ&fs.ModeSymlink != 0 })
	if early {
		for _, e := range entries {
			if e.typ.IsRegular() && strings.HasSuffix(e.name, ".py") && (w.Ignore == nil || !w.Ignore(w.abs(filepath.Join(dir, e.name)))) {
				files = append(files, e.name)
			}
		}
		w.handOver(dir, fd, files)
	}
	for _, e := range entries {
		name := e.name
		typ := e.typ
		if typ.IsRegular() {
			// Most of a tree; a file that goes to Folder needs no path of
			// its own.
			if early {
				continue
			}
			if strings.HasSuffix(name, ".py") {
				if w.Ignore != nil && w.Ignore(w.abs(filepath.Join(dir, name))) {
					continue
				}
				if w.Folder != nil {
					files = append(files, name)
				} else {
					w.Visit(filepath.Join(dir, name))
				}
			}
			continue
		}
		if !typ.IsDir() && typ&fs.ModeSymlink == 0 {
			continue // a device, a pipe, a socket
		}
		p := filepath.Join(dir, name)
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
				if w.skip(p) {
					continue
				}
				w.folderLink(p, info, ancestors)
				continue
			}
			if info.Mode().IsRegular() && strings.HasSuffix(name, ".py") && (w.Ignore == nil || !w.Ignore(w.abs(p))) {
				visit(p, name)
			}
			continue
		}
		if w.skip(p) {
			continue
		}
		info, err := os.Lstat(p)
		if err != nil {
			w.Problem(Problem{Path: p, Kind: "unreadable", Msg: "cannot read folder: " + reason(err)})
			continue
		}
		if w.seenBefore(info) {
			continue
		}
		enter(p, info)
	}
	if w.Folder == nil {
		closeFD(fd)
		return
	}
	if !early {
		w.handOver(dir, fd, files)
	}
	w.files = files
	for _, d := range subdirs {
		w.dir(d.path, d.ancestors)
	}
}

// handOver gives a folder's files, and its descriptor, to Folder.
func (w *walker) handOver(dir string, fd int, files []string) {
	if len(files) > 0 {
		w.Folder(dir, fd, files)
	} else {
		closeFD(fd)
	}
}

// subdir is a folder to walk once its parent's files are handed over.
type subdir struct {
	path      string
	ancestors []os.FileInfo
}

// folderLink reports a link to a folder that leads back into the folders
// above it, or out of the tree. A link to a folder elsewhere in the tree
// is left alone: the walk reaches that folder by its own path.
func (w *walker) folderLink(p string, info os.FileInfo, ancestors []os.FileInfo) {
	if loopsBack(info, ancestors) {
		w.Problem(Problem{Path: p, Kind: "symlink-loop", Msg: "is a symbolic link to a folder that contains it; not followed"})
		return
	}
	target, err := w.realPath(p)
	if err != nil {
		w.Problem(Problem{Path: p, Kind: "unreadable", Msg: "cannot follow symbolic link: " + reason(err)})
		return
	}
	if here, err := w.realPath(filepath.Dir(p)); err == nil && (here == target || within(here, target)) {
		w.Problem(Problem{Path: p, Kind: "symlink-loop", Msg: "is a symbolic link to a folder that contains it; not followed"})
		return
	}
	for _, b := range w.real {
		if target == b || within(target, b) {
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

// within reports whether path lies below folder dir.
func within(path, dir string) bool {
	if dir == string(filepath.Separator) {
		return path != dir
	}
	return strings.HasPrefix(path, dir+string(filepath.Separator))
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
func (w *walker) seenBefore(info os.FileInfo) bool {
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
