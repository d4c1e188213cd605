// Package coverage tells which of the tests a project's pytest runs
// collect lie below a conftest.py, so that the protection the conftest
// loads reaches them in every run: pytest loads a conftest.py for the
// tests below its folder only, and never one above the run's confcutdir
// (the folder of the configuration file it reads, else the rootdir).
//
// The run is the project's own (pytestcfg.Project, as suite.SpecRun
// starts it): it collects what it is given, else testpaths when it
// starts in its rootdir, else the folder it starts in; with the
// python_files, norecursedirs and --ignore options of the configuration
// it reads.
package coverage

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fixturegen/fixturegen/internal/python/pytestcfg"
	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/internal/relpath"
	"github.com/fixturegen/fixturegen/schema"
)

// Module is a test module one of the runs collects.
type Module struct {
	Abs string
	// Runs are the runs that collect it, in the runs' order.
	Runs []*pytestcfg.Run
}

// Collected returns the test modules the runs collect, each once, in
// path order.
func Collected(runs []pytestcfg.Run) ([]Module, error) {
	return modules(runs, func(*pytestcfg.Run) string { return "" }, nil)
}

// modules returns the test modules the runs collect, each once, in path
// order, leaving out those in skip and, for each run, those below the
// folder except gives for it ("" for none).
func modules(runs []pytestcfg.Run, except func(*pytestcfg.Run) string, skip map[string]bool) ([]Module, error) {
	byPath := map[string][]*pytestcfg.Run{}
	for i := range runs {
		r := &runs[i]
		files, err := suite.TestModules(Roots(r), r.Config(), except(r))
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			if !skip[f] {
				byPath[f] = append(byPath[f], r)
			}
		}
	}
	out := make([]Module, 0, len(byPath))
	for p, rs := range byPath {
		out = append(out, Module{Abs: p, Runs: rs})
	}
	slices.SortFunc(out, func(a, b Module) int { return strings.Compare(a.Abs, b.Abs) })
	return out, nil
}

// Roots are the paths a run collects from, absolute: its arguments (a
// node id's file), else testpaths when it starts in its rootdir, else the
// folder it starts in (pytest's Config._decide_args).
func Roots(r *pytestcfg.Run) []string {
	dir, err := filepath.Abs(r.Inv.Dir)
	if err != nil {
		dir = r.Inv.Dir
	}
	var out []string
	for _, a := range r.Inv.Args {
		p, _, _ := strings.Cut(a, "::")
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, filepath.FromSlash(p))
		}
		out = append(out, filepath.Clean(p))
	}
	if len(out) > 0 {
		return out
	}
	if cfg := r.Config(); cfg != nil && dir == r.Setup.Rootdir {
		if tp := cfg.Collection().TestPaths; len(tp) > 0 {
			return tp
		}
	}
	return []string{dir}
}

// Covers reports whether a conftest.py in folder dir is loaded for the
// module m: m lies below dir, and dir is not above the confcutdir of a
// run that collects it.
func Covers(dir string, m Module) bool {
	return below(m.Abs, dir) && Missing(dir, m) == nil
}

// Missing returns the first run that collects m and loads no conftest.py
// in folder dir, as dir is above the run's confcutdir; nil when there is
// none.
func Missing(dir string, m Module) *pytestcfg.Run {
	for _, r := range m.Runs {
		if above(dir, r.Setup.ConfcutDir()) {
			return r
		}
	}
	return nil
}

// Folder returns the folder for a new conftest.py that every collected
// module lies below, in every run that collects it: the nearest folder
// holding them all, or, when a conftest.py already sits above it but not
// above a run's confcutdir, the highest such one. ok is false when no
// run collects a module.
func Folder(modules []Module) (string, bool) {
	if len(modules) == 0 {
		return "", false
	}
	dir := filepath.Dir(modules[0].Abs)
	cut := ""
	for _, m := range modules {
		for !below(m.Abs, dir) {
			dir = filepath.Dir(dir)
		}
		// The deepest confcutdir of the runs bounds the folder from above.
		for _, r := range m.Runs {
			if c := r.Setup.ConfcutDir(); cut == "" || below(c, cut) {
				cut = c
			}
		}
	}
	if above(dir, cut) {
		// No folder holds them all and is loaded in every run.
		return dir, true
	}
	// The folders from dir up to the confcutdir, the highest with a
	// conftest.py first.
	var chain []string
	for d := dir; ; d = filepath.Dir(d) {
		chain = append(chain, d)
		if d == cut || filepath.Dir(d) == d {
			break
		}
	}
	for i := len(chain) - 1; i >= 0; i-- {
		if info, err := os.Stat(filepath.Join(chain[i], "conftest.py")); err == nil && info.Mode().IsRegular() {
			return chain[i], true
		}
	}
	return dir, true
}

