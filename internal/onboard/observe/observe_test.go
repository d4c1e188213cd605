package observe

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/testenv"
)

// The recording plugin is Python that fixturegen ships: held to the bar of
// the generated code, `ruff format` leaves it unchanged, `ruff check` finds
// nothing with its default rules nor with every rule but those below, and
// `mypy --strict` passes.
func TestPluginQuality(t *testing.T) {
	python := testenv.Python(t)
	bin := filepath.Dir(python)
	ignored := []string{
		"COM812",                                       // the formatter decides trailing commas
		"CPY001",                                       // no copyright notice of its own
		"E501",                                         // messages and calls read better whole
		"ANN401",                                       // the wrapped signal and faulthandler functions take any object
		"SLF001",                                       // sys._getframe, os._Environ and pytest-timeout's settings are what it reads
		"FBT001", "FBT002", "A002", "ARG001", "ARG002", // the wrappers keep the signatures they stand for
	}
	for _, args := range [][]string{
		{"format", "--isolated", "--no-cache", "--diff", "plugin.py"},
		{"check", "--isolated", "--no-cache", "--output-format", "concise", "plugin.py"},
		{"check", "--isolated", "--no-cache", "--output-format", "concise", "--select", "ALL", "--ignore", strings.Join(ignored, ","), "plugin.py"},
	} {
		if out, err := exec.Command(filepath.Join(bin, "ruff"), args...).CombinedOutput(); err != nil {
			t.Errorf("ruff %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	mypy := exec.Command(filepath.Join(bin, "mypy"), "--strict", "--cache-dir", t.TempDir(), "plugin.py")
	if out, err := mypy.CombinedOutput(); err != nil {
		t.Errorf("mypy --strict: %v\n%s", err, out)
	}
}

// One session runs the throwaway tests of two folders and records what
// each fixture's setup did, what the handler does when called, and the
// environment variables read; the project's own tests never run, and a
// folder whose conftest does not import leaves the others' runs whole.
func TestSessions(t *testing.T) {
	python := testenv.Python(t)
	root := testenv.WriteTree(t, map[string]string{
		"tests/conftest.py": `import os
import signal

import pytest

LIMIT = int(os.environ.get("LIMIT", "3"))


class Expired:
    def __call__(self, signum, frame):
        raise TimeoutError(f"over {LIMIT} s")


@pytest.fixture
def deadline():
    signal.signal(signal.SIGALRM, Expired())
    signal.setitimer(signal.ITIMER_REAL, LIMIT, 0.5)
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
`,
		"tests/test_never.py":        "def test_never():\n    raise SystemExit(9)\n",
		"tests/broken/conftest.py":   "import missing_module\n",
		"tests/other/conftest.py":    "import os\nimport signal\n\nimport pytest\n\n\n@pytest.fixture\ndef per():\n    signal.alarm(int(os.environ.get('PER', '2')))\n    yield\n",
		"tests/other/test_other.py":  "def test_other():\n    raise SystemExit(9)\n",
		"tests/broken/test_broke.py": "def test_broke():\n    pass\n",
	})
	per := "7"
	results, err := Sessions(root, python, []string{"LIMIT", "PER"}, []Run{{Items: []Item{
		{ID: "a", Dir: "tests", Fixture: "deadline"},
		{ID: "b", Dir: "tests/other", Fixture: "per", Env: map[string]*string{"PER": &per}},
		{ID: "c", Dir: "tests/broken", Fixture: ""},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	r := results[0]
	a := r.Items["a"]
	if a == nil || len(a.Events) < 2 {
		t.Fatalf("item a: %+v\n%s", a, r.Output)
	}
	if e := a.Events[1]; e.Call != "setitimer" || e.Seconds != 3 || e.Interval != 0.5 || e.Fixture != "deadline" || e.Frames[0].At() != "tests/conftest.py:17:5" {
		t.Errorf("arming: %+v", e)
	}
	ring := a.Rings["0"]
	if ring == nil || ring.Handler.Kind != "object" || ring.Handler.Name != "Expired" || len(ring.Outcomes) != 2 {
		t.Fatalf("ring: %+v", ring)
	}
	if o := ring.Outcomes[0]; o.Kind != "raised" || o.Module != "builtins" || o.Type != "TimeoutError" || o.Message != "over 3 s" || o.Frames[0].At() != "tests/conftest.py:11:9" {
		t.Errorf("outcome: %+v", o)
	}
	b := r.Items["b"]
	if b == nil || len(b.Events) != 1 || b.Events[0].Seconds != 7 || !r.SetupReads("b", "PER") {
		t.Errorf("item b: %+v", b)
	}
	for _, e := range r.EnvReads {
		if e.Name == "LIMIT" && e.Item != "" {
			t.Errorf("LIMIT read in a test, not at import: %+v", e)
		}
	}
	if r.Items["c"] != nil || len(r.CollectErrors) != 1 || !strings.Contains(r.CollectErrors[0].Error, "missing_module") {
		t.Errorf("the broken folder: item %+v, errors %+v", r.Items["c"], r.CollectErrors)
	}
	if strings.Contains(r.Output, "SystemExit") {
		t.Errorf("a test of the project ran:\n%s", r.Output)
	}
	// Nothing was written into the project.
	var written []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".py") {
			written = append(written, p)
		}
		return nil
	})
	if len(written) > 0 {
		t.Errorf("written into the project: %v", written)
	}
}
