// Package collect asks pytest itself what fixturegen check otherwise
// models: it runs pytest --collect-only with the project's Python and a
// plugin of its own, and reads, for every collected item, its node id and
// location, its fixture closure as pytest resolved it, its xdist_group
// marks, and whether its group reaches its node id under --dist loadgroup.
//
// The plugin is run with python -c, so nothing is written into the
// project: its report goes to a temporary file outside it, and bytecode is
// not written. It is the engine of fixturegen check --collect: Findings
// turns the view into the contract's findings, Compare sets the tests it
// holds against the static model's, and Judge does both for check.
package collect

import (
	"bytes"
	"cmp"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/fixturegen/fixturegen/internal/python/venv"
	"github.com/fixturegen/fixturegen/schema"
)

//go:embed plugin.py
var plugin string

// View is pytest's view of the project's tests.
type View struct {
	Pytest string `json:"pytest"`
	Xdist  string `json:"xdist"` // "" when pytest-xdist is not installed
	// ImportShield is whether pytest loads the pytest-import-shield plugin
	// (its pytest11 entry point, import_shield).
	ImportShield bool   `json:"import_shield"`
	Items        []Item `json:"items"`
	// Deadlines are the deadline fixture's definitions the items use.
	Deadlines []Deadline `json:"deadlines"`
	Errors    []Error    `json:"errors"`
	// ImportError is set, alone, when pytest did not import: Name is the
	// module that is missing ("pytest": not installed for this Python).
	ImportError *struct {
		Name    string `json:"name"`
		Message string `json:"message"`
	} `json:"import_error"`
	Executable string `json:"executable"` // the interpreter's sys.executable, with ImportError
}

// Item is one collected test.
type Item struct {
	NodeID string `json:"nodeid"` // as pytest made it
	Path   string `json:"path"`   // the module's absolute path
	// File and Line are where the test is defined.
	File string `json:"file"`
	Line int    `json:"line"`
	// Python is true for test functions and methods, the only items the
	// static model knows.
	Python bool `json:"python"`
	// Test is the node id after the module, without parameters:
	// "TestPump::test_drain".
	Test     string   `json:"test"`
	Fixtures []string `json:"fixtures"` // the closure, autouse included
	Groups   []string `json:"groups"`   // the xdist_group names of its marks
	// Scheduled is the node id after collection with --dist loadgroup, as
	// pytest-xdist's worker hands it to the scheduler.
	Scheduled  string `json:"scheduled"`
	Deselected bool   `json:"deselected"`
}

// Group is the xdist group the item is scheduled in, as pytest-xdist names
// it: its marks' names, sorted and joined with "_"; "" for none.
func (it *Item) Group() string {
	return strings.Join(it.Groups, "_")
}

// GroupReaches reports whether the scheduler sees the item's group.
func (it *Item) GroupReaches() bool {
	return len(it.Groups) == 0 || strings.HasSuffix(it.Scheduled, "@"+it.Group())
}

// Deadline is one definition of the deadline fixture.
type Deadline struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
	// Preload is whether the fixture, as pytest resolves it for every test
	// that uses it, depends on the preload fixture, directly or through
	// other fixtures; Without names a test for which it does not.
	Preload bool   `json:"preload"`
	Without string `json:"without"`
}

// Error is a collection error pytest reported.
type Error struct {
	NodeID  string `json:"nodeid"`
	Message string `json:"message"`
}

// CollectionError is a pytest run that could not collect the tests.
// Output is pytest's own, to be shown first.
type CollectionError struct {
	Code   int
	Output string
}

func (e *CollectionError) Error() string {
	return fmt.Sprintf("pytest --collect-only exited %d: the tests do not collect; the output above says why", e.Code)
}

