package suite

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fixturegen/fixturegen/internal/python/pytestcfg"
	"github.com/fixturegen/fixturegen/internal/python/treeread"
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
	opts := &Options{Config: cfg}
	coll := opts.newCollection()
	r := &treeread.Reader{
		NoRecurse: NoRecurse(cfg),
		Bounds:    []string{root},
		Ignore:    coll.walkIgnore(),
		Problem:   func(treeread.Problem) {}, // a folder it cannot enter holds nothing to find
		Unread:    func(*treeread.File) bool { return true },
	}
	files, err := r.Read([]string{root}, func(*treeread.File, []byte, error, int) {})
	if err != nil {
		return nil, err
	}
	var out []string
	for f := range files.All() {
		if p := f.Path(); coll.reaches(p, f.Name == "conftest.py") {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return nil, err
			}
			out = append(out, filepath.ToSlash(rel))
		}
	}
	slices.Sort(out)
	return out, nil
}

// reaches reports whether pytest, run without paths, reaches the file at
// abs: with testpaths, a file in one of them, or a conftest in a folder
// above one.
func (c *collection) reaches(abs string, conftest bool) bool {
	if c.testPaths == nil {
		return true
	}
	for _, p := range c.testPaths {
		if abs == p || under(abs, p) || conftest && (p == filepath.Dir(abs) || under(p, filepath.Dir(abs))) {
			return true
		}
	}
	return false
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
	opts := &Options{Config: cfg, NamedRoots: true}
	coll := opts.newCollection()
	ignore := coll.walkIgnore()
	if except != "" {
		inner := ignore
		ignore = func(abs string) bool { return abs == except || inner != nil && inner(abs) }
	}
	seen := map[string]bool{}
	var out []string
	var dirs []string
	for _, r := range roots {
		info, err := os.Stat(r)
		switch {
		case err != nil || r == except || except != "" && under(r, except):
			continue
		case info.IsDir():
			dirs = append(dirs, r)
		case !seen[r]:
			seen[r] = true
			out = append(out, r)
		}
	}
	if len(dirs) > 0 {
		r := &treeread.Reader{
			NoRecurse: NoRecurse(cfg),
			Bounds:    dirs,
			Ignore:    ignore,
			Problem:   func(treeread.Problem) {},
			Unread:    func(*treeread.File) bool { return true },
		}
		files, err := r.Read(dirs, func(*treeread.File, []byte, error, int) {})
		if err != nil {
			return nil, err
		}
		for f := range files.All() {
			p := f.Path()
			if !seen[p] && f.Name != "conftest.py" && coll.isTestFile(p) {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	slices.Sort(out)
	return out, nil
}

// HasTestModule reports whether pytest collects a test module from roots
// under cfg (as TestModules lists them) other than those in skip. It
// stops at the first it finds, so a tree full of tests costs one folder.
func HasTestModule(roots []string, cfg *pytestcfg.Config, skip map[string]bool) bool {
	opts := &Options{Config: cfg, NamedRoots: true}
	coll := opts.newCollection()
	noRecurse := NoRecurse(cfg)
	ignore := coll.walkIgnore()
	var walk func(dir string) bool
	walk = func(dir string) bool {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return false
		}
		var dirs []string
		for _, e := range entries {
			p := filepath.Join(dir, e.Name())
			if ignore != nil && ignore(p) {
				continue
			}
			if e.IsDir() {
				dirs = append(dirs, p)
				continue
			}
			if e.Type().IsRegular() && e.Name() != "conftest.py" && !skip[p] && strings.HasSuffix(e.Name(), ".py") && coll.isTestFile(p) {
				return true
			}
		}
		for _, d := range dirs {
			if !slices.ContainsFunc(noRecurse, func(pat string) bool { return pytestcfg.MatchPath(pat, d) }) && walk(d) {
				return true
			}
		}
		return false
	}
	for _, r := range roots {
		info, err := os.Stat(r)
		switch {
		case err != nil:
		case info.IsDir():
			if walk(r) {
				return true
			}
		case !skip[r]:
			return true
		}
	}
	return false
}
