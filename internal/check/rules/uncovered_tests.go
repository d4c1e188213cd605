package rules

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/fixturegen/fixturegen/internal/python/coverage"
	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/internal/relpath"
)

const RuleUncoveredTests = "uncovered-tests"

var uncoveredTestsRule = checked{
	Rule: Rule{
		ID:      RuleUncoveredTests,
		Summary: "tests pytest collects that the conftest misses",
		Meaning: "pytest, run on the spec's tests with the configuration it reads for them (the file pytest picks from the tests' folders, with its `testpaths`, `python_files`, `norecursedirs` and `--ignore`), collects test modules that the conftest holding the region does not reach: none lies below `[paths].conftest`'s folder (a typo such as `testz/conftest.py`; reported at the key), or, with `[shield]`, some lie outside that folder, or the configuration file is below the conftest's folder, where pytest loads no conftest.py above it. The import shield does not hold pytest-timeout's handler in their first imports when they run without the tests below the conftest. Reported at the first module of each folder, naming the others.",
		Fix:     "Set `[paths].conftest` to a conftest.py in a folder above every test (the finding names it) and run `fixturegen generate`",
	},
	beside: (*rules).uncoveredTests,
}

// uncoveredTests: the conftest must reach the tests pytest collects.
func (r *rules) uncoveredTests() {
	p := r.opts.Project
	if p == nil || r.opts.Conftest == "" {
		return
	}
	run, dir, planned := p.Run, filepath.Dir(r.opts.Conftest), r.opts.Planned
	below := coverage.AnyBelow(run, dir, planned)
	if below && !r.spec.Shield.On {
		// A deadline reaches the tests that request it, which the other
		// rules follow; the shield is for every test.
		return
	}
	var modules []string
	var err error
	switch {
	case below && coverage.Loads(run, dir):
		// Every test below dir is reached: dir need not be walked.
		modules, err = coverage.Collected(run, dir, planned)
	case below || coverage.AnyBelow(run, "", planned):
		modules, err = coverage.Collected(run, "", planned)
	}
	if modules = coverage.Outside(run, dir, modules); err != nil || len(modules) == 0 {
		return
	}
	conftest := relpath.Rel(r.cwd, r.opts.Conftest)
	fix := "point [paths].conftest at a conftest.py above every test"
	if all, err := coverage.Collected(run, "", planned); err == nil {
		if folder, ok := coverage.Folder(run, all); ok {
			fix = fmt.Sprintf("set [paths].conftest to %q in %s and run `fixturegen generate`", relpath.Slash(r.spec.Dir, filepath.Join(folder, "conftest.py")), r.spec.File)
		}
	}
	if !below {
		r.add(RuleUncoveredTests, r.spec.File, r.specPos("paths.conftest"), coverage.NoTestBelow(r.spec, run, modules), fix)
		return
	}
	// The modules outside the conftest's folder, by the folder that
	// holds them beside it; those below it, which the run never loads it
	// for, together.
	var order []string
	groups := map[string][]string{}
	for _, m := range modules {
		key := ""
		if !relpath.Within(m, dir) {
			key = outsideFolder(m, dir)
		}
		if groups[key] == nil {
			order = append(order, key)
		}
		groups[key] = append(groups[key], m)
	}
	for _, key := range order {
		g := groups[key]
		others := ""
		if n := len(g); n > 1 {
			var names []string
			for _, m := range g[1:min(n, 4)] {
				names = append(names, relpath.Rel(r.cwd, m))
			}
			more := ""
			if n > 4 {
				more = fmt.Sprintf(" and %d more", n-4)
			}
			others = fmt.Sprintf(" (with %s%s)", strings.Join(names, ", "), more)
		}
		var msg string
		if key == "" {
			reads := "is rooted in " + relpath.Rel(r.cwd, run.Setup.Rootdir) + "/"
			if c := run.Setup.Config; c != nil {
				reads = "reads " + relpath.Rel(r.cwd, c.File)
			}
			msg = fmt.Sprintf("this test module%s is below %s, but pytest run on the tests %s, and loads no conftest.py above %s/: the import shield does not reach it",
				others, conftest, reads, relpath.Rel(r.cwd, run.Setup.ConfcutDir()))
		} else {
			msg = fmt.Sprintf("this test module%s, which pytest collects, is not below %s, which loads the import shield: pytest-timeout's handler is held in its first imports only in a run that also collects %s/",
				others, conftest, relpath.Rel(r.cwd, dir))
		}
		r.add(RuleUncoveredTests, relpath.Rel(r.cwd, g[0]), pyscan.Pos{Line: 1, Col: 1}, msg, fix)
	}
}

// outsideFolder is the folder, beside the conftest's folder dir, that
// holds the module at abs: the child of their common folder on the way
// to the module (or the module's own folder when dir is below it).
func outsideFolder(abs, dir string) string {
	common := dir
	for !strings.HasPrefix(abs, common+string(filepath.Separator)) && filepath.Dir(common) != common {
		common = filepath.Dir(common)
	}
	rel, err := filepath.Rel(common, filepath.Dir(abs))
	if err != nil || rel == "." {
		return common
	}
	first, _, _ := strings.Cut(rel, string(filepath.Separator))
	return filepath.Join(common, first)
}
