package dist

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/fixturegen/fixturegen/internal/testenv"
	"github.com/fixturegen/fixturegen/internal/version"
)

// TestInstallHostWheel builds this machine's release wheel (the
// distribution fixturegen-cli, stamped 0.4.0) and the pre-commit hooks'
// repository once, and installs them every way the docs tell users to, in
// subtests that share them and run side by side: pip; the GitHub Action's
// steps (pip); pipx, uv and uvx; pre-commit (try-repo, without Go). Every
// install reads the wheel's folder instead of the package index. The
// release binary is stamped 0.4.0, so these tests also prove what a
// development build cannot: version drift between two releases, and
// required_version refusing and accepting a release.
func TestInstallHostWheel(t *testing.T) {
	python, target, r, work := hostRelease(t)
	if err := os.MkdirAll(r.Out, 0o755); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	bin, err := r.Binary(context.Background(), target, filepath.Join(work, "bin"))
	if err != nil {
		t.Fatal(err)
	}
	whl, err := r.Wheel(target, bin)
	if err != nil {
		t.Fatal(err)
	}
	if want := "fixturegen_cli-0.4.0-py3-none-" + target.Platform + ".whl"; filepath.Base(whl) != want {
		t.Errorf("the wheel is %s, want %s", filepath.Base(whl), want)
	}
	hooks, err := r.PreCommit()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("built %s and %s in %v", filepath.Base(whl), PreCommitDir, time.Since(start).Round(time.Millisecond))
	h := host{python: python, target: target, root: r.Root, wheels: r.Out, bin: bin}

	t.Run("pip", func(t *testing.T) {
		t.Parallel()
		h.pip(t, t.TempDir(), whl)
	})
	t.Run("action", func(t *testing.T) {
		t.Parallel()
		work := t.TempDir()
		project := filepath.Join(work, "inbox")
		if err := testenv.CopyTree(filepath.Join(r.Root, "examples", "inbox"), project); err != nil {
			t.Fatal(err)
		}
		runAction(t, r.Root, r.Out, project, work, h.mislabeled(t, work))
	})
	t.Run("pipx-uv", func(t *testing.T) {
		t.Parallel()
		h.tools(t, t.TempDir())
	})
	t.Run("pre-commit", func(t *testing.T) {
		t.Parallel()
		h.preCommit(t, t.TempDir(), hooks)
	})
	t.Cleanup(func() { t.Logf("whole test: %v", time.Since(start).Round(time.Millisecond)) })
}

// host is what the subtests of TestInstallHostWheel share: this machine's
// release, built once.
type host struct {
	python string // the test venv's python
	target Target
	root   string // the repository
	wheels string // the folder holding the wheel, as pip's --find-links
	bin    string // the release binary the wheel holds
}

