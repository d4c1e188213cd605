package dist

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/pytext"
	"github.com/fixturegen/fixturegen/internal/testenv"
)

// TestInstallPluginWheel builds a release for this machine alone, as
// scripts/wheels does when asked for one platform, and proves the
// pytest-import-shield wheel in it: SHA256SUMS covers it, and installed
// with pip install --no-index --find-links dist/ into a fresh venv it keeps
// the inbox example, as a pytest-timeout user has it (no spec, no region,
// pytest-timeout's 1 s signal timeout against the toy SDK's cold import),
// whole under -n 2 --dist loadgroup --reruns 2 and under -W error, while
// -p no:import_shield makes it poisoned again.
func TestInstallPluginWheel(t *testing.T) {
	python, target, r, work := hostRelease(t)
	if _, err := r.All(context.Background(), []Target{target}, func(string) {}); err != nil {
		t.Fatal(err)
	}
	const whl = "pytest_import_shield-0.4.0-py3-none-any.whl"
	if !summed(t, filepath.Join(r.Out, "SHA256SUMS"), whl) {
		t.Errorf("SHA256SUMS does not cover %s", whl)
	}
	run(t, "", python, "-m", "twine", "check", "--strict", filepath.Join(r.Out, whl))

	// The fresh venv sees the test venv's packages (pytest and its
	// plugins) through a .pth file, so pip finds pytest installed and
	// needs no index for it; the plugin comes from dist/ alone.
	venv := filepath.Join(work, "venv")
	run(t, "", python, "-m", "venv", "--without-pip", venv)
	vpython := filepath.Join(venv, "bin", "python")
	purelib := `import sysconfig; print(sysconfig.get_paths()["purelib"])`
	theirs := strings.TrimSpace(run(t, "", python, "-c", purelib))
	ours := strings.TrimSpace(run(t, "", vpython, "-c", purelib))
	if err := os.WriteFile(filepath.Join(ours, "test_venv.pth"), []byte(theirs+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, "", python, "-m", "pip", "--python", vpython, "install", "--disable-pip-version-check", "--quiet",
		"--no-index", "--find-links", r.Out, pytext.PluginDistribution)

	project := filepath.Join(work, "inbox")
	if err := testenv.CopyTree(filepath.Join(r.Root, "examples", "inbox"), project); err != nil {
		t.Fatal(err)
	}
	unshield(t, project)
	pytest := func(args ...string) (string, int) {
		return runCode(t, project, vpython, append([]string{"-m", "pytest", "-p", "no:cacheprovider", "-rfR"}, args...)...)
	}
	poisoned := regexp.MustCompile(`has no attribute 'stdio'`)
	whole := regexp.MustCompile(`(?m) 9 passed, [12] rerun in `)
	for _, args := range [][]string{nil, {"-W", "error"}} {
		out, code := pytest(args...)
		if code != 0 || poisoned.MatchString(out) || !whole.MatchString(out) ||
			!strings.Contains(out, "import shield: on (signals SIGALRM, grace 30 s, past grace deliver, rollback true)") {
			t.Errorf("pytest %v with the plugin installed: exit %d, want 9 passed after a rerun, nothing poisoned:\n%s", args, code, out)
		}
	}
	out, code := pytest("-p", "no:import_shield")
	if code != 1 || !poisoned.MatchString(out) || !regexp.MustCompile(` 2 failed, 7 passed`).MatchString(out) {
		t.Errorf("pytest -p no:import_shield: exit %d, want the suite poisoned again (2 failed):\n%s", code, out)
	}
}

// summed reports whether the SHA256SUMS file at path has a line for name.
func summed(t *testing.T, path, name string) bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if strings.HasSuffix(s.Text(), "  "+name) {
			return true
		}
	}
	return false
}

// unshield turns the inbox example into the suite a pytest-timeout user
// has: no spec, no runtime, no region, pytest-timeout's signal method at
// 1 s.
func unshield(t *testing.T, project string) {
	t.Helper()
	for _, f := range []string{"fixturegen.toml", "tests/inbox/_fixturegen_runtime.py", "tests/inbox/alarm_probe.py", "tests/inbox/test_channel_reconnect_alarm.py"} {
		if err := os.Remove(filepath.Join(project, f)); err != nil {
			t.Fatal(err)
		}
	}
	conftest := filepath.Join(project, "tests", "inbox", "conftest.py")
	data, err := os.ReadFile(conftest)
	if err != nil {
		t.Fatal(err)
	}
	before, _, ok := strings.Cut(string(data), "\n\n# fixturegen:begin")
	if !ok {
		t.Fatalf("%s holds no fixturegen region", conftest)
	}
	if err := os.WriteFile(conftest, []byte(before+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	replaceIn(t, filepath.Join(project, "tests", "inbox", "test_channel_reconnect.py"), "    pytest.mark.usefixtures(\"toy_sdk\", \"recovery_deadline\"),\n", "")
	ini := "[pytest]\npythonpath = .\ntestpaths = tests\naddopts = -n 2 --dist loadgroup --reruns 2 --strict-markers\ntimeout = 1\ntimeout_method = signal\n"
	if err := os.WriteFile(filepath.Join(project, "pytest.ini"), []byte(ini), 0o644); err != nil {
		t.Fatal(err)
	}
}
