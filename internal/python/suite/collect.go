package suite

import (
	"path/filepath"
	"slices"

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
		i := slices.IndexFunc(c.testPaths, func(p string) bool { return relpath.Within(abs, p) })
		if i < 0 {
			return false
		}
		if c.testPaths[i] == abs {
			return true
		}
	}
	return slices.ContainsFunc(c.pythonFiles, func(p string) bool { return pytestcfg.MatchPath(p, abs) })
}

// ignored reports whether --ignore or --ignore-glob in addopts keeps
// pytest from collecting the path at abs (a folder or a file).
func (c *collection) ignored(abs string) bool {
	return slices.Contains(c.cfg.Ignore, abs) ||
		slices.ContainsFunc(c.cfg.IgnoreGlob, func(g string) bool { return pytestcfg.Fnmatch(abs, g) })
}

// walkIgnore is the Reader's Ignore hook, or nil when nothing is ignored,
// which spares the walk a question per file.
func (c *collection) walkIgnore() func(string) bool {
	if len(c.cfg.Ignore) == 0 && len(c.cfg.IgnoreGlob) == 0 {
		return nil
	}
	return c.ignored
}

// dropCollectIgnored removes from the sources and problems the files that
// the collect_ignore and collect_ignore_glob lists of the conftests keep
// pytest from collecting. pytest asks, for every path it meets (each
// folder on the way, then the file), the nearest conftest above that
// path that sets the list; so does this.
func (s *scan) dropCollectIgnored() {
	// The literal lists of the conftests, by the conftest's folder, made
	// absolute against it as pytest makes them. A list set to [] is
	// there, and hides the lists above it. A later assignment replaces an
	// earlier one, as in Python.
	paths, globs := map[string][]string{}, map[string][]string{}
	for _, src := range s.sources {
		if !src.Conftest {
			continue
		}
		for _, a := range src.Mod.Assigns {
			if a.Scope >= 0 || !a.Literal || a.Name != "collect_ignore" && a.Name != "collect_ignore_glob" {
				continue
			}
			lists := paths
			if a.Name == "collect_ignore_glob" {
				lists = globs
			}
			var abs []string
			for _, v := range a.Strings {
				abs = append(abs, filepath.Join(src.Dir, filepath.FromSlash(v)))
			}
			lists[src.Dir] = abs
		}
	}
	if len(paths) == 0 && len(globs) == 0 {
		return
	}
	// nearest finds the list that applies to paths in folder dir.
	nearest := func(lists map[string][]string, dir string) []string {
		for d := range relpath.Up(dir) {
			if l, ok := lists[d]; ok {
				return l
			}
		}
		return nil
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
			v = slices.Contains(nearest(paths, parent), p) ||
				slices.ContainsFunc(nearest(globs, parent), func(g string) bool { return pytestcfg.Fnmatch(p, g) }) ||
				isIgnored(parent)
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
	s.sources = slices.DeleteFunc(s.sources, func(src *Source) bool { return s.ignoreFile(src.Abs) })
	s.problems = slices.DeleteFunc(s.problems, func(w Problem) bool { return s.ignoreFile(s.abs(w.Path)) })
}