// pip installs fixturegen-cli by name from the wheel's folder into a fresh
// venv and runs the installed fixturegen on a copy of the example as a
// Python team would.
func (h host) pip(t *testing.T, work, whl string) {
	python, target, root := h.python, h.target, h.root
	run(t, "", python, "-m", "twine", "check", "--strict", whl)

	// The fresh venv gets no pip of its own: the test venv's pip installs
	// into it through --python, as it would into one made with pip. Copying
	// pip into the venv cost more than all the rest of the install, and
	// the test proves what the wheel does, not how pip got there; the
	// action's subtest still makes a venv with pip and installs with it.
	venv := filepath.Join(work, "venv")
	run(t, "", python, "-m", "venv", "--without-pip", venv)
	run(t, "", python, "-m", "pip", "--python", filepath.Join(venv, "bin", "python"), "install",
		"--disable-pip-version-check", "--quiet", "--no-index", "--find-links", h.wheels, version.Distribution)
	fixturegen := filepath.Join(venv, "bin", target.exe())
	if out := run(t, "", fixturegen, "--version"); out != "fixturegen 0.4.0\n" {
		t.Errorf("fixturegen --version printed %q, want fixturegen 0.4.0", out)
	}
	if out := run(t, "", python, "-m", "pip", "--python", filepath.Join(venv, "bin", "python"), "show", version.Distribution); !strings.Contains(out, "Name: "+version.Distribution+"\nVersion: 0.4.0\n") {
		t.Errorf("pip show %s:\n%s", version.Distribution, out)
	}
	h.helpTexts(t, fixturegen)

	// The spec the release's init writes names the schema at its tag.
	fresh := filepath.Join(work, "fresh")
	if err := os.Mkdir(fresh, 0o755); err != nil {
		t.Fatal(err)
	}
	run(t, fresh, fixturegen, "init")
	if spec, err := os.ReadFile(filepath.Join(fresh, "fixturegen.toml")); err != nil || !strings.HasPrefix(string(spec),
		"#:schema https://raw.githubusercontent.com/fixturegen/fixturegen/v0.4.0/schema/fixturegen.schema.json\n") {
		t.Errorf("the release's init wrote (%v):\n%s", err, spec)
	}

	project := filepath.Join(work, "inbox")
	if err := testenv.CopyTree(filepath.Join(root, "examples", "inbox"), project); err != nil {
		t.Fatal(err)
	}
	run(t, project, fixturegen, "generate")
	run(t, project, fixturegen, "check")

	// A file written by another release is version drift, never a hand
	// edit, even when the version line is all that differs.
	plugin := filepath.Join(project, "tests", "inbox", "alarm_probe.py")
	setHeaderVersion(t, plugin, "0.3.0")
	out, code := runCode(t, project, fixturegen, "check")
	if code != 1 || !strings.Contains(out, "tests/inbox/alarm_probe.py:1:1: version-drift written by fixturegen 0.3.0; this is 0.4.0: run `fixturegen generate`") || strings.Contains(out, "stale-file") {
		t.Errorf("check after a version bump: exit %d\n%s", code, out)
	}
	run(t, project, fixturegen, "generate")
	if header := firstLine(t, plugin); header != `# Code generated by fixturegen 0.4.0 from "fixturegen.toml". DO NOT EDIT.` {
		t.Errorf("after generate the plugin starts %q", header)
	}
	run(t, project, fixturegen, "check")

	// A hand edit under the same release is a hand edit.
	replaceIn(t, plugin, "import json", "import json  # mine")
	if out, code := runCode(t, project, fixturegen, "check"); code != 1 || !strings.Contains(out, "stale-file") || strings.Contains(out, "version-drift") {
		t.Errorf("check after a hand edit: exit %d\n%s", code, out)
	}
	run(t, project, fixturegen, "generate")

	// required_version outside 0.4.0 stops every command with exit 2, and
	// names the distribution to install.
	spec := filepath.Join(project, "fixturegen.toml")
	replaceIn(t, spec, "version = 1\n", "version = 1\nrequired_version = \">=0.5\"\n")
	for _, cmd := range []string{"check", "generate", "probe"} {
		out, code := runCode(t, project, fixturegen, cmd)
		if code != 2 || !strings.Contains(out, `fixturegen.toml:4:1: required_version = ">=0.5" excludes this fixturegen, 0.4.0; install a version it allows (pip install 'fixturegen-cli>=0.5')`) {
			t.Errorf("%s under required_version >=0.5: exit %d\n%s", cmd, code, out)
		}
	}
	replaceIn(t, spec, `">=0.5"`, `"~=0.4"`)
	if out := run(t, project, fixturegen, "check"); strings.Contains(out, "warning") {
		t.Errorf("check under a satisfied required_version warned:\n%s", out)
	}
}

// helpTexts reads every --help the installed fixturegen prints, and fails
// where one tells anyone to install the taken name.
func (h host) helpTexts(t *testing.T, fixturegen string) {
	top := run(t, "", fixturegen, "--help")
	_, commands, ok := strings.Cut(top, "\nCommands:\n")
	if !ok {
		t.Fatalf("fixturegen --help lists no commands:\n%s", top)
	}
	texts := []string{top}
	for _, line := range strings.Split(commands, "\n") {
		if !strings.HasPrefix(line, "  ") {
			break
		}
		texts = append(texts, run(t, "", fixturegen, strings.Fields(line)[0], "--help"))
	}
	if len(texts) < 8 {
		t.Errorf("read the help of %d commands, want every command's", len(texts)-1)
	}
	for _, text := range texts {
		for _, line := range strings.Split(text, "\n") {
			if got := installsTaken(line); len(got) > 0 {
				t.Errorf("fixturegen --help tells users to install %s, another project: %q", takenName, line)
			}
		}
	}
}

