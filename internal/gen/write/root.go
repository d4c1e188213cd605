package write

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/fixturegen/fixturegen/internal/relpath"
)

// Root is the spec's folder, the project: every file fixturegen plans from
// the spec or a command is written inside it, and every file the spec
// names is read inside it, whatever links the project holds. A hostile
// repository could otherwise hold a link, tests/out -> /somewhere/else,
// and a spec that plans tests/out/conftest.py, and make fixturegen write
// Python code wherever the user can write.
//
// The rule is the one git keeps for its work tree:
//
//   - a link in a planned path's folders is followed only when its real
//     path stays inside the real path of the spec's folder; a link that
//     leads outside, loops, or leads nowhere is refused;
//   - a link in the place of a planned file itself is refused wherever it
//     leads: it is never followed, and never replaced.
//
// Every path is checked before it is used (Check, or the first step of
// each method), and a command checks all of its planned paths before its
// first write. The check is made on the paths' text by walking them; the
// folder then written to is opened through an os.Root of the project's
// real folder, by the real path the check found, so a folder swapped for
// a link between the check and the write cannot lead the write out of the
// project.
type Root struct {
	abs     string // the spec's folder, absolute, as the spec's path names it
	real    string // the real path of abs: every link resolved
	display string // the spec's folder as the user reaches it
}

// NewRoot returns the Root of the folder dir, shown to the user as display
// (the folder of the spec's path as given: "." in the working directory).
func NewRoot(dir, display string) (*Root, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, err
	}
	return &Root{abs: abs, real: real, display: display}, nil
}

// LinkError is a planned path that fixturegen refuses because of a link.
type LinkError struct {
	Path   string // the planned file, as the user reaches it
	Link   string // the link, as the user reaches it; Path itself when Final
	Target string // where the link leads: its real path, or its text when it does not resolve
	Final  bool   // the link is in the place of the planned file itself
	Broken bool   // the link loops or leads to nothing
	Root   string // the real path of the spec's folder
}

func (e *LinkError) Error() string { return e.Path + ": " + e.Reason() }

// Reason is the message without the planned file's path in front.
func (e *LinkError) Reason() string {
	switch {
	case e.Final:
		return fmt.Sprintf("is a link to %s; fixturegen never writes through a link nor replaces one, so put the file itself here or point the spec at another path", e.Target)
	case e.Broken:
		return fmt.Sprintf("%s is a link to %s, which does not resolve (it loops, or leads to nothing); fixturegen follows no such link, so remove it or point the spec at another path", e.Link, e.Target)
	default:
		return fmt.Sprintf("%s is a link to %s, outside the project's folder %s; fixturegen reads and writes only inside it, so remove the link or point the spec at another path", e.Link, e.Target, e.Root)
	}
}

// target is a planned path checked against the root: the real path of the
// deepest folder on its way that exists, the folders below that one still
// to be made, and the file's name.
type target struct {
	display string
	dir     string
	missing []string
	name    string
}

// Check checks path (absolute, or relative to the working directory)
// against the rule of Root, without changing anything. It returns a
// *LinkError for a path the rule refuses.
func (r *Root) Check(path string) error {
	_, err := r.resolve(path)
	return err
}

// resolve walks path's folders below the root, one entry at a time, and
// checks each link it meets.
func (r *Root) resolve(path string) (*target, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(r.abs, abs)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, fmt.Errorf("%s is outside the project's folder %s", path, r.abs)
	}
	parts := strings.Split(rel, string(filepath.Separator))
	t := &target{display: r.show(parts), name: parts[len(parts)-1]}
	cur := r.real
	for i, name := range parts[:len(parts)-1] {
		next := filepath.Join(cur, name)
		info, err := os.Lstat(next)
		if errors.Is(err, fs.ErrNotExist) {
			t.missing = parts[i : len(parts)-1]
			break
		}
		if err != nil {
			return nil, err
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			real, broken := linkTarget(next)
			if broken || !relpath.Within(real, r.real) {
				return nil, &LinkError{Path: t.display, Link: r.show(parts[:i+1]), Target: real, Broken: broken, Root: r.real}
			}
			if info, err = os.Stat(real); err != nil {
				return nil, err
			}
			next = real
		}
		if !info.IsDir() {
			return nil, fmt.Errorf("%s: %s is not a folder", t.display, r.show(parts[:i+1]))
		}
		cur = next
	}
	t.dir = cur
	if t.missing == nil {
		last := filepath.Join(cur, t.name)
		if info, err := os.Lstat(last); err == nil && info.Mode()&fs.ModeSymlink != 0 {
			return nil, r.finalLink(t.display, last)
		}
	}
	return t, nil
}

