package pytestcfg

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/testenv"
)

// setupCases are layouts of configuration files and the command lines run
// in them, for Determine (through Invoke) to root as pytest does.
var setupCases = []struct {
	name  string
	files map[string]string
	dir   string // where pytest starts, below the layout's folder
	args  []string
}{
	{"a configuration below the root, named by the command's path",
		map[string]string{"tests/pytest.ini": "[pytest]\ntimeout = 1\n", "tests/src/unit/test_a.py": "", "pyproject.toml": "[project]\nname = 'x'\n"},
		".", []string{"tests/src/unit", "-n", "auto"}},
	{"the same started without paths: the pyproject roots it",
		map[string]string{"tests/pytest.ini": "[pytest]\n", "tests/src/unit/test_a.py": "", "pyproject.toml": "[project]\nname = 'x'\n"},
		".", nil},
	{"without a pyproject nothing is read",
		map[string]string{"tests/pytest.ini": "[pytest]\n", "tests/src/unit/test_a.py": ""},
		".", nil},
	{"the nearest configuration wins",
		map[string]string{"pytest.ini": "[pytest]\n", "tests/pytest.ini": "[pytest]\n", "tests/src/test_a.py": ""},
		".", []string{"tests/src/test_a.py::test_one"}},
	{"a pyproject without pytest's table is passed over for a tox.ini above",
		map[string]string{"tox.ini": "[pytest]\naddopts = -x\n", "sub/pyproject.toml": "[tool.black]\n", "sub/test_a.py": ""},
		".", []string{"sub"}},
	{"setup.py roots a run without configuration",
		map[string]string{"setup.py": "", "sub/pkg/tests/test_a.py": ""},
		"sub", []string{"pkg/tests"}},
	{"arguments in two folders: each is searched in turn",
		map[string]string{"a/pytest.ini": "[pytest]\n", "a/test_a.py": "", "b/test_b.py": ""},
		".", []string{"a/test_a.py", "b/test_b.py"}},
	{"a path that does not exist counts for nothing",
		map[string]string{"pytest.ini": "[pytest]\n", "sub/tox.ini": "[pytest]\n"},
		"sub", []string{"missing/test_a.py"}},
	{"tox.ini without [pytest] gives way to setup.cfg",
		map[string]string{"tox.ini": "[tox]\nenvlist = py3\n", "setup.cfg": "[tool:pytest]\naddopts = -x\n", "tests/test_a.py": ""},
		".", []string{"tests"}},
	{"pytest 9's [tool.pytest] table",
		map[string]string{"pyproject.toml": "[tool.pytest]\ntimeout = 1\n", "tests/test_a.py": ""},
		".", []string{"tests"}},
	{"a pytest.ini before a pyproject of the same folder",
		map[string]string{"pyproject.toml": "[tool.pytest.ini_options]\naddopts = \"-x\"\n", "pytest.ini": "[pytest]\n", "t/test_a.py": ""},
		"t", nil},
	{"an option's value is not a path",
		map[string]string{"pytest.ini": "[pytest]\n", "tests/sub/pytest.ini": "[pytest]\n", "tests/sub/test_a.py": "", "tests/test_b.py": ""},
		".", []string{"--deselect", "tests/sub/test_a.py::t", "-k", "tests/sub", "-p", "no:cacheprovider", "tests/test_b.py"}},
	{"a cluster of flags ending in one that takes a value",
		map[string]string{"pytest.ini": "[pytest]\n", "tests/sub/pytest.ini": "[pytest]\n", "tests/sub/test_a.py": ""},
		".", []string{"-xk", "tests/sub", "-rA", "--timeout", "5", "--dist=loadgroup"}},
	{"started below the configuration's folder",
		map[string]string{"pytest.ini": "[pytest]\n", "tests/unit/test_a.py": ""},
		"tests/unit", nil},
	{"both pyproject tables stop pytest",
		map[string]string{"pyproject.toml": "[tool.pytest]\ntimeout = 1\n[tool.pytest.ini_options]\naddopts = \"-x\"\n", "test_a.py": ""},
		".", nil},
	{"after -- every argument is a path",
		map[string]string{"pytest.ini": "[pytest]\n", "-k/pytest.ini": "[pytest]\n", "-k/test_a.py": ""},
		".", []string{"--", "-k/test_a.py"}},
}