// Run runs pytest --collect-only with python in the spec's folder, on the
// files and folders in args, as the caller reaches them (none: pytest's own
// testpaths), and returns its view.
//
// PYTEST_ADDOPTS is left out: it carries a CI run's options, not the
// project's collection. The ini addopts stay, since they can change what
// is collected (--ignore, -p, --import-mode); pytest's cache goes to a
// temporary folder, so options such as --lf still work and nothing is
// written into the project.
func Run(spec *schema.Spec, python string, args []string) (*View, error) {
	tmp, err := os.MkdirTemp("", "fixturegen-collect-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	reportPath := filepath.Join(tmp, "report.json")
	settings, err := json.Marshal(map[string]string{"deadline": spec.Deadline.Fixture, "preload": spec.Preload.Fixture})
	if err != nil {
		return nil, err
	}
	// pytest runs in the spec's folder; a python named by a relative path
	// is where the caller reaches it.
	named := python
	if strings.ContainsRune(python, filepath.Separator) {
		if python, err = filepath.Abs(python); err != nil {
			return nil, err
		}
	}
	argv := []string{"-c", plugin, "--collect-only", "-q", "-o", "cache_dir=" + filepath.Join(tmp, "cache")}
	for _, a := range args {
		abs, err := filepath.Abs(a)
		if err != nil {
			return nil, err
		}
		argv = append(argv, abs)
	}
	cmd := exec.Command(python, argv...)
	cmd.Dir = spec.Dir
	// The variables of an outer collection give way to this one's.
	outer := func(name string) bool {
		return strings.HasPrefix(name, "FIXTUREGEN_COLLECT") || name == "PYTHONDONTWRITEBYTECODE"
	}
	cmd.Env = append(venv.Env(os.Environ(), "", outer), "FIXTUREGEN_COLLECT="+string(settings), "FIXTUREGEN_COLLECT_REPORT="+reportPath, "PYTHONDONTWRITEBYTECODE=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	runErr := cmd.Run()
	if _, ok := runErr.(*exec.ExitError); runErr != nil && !ok {
		return nil, fmt.Errorf("cannot run %s: %w", python, runErr)
	}
	code := cmd.ProcessState.ExitCode()
	data, err := os.ReadFile(reportPath)
	if err != nil {
		// pytest stopped before the session ended: a usage error, a
		// broken plugin, or no pytest at all.
		return nil, &CollectionError{Code: code, Output: out.String()}
	}
	v := &View{}
	if err := json.Unmarshal(data, v); err != nil {
		return nil, fmt.Errorf("the collect plugin's report does not parse: %v", err)
	}
	if ie := v.ImportError; ie != nil {
		where := named
		if v.Executable != "" && v.Executable != named {
			where += " (" + v.Executable + ")"
		}
		if ie.Name == "pytest" {
			return nil, fmt.Errorf("pytest is not installed for %s; name the project's Python with --python (the interpreter its tests run under, such as .venv/bin/python)", where)
		}
		return nil, fmt.Errorf("pytest does not import in %s: %s; name the project's Python with --python, or repair its pytest", where, ie.Message)
	}
	if len(v.Errors) > 0 {
		// pytest's own words for each error, without the list of the
		// tests it did collect that comes before them in its output.
		var msg strings.Builder
		for _, e := range v.Errors {
			fmt.Fprintf(&msg, "ERROR collecting %s\n%s\n", cmp.Or(e.NodeID, "test session"), strings.TrimRight(e.Message, "\n"))
		}
		return nil, &CollectionError{Code: code, Output: msg.String()}
	}
	// 0: collected; 5: nothing to collect. Anything else is pytest's error.
	if code != 0 && code != 5 {
		return nil, &CollectionError{Code: code, Output: out.String()}
	}
	return v, nil
}

// Start starts Run and returns a function that waits for its result, so
// the caller can work meanwhile. The function may be called more than
// once; a caller that returns early calls it to leave no pytest running.
func Start(spec *schema.Spec, python string, args []string) func() (*View, error) {
	// A call made while Run runs waits for it, and later calls return
	// what it returned.
	wait := sync.OnceValues(func() (*View, error) { return Run(spec, python, args) })
	go wait()
	return wait
}