// finalLink is the error for the link at last in the place of the planned
// file shown as display.
func (r *Root) finalLink(display, last string) *LinkError {
	target, _ := linkTarget(last)
	return &LinkError{Path: display, Link: display, Final: true, Target: target, Root: r.real}
}

// linkTarget is where the link at p leads: its real path, or, when it
// does not resolve (broken), its text.
func linkTarget(p string) (target string, broken bool) {
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real, false
	}
	target, _ = os.Readlink(p)
	return target, true
}

// show is the path of the entries parts below the root as the user
// reaches it.
func (r *Root) show(parts []string) string {
	return filepath.Join(append([]string{r.display}, parts...)...)
}

// open checks path and opens the folder it is written in, making the
// missing folders on its way when mkdir is set.
func (r *Root) open(path string, mkdir bool) (*target, *folder, error) {
	t, err := r.resolve(path)
	if err != nil {
		return nil, nil, err
	}
	if t.missing != nil && !mkdir {
		return t, nil, &fs.PathError{Op: "open", Path: t.display, Err: fs.ErrNotExist}
	}
	if beforeOpen != nil {
		beforeOpen()
	}
	dir, err := openBelow(r.real, t.dir, t.missing)
	if err != nil {
		what := "create the folder of"
		if !mkdir || t.missing == nil {
			what = "open the folder of"
		}
		return nil, nil, explainAt(t.display, what, filepath.Dir(t.display), err)
	}
	return t, dir, nil
}

// beforeOpen, when a test sets it, runs between a path's check and the
// opening of its folder: the window a swapped folder would use.
var beforeOpen func()

// ReadFile reads a file the spec names, under the rule of Root: it returns
// a *LinkError for a path the rule refuses, an error matching
// fs.ErrNotExist for a missing file, and otherwise what the package's
// ReadFile returns: it never blocks on a FIFO nor reads without end.
func (r *Root) ReadFile(path string) ([]byte, fs.FileInfo, error) {
	t, dir, err := r.open(path, false)
	if err != nil {
		return nil, nil, err
	}
	defer dir.Close()
	f, err := dir.open(t.name, os.O_RDONLY, 0)
	if err != nil {
		return nil, nil, r.refused(t, dir, err)
	}
	return readRegular(f)
}

// File is the package's File for a path the spec plans, under the rule of
// Root.
func (r *Root) File(path string, content []byte) error {
	t, dir, err := r.open(path, true)
	if err != nil {
		return err
	}
	defer dir.Close()
	old, err := dir.Lstat(t.name)
	switch {
	case err == nil && old.Mode()&fs.ModeSymlink != 0:
		return r.finalLink(t.display, filepath.Join(dir.dir, t.name))
	case err == nil && !old.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file", t.display)
	case errors.Is(err, fs.ErrNotExist):
		old = nil
	case err != nil:
		return Explain(t.display, "write", err)
	}
	return explainAt(t.display, "write", filepath.Dir(t.display), replace(dir, t.name, content, old))
}

// New creates path, below the spec's folder, under the rule of Root: it
// fails with an error that matches fs.ErrExist when something already has
// that name, even when it appears between a caller's check and the write,
// and never replaces a file. Missing parent folders are created.
func (r *Root) New(path string, content []byte) error {
	t, dir, err := r.open(path, true)
	if err != nil {
		return err
	}
	defer dir.Close()
	return explainAt(t.display, "create", filepath.Dir(t.display), create(dir, filepath.Base(path), content))
}

// refused explains why the file name in dir did not open: a link put in
// its place since the check is refused as the check would have.
func (r *Root) refused(t *target, dir *folder, err error) error {
	if info, lerr := dir.Lstat(t.name); lerr == nil && info.Mode()&fs.ModeSymlink != 0 {
		return r.finalLink(t.display, filepath.Join(dir.dir, t.name))
	}
	return err
}
