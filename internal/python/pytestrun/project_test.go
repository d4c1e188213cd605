package pytestrun

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/testenv"
)

// describe prints what Read found, one line a command, setting or
// install, with positions relative to root.
func describe(root string, p *Project) string {
	var b strings.Builder
	at := func(pos Pos) string {
		rel, _ := filepath.Rel(root, pos.File)
		return fmt.Sprintf("%s:%d:%d", filepath.ToSlash(rel), pos.Line, pos.Col)
	}
	for _, c := range p.Commands {
		dir, _ := filepath.Rel(root, c.Dir)
		fmt.Fprintf(&b, "command %s %q (%s) in %s:", at(c.At.Pos), c.At.Text, c.Where, filepath.ToSlash(dir))
		for _, a := range c.Args {
			fmt.Fprintf(&b, " %s@%d:%d", a.Text, a.Line, a.Col)
		}
		for _, e := range c.Env {
			fmt.Fprintf(&b, " $%s=%s", e.Name, e.Value.Text)
		}
		b.WriteString("\n")
	}
	for _, s := range p.Settings {
		fmt.Fprintf(&b, "setting %s %s=%s (%s)\n", at(s.Value.Pos), s.Name, s.Value.Text, s.Where)
	}
	for _, w := range p.Installs {
		fmt.Fprintf(&b, "install %s %s\n", at(w.Pos), w.Text)
	}
	return b.String()
}

