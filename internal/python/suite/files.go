package suite

import (
	"os"
	"path/filepath"
	"slices"

	"github.com/fixturegen/fixturegen/internal/python/pytestcfg"
	"github.com/fixturegen/fixturegen/internal/python/treeread"
	"github.com/fixturegen/fixturegen/internal/relpath"
)

// Files lists the .py files of the project at root that pytest reaches,
// walked as Read walks a tree: the folders norecursedirs names and the
// paths --ignore and --ignore-glob name in addopts are left out, and with
// testpaths only the files in those paths are listed, with the conftests
// of the folders above them, which pytest loads too. cfg is the project's
// pytest configuration, or nil. The paths are slash-separated, relative
// to root, in lexical order; the files are not read.
func Files(root string, cfg *pytestcfg.Config) ([]string, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	coll := (&Options{Config: cfg}).newCollection()
	var out []string
	err = treeread.Walk([]string{root}, NoRecurse(cfg), coll.walkIgnore(), func(p string) bool {
		if coll.reaches(p, filepath.Base(p) == "conftest.py") {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return false
	})
	slices.Sort(out)
	return out, err
}

// reaches reports whether pytest, run without paths, reaches the file at
// abs: with testpaths, a file in one of them, or a conftest in a folder
// above one.
func (c *collection) reaches(abs string, conftest bool) bool {
	return c.testPaths == nil || slices.ContainsFunc(c.testPaths, func(p string) bool {
		return abs == p || relpath.Under(abs, p) || conftest && (p == filepath.Dir(abs) || relpath.Under(p, filepath.Dir(abs)))
	})
}

// TestModules lists the test modules pytest collects from roots (folders
// or files, absolute) under the configuration cfg (nil for none): the
// files whose names match python_files, in folders norecursedirs does not
// skip and paths --ignore and --ignore-glob in addopts do not name, and
// each root that is a file, whatever its name, as pytest collects a file
// it is given. testpaths does not apply: roots are what pytest was given.
// The paths are absolute, in lexical order, each once; the files are not
// read.
//
// A folder except (absolute; "" for none) is not walked.
func TestModules(roots []string, cfg *pytestcfg.Config, except string) ([]string, error) {
	var out []string
	err := testModules(roots, cfg, except, nil, func(p string) bool {
		out = append(out, p)
		return false
	})
	slices.Sort(out)
	return slices.Compact(out), err
}

// HasTestModule reports whether pytest collects a test module from roots
// under cfg (as TestModules lists them) other than those in skip. It
// stops at the first it finds, so a tree full of tests costs one folder.
func HasTestModule(roots []string, cfg *pytestcfg.Config, skip map[string]bool) bool {
	found := false
	_ = testModules(roots, cfg, "", skip, func(string) bool {
		found = true
		return true
	})
	return found
}

// testModules is the walk of TestModules and HasTestModule: it calls
// visit with each test module pytest collects from roots, other than
// those in skip and those below except, until visit returns true.
func testModules(roots []string, cfg *pytestcfg.Config, except string, skip map[string]bool, visit func(string) bool) error {
	coll := (&Options{Config: cfg, NamedRoots: true}).newCollection()
	ignore := coll.walkIgnore()
	if except != "" {
		inner := ignore
		ignore = func(abs string) bool { return abs == except || inner != nil && inner(abs) }
	}
	var dirs []string
	for _, r := range roots {
		info, err := os.Stat(r)
		switch {
		case err != nil || r == except || except != "" && relpath.Under(r, except) || skip[r]:
		case info.IsDir():
			dirs = append(dirs, r)
		case visit(r):
			return nil
		}
	}
	return treeread.Walk(dirs, NoRecurse(cfg), ignore, func(p string) bool {
		return filepath.Base(p) != "conftest.py" && !skip[p] && coll.isTestFile(p) && visit(p)
	})
}
