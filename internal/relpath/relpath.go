// Package relpath writes paths as fixturegen's messages show them:
// relative to the working folder, as the user would type them, with ".."
// when the file lies above it (fixturegen run from a folder below its
// spec), unless the absolute path is shorter.
package relpath

import (
	"iter"
	"os"
	"path/filepath"
	"strings"
)

// Rel is abs as seen from the folder cwd.
func Rel(cwd, abs string) string {
	if rel, err := filepath.Rel(cwd, abs); err == nil && len(rel) <= len(abs) {
		return rel
	}
	return abs
}

// FromWD is abs as seen from the working folder.
func FromWD(abs string) string {
	cwd, err := os.Getwd()
	if err != nil {
		return abs
	}
	return Rel(cwd, abs)
}

// Tidy rewrites a path relative to cwd in its shortest form from there:
// "../../tests/inbox/x.py" seen from tests/inbox is "x.py". Absolute
// paths are shortened the same way.
func Tidy(cwd, path string) string {
	if !filepath.IsAbs(path) {
		path = filepath.Join(cwd, path)
	}
	return Rel(cwd, path)
}

// Slash is path relative to dir, slash-separated, as a spec's keys and
// project files hold paths ("." for dir itself); path itself, slashed,
// when it has no relative form.
func Slash(dir, path string) string {
	if r, err := filepath.Rel(dir, path); err == nil {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(path)
}

// Within reports whether the clean path p is dir or lies below it.
func Within(p, dir string) bool {
	return p == dir || Under(p, dir)
}

// Under reports whether the clean path p lies strictly below dir.
func Under(p, dir string) bool {
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		dir += string(filepath.Separator)
	}
	return len(p) > len(dir) && strings.HasPrefix(p, dir)
}

// Resolve is p made absolute against the folder dir, and clean.
func Resolve(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}

// Up yields the clean absolute folder dir, then every folder above it up
// to the file system's root.
func Up(dir string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for {
			if !yield(dir) {
				return
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				return
			}
			dir = parent
		}
	}
}
