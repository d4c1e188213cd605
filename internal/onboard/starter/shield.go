package starter

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"

	"github.com/fixturegen/fixturegen/internal/python/coverage"
	"github.com/fixturegen/fixturegen/internal/python/pytestcfg"
	"github.com/fixturegen/fixturegen/internal/python/pytesttimeout"
	"github.com/fixturegen/fixturegen/internal/relpath"
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
	// Found is all pytest-timeout's places, and the plugin's declarations.
	Found *pytesttimeout.Found
	// Run is pytest's run of the tests (pytestcfg.Project).
	Run pytestcfg.Run
	// Folder is the folder, relative to Root, of a conftest.py that
	// every test pytest collects lies below; "" when it collects
	// none. Modules are those tests.
	Folder  string
	Modules []string
}

// Outside returns the collected test modules that a conftest.py at
// conftest (relative to Root) does not reach.
func (t *Timeouts) Outside(conftest string) []string {
	return coverage.Outside(t.Run, filepath.Dir(filepath.Join(t.Root, filepath.FromSlash(conftest))), t.Modules)
}

// FindTimeouts reads pytest-timeout's places in the project at root, in
// the configuration pytest reads for its tests (pytestcfg.Project), the
// tests being in the folders pytest's conventions name, tests/ and
// test/, when they exist: the folders a spec's conftest then sits in,
// so that init reads what check reads.
func FindTimeouts(root string) (*Timeouts, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	var roots []string
	for _, name := range []string{"tests", "test"} {
		if info, err := os.Stat(filepath.Join(root, name)); err == nil && info.IsDir() {
			roots = append(roots, filepath.Join(root, name))
		}
	}
	run, err := pytestcfg.Project(root, roots)
	if err != nil {
		return nil, err
	}
	found, err := pytesttimeout.Find(root, run, pytesttimeout.Options{})
	if err != nil {
		return nil, err
	}
	t := &Timeouts{Root: root, Found: found, Run: run}
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
	modules, err := coverage.Collected(run, "", nil)
	if err != nil {
		return nil, err
	}
	t.Modules = modules
	if dir, ok := coverage.Folder(run, modules); ok && relpath.Within(dir, root) {
		t.Folder = relpath.Slash(root, dir)
	}
	return t, nil
}

// Shielded adds the import shield to v, for a project whose tests run
// pytest-timeout's signal method (t.Signal). alone says the project has
// no deadline of its own: the spec then holds only the shield, in a
// conftest.py that every test pytest collects lies below
// (t.Folder; the starter's conftest when it collects none).
func Shielded(v Values, alone bool, t *Timeouts) Values {
	first := t.Signal[0].At(t.Root)
	switch n := len(t.Signal) - 1; {
	case n == 1:
		first += " and 1 more place"
	case n > 1:
		first += fmt.Sprintf(" and %d more places", n)
	}
	v = addShield(v, schema.DefaultShieldSignals(), first)
	if !alone {
		return v
	}
	v.ShieldOnly, v.Timeout, v.Group = true, first, ""
	if t.Folder != "" {
		v.Paths.Conftest = path.Join(t.Folder, "conftest.py")
	}
	return v
}

// addShield turns v's import shield on, if it is off, for signals too,
// and adds where to the places its comment names.
func addShield(v Values, signals []string, where string) Values {
	if !v.Shield.On {
		v.Shield = schema.Shield{On: true, ImportGrace: schema.DefaultShieldGrace, PastGrace: schema.DefaultPastGrace, Rollback: true}
	}
	v.Shield.Signals = slices.Clone(v.Shield.Signals)
	for _, s := range signals {
		if !slices.Contains(v.Shield.Signals, s) {
			v.Shield.Signals = append(v.Shield.Signals, s)
		}
	}
	if prev := v.Origin["shield"]; prev != "" {
		where = prev + ", " + where
	}
	if v.Origin == nil {
		v.Origin = map[string]string{}
	}
	v.Origin["shield"] = where
	return v
}
