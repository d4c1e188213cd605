package dist

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/BurntSushi/toml"
	"go.yaml.in/yaml/v3"

	"github.com/fixturegen/fixturegen/internal/testenv"
	"github.com/fixturegen/fixturegen/internal/version"
)

// hookManifest is a .pre-commit-hooks.yaml, as far as these tests read it.
type hookManifest []struct {
	ID    string `yaml:"id"`
	Entry string `yaml:"entry"`
}

func readManifest(t *testing.T, path string) hookManifest {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m hookManifest
	if err := yaml.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}

// TestPreCommitLayout writes the hooks' repository for a release other
// than the one its sources name, and reads it back: every place that names
// a version names the release, and the rest is published as written. The
// root's manifest says where the hooks moved.
func TestPreCommitLayout(t *testing.T) {
	root, err := testenv.Root()
	if err != nil {
		t.Fatal(err)
	}
	r := Release{Root: root, Version: "1.2.3rc1", Out: t.TempDir()}
	// A file left by an earlier build is not published again.
	stale := filepath.Join(r.Out, PreCommitDir, "setup.py")
	if err := os.MkdirAll(filepath.Dir(stale), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stale, []byte("stale"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir, err := r.PreCommit()
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != ".pre-commit-hooks.yaml LICENSE README.md pyproject.toml" {
		t.Errorf("the hooks' repository holds %s", got)
	}

	var pyproject struct {
		BuildSystem struct {
			Requires     []string `toml:"requires"`
			BuildBackend string   `toml:"build-backend"`
		} `toml:"build-system"`
		Project struct {
			Name         string   `toml:"name"`
			Version      string   `toml:"version"`
			Dependencies []string `toml:"dependencies"`
		} `toml:"project"`
	}
	if _, err := toml.DecodeFile(filepath.Join(dir, "pyproject.toml"), &pyproject); err != nil {
		t.Fatal(err)
	}
	if p := pyproject.Project; p.Version != "1.2.3rc1" || !reflect.DeepEqual(p.Dependencies, []string{version.Distribution + "==1.2.3rc1"}) {
		t.Errorf("pyproject.toml: version %q, dependencies %q; want 1.2.3rc1 and exactly %s==1.2.3rc1", p.Version, p.Dependencies, version.Distribution)
	}
	if b := pyproject.BuildSystem; b.BuildBackend != "setuptools.build_meta" || len(b.Requires) != 1 || !strings.HasPrefix(b.Requires[0], "setuptools") {
		t.Errorf("pyproject.toml builds with %q from %q, want setuptools alone", b.BuildBackend, b.Requires)
	}
	readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if s := string(readme); !strings.Contains(s, "rev: v1.2.3rc1 ") || !strings.Contains(s, "runs fixturegen-cli==1.2.3rc1") || strings.Contains(s, "0.4.0") {
		t.Errorf("README.md names other versions than the release's:\n%s", s)
	}

	// The manifest is published as written; cmd/fixturegen's tests hold
	// both manifests to pre-commit's keys and fixturegen's commands.
	for _, name := range []string{".pre-commit-hooks.yaml", "LICENSE"} {
		src := filepath.Join(root, PreCommitDir, name)
		if name == "LICENSE" {
			src = filepath.Join(root, name)
		}
		want, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(filepath.Join(dir, name)); err != nil || !bytes.Equal(got, want) {
			t.Errorf("the hooks' repository's %s differs from %s (%v)", name, src, err)
		}
	}
	// A config that still names fixturegen/fixturegen finds hooks that
	// fail with the repo line to write.
	for _, h := range readManifest(t, filepath.Join(root, ".pre-commit-hooks.yaml")) {
		if !strings.Contains(h.Entry, "write repo: https://github.com/fixturegen/fixturegen-pre-commit") {
			t.Errorf("the root's hook %s does not name the hooks' repository: %q", h.ID, h.Entry)
		}
	}
}

// TestPreCommitStampsEveryPlace refuses a hooks' repository in which a
// place that names the version is missing, or is there twice.
func TestPreCommitStampsEveryPlace(t *testing.T) {
	for _, tt := range []struct{ name, pyproject, want string }{
		{"no pin", "[project]\nversion = \"0.4.0\"\ndependencies = []\n", "0 matches"},
		{"two versions", "[project]\nversion = \"0.4.0\"\nversion = \"0.4.0\"\ndependencies = [\"fixturegen-cli==0.4.0\"]\n", "2 matches"},
	} {
		r, _ := fakeRelease(t)
		for name, content := range map[string]string{
			"pre-commit/pyproject.toml":         tt.pyproject,
			"pre-commit/README.md":              "rev: v0.4.0 runs fixturegen-cli==0.4.0\n",
			"pre-commit/.pre-commit-hooks.yaml": "[]\n",
		} {
			path := filepath.Join(r.Root, name)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := r.PreCommit(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: PreCommit returned %v, want an error with %q", tt.name, err, tt.want)
		}
		if _, err := os.Stat(filepath.Join(r.Out, PreCommitDir)); !os.IsNotExist(err) {
			t.Errorf("%s: the refused repository was written: %v", tt.name, err)
		}
	}
}

// preCommit runs the hooks' repository the way pre-commit's users meet it,
// through pre-commit try-repo, on a git copy of the example, on a machine
// without Go: the PATH holds no go, and pip, which pre-commit runs to
// install the hooks' package, reads the wheel's folder instead of the
// package index. There the hooks' fixturegen is the wheel's release: the
// check hook reports a file written by 0.3.0 as version drift "this is
// 0.4.0" under required_version "==0.4.0", which a development build would
// only warn about, and the generate hook rewrites the file with 0.4.0 in
// its header. The root's hooks, tried the same way, fail with where they
// moved.
func (h host) preCommit(t *testing.T, work, hooks string) {
	git := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=fixturegen", "-c", "user.email=fixturegen@example.invalid", "-c", "init.defaultBranch=main"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	// The hooks' repository as it is published: its own git repository.
	repo := filepath.Join(work, "fixturegen-pre-commit")
	if err := testenv.CopyTree(hooks, repo); err != nil {
		t.Fatal(err)
	}
	git(repo, "init", "-q")
	git(repo, "add", "-A")
	git(repo, "commit", "-q", "-m", "fixturegen 0.4.0")

	project := filepath.Join(work, "inbox")
	if err := testenv.CopyTree(filepath.Join(h.root, "examples", "inbox"), project); err != nil {
		t.Fatal(err)
	}
	replaceIn(t, filepath.Join(project, "fixturegen.toml"), "version = 1\n", "version = 1\nrequired_version = \"==0.4.0\"\n")
	plugin := filepath.Join(project, "tests", "inbox", "alarm_probe.py")
	setHeaderVersion(t, plugin, "0.3.0")
	git(project, "init", "-q")
	git(project, "add", "-A")
	git(project, "commit", "-q", "-m", "example")

	// pip builds the hooks' package with setuptools, which users' pip
	// fetches from the package index; here it comes from the wheels that
	// pre-commit's virtualenv carries, beside fixturegen-cli's.
	links := filepath.Join(work, "links")
	if err := os.MkdirAll(links, 0o755); err != nil {
		t.Fatal(err)
	}
	bundle, err := exec.Command(h.python, "-c", "from virtualenv.seed.wheels.embed import BUNDLE_FOLDER; print(BUNDLE_FOLDER)").Output()
	if err != nil {
		t.Fatalf("virtualenv's wheels: %v", err)
	}
	setuptools, _ := filepath.Glob(filepath.Join(strings.TrimSpace(string(bundle)), "setuptools-*.whl"))
	if len(setuptools) == 0 {
		t.Fatalf("virtualenv carries no setuptools wheel in %s", bundle)
	}
	for _, whl := range setuptools {
		data, err := os.ReadFile(whl)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(links, filepath.Base(whl)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// No go on the PATH: every folder that holds one is left out.
	var path []string
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(dir, "go")); err == nil {
			continue
		}
		path = append(path, dir)
	}
	path = append([]string{filepath.Dir(h.python)}, path...)
	env := []string{"PATH=" + strings.Join(path, string(os.PathListSeparator)), "PIP_NO_INDEX=1",
		"PIP_FIND_LINKS=" + h.wheels + " " + links, "PIP_CONFIG_FILE=" + os.DevNull, "PYTHONDONTWRITEBYTECODE=1"}
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k != "PATH" && !strings.HasPrefix(k, "PIP_") && !strings.HasPrefix(k, "GO") {
			env = append(env, kv)
		}
	}
	cmd := exec.Command("bash", "-c", "command -v go || echo none")
	cmd.Env = env
	if out, err := cmd.Output(); err != nil || string(out) != "none\n" {
		t.Fatalf("the hooks' PATH still finds go: %s %v", out, err)
	}

	// tryRepo runs pre-commit try-repo in dir, and is safe to call from
	// another goroutine.
	tryRepo := func(dir string, args ...string) (string, int) {
		cmd := exec.Command(filepath.Join(filepath.Dir(h.python), "pre-commit"), append([]string{"try-repo"}, args...)...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return string(out), ee.ExitCode()
		} else if err != nil {
			return fmt.Sprintf("pre-commit: %v", err), -1
		}
		return string(out), 0
	}

	// The root's hooks, as a config that still names fixturegen/fixturegen
	// at a new rev finds them: they install nothing, and run beside the
	// hooks' install, in a project of their own.
	moved := filepath.Join(work, "moved")
	if err := testenv.CopyTree(filepath.Join(h.root, "examples", "inbox"), moved); err != nil {
		t.Fatal(err)
	}
	git(moved, "init", "-q")
	git(moved, "add", "-A")
	git(moved, "commit", "-q", "-m", "example")
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if out, code := tryRepo(moved, h.root, "fixturegen-check", "--all-files"); code != 1 ||
			!strings.Contains(out, "fixturegen's pre-commit hooks moved: in .pre-commit-config.yaml, write repo: https://github.com/fixturegen/fixturegen-pre-commit") {
			t.Errorf("pre-commit try-repo of this repository: exit %d, want 1 with where the hooks moved\n%s", code, out)
		}
	}()
	defer wg.Wait()

	out, code := tryRepo(project, repo, "--all-files", "--verbose")
	if code != 1 ||
		!strings.Contains(out, "tests/inbox/alarm_probe.py:1:1: version-drift written by fixturegen 0.3.0; this is 0.4.0") ||
		!strings.Contains(out, "files were modified by this hook") || !strings.Contains(out, "wrote tests/inbox/alarm_probe.py") ||
		strings.Contains(out, "not checked") {
		t.Errorf("pre-commit try-repo of the hooks: exit %d, want 1 with version drift found by 0.4.0 and fixed\n%s", code, out)
	}
	if header := firstLine(t, plugin); header != `# Code generated by fixturegen 0.4.0 from "fixturegen.toml". DO NOT EDIT.` {
		t.Errorf("after the generate hook the plugin starts %q", header)
	}
}
