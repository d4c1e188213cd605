package write

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// OSError is an error of the operating system met while reading or writing
// a file, said as a sentence a person can act on: the path, what could not
// be done, why in words, and the fix. The system's own text
// ("openat ._fixturegen_runtime.py.fixturegen-187011506: permission
// denied") names a temporary file the user never sees, and no fix.
type OSError struct {
	Path  string // the file, as the user reaches it
	What  string // what could not be done to it: "write", "read", "create the folder of"
	Place string // the folder or file the fix is about; Path when empty
	Err   error  // the system's error
}

// Explain returns err, met while doing what to the file path, as an
// *OSError whose fix is about place (the file's folder, when creating a
// file there failed; "" for the file itself). An error that already says
// itself (a *LinkError, an *OSError, a *LockError) is returned as it is.
func Explain(path, what string, err error) error {
	return explainAt(path, what, "", err)
}

func explainAt(path, what, place string, err error) error {
	var le *LinkError
	var oe *OSError
	var lk *LockError
	if err == nil || errors.As(err, &le) || errors.As(err, &oe) || errors.As(err, &lk) {
		return err
	}
	return &OSError{Path: path, What: what, Place: place, Err: err}
}

func (e *OSError) Error() string { return e.Path + ": " + e.Reason() }

func (e *OSError) Unwrap() error { return e.Err }

// Reason is the message without the path in front.
func (e *OSError) Reason() string {
	cause, fix := e.explain()
	if fix == "" {
		return fmt.Sprintf("cannot %s it: %s", e.What, cause)
	}
	return fmt.Sprintf("cannot %s it: %s; %s", e.What, cause, fix)
}

// explain says why the system refused, and what to do about it.
func (e *OSError) explain() (cause, fix string) {
	place, kind := e.Place, "the folder"
	if place == "" {
		place, kind = e.Path, "the file"
	}
	named := kind + " " + place
	if place == "." {
		named = "the working folder"
	}
	switch {
	case errors.Is(e.Err, syscall.EROFS):
		return named + " is on a read-only file system", "run fixturegen on a writable copy of the project, or remount it writable"
	case errors.Is(e.Err, fs.ErrPermission):
		verb, able := "write", "writable"
		if e.What == "read" {
			verb, able = "read", "readable"
		}
		return fmt.Sprintf("%s does not let this user %s (permission denied)", named, verb),
			fmt.Sprintf("make it %s (its owner can run chmod u+%c %s), or run fixturegen as a user who may %s there", able, verb[0], shellWord(place), verb)
	case errors.Is(e.Err, syscall.ENOSPC):
		return "the disk that holds " + place + " is full (no space left on device)", "free some space and run again"
	case errors.Is(e.Err, syscall.EDQUOT):
		return "this user's disk quota is used up (disk quota exceeded)", "free some space and run again"
	case errors.Is(e.Err, fs.ErrNotExist):
		return named + " does not exist (it was removed while fixturegen ran?)", "run again"
	case errors.Is(e.Err, syscall.ENOTDIR):
		return "a part of its path is a file, not a folder", "move that file away, or point the spec at another path"
	}
	return systemText(e.Err), ""
}

// systemText is the system's reason in err, without the operation and the
// path that *fs.PathError and *os.LinkError put in front of it (the path
// is often a temporary file's).
func systemText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err.Error()
	}
	return err.Error()
}

// shellWord quotes p for a shell command in a message when it needs it.
func shellWord(p string) string {
	p = filepath.ToSlash(p)
	if strings.ContainsFunc(p, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '_' || r == '-' || r == '+' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) {
		return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
	}
	return p
}
