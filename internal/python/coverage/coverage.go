// Package coverage tells which of the tests pytest collects lie below a
// conftest.py, so that the protection the conftest loads reaches them:
// pytest loads a conftest.py for the tests below its folder only, and
// never one above the run's confcutdir (the folder of the configuration
// file it reads, else the rootdir).
//
// The run is the project's own (pytestcfg.Project, as suite.SpecRun
// starts it): it collects what it is given, else testpaths when it
// starts in its rootdir, else the folder it starts in; with the
// python_files, norecursedirs and --ignore options of the configuration
// it reads.
package coverage

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fixturegen/fixturegen/internal/python/pytestcfg"
	"github.com/fixturegen/fixturegen/internal/python/suite"
	"github.com/fixturegen/fixturegen/internal/relpath"
	"github.com/fixturegen/fixturegen/schema"
)

// Collected returns the test modules the run collects, absolute, in path
// order, leaving out those in skip and those below the folder except
// ("" for none), which is not walked.
func Collected(r pytestcfg.Run, except string, skip map[string]bool) ([]string, error) {
	files, err := suite.TestModules(Roots(r), r.Config(), except)
	return slices.DeleteFunc(files, func(m string) bool { return skip[m] }), err
}

// Roots are the paths a run collects from, absolute: its arguments (a
// node id's file), else testpaths when it starts in its rootdir, else the
// folder it starts in (pytest's Config._decide_args).
func Roots(r pytestcfg.Run) []string {
	dir, err := filepath.Abs(r.Inv.Dir)
	if err != nil {
		dir = r.Inv.Dir
	}
	var out []string
	for _, a := range r.Inv.Args {
		p, _, _ := strings.Cut(a, "::")
		out = append(out, relpath.Resolve(dir, filepath.FromSlash(p)))
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

// Loads reports whether the run loads a conftest.py in folder dir for
// the tests below it: dir is not above the run's confcutdir.
func Loads(r pytestcfg.Run, dir string) bool {
	return !relpath.Under(r.Setup.ConfcutDir(), dir)
}

// Outside returns the modules a conftest.py in folder dir does not
// reach: those not below dir, or all of them when the run never loads it.
func Outside(r pytestcfg.Run, dir string, modules []string) []string {
	return slices.DeleteFunc(slices.Clone(modules), func(m string) bool { return relpath.Within(m, dir) && Loads(r, dir) })
}

// Folder returns the folder for a new conftest.py that every module lies
// below and the run loads: the nearest folder holding them all, or, when
// a conftest.py already sits above it but not above the confcutdir, the
// highest such one. ok is false when there is no module.
func Folder(r pytestcfg.Run, modules []string) (string, bool) {
	if len(modules) == 0 {
		return "", false
	}
	dir := filepath.Dir(modules[0])
	for _, m := range modules {
		for !relpath.Within(m, dir) {
			dir = filepath.Dir(dir)
		}
	}
	cut := r.Setup.ConfcutDir()
	if relpath.Under(cut, dir) {
		// No folder holds them all and is loaded.
		return dir, true
	}
	// The highest folder from dir up to the confcutdir that holds a
	// conftest.py, else dir.
	highest := dir
	for d := range relpath.Up(dir) {
		if pytestcfg.IsFile(filepath.Join(d, "conftest.py")) {
			highest = d
		}
		if d == cut {
			break
		}
	}
	return highest, true
}

// AnyBelow reports whether the run collects a test module below folder
// dir ("" for anywhere) other than those in skip. It walks only what it
// must, and stops at the first.
func AnyBelow(r pytestcfg.Run, dir string, skip map[string]bool) bool {
	for _, root := range Roots(r) {
		from := root
		switch {
		case dir == "" || relpath.Within(root, dir):
		case relpath.Within(dir, root):
			// Only the part of the root below dir; testpaths and the
			// arguments are roots, so the whole of it is collected.
			from = dir
		default:
			continue
		}
		if suite.HasTestModule([]string{from}, r.Config(), skip) {
			return true
		}
	}
	return false
}

// CheckConftest refuses a spec whose conftest no collected test lies
// below, when the run collects tests elsewhere (a typo in
// [paths].conftest): the region would protect nothing. The files
// generate writes (planned) do not count. It returns nil when the run
// collects no test at all, as in a project that has none yet.
func CheckConftest(spec *schema.Spec, r pytestcfg.Run, planned map[string]bool) error {
	dir := filepath.Dir(filepath.Join(spec.Dir, filepath.FromSlash(spec.Paths.Conftest)))
	if AnyBelow(r, dir, planned) || !AnyBelow(r, "", planned) {
		return nil
	}
	modules, err := Collected(r, "", planned)
	if err != nil {
		return err
	}
	sp := spec.Positions["paths.conftest"]
	return &schema.Error{File: spec.File, Line: sp.Line, Col: sp.Col, Msg: NoTestBelow(spec, r, modules)}
}

// NoTestBelow says that no test lies below the spec's conftest, and
// where the tests are.
func NoTestBelow(spec *schema.Spec, r pytestcfg.Run, modules []string) string {
	dir := filepath.Dir(filepath.FromSlash(spec.Paths.Conftest))
	where := "the project's tests"
	if folder, ok := Folder(r, modules); ok {
		where = "the tests are in " + relpath.Slash(spec.Dir, folder) + "/"
	}
	n := fmt.Sprintf("%d test modules", len(modules))
	if len(modules) == 1 {
		n = "1 test module"
	}
	return fmt.Sprintf("no test module pytest collects lies below %s/, the folder of [paths].conftest %q (%s; %s): the region there would reach no test; point conftest at a folder above the tests",
		filepath.ToSlash(dir), spec.Paths.Conftest, n, where)
}