// mislabeled writes, into a folder of its own, a wheel that says it is
// fixturegen-cli 0.4.1 around the 0.4.0 binary: what the Action must
// refuse to run.
func (h host) mislabeled(t *testing.T, work string) string {
	r := Release{Root: h.root, Version: "0.4.1", Out: filepath.Join(work, "mislabeled")}
	if err := os.MkdirAll(r.Out, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Wheel(h.target, h.bin); err != nil {
		t.Fatal(err)
	}
	return r.Out
}

// tools runs the README's commands that install fixturegen-cli as a tool
// or into a uv project, with pipx and uv, each from the wheel's folder and
// into folders of this test's own, and checks the tool's name and its
// command.
func (h host) tools(t *testing.T, work string) {
	readme, err := os.ReadFile(filepath.Join(h.root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	uvBin := filepath.Dir(h.python)
	uvEnv := []string{"UV_NO_INDEX=1", "UV_FIND_LINKS=" + h.wheels, "UV_OFFLINE=1", "UV_PYTHON=" + h.python,
		"UV_PYTHON_DOWNLOADS=never", "UV_NO_MODIFY_PATH=1", "UV_CACHE_DIR=" + filepath.Join(work, "uv-cache"),
		"UV_TOOL_DIR=" + filepath.Join(work, "uv", "tools"), "UV_TOOL_BIN_DIR=" + filepath.Join(work, "uv", "bin")}
	pipxEnv := []string{"PIPX_HOME=" + filepath.Join(work, "pipx", "home"), "PIPX_BIN_DIR=" + filepath.Join(work, "pipx", "bin"),
		"PIPX_MAN_DIR=" + filepath.Join(work, "pipx", "man"), "PIP_NO_INDEX=1", "PIP_FIND_LINKS=" + h.wheels,
		// pipx installs with uv where it finds uv, as it does here.
		"UV_NO_INDEX=1", "UV_FIND_LINKS=" + h.wheels, "UV_OFFLINE=1"}
	project := filepath.Join(work, "project")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, "pyproject.toml"), []byte("[project]\nname = \"project\"\nversion = \"0\"\nrequires-python = \">=3.9\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	example := filepath.Join(work, "inbox")
	if err := testenv.CopyTree(filepath.Join(h.root, "examples", "inbox"), example); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		command string // as the README writes it
		exe     string // where the test finds it
		env     []string
		dir     string
		check   func(out string) // what it printed
		version string           // the fixturegen it installed, run with --version
	}{
		{"pipx install fixturegen-cli==0.4.0", h.python, pipxEnv, "", nil, filepath.Join(work, "pipx", "bin")},
		{"pipx list --short", h.python, pipxEnv, "", func(out string) {
			if out != "fixturegen-cli 0.4.0\n" {
				t.Errorf("pipx names the tool %q, want fixturegen-cli 0.4.0", out)
			}
		}, ""},
		{"uv tool install fixturegen-cli==0.4.0", filepath.Join(uvBin, "uv"), uvEnv, "", nil, filepath.Join(work, "uv", "bin")},
		{"uv tool list", filepath.Join(uvBin, "uv"), uvEnv, "", func(out string) {
			if !strings.HasPrefix(out, "fixturegen-cli v0.4.0\n- fixturegen\n") {
				t.Errorf("uv names the tool and its command:\n%s\nwant fixturegen-cli v0.4.0 with fixturegen", out)
			}
		}, ""},
		{"uvx --from fixturegen-cli==0.4.0 fixturegen check", filepath.Join(uvBin, "uvx"), uvEnv, example, func(out string) {
			if !strings.Contains(out, "fixturegen.toml is in sync and the contract holds") {
				t.Errorf("uvx ran no fixturegen check:\n%s", out)
			}
		}, ""},
		{"uv add --dev fixturegen-cli==0.4.0", filepath.Join(uvBin, "uv"), uvEnv, project, nil, filepath.Join(project, ".venv", "bin")},
	} {
		if !bytes.Contains(readme, []byte(tt.command)) && !strings.Contains(tt.command, " list") {
			t.Errorf("README.md does not show %q, which this test runs", tt.command)
		}
		args := strings.Fields(tt.command)[1:]
		if tt.exe == h.python {
			args = append([]string{"-m", "pipx"}, args...)
		}
		cmd := exec.Command(tt.exe, args...)
		cmd.Dir, cmd.Env = tt.dir, append(os.Environ(), tt.env...)
		out, err := cmd.Output()
		if err != nil {
			msg := ""
			if exit, ok := err.(*exec.ExitError); ok {
				msg = string(exit.Stderr)
			}
			t.Fatalf("%s: %v\n%s%s", tt.command, err, out, msg)
		}
		if tt.check != nil {
			tt.check(string(out))
		}
		if tt.version != "" {
			if got := run(t, "", filepath.Join(tt.version, h.target.exe()), "--version"); got != "fixturegen 0.4.0\n" {
				t.Errorf("the fixturegen %s installed prints %q", tt.command, got)
			}
		}
	}
}

// run runs a command in dir and returns its standard output; a failure
// ends the test with both streams.
func run(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	out, code := runCode(t, dir, name, args...)
	if code != 0 {
		t.Fatalf("%s %s: exit %d\n%s", filepath.Base(name), strings.Join(args, " "), code, out)
	}
	return out
}

// runCode runs a command in dir and returns its standard output followed
// by its standard error, and its exit code.
func runCode(t *testing.T, dir, name string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return stdout.String() + stderr.String(), 0
	case errors.As(err, &exit):
		return stdout.String() + stderr.String(), exit.ExitCode()
	}
	t.Fatalf("%s: %v", name, err)
	return "", 0
}

func replaceIn(t *testing.T, path, old, new string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(old)) {
		t.Fatalf("%s does not contain %q", path, old)
	}
	if err := os.WriteFile(path, bytes.Replace(data, []byte(old), []byte(new), 1), 0o644); err != nil {
		t.Fatal(err)
	}
}

