package pytestcfg

import (
	"path/filepath"

	"github.com/fixturegen/fixturegen/internal/relpath"
)

// Run is one pytest run: how it is started and the setup pytest picks
// for it.
type Run struct {
	Inv   Invocation
	Setup *Setup
}

// Config is the run's configuration file when it sets pytest's options;
// nil for none, and for a pyproject.toml pytest takes only to root the
// run.
func (r *Run) Config() *Config {
	if c := r.Setup.Config; c != nil && !c.Fallback {
		return c
	}
	return nil
}

// Project returns the run that stands for the project's tests: pytest
// started in dir on the folders that hold the tests (roots; none for
// dir itself). When the configuration pytest finds from those
// folders lies below dir (a tests/pytest.ini, which a plain "pytest" in
// dir never reads), the run is "pytest ROOTS" and reads it; otherwise it
// is a plain "pytest" in dir, whose configuration's testpaths apply.
// Either way the configuration is the one pytest reads for those tests.
func Project(dir string, roots []string) (Run, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return Run{}, err
	}
	plain := Invocation{Dir: dir}
	var args []string
	for _, r := range roots {
		if r, err = filepath.Abs(r); err != nil {
			return Run{}, err
		}
		if rel, err := filepath.Rel(dir, r); err == nil && rel != "." && filepath.IsLocal(rel) {
			args = append(args, rel)
		}
	}
	if len(args) > 0 {
		inv := Invocation{Dir: dir, Args: args}
		s, err := Determine(inv)
		if err != nil {
			return Run{}, err
		}
		if c := s.Config; c != nil && !c.Fallback && relpath.Under(c.Dir, dir) {
			return Run{Inv: inv, Setup: s}, nil
		} else if c != nil && !c.Fallback {
			// Found from the tests' folders at dir or above it: a
			// plain "pytest" in dir finds the same file first, and
			// pytest roots the run in its folder.
			return Run{Inv: plain, Setup: &Setup{Rootdir: c.Dir, Config: c}}, nil
		}
	}
	s, err := Determine(plain)
	if err != nil {
		return Run{}, err
	}
	return Run{Inv: plain, Setup: s}, nil
}

// Plain is the configuration a plain "pytest" started in dir reads
// (Project without roots), nil for none: what init reads of a project
// that has no spec yet to say where its tests are.
func Plain(dir string) (*Config, error) {
	r, err := Project(dir, nil)
	if err != nil {
		return nil, err
	}
	return r.Config(), nil
}