func TestReadFindsEveryCommandLine(t *testing.T) {
	root := testenv.WriteTree(t, map[string]string{
		".github/workflows/ci.yml": `name: CI
on: [push, pull_request]
env:
  PYTEST_ADDOPTS: "-p no:cacheprovider"
jobs:
  test:
    runs-on: ubuntu-latest
    env:
      PYTEST_TIMEOUT: 60  # a comment
    steps:
      - uses: actions/checkout@v4
      - name: Install
        run: python -m pip install -e . pytest-timeout==2.4.0
      - name: Unit tests
        run: |
          cd tests
          pytest src/unit -n auto \
            --timeout 30
      - run: python -m pytest tests/integration --timeout-method=thread
        working-directory: sub
        env:
          PYTEST_TIMEOUT: '5'
  lint:
    steps:
      - run: >
          ruff check .
          && echo "pytest --timeout=9"
`,
		".gitlab-ci.yml": `variables:
  PYTEST_TIMEOUT: "120"
stages: [test]
test:
  variables:
    PYTEST_ADDOPTS:
      value: "--timeout=7"
  script:
    - pip install pytest-timeout
    - cd tests && PYTEST_TIMEOUT=3 uv run pytest -q
`,
		"tox.ini": `[tox]
envlist = py3

[testenv]
deps =
    pytest
    pytest-timeout>=2
setenv =
    PYTEST_TIMEOUT = 11
commands =
    pytest --timeout=1 {posargs:tests}
    - coverage run -m pytest \
        tests/slow

[testenv:docs]
changedir = docs
commands = {envpython} -m pytest --doctest-glob=*.rst
`,
		"noxfile.py": `import nox


@nox.session
def tests(session):
    session.install("pytest", "pytest-timeout")
    session.env["PYTEST_TIMEOUT"] = "13"
    session.chdir("tests")
    session.run("pytest", "--timeout=2", *session.posargs)
    session.run("python", "-m", "pytest", "-x", env={"PYTEST_ADDOPTS": "--timeout=4"})
`,
		"Makefile": `PYTHON ?= python3
PYTEST_ARGS := --timeout=8 -n 2
export PYTEST_TIMEOUT = 21

.PHONY: test
test:
	@$(PYTHON) -m pytest $(PYTEST_ARGS) tests
	cd tests; \
	  pytest unit
install: ; pip install pytest-timeout
`,
	})
	p, err := Read(root)
	if err != nil {
		t.Fatal(err)
	}
	got := describe(root, p)
	want := `command .github/workflows/ci.yml:17:11 "pytest" (job test of .github/workflows/ci.yml) in tests: src/unit@17:18 -n@17:27 auto@17:30 --timeout@18:13 30@18:23 $PYTEST_ADDOPTS=-p no:cacheprovider $PYTEST_TIMEOUT=60
command .github/workflows/ci.yml:19:14 "python" (job test of .github/workflows/ci.yml) in sub: tests/integration@19:31 --timeout-method=thread@19:49 $PYTEST_ADDOPTS=-p no:cacheprovider $PYTEST_TIMEOUT=60 $PYTEST_TIMEOUT=5
command .gitlab-ci.yml:10:43 "pytest" (job test of .gitlab-ci.yml) in tests: -q@10:50 $PYTEST_TIMEOUT=120 $PYTEST_ADDOPTS=--timeout=7 $PYTEST_TIMEOUT=3
command tox.ini:11:5 "pytest" ([testenv] of tox.ini) in .: --timeout=1@11:12 tests@11:33 $PYTEST_TIMEOUT=11
command tox.ini:12:23 "pytest" ([testenv] of tox.ini) in .: tests/slow@13:9 $PYTEST_TIMEOUT=11
command tox.ini:17:12 "{envpython}" ([testenv:docs] of tox.ini) in docs: --doctest-glob=*.rst@17:34 $PYTEST_TIMEOUT=11
command noxfile.py:9:18 "pytest" (session tests of noxfile.py) in tests: --timeout=2@9:28
command noxfile.py:10:18 "python" (session tests of noxfile.py) in tests: -x@10:44
command Makefile:1:11 "python3" (the recipe of test in Makefile) in .: --timeout=8@2:16 -n@2:28 2@2:31 tests@7:38 $PYTEST_TIMEOUT=21
command Makefile:9:4 "pytest" (the recipe of test in Makefile) in tests: unit@9:11 $PYTEST_TIMEOUT=21
setting .github/workflows/ci.yml:4:19 PYTEST_ADDOPTS=-p no:cacheprovider (env of .github/workflows/ci.yml)
setting .github/workflows/ci.yml:9:23 PYTEST_TIMEOUT=60 (job test of .github/workflows/ci.yml)
setting .github/workflows/ci.yml:22:27 PYTEST_TIMEOUT=5 (job test of .github/workflows/ci.yml)
setting .gitlab-ci.yml:2:19 PYTEST_TIMEOUT=120 (variables of .gitlab-ci.yml)
setting .gitlab-ci.yml:7:14 PYTEST_ADDOPTS=--timeout=7 (job test of .gitlab-ci.yml)
setting .gitlab-ci.yml:10:34 PYTEST_TIMEOUT=3 (job test of .gitlab-ci.yml)
setting tox.ini:9:22 PYTEST_TIMEOUT=11 ([testenv] of tox.ini)
setting noxfile.py:7:38 PYTEST_TIMEOUT=13 (noxfile.py)
setting noxfile.py:10:73 PYTEST_ADDOPTS=--timeout=4 (noxfile.py)
setting Makefile:3:25 PYTEST_TIMEOUT=21 (Makefile)
install .github/workflows/ci.yml:13:39 .
install .github/workflows/ci.yml:13:41 pytest-timeout==2.4.0
install .gitlab-ci.yml:9:19 pytest-timeout
install tox.ini:6:5 pytest
install tox.ini:7:5 pytest-timeout>=2
install noxfile.py:6:22 pytest
install noxfile.py:6:32 pytest-timeout
install Makefile:10:24 pytest-timeout
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestPrimaryIsTheConfigurationTheCommandsRead(t *testing.T) {
	root := testenv.WriteTree(t, map[string]string{
		"pyproject.toml":           "[project]\nname = \"x\"\n",
		"tests/pytest.ini":         "[pytest]\ntimeout = 1\n",
		"tests/src/unit/test_a.py": "",
		".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n      - run: pytest tests/src/unit -n auto\n",
	})
	p, err := Read(root)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := p.Runs()
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || runs[0].Command != nil || !runs[0].Setup.Config.Fallback {
		t.Fatalf("runs: want the plain run, rooted by the pyproject, then the workflow's; got %+v", runs)
	}
	got := Primary(runs)
	if got.Command == nil || got.Setup.Config.File != filepath.Join(root, "tests", "pytest.ini") || got.Setup.Rootdir != filepath.Join(root, "tests") {
		t.Errorf("primary: want the workflow's run with tests/pytest.ini, got %+v %+v", got.Command, got.Setup)
	}
	// Without command lines, the plain run stands.
	os.RemoveAll(filepath.Join(root, ".github"))
	p, _ = Read(root)
	runs, _ = p.Runs()
	if got := Primary(runs); got.Command != nil || got.Setup.Config.File != filepath.Join(root, "pyproject.toml") {
		t.Errorf("primary without commands: %+v", got.Setup)
	}
}

func TestYAMLShapes(t *testing.T) {
	root := testenv.WriteTree(t, map[string]string{
		".github/workflows/a.yaml": `# comment
"on":
  push: {branches: [main]}
defaults:
  run:
    working-directory: sub
env: {PYTEST_TIMEOUT: 5, OTHER: "x"}
jobs:
  "quoted job":
    steps:
    - name: folded
      run: >-
        pytest
        --timeout=3
    - run: 'pytest --timeout=''4'''
    - &anchor
      run: "pytest \
        -x"
      env:
        PYTEST_ADDOPTS: >
          --timeout 8
`,
	})
	p, err := Read(root)
	if err != nil {
		t.Fatal(err)
	}
	got := describe(root, p)
	want := `command .github/workflows/a.yaml:13:9 "pytest" (job quoted job of .github/workflows/a.yaml) in sub: --timeout=3@14:9 $PYTEST_TIMEOUT=5 $OTHER=x
command .github/workflows/a.yaml:15:13 "pytest" (job quoted job of .github/workflows/a.yaml) in sub: --timeout=4@15:20 $PYTEST_TIMEOUT=5 $OTHER=x
command .github/workflows/a.yaml:17:13 "pytest" (job quoted job of .github/workflows/a.yaml) in sub: -x@18:9 $PYTEST_TIMEOUT=5 $OTHER=x $PYTEST_ADDOPTS=--timeout 8

setting .github/workflows/a.yaml:7:23 PYTEST_TIMEOUT=5 (env of .github/workflows/a.yaml)
setting .github/workflows/a.yaml:21:11 PYTEST_ADDOPTS=--timeout 8
 (job quoted job of .github/workflows/a.yaml)
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// GitLab CI's ways of sharing a script: anchors and merge keys, extends:
// and !reference. A hidden job runs only through them.
func TestGitLabSharedScripts(t *testing.T) {
	root := testenv.WriteTree(t, map[string]string{
		".gitlab-ci.yml": `.setup: &setup
  variables:
    PYTEST_TIMEOUT: "9"
  script:
    - pytest --timeout=1 hidden

.base:
  variables: {PYTEST_ADDOPTS: "-x", KEEP: "y"}
  before_script:
    - cd tests

merged:
  <<: *setup
  variables:
    OWN: "z"

extended:
  extends: [.base, .setup]
  variables:
    PYTEST_ADDOPTS: "-q"

referenced:
  script:
    - !reference [.setup, script]
    - |  # a comment with --timeout=7 in it
      pytest --timeout=2 é
`,
	})
	p, err := Read(root)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range p.Commands {
		var env []string
		for _, e := range c.Env {
			env = append(env, e.Name+"="+e.Value.Text)
		}
		line := fmt.Sprintf("%d:%d %s |", c.At.Line, c.At.Col, c.Where)
		for _, a := range c.Args {
			line += fmt.Sprintf(" %s@%d:%d", a.Text, a.Line, a.Col)
		}
		got = append(got, line+" | "+strings.Join(env, " ")+" | "+filepath.Base(c.Dir))
	}
	want := []string{
		// merged: the anchor's script; its own variables replace the anchor's.
		"5:7 job merged of .gitlab-ci.yml | --timeout=1@5:14 hidden@5:26 | OWN=z | " + filepath.Base(root),
		// extended: .base's before_script and variables, .setup's script
		// and variables, its own variable over both.
		"5:7 job extended of .gitlab-ci.yml | --timeout=1@5:14 hidden@5:26 | PYTEST_ADDOPTS=-q KEEP=y PYTEST_TIMEOUT=9 | tests",
		// referenced: the referenced lines, then its own block, whose
		// header comment is no part of it.
		"5:7 job referenced of .gitlab-ci.yml | --timeout=1@5:14 hidden@5:26 |  | " + filepath.Base(root),
		"26:7 job referenced of .gitlab-ci.yml | --timeout=2@26:14 é@26:26 |  | " + filepath.Base(root),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A CI file that is not YAML hides its commands and is no error.
func TestYAMLNotYAML(t *testing.T) {
	root := testenv.WriteTree(t, map[string]string{
		".github/workflows/a.yml": "jobs: [\n  pytest --timeout=1\n",
	})
	p, err := Read(root)
	if err != nil || len(p.Commands) != 0 {
		t.Errorf("Read = %+v, %v; want no commands, no error", p, err)
	}
}

// tox's configuration wherever tox 4 takes it from, and only there.
func TestToxConfigPlaces(t *testing.T) {
	toxTOML := `env_list = ["3.13", "lint"]

[env_run_base]
deps = ["pytest-timeout>=2", "-r requirements.txt"]
set_env = { PYTEST_TIMEOUT = "7" }
commands = [["pytest", "--timeout=1", { replace = "posargs", default = ["tests"], extend = true }]]

[env."3.13"]
change_dir = "{tox_root}/sub"
commands = [["-python", "-m", "pytest", "{posargs}", "-x"]]

[env.lint]
commands = [["ruff", "check"]]
`
	legacy := `[build-system]
requires = ["setuptools"]

[tool.tox]
legacy_tox_ini = """
[testenv]
deps = pytest-timeout
commands = pytest --timeout=2 {posargs}
"""
`
	native := `[tool.tox.env_run_base]
commands = [["pytest", "--timeout=3"]]
`
	setupCfg := `[metadata]
name = x

[tox:tox]
envlist = py

[testenv]
commands = pytest --timeout=4
`
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{{
		name:  "tox.toml",
		files: map[string]string{"tox.toml": toxTOML},
		want: `command tox.toml:6:15 "pytest" ([env_run_base] of tox.toml) in .: --timeout=1@6:25 tests@6:74 $PYTEST_TIMEOUT=7
command tox.toml:10:16 "python" ([env."3.13"] of tox.toml) in sub: -x@10:55 $PYTEST_TIMEOUT=7
setting tox.toml:5:31 PYTEST_TIMEOUT=7 ([env_run_base] of tox.toml)
install tox.toml:4:10 pytest-timeout>=2
`,
	}, {
		name:  "legacy_tox_ini",
		files: map[string]string{"pyproject.toml": legacy, "tox.toml": toxTOML},
		want: `command pyproject.toml:8:12 "pytest" ([testenv] of pyproject.toml) in .: --timeout=2@8:19
install pyproject.toml:7:8 pytest-timeout
`,
	}, {
		name:  "tool.tox",
		files: map[string]string{"pyproject.toml": native, "tox.toml": toxTOML},
		want: `command pyproject.toml:2:15 "pytest" ([tool.tox.env_run_base] of pyproject.toml) in .: --timeout=3@2:25
`,
	}, {
		name:  "setup.cfg",
		files: map[string]string{"setup.cfg": setupCfg, "pyproject.toml": native},
		want: `command setup.cfg:8:12 "pytest" ([testenv] of setup.cfg) in .: --timeout=4@8:19
`,
	}, {
		name:  "setup.cfg without [tox:tox] is not tox's",
		files: map[string]string{"setup.cfg": "[testenv]\ncommands = pytest --timeout=9\n", "pyproject.toml": native},
		want: `command pyproject.toml:2:15 "pytest" ([tool.tox.env_run_base] of pyproject.toml) in .: --timeout=3@2:25
`,
	}, {
		name:  "tox.ini first",
		files: map[string]string{"tox.ini": "[testenv]\ncommands = pytest --timeout=5\n", "tox.toml": toxTOML, "setup.cfg": setupCfg},
		want: `command tox.ini:2:12 "pytest" ([testenv] of tox.ini) in .: --timeout=5@2:19
`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			root := testenv.WriteTree(t, tc.files)
			p, err := Read(root)
			if err != nil {
				t.Fatal(err)
			}
			if got := describe(root, p); got != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// CircleCI's run steps and Azure Pipelines' script and bash steps, with
// their folders and environments.
func TestCircleCIAndAzure(t *testing.T) {
	root := testenv.WriteTree(t, map[string]string{
		".circleci/config.yml": `version: 2.1
jobs:
  test:
    working_directory: ~/repo
    environment:
      PYTEST_TIMEOUT: 5
    steps:
      - checkout
      - run: pip install pytest-timeout
      - run:
          name: unit
          command: pytest --timeout=1 unit
          working_directory: tests
          environment: {OTHER: x}
`,
		"azure-pipelines.yml": `variables:
  - name: PYTEST_ADDOPTS
    value: -x
stages:
- stage: test
  jobs:
  - job: linux
    variables: {PYTEST_TIMEOUT: "6"}
    steps:
    - script: python -m pytest --timeout=2
      workingDirectory: tests
    - bash: |
        pytest --timeout=3
      env:
        A: b
    - powershell: pytest --timeout=4
`,
	})
	p, err := Read(root)
	if err != nil {
		t.Fatal(err)
	}
	want := `command .circleci/config.yml:12:20 "pytest" (job test of .circleci/config.yml) in tests: --timeout=1@12:27 unit@12:39 $PYTEST_TIMEOUT=5 $OTHER=x
command azure-pipelines.yml:10:15 "python" (job linux of azure-pipelines.yml) in tests: --timeout=2@10:32 $PYTEST_ADDOPTS=-x $PYTEST_TIMEOUT=6
command azure-pipelines.yml:13:9 "pytest" (job linux of azure-pipelines.yml) in .: --timeout=3@13:16 $PYTEST_ADDOPTS=-x $PYTEST_TIMEOUT=6 $A=b
setting .circleci/config.yml:6:23 PYTEST_TIMEOUT=5 (job test of .circleci/config.yml)
setting azure-pipelines.yml:3:12 PYTEST_ADDOPTS=-x (variables of azure-pipelines.yml)
setting azure-pipelines.yml:8:33 PYTEST_TIMEOUT=6 (job linux of azure-pipelines.yml)
install .circleci/config.yml:9:26 pytest-timeout
`
	if got := describe(root, p); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