func firstLine(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	line, _, _ := strings.Cut(string(data), "\n")
	return line
}

// setHeaderVersion rewrites the version a generated file's header records.
func setHeaderVersion(t *testing.T, path, version string) {
	t.Helper()
	line := firstLine(t, path)
	before, rest, ok := strings.Cut(line, "fixturegen ")
	_, after, ok2 := strings.Cut(rest, " from ")
	if !ok || !ok2 {
		t.Fatalf("%s has no generated header: %q", path, line)
	}
	replaceIn(t, path, line, before+"fixturegen "+version+" from "+after)
}

// runAction runs the steps of the repository's GitHub Action (action.yml)
// as the runner does: each script under bash -eo pipefail, inputs through
// the step's env, GITHUB_PATH read between steps. pip finds fixturegen-cli
// 0.4.0 in the folder of the wheel just built instead of the package index;
// the folder mislabeled holds a wheel that says 0.4.1 around the 0.4.0
// binary, which the install step must refuse.
func runAction(t *testing.T, root, wheels, project, work, mislabeled string) {
	t.Helper()
	var action struct {
		Runs struct {
			Steps []struct {
				Name             string            `yaml:"name"`
				Run              string            `yaml:"run"`
				Env              map[string]string `yaml:"env"`
				WorkingDirectory string            `yaml:"working-directory"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	data, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatal(err)
	}
	if len(action.Runs.Steps) < 2 || !strings.HasPrefix(action.Runs.Steps[0].Name, "Install fixturegen") {
		t.Fatalf("action.yml's first step is not the install of fixturegen, which the drifted run below skips")
	}
	runner := filepath.Join(work, "runner")
	githubPath := filepath.Join(runner, "github_path")
	if err := os.MkdirAll(runner, 0o755); err != nil {
		t.Fatal(err)
	}
	// runSteps runs the steps from first to last-1 with the inputs given
	// (beside install: pip, args and working-directory), pip reading the
	// folder links.
	runSteps := func(first, last int, version, links string) (string, int) {
		inputs := map[string]string{"version": version, "install": "pip", "args": "--scan tests", "working-directory": project}
		expand := func(s string) string {
			return expression.ReplaceAllStringFunc(s, func(m string) string {
				name := strings.TrimPrefix(expression.FindStringSubmatch(m)[1], "inputs.")
				v, ok := inputs[name]
				if !ok {
					t.Fatalf("action.yml uses %s, which this test does not set", m)
				}
				return v
			})
		}
		var out strings.Builder
		for i, step := range action.Runs.Steps[first:last] {
			i += first
			added, _ := os.ReadFile(githubPath)
			path := strings.Join(append(strings.Fields(string(added)), os.Getenv("PATH")), string(os.PathListSeparator))
			cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step.Run)
			cmd.Dir = expand(step.WorkingDirectory)
			cmd.Env = append(os.Environ(), "PATH="+path, "RUNNER_TEMP="+runner, "GITHUB_PATH="+githubPath,
				"PIP_NO_INDEX=1", "PIP_FIND_LINKS="+links, "PYTHONDONTWRITEBYTECODE=1")
			for k, v := range step.Env {
				cmd.Env = append(cmd.Env, k+"="+expand(v))
			}
			b, err := cmd.CombinedOutput()
			out.Write(b)
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				return out.String(), exit.ExitCode()
			} else if err != nil {
				t.Fatalf("action step %d: %v", i, err)
			}
		}
		return out.String(), 0
	}
	all := len(action.Runs.Steps)
	if out, code := runSteps(0, all, "0.4.0", wheels); code != 0 || !strings.Contains(out, "fixturegen 0.4.0\n") || !strings.Contains(out, "is in sync and the contract holds") {
		t.Fatalf("the action on a clean project: exit %d\n%s", code, out)
	}
	// The drifted project runs the steps after the install, on the
	// fixturegen the first run installed and put on GITHUB_PATH: installing
	// the same wheel again into the same venv is what no runner does, and
	// costs more than the rest of this test's action together.
	replaceIn(t, filepath.Join(project, "tests", "inbox", "alarm_probe.py"), "import json", "import json  # mine")
	out, code := runSteps(1, all, "0.4.0", wheels)
	if code != 1 || !strings.Contains(out, "::error file=tests/inbox/alarm_probe.py,line=") {
		t.Errorf("the action on a drifted project: exit %d, want 1 with an annotation\n%s", code, out)
	}
	replaceIn(t, filepath.Join(project, "tests", "inbox", "alarm_probe.py"), "import json  # mine", "import json")

	// A version that is no release stops the install before pip runs.
	if out, code := runSteps(0, 1, "latest", wheels); code != 2 || !strings.Contains(out, "::error::version must be a fixturegen release such as 0.4.0 or 1.0.0rc1, not 'latest'") {
		t.Errorf("the action asked for version latest: exit %d, want 2 with an error\n%s", code, out)
	}
	// pip installs fixturegen-cli==0.4.1, whose fixturegen says 0.4.0: the
	// install step fails, before anything is put on the runner's PATH. It
	// reuses the runner's venv, as a second use of the action in one job
	// does.
	before, _ := os.ReadFile(githubPath)
	out, code = runSteps(0, 1, "0.4.1", mislabeled)
	if code != 1 || !strings.Contains(out, "::error::asked for fixturegen 0.4.1, but the installed "+filepath.Join(runner, "fixturegen-venv", "bin", "fixturegen")+" --version says 'fixturegen 0.4.0'") {
		t.Errorf("the action asked for 0.4.1 and got a fixturegen that says 0.4.0: exit %d, want 1 with an error\n%s", code, out)
	}
	if after, _ := os.ReadFile(githubPath); !bytes.Equal(before, after) {
		t.Errorf("the failed install added to GITHUB_PATH:\n%s", after)
	}
	// 0.4 asks for the same release as 0.4.0 (PEP 440 pads with zeros).
	if out, code := runSteps(0, 1, "v0.4", wheels); code != 0 || !strings.Contains(out, "fixturegen 0.4.0\n") {
		t.Errorf("the action asked for v0.4: exit %d, want 0\n%s", code, out)
	}
}

var expression = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// hostRelease starts a test of this machine's release, stamped 0.4.0: it
// runs in parallel, needs Python and a Go build, and skips where
// fixturegen releases no wheel. It returns the test venv's python, the
// target, a release writing into work/dist, and work.
func hostRelease(t *testing.T) (python string, target Target, r Release, work string) {
	t.Helper()
	t.Parallel()
	testenv.GoBuild(t)
	python = testenv.Python(t)
	target, ok := Host()
	if !ok {
		t.Skip("fixturegen releases no wheel for this platform")
	}
	root, err := testenv.Root()
	if err != nil {
		t.Fatal(err)
	}
	work = t.TempDir()
	r = Release{Root: root, Version: "0.4.0", Out: filepath.Join(work, "dist")}
	return python, target, r, work
}

// Host is the target of the machine running this code.
func Host() (Target, bool) {
	for _, t := range Targets {
		if t.GOOS == runtime.GOOS && t.GOARCH == runtime.GOARCH {
			return t, true
		}
	}
	return Target{}, false
}
