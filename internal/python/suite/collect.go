package suite

import (
	"path/filepath"

	"github.com/fixturegen/fixturegen/internal/python/pytestcfg"
	"github.com/fixturegen/fixturegen/internal/relpath"
)

// collection is what decides, as in pytest, which files are test modules
// and which paths pytest never collects; Read works it out once, before
// the readers start.
type collection struct {
	pythonFiles []string // python_files
	// testPaths are the paths testpaths expands to; nil when pytest
	// collects from the folder it runs in.
	testPaths []string
	cfg       pytestcfg.Collection
}

func (o *Options) newCollection() *collection {
	c := &collection{pythonFiles: []string{"test_*.py", "*_test.py"}}
	if o.Config != nil {
		if args, ok := o.Config.Options["python_files"]; ok {
			c.pythonFiles = c.pythonFiles[:0]
			for _, a := range args {
				c.pythonFiles = append(c.pythonFiles, a.Text)
			}
		}
		c.cfg = o.Config.Collection()
		if !o.NamedRoots {
			c.testPaths = c.cfg.TestPaths
		}
	}
	return c
}

// isTestFile reports whether pytest collects the file at abs as a test
// module: its path matches python_files as pytest matches it (a pattern
// with a "/" against the whole path), and, with testpaths, it lies in one
// of them or is one (a file named there is collected whatever its name).
func (c *collection) isTestFile(abs string) bool {
	if c.testPaths != nil {
		in := false
		for _, p := range c.testPaths {
			if abs == p {
				return true
			}
			if relpath.Under(abs, p) {
				in = true
				break
			}
		}
		if !in {
			return false
		}
	}
	for _, p := range c.pythonFiles {
		if pytestcfg.MatchPath(p, abs) {
			return true
		}
	}
	return false
}

// ignored reports whether --ignore or --ignore-glob in addopts keeps
// pytest from collecting the path at abs (a folder or a file).
func (c *collection) ignored(abs string) bool {
	for _, p := range c.cfg.Ignore {
		if abs == p {
			return true
		}
	}
	for _, g := range c.cfg.IgnoreGlob {
		if pytestcfg.Fnmatch(abs, g) {
			return true
		}
	}
	return false
}

// walkIgnore is the Reader's Ignore hook, or nil when nothing is ignored,
// which spares the walk a question per file.
func (c *collection) walkIgnore() func(string) bool {
	if len(c.cfg.Ignore) == 0 && len(c.cfg.IgnoreGlob) == 0 {
		return nil
	}
	return c.ignored
}

// conftestIgnores are the literal collect_ignore and collect_ignore_glob
// lists of one conftest, made absolute against its folder as pytest makes
// them.
type conftestIgnores struct {
	paths, globs []string
	hasPaths     bool // collect_ignore is set, even to an empty list
	hasGlobs     bool
}

func readConftestIgnores(src *Source) *conftestIgnores {
	var ci *conftestIgnores
	for _, a := range src.Mod.Assigns {
		if a.Scope >= 0 || !a.Literal || a.Name != "collect_ignore" && a.Name != "collect_ignore_glob" {
			continue
		}
		if ci == nil {
			ci = &conftestIgnores{}
		}
		var abs []string
		for _, v := range a.Strings {
			abs = append(abs, filepath.Join(src.Dir, filepath.FromSlash(v)))
		}
		// A later assignment replaces an earlier one, as in Python.
		if a.Name == "collect_ignore" {
			ci.paths, ci.hasPaths = abs, true
		} else {
			ci.globs, ci.hasGlobs = abs, true
		}
	}
	return ci
}

// dropCollectIgnored removes from the sources and problems the files that
// the collect_ignore and collect_ignore_glob lists of the conftests keep
// pytest from collecting. pytest asks, for every path it meets (each
// folder on the way, then the file), the nearest conftest above that
// path that sets the list; so does this.
func (s *scan) dropCollectIgnored() {
	lists := map[string]*conftestIgnores{} // by the conftest's folder
	for _, src := range s.sources {
		if src.Conftest {
			if ci := readConftestIgnores(src); ci != nil {
				lists[src.Dir] = ci
			}
		}
	}
	if len(lists) == 0 {
		return
	}
	// nearest finds the list of the kind asked for that applies to paths
	// in folder dir.
	nearest := func(dir string, globs bool) []string {
		for {
			if ci := lists[dir]; ci != nil && (globs && ci.hasGlobs || !globs && ci.hasPaths) {
				if globs {
					return ci.globs
				}
				return ci.paths
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				return nil
			}
			dir = parent
		}
	}
	memo := map[string]bool{}
	var isIgnored func(p string) bool
	isIgnored = func(p string) bool {
		if v, ok := memo[p]; ok {
			return v
		}
		parent := filepath.Dir(p)
		v := false
		if parent != p {
			for _, q := range nearest(parent, false) {
				v = v || q == p
			}
			for _, g := range nearest(parent, true) {
				v = v || pytestcfg.Fnmatch(p, g)
			}
			v = v || isIgnored(parent)
		}
		memo[p] = v
		return v
	}
	s.ignoreFile = isIgnored
	s.dropIgnored()
}

// dropIgnored drops the sources and problems of the files ignoreFile
// leaves out.
func (s *scan) dropIgnored() {
	if s.ignoreFile == nil {
		return
	}
	kept := s.sources[:0]
	for _, src := range s.sources {
		if !s.ignoreFile(src.Abs) {
			kept = append(kept, src)
		}
	}
	clear(s.sources[len(kept):])
	s.sources = kept
	var problems []Problem
	for _, w := range s.problems {
		if !s.ignoreFile(s.abs(w.Path)) {
			problems = append(problems, w)
		}
	}
	s.problems = problems
}
