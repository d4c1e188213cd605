// Package testenv holds what tests share and production code never uses:
// a Python with the project's pinned test packages, set up by scripts/venv
// (the same script ./demo uses) in .venv at the repository root, a copy
// of the bundled example in a test's folder, a tree of files written for a
// test (WriteTree), and the reference's hand-written deadline fixture.
//
// A test that needs pytest calls Python(t). Where no Python can be set up,
// the test is skipped, unless FIXTUREGEN_REQUIRE_PYTEST=1 (CI sets it), and
// then it fails: a test that needs pytest never passes by skipping in CI.
//
// go test -short is the quick loop: Python skips every test that needs
// Python, and GoBuild every test that builds fixturegen again, so the
// short run needs no Python, no network and no installs. CI runs the full
// go test ./..., where -short is never given.
package testenv

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	once   sync.Once
	python string
	err    error
)

// Python returns the path of the project venv's python, setting it up if
// needed.
func Python(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: skipped, it runs Python (pytest, pip or the test venv); go test without -short runs it")
	}
	once.Do(func() { python, err = setup() })
	if err != nil {
		if os.Getenv("FIXTUREGEN_REQUIRE_PYTEST") == "1" {
			t.Fatalf("FIXTUREGEN_REQUIRE_PYTEST=1 and no Python test environment: %v", err)
		}
		t.Skipf("no Python test environment (set FIXTUREGEN_REQUIRE_PYTEST=1 to fail instead): %v", err)
	}
	return python
}

// GoBuild skips, under -short, a test that builds fixturegen again (a
// release binary for some platform, or pre-commit's build of the hooks):
// such a build compiles the whole module with flags of its own.
func GoBuild(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: skipped, it builds fixturegen again; go test without -short runs it")
	}
}

// Root returns the repository root: the nearest folder above the working
// directory that holds go.mod.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

func setup() (string, error) {
	root, err := Root()
	if err != nil {
		return "", err
	}
	cmd := exec.Command("bash", filepath.Join(root, "scripts", "venv"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("scripts/venv: %v\n%s", err, stderr.String())
	}
	py := strings.TrimSpace(string(out))
	// Finding the packages, not importing them: every test binary that
	// needs Python runs this once, and importing pytest alone costs a
	// third of a second of CPU; a package that is found and then fails to
	// import fails the first test that runs it.
	find := "import importlib.util, sys\n" +
		"missing = [m for m in sys.argv[1:] if importlib.util.find_spec(m) is None]\n" +
		"if missing:\n    sys.exit('not installed: ' + ', '.join(missing))"
	if msg, err := exec.Command(py, "-c", find, "pytest", "xdist", "pytest_rerunfailures").CombinedOutput(); err != nil {
		return "", fmt.Errorf("%s lacks the test packages: %v\n%s", py, err, msg)
	}
	return py, nil
}
