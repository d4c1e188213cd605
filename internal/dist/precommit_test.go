package dist

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/testenv"
)

// TestPreCommitHooks runs the repository's pre-commit hooks as a project
// would (a .pre-commit-config.yaml naming this repository at a rev, from
// which pre-commit builds fixturegen with language: golang) on a git copy
// of the example: the check passes, and after a spec edit the generate hook
// rewrites the region, fails the run as a fixer does, and passes once the
// change is there.
//
// The rev is a commit of this repository's working tree, uncommitted
// changes included, as pre-commit try-repo makes it; unlike try-repo, which
// builds the hooks afresh on every call, the runs share one PRE_COMMIT_HOME
// and so build fixturegen once, as a project's runs do.
func TestPreCommitHooks(t *testing.T) {
	t.Parallel()
	testenv.GoBuild(t)
	python := testenv.Python(t)
	root, err := testenv.Root()
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	project := filepath.Join(work, "inbox")
	if err := testenv.CopyTree(filepath.Join(root, "examples", "inbox"), project); err != nil {
		t.Fatal(err)
	}
	git := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=fixturegen", "-c", "user.email=fixturegen@example.invalid"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			msg := ""
			if ee, ok := err.(*exec.ExitError); ok {
				msg = string(ee.Stderr)
			}
			t.Fatalf("git %s: %v\n%s%s", strings.Join(args, " "), err, out, msg)
		}
		return string(out)
	}
	git(project, "init", "-q")
	git(project, "add", "-A")
	git(project, "commit", "-q", "-m", "example")

	// The hooks' repository: this one at HEAD with the working tree's
	// changes to tracked files committed on top.
	hooks := filepath.Join(work, "hooks-repo")
	git(work, "clone", "-q", "--no-local", root, hooks)
	if patch := git(root, "diff", "--binary", "HEAD"); patch != "" {
		cmd := exec.Command("git", "apply", "--index", "--whitespace=nowarn")
		cmd.Dir, cmd.Stdin = hooks, strings.NewReader(patch)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git apply the working tree's changes: %v\n%s", err, out)
		}
		git(hooks, "commit", "-q", "-m", "working tree")
	}
	rev := strings.TrimSpace(git(hooks, "rev-parse", "HEAD"))
	config := filepath.Join(work, "pre-commit-config.yaml")
	if err := os.WriteFile(config, []byte("repos:\n- repo: "+hooks+"\n  rev: "+rev+
		"\n  hooks:\n  - id: fixturegen-check\n  - id: fixturegen-generate\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	modcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	// The hooks' Go build reads modules from this machine's cache, which
	// building these tests filled, and never from the network.
	env := append(os.Environ(), "PRE_COMMIT_HOME="+filepath.Join(work, "pre-commit"),
		"GOMODCACHE="+strings.TrimSpace(string(modcache)), "GOPROXY=off", "GOFLAGS=-mod=mod -buildvcs=false",
		"PYTHONDONTWRITEBYTECODE=1")
	hook := func(id string) (string, int) {
		t.Helper()
		cmd := exec.Command(filepath.Join(filepath.Dir(python), "pre-commit"), "run", "--config", config, id, "--all-files")
		cmd.Dir, cmd.Env = project, env
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return string(out), ee.ExitCode()
		} else if err != nil {
			t.Fatalf("pre-commit: %v", err)
		}
		return string(out), 0
	}

	if out, code := hook("fixturegen-check"); code != 0 || !strings.Contains(out, "fixturegen check....") || !strings.Contains(out, "Passed") {
		t.Fatalf("fixturegen-check on the example: exit %d\n%s", code, out)
	}
	replaceIn(t, filepath.Join(project, "fixturegen.toml"), "seconds = 1\n", "seconds = 2\n")
	if out, code := hook("fixturegen-check"); code != 1 || !strings.Contains(out, "region-edited") {
		t.Errorf("fixturegen-check after a spec edit: exit %d, want 1 with region-edited\n%s", code, out)
	}
	if out, code := hook("fixturegen-generate"); code != 1 || !strings.Contains(out, "files were modified by this hook") || !strings.Contains(out, "wrote tests/inbox/conftest.py") {
		t.Errorf("fixturegen-generate after a spec edit: exit %d, want 1 with the region rewritten\n%s", code, out)
	}
	for _, id := range []string{"fixturegen-generate", "fixturegen-check"} {
		if out, code := hook(id); code != 0 {
			t.Errorf("%s after generate: exit %d\n%s", id, code, out)
		}
	}
}
