package probe

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fixturegen/fixturegen/internal/python/pytestcfg"
	"github.com/fixturegen/fixturegen/internal/relpath"
	"github.com/fixturegen/fixturegen/schema"
)

// The inner run neutralises the project's addopts and strips
// PYTEST_ADDOPTS, so that reruns, -n or a report plugin cannot change it.
// What decides where the tests' imports come from stays, as pytest would
// apply it to the project's own run: the ini's pythonpath (pytest reads it
// whatever addopts say), and from addopts and PYTEST_ADDOPTS the import
// mode and the rootdir. A spec that holds only the shield keeps
// pytest-timeout's options as well: its probe runs under the configured
// timeout.

// keptValued are the options kept with their value; keptTimeout those
// kept for a shield-only spec, with keptTimeoutFlags its flags.
var (
	keptValued       = []string{"--import-mode", "--rootdir"}
	keptTimeout      = []string{"--timeout", "--timeout-method", "--timeout_method"}
	keptTimeoutFlags = []string{"--timeout-disable-debugger-detection"}
)

// pytestView is how pytest sees the project for the probe's nodes: the
// configuration it picks and the options of its addopts the inner run
// keeps.
type pytestView struct {
	cfg  *pytestcfg.Config // nil when the project has none
	kept []string
	// mode is the import mode the kept options give: prepend (pytest's
	// default), append or importlib.
	mode string
}

// viewFor reads the configuration pytest uses for nodes run from the
// spec's folder, found as pytest finds it for that command line, with the
// options PYTEST_ADDOPTS adds; timeout keeps pytest-timeout's options.
func viewFor(spec *schema.Spec, nodes []string, timeout bool) (*pytestView, error) {
	setup, err := pytestcfg.Determine(pytestcfg.Invocation{Dir: spec.Dir, Args: nodes})
	if err != nil {
		return nil, err
	}
	cfg := setup.Config
	v := &pytestView{cfg: cfg, mode: "prepend"}
	if cfg != nil {
		var ini []string
		for _, a := range cfg.Options["addopts"] {
			ini = append(ini, a.Text)
		}
		v.keep(ini, cfg.Dir, timeout)
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	v.keep(pytestcfg.SplitArgs(os.Getenv("PYTEST_ADDOPTS")), wd, timeout)
	return v, nil
}

// keep adds the options of args the inner run keeps, a relative --rootdir
// made absolute from dir, where that command line runs.
func (v *pytestView) keep(args []string, dir string, timeout bool) {
	valued := keptValued
	if timeout {
		valued = append(append([]string(nil), keptValued...), keptTimeout...)
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, value, inline := strings.Cut(a, "=")
		switch {
		case slices.Contains(valued, name):
			if !inline {
				if i+1 >= len(args) {
					continue
				}
				i++
				value = args[i]
			}
			if name == "--rootdir" && !filepath.IsAbs(value) {
				value = filepath.Join(dir, value)
			}
			if name == "--import-mode" {
				v.mode = value
			}
			v.kept = append(v.kept, name+"="+value)
		case timeout && slices.Contains(keptTimeoutFlags, a):
			v.kept = append(v.kept, a)
		case timeout && a == "-pno:timeout":
			v.kept = append(v.kept, "-p", "no:timeout")
		case timeout && a == "-p" && i+1 < len(args) && args[i+1] == "no:timeout":
			v.kept = append(v.kept, "-p", "no:timeout")
			i++
		}
	}
}

// importPath is the head of sys.path as pytest sets it in a session of the
// nodes started from the spec's folder with python -m pytest, for a fresh
// interpreter to import a module as the preload fixture would: the ini's
// pythonpath, relative to the ini's folder; under the prepend and append
// import modes the folder pytest inserts for the region's conftest and for
// each node's module (the one above its outermost package); and the
// spec's folder, which python -m puts first.
func (v *pytestView) importPath(spec *schema.Spec, nodes []string) []string {
	var path []string
	add := func(dir string) {
		if !slices.Contains(path, dir) {
			path = append(path, dir)
		}
	}
	if v.cfg != nil {
		for _, a := range v.cfg.Options["pythonpath"] {
			add(relpath.Resolve(v.cfg.Dir, a.Text))
		}
	}
	if v.mode != "importlib" {
		add(baseDir(filepath.Join(spec.Dir, filepath.FromSlash(spec.Paths.Conftest))))
		for _, n := range nodes {
			file, _, _ := strings.Cut(n, "::")
			add(baseDir(filepath.Join(spec.Dir, filepath.FromSlash(file))))
		}
	}
	add(spec.Dir)
	return path
}

// baseDir is the folder pytest's prepend and append modes put on sys.path
// for the module at file: the folder above its outermost package, or its
// own folder when that is no package.
func baseDir(file string) string {
	var dir string
	for dir = range relpath.Up(filepath.Dir(file)) {
		if _, err := os.Stat(filepath.Join(dir, "__init__.py")); err != nil {
			break
		}
	}
	return dir
}