// below reports whether p is dir or lies below it.
func below(p, dir string) bool {
	return relpath.Within(p, dir)
}

// above reports whether dir lies strictly above cut.
func above(dir, cut string) bool {
	return dir != cut && below(cut, dir)
}

// Read returns the pytest run of the spec's tests (suite.SpecRun), as
// the runs the other functions take.
func Read(spec *schema.Spec) ([]pytestcfg.Run, error) {
	run, err := suite.SpecRun(spec)
	if err != nil {
		return nil, err
	}
	return []pytestcfg.Run{run}, nil
}

// Below returns the modules below folder dir, leaving out those in skip.
func Below(modules []Module, dir string, skip map[string]bool) []Module {
	var out []Module
	for _, m := range modules {
		if !skip[m.Abs] && below(m.Abs, dir) {
			out = append(out, m)
		}
	}
	return out
}

// Without returns the modules not in skip.
func Without(modules []Module, skip map[string]bool) []Module {
	var out []Module
	for _, m := range modules {
		if !skip[m.Abs] {
			out = append(out, m)
		}
	}
	return out
}

// AnyBelow reports whether one of the runs collects a test module below
// folder dir ("" for anywhere) other than those in skip. It walks only
// what it must, and stops at the first.
func AnyBelow(runs []pytestcfg.Run, dir string, skip map[string]bool) bool {
	for i := range runs {
		r := &runs[i]
		for _, root := range Roots(r) {
			switch {
			case dir == "" || below(root, dir):
				if suite.HasTestModule([]string{root}, r.Config(), skip) {
					return true
				}
			case below(dir, root):
				// Only the part of the root below dir; testpaths and the
				// arguments are roots, so the whole of it is collected.
				if suite.HasTestModule([]string{dir}, r.Config(), skip) {
					return true
				}
			}
		}
	}
	return false
}

// Uncovered returns the test modules the runs collect that a conftest.py
// in folder dir does not reach (Covers), leaving out those in skip. It
// does not walk dir for a run whose confcutdir it is not above.
func Uncovered(runs []pytestcfg.Run, dir string, skip map[string]bool) ([]Module, error) {
	return modules(runs, func(r *pytestcfg.Run) string {
		if above(dir, r.Setup.ConfcutDir()) {
			return "" // the conftest is never loaded in this run
		}
		return dir
	}, skip)
}

// CheckConftest refuses a spec whose conftest no collected test lies
// below, when the project's runs collect tests elsewhere (a typo in
// [paths].conftest): the region would protect nothing. The files
// generate writes (planned) do not count. It returns nil when the runs
// collect no test at all, as in a project that has none yet.
func CheckConftest(spec *schema.Spec, runs []pytestcfg.Run, planned map[string]bool) error {
	dir := filepath.Dir(filepath.Join(spec.Dir, filepath.FromSlash(spec.Paths.Conftest)))
	if AnyBelow(runs, dir, planned) || !AnyBelow(runs, "", planned) {
		return nil
	}
	modules, err := Collected(runs)
	if err != nil {
		return err
	}
	sp, _ := spec.Position("paths.conftest")
	return &schema.Error{File: spec.File, Line: sp.Line, Col: sp.Col, Msg: NoTestBelow(spec, Without(modules, planned))}
}

// NoTestBelow says that no test lies below the spec's conftest, and
// where the tests are.
func NoTestBelow(spec *schema.Spec, modules []Module) string {
	dir := filepath.Dir(filepath.FromSlash(spec.Paths.Conftest))
	where := "the project's tests"
	if folder, ok := Folder(modules); ok {
		where = "the tests are in " + relpath.Slash(spec.Dir, folder) + "/"
	}
	return fmt.Sprintf("no test module pytest collects lies below %s/, the folder of [paths].conftest %q (%s; %s): the region there would reach no test; point conftest at a folder above the tests",
		filepath.ToSlash(dir), spec.Paths.Conftest, plural(len(modules), "test module"), where)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
