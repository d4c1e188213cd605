package schema

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
// with neither is an error that says how to make one.
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
	where, _ := filepath.Abs(dir)
	return "", fmt.Errorf("no %s in %s, and no [tool.fixturegen] table in a %s there; run 'fixturegen init' to write a spec, or name one with --spec FILE",
		DefaultFile, where, PyprojectFile)
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
	sp, ok := Locate(src)[joinKey(joinKey("", PyprojectTable[0]), PyprojectTable[1])]
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
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return false, pe.Err
		}
		return false, err
	}
	if info.IsDir() {
		return false, errors.New("it is a folder, not a file")
	}
	return true, nil
}