// TestDetermineAgreesWithPytest holds Determine, through Invoke, to real
// pytest 9.2: for each layout, pytest itself (its own configuration
// start-up, with every plugin of the test environment loaded, as a
// command line gets it) says the rootdir and the file it reads.
func TestDetermineAgreesWithPytest(t *testing.T) {
	python := testenv.Python(t)
	type oracleCase struct {
		Dir  string   `json:"dir"`
		Args []string `json:"args"`
	}
	var cases []oracleCase
	roots := make([]string, len(setupCases))
	for i, c := range setupCases {
		root := t.TempDir()
		if real, err := filepath.EvalSymlinks(root); err == nil {
			root = real
		}
		roots[i] = root
		for name, content := range c.files {
			write(t, filepath.Join(root, filepath.Dir(name)), filepath.Base(name), content)
		}
		dir := filepath.Join(root, c.dir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, oracleCase{dir, append([]string{}, c.args...)})
	}
	in, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python, "-c", oracle)
	cmd.Stdin = bytes.NewReader(in)
	cmd.Env = append(os.Environ(), "PYTEST_ADDOPTS=", "PYTHONDONTWRITEBYTECODE=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the oracle failed: %v\n%s", err, out)
	}
	var want []struct {
		Rootdir string `json:"rootdir"`
		Inifile string `json:"inifile"`
		Error   string `json:"error"`
	}
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatalf("the oracle's output: %v\n%s", err, out)
	}
	for i, c := range setupCases {
		t.Run(c.name, func(t *testing.T) {
			s, err := Determine(Invoke(cases[i].Dir, c.args))
			w := want[i]
			if w.Error != "" {
				if err == nil {
					t.Fatalf("pytest stops (%s); Determine gives rootdir %s", w.Error, s.Rootdir)
				}
				return
			}
			if err != nil {
				t.Fatalf("Determine: %v; pytest gives rootdir %s", err, w.Rootdir)
			}
			rel := func(p string) string {
				if p == "" {
					return ""
				}
				r, _ := filepath.Rel(roots[i], p)
				return filepath.ToSlash(r)
			}
			ini := ""
			if s.Config != nil {
				ini = s.Config.File
			}
			if rel(s.Rootdir) != rel(w.Rootdir) || rel(ini) != rel(w.Inifile) {
				t.Errorf("rootdir %q, inifile %q; pytest: rootdir %q, inifile %q", rel(s.Rootdir), rel(ini), rel(w.Rootdir), rel(w.Inifile))
			}
		})
	}
}

// oracle prints, for each case read from stdin, the rootdir and inifile
// of pytest's configuration for the command line "pytest ARGS" started in
// the case's folder.
const oracle = `
import json, os, sys
from _pytest.config import _prepareconfig

out = []
for case in json.load(sys.stdin):
    os.chdir(case["dir"])
    try:
        config = _prepareconfig(case["args"])
    except BaseException as e:
        out.append({"error": type(e).__name__ + ": " + str(e)})
        continue
    try:
        out.append({"rootdir": str(config.rootpath), "inifile": str(config.inipath or "")})
    finally:
        config._ensure_unconfigure()
print(json.dumps(out))
`

// TestTheOracleIsPytestsCommandLine checks the oracle against pytest's
// own header on one layout: a command line from another folder, as CI
// runs it.
func TestTheOracleIsPytestsCommandLine(t *testing.T) {
	python := testenv.Python(t)
	root := t.TempDir()
	write(t, filepath.Join(root, "tests"), "pytest.ini", "[pytest]\n")
	write(t, filepath.Join(root, "tests", "unit"), "test_a.py", "def test_a():\n    pass\n")
	cmd := exec.Command(python, "-m", "pytest", "--collect-only", "-p", "no:cacheprovider", "tests/unit")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "PYTEST_ADDOPTS=", "PYTHONDONTWRITEBYTECODE=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("pytest: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`(?m)^rootdir: (.*)\nconfigfile: (.*)$`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("no rootdir line in pytest's header:\n%s", out)
	}
	s, err := Determine(Invoke(root, []string{"tests/unit"}))
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(s.Rootdir)
	if got := string(m[1]); got != s.Rootdir && got != real {
		t.Errorf("pytest's rootdir %s, Determine's %s", got, s.Rootdir)
	}
	if got := strings.TrimSpace(string(m[2])); got != "pytest.ini" || s.Config == nil || filepath.Base(s.Config.File) != "pytest.ini" {
		t.Errorf("pytest's configfile %s, Determine's %+v", got, s.Config)
	}
}
