package dist

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/pyenv"
	"github.com/fixturegen/fixturegen/internal/testtree"
)

// TestPreCommitHooks runs the repository's pre-commit hooks as a project
// would (pre-commit try-repo, which builds fixturegen from this repository
// with language: golang) on a git copy of the example: the check passes,
// and after a spec edit the generate hook rewrites the region, fails the
// run as a fixer does, and passes once the change is there.
func TestPreCommitHooks(t *testing.T) {
	python := pyenv.Python(t)
	root, err := pyenv.Root()
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	project := filepath.Join(work, "inbox")
	if err := testtree.Copy(filepath.Join(root, "examples", "inbox"), project); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=fixturegen", "-c", "user.email=fixturegen@example.invalid"}, args...)...)
		cmd.Dir = project
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "example")

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
		cmd := exec.Command(filepath.Join(filepath.Dir(python), "pre-commit"), "try-repo", root, id, "--all-files")
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
