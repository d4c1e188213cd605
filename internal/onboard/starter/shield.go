package starter

import (
	"fmt"
	"path/filepath"

	"github.com/fixturegen/fixturegen/internal/python/coverage"
	"github.com/fixturegen/fixturegen/internal/python/pytestrun"
	"github.com/fixturegen/fixturegen/internal/python/pytesttimeout"
	"github.com/fixturegen/fixturegen/schema"
)

// Timeouts is what init learns of pytest-timeout in a project: the
// places that set it, and how the project's pytest runs read them.
type Timeouts struct {
	Root string
	// Signal are the places whose tests run pytest-timeout's signal
	// method, which the spec shields; Thread those that run its thread
	// method, which needs no shield.
	Signal, Thread []pytesttimeout.Place
	// Primary is the run whose configuration stands for the project's.
	Primary pytestrun.Run
	// Folder is the folder, relative to Root, of a conftest.py that
	// every test the project's runs collect lies below; "" when they
	// collect none. Modules are those tests.
	Folder  string
	Modules []coverage.Module
}

// Outside returns the collected test modules that a conftest.py at
// conftest (relative to Root) does not reach.
func (t *Timeouts) Outside(conftest string) []coverage.Module {
	dir := filepath.Dir(filepath.Join(t.Root, filepath.FromSlash(conftest)))
	var out []coverage.Module
	for _, m := range t.Modules {
		if !coverage.Covers(dir, m) {
			out = append(out, m)
		}
	}
	return out
}

// FindTimeouts reads pytest-timeout's places in the project at root,
// and the runs of its pytest (pytestrun); getenv reads the environment
// init runs in, for PYTEST_TIMEOUT.
func FindTimeouts(root string, getenv func(string) string) (*Timeouts, error) {
	proj, err := pytestrun.Read(root)
	if err != nil {
		return nil, err
	}
	runs, err := proj.Runs()
	if err != nil {
		return nil, err
	}
	t := &Timeouts{Root: proj.Root, Primary: pytestrun.Primary(runs)}
	found, err := pytesttimeout.Find(proj, runs, t.Primary, pytesttimeout.Options{Getenv: getenv})
	if err != nil {
		return nil, err
	}
	pytesttimeout.Sort(found.Places)
	for _, p := range found.Places {
		if p.Method == pytesttimeout.Thread {
			t.Thread = append(t.Thread, p)
		} else {
			t.Signal = append(t.Signal, p)
		}
	}
	if len(t.Signal) == 0 {
		return t, nil
	}
	modules, err := coverage.Collected(runs)
	if err != nil {
		return nil, err
	}
	t.Modules = modules
	if dir, ok := coverage.Folder(modules); ok {
		if rel, err := filepath.Rel(proj.Root, dir); err == nil && !filepath.IsAbs(rel) && rel != ".." && !startsUp(rel) {
			t.Folder = filepath.ToSlash(rel)
		}
	}
	return t, nil
}

func startsUp(rel string) bool {
	return len(rel) >= 3 && rel[:3] == ".."+string(filepath.Separator)
}

// Shielded adds the import shield to v, for a project whose tests run
// pytest-timeout's signal method (t.Signal). alone says the project has
// no deadline of its own: the spec then holds only the shield, in a
// conftest.py that every test the project's runs collect lies below
// (t.Folder; the starter's conftest when they collect none).
func Shielded(v Values, alone bool, t *Timeouts) Values {
	v.Shield = schema.Shield{On: true, Signals: schema.DefaultShieldSignals(),
		ImportGrace: schema.DefaultShieldGrace, PastGrace: schema.DefaultPastGrace, Rollback: true}
	if v.Origin == nil {
		v.Origin = map[string]string{}
	}
	first := t.Signal[0].At(t.Root)
	if n := len(t.Signal) - 1; n > 0 {
		first += fmt.Sprintf(" and %d more place%s", n, plural(n))
	}
	v.Origin["shield"] = first
	if !alone {
		return v
	}
	v.ShieldOnly, v.Timeout, v.Group = true, first, ""
	switch t.Folder {
	case "":
	case ".":
		v.Paths.Conftest = "conftest.py"
	default:
		v.Paths.Conftest = t.Folder + "/conftest.py"
	}
	return v
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
