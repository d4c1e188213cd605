package schema

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// PyprojectFile is the Python project file that may hold the spec in its
// [tool.fixturegen] table instead of a fixturegen.toml.
const PyprojectFile = "pyproject.toml"

// PyprojectTable is the path of the spec table inside PyprojectFile.
var PyprojectTable = []string{"tool", "fixturegen"}

// TablePrefix returns the table that holds the spec in the file at path:
// PyprojectTable for a pyproject.toml, nil (the whole document) otherwise.
func TablePrefix(path string) []string {
	if filepath.Base(path) == PyprojectFile {
		return PyprojectTable
	}
	return nil
}

// Find returns the path of the spec in folder dir: DefaultFile, or else
// PyprojectFile when it has a [tool.fixturegen] table. The path is dir
// joined with the file name, so Find(".") returns a bare file name.
//
// Two specs in one folder are an *Error at the pyproject.toml table that
// names both files: fixturegen will not guess which one is current. A folder
// with neither returns "" and no error; FindUp then looks further up.
func Find(dir string) (string, error) {
	own := filepath.Join(dir, DefaultFile)
	pyproject := filepath.Join(dir, PyprojectFile)
	hasOwn, err := isFile(own)
	if err != nil {
		return "", &Error{File: own, Msg: "cannot read spec: " + err.Error()}
	}
	table, err := PyprojectSpan(pyproject)
	if err != nil {
		return "", &Error{File: pyproject, Msg: "cannot read: " + err.Error()}
	}
	switch {
	case hasOwn && table != nil:
		return "", &Error{File: pyproject, Line: table.Line, Col: table.Col, Msg: fmt.Sprintf(
			"[tool.fixturegen] holds a fixturegen spec, and so does %s beside it; keep one of the two (fixturegen will not guess which is current), or name one with --spec FILE",
			own)}
	case hasOwn:
		return own, nil
	case table != nil:
		return pyproject, nil
	}
	return "", nil
}

// FindUp returns the path of the nearest spec from the folder dir upwards,
// relative to dir (so FindUp(".") from tests/inbox returns
// "../../fixturegen.toml"). Each folder is looked at as Find does: a
// fixturegen.toml, or a pyproject.toml with a [tool.fixturegen] table. A
// pyproject.toml without that table does not stop the search, as with
// ruff's [tool.ruff]: most projects have a pyproject.toml, and it says
// nothing about fixturegen.
//
// The search stops at the repository root (a folder holding .git, a
// folder or a worktree's file) and at a file system boundary (a parent on
// another device), so a spec in a home folder or above a checkout is never
// picked up by accident. A search that finds nothing is an error naming
// where it looked and how to make a spec.
func FindUp(dir string) (string, error) {
	start, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for abs, rel := start, dir; ; rel = filepath.Join(rel, "..") {
		path, err := Find(rel)
		if err != nil || path != "" {
			return path, err
		}
		parent := filepath.Dir(abs)
		if parent == abs || isRepoRoot(abs) || !sameDevice(abs, parent) {
			return "", notFound(start, abs)
		}
		abs = parent
	}
}

// notFound is the error of a search from start that ended at last.
func notFound(start, last string) error {
	where := start
	if last != start {
		where = fmt.Sprintf("%s or any folder above it up to %s", start, last)
	}
	return fmt.Errorf("no %s, and no [tool.fixturegen] table in a %s, in %s; run 'fixturegen init' to write a spec, or name one with --spec FILE",
		DefaultFile, PyprojectFile, where)
}

// isRepoRoot reports whether dir holds .git: a folder in a clone, a file
// in a worktree or a submodule.
func isRepoRoot(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, ".git"))
	return err == nil
}

// PyprojectSpan returns where the [tool.fixturegen] table of the
// pyproject.toml at path starts, or nil when the file or the table does
// not exist. The table counts when anything defines it: its header, a
// header below it, or a dotted key under [tool]. The text is scanned, not
// decoded, so a pyproject.toml that is not valid TOML still says whether it
// means to hold a spec; loading it then reports the syntax error.
func PyprojectSpan(path string) (*Span, error) {
	src, err := readFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	sp, ok := Locate(src)[strings.Join(PyprojectTable, ".")]
	if !ok {
		return nil, nil
	}
	return &sp, nil
}

// isFile reports whether path exists; a folder or an unreadable entry in
// its place is an error, since the user meant it as the spec.
func isFile(path string) (bool, error) {
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err == nil && info.IsDir() {
		return false, errors.New("it is a folder, not a file")
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return false, pe.Err
	}
	return err == nil, err
}
