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
	results, err := Sessions(root, python, []string{"LIMIT", "PER"}, []Run{{Items: []Item{
		{ID: "a", Dir: "tests", Fixture: "deadline"},
		{ID: "b", Dir: "tests/other", Fixture: "per", Env: map[string]string{"PER": "7"}},
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

// The recording stand-ins refuse what the real calls refuse, with the
// real calls' exceptions: a setup that hands signal.alarm a string fails
// as it does under pytest, and the refused call is recorded with what it
// was given, never as a timer armed.
func TestRefusedCalls(t *testing.T) {
	python := testenv.Python(t)
	fixtures := map[string]string{
		"alarm_str":     `signal.alarm("5")`,
		"alarm_float":   `signal.alarm(5.0)`,
		"alarm_keyword": `signal.alarm(seconds=5)`,
		"itimer_str":    `signal.setitimer(signal.ITIMER_REAL, "1")`,
		"itimer_which":  `signal.setitimer(9, 1)`,
		"itimer_list":   `signal.setitimer([0], 1)`,
		"handler_str":   `signal.signal(signal.SIGALRM, "x")`,
		"dump_zero":     `faulthandler.dump_traceback_later(0)`,
		"alarm_int":     `signal.alarm(5)`,
	}
	want := map[string]string{
		"alarm_str":     "TypeError: 'str' object cannot be interpreted as an integer",
		"alarm_float":   "TypeError: 'float' object cannot be interpreted as an integer",
		"alarm_keyword": "TypeError: alarm() takes no keyword arguments",
		"itimer_str":    "TypeError: 'str' object cannot be interpreted as an integer",
		"itimer_which":  "itimer_error: [Errno 22] Invalid argument",
		"itimer_list":   "TypeError: 'list' object cannot be interpreted as an integer",
		"handler_str":   "TypeError: signal handler must be signal.SIG_IGN, signal.SIG_DFL, or a callable object",
		"dump_zero":     "ValueError: timeout must be greater than 0",
	}
	src := "import faulthandler\nimport signal\n\nimport pytest\n"
	var items []Item
	for name, call := range fixtures {
		src += "\n\n@pytest.fixture\ndef " + name + "():\n    " + call + "\n    yield\n"
		items = append(items, Item{ID: name, Dir: "tests", Fixture: name})
	}
	root := testenv.WriteTree(t, map[string]string{"tests/conftest.py": src})
	results, err := Sessions(root, python, nil, []Run{{Items: items}})
	if err != nil {
		t.Fatal(err)
	}
	r := results[0]
	for name := range fixtures {
		it := r.Items[name]
		if it == nil {
			t.Fatalf("%s did not run:\n%s", name, r.Output)
		}
		if name == "alarm_int" {
			if it.SetupError != nil || len(it.Events) == 0 || !it.Events[0].Arms() {
				t.Errorf("alarm_int: %+v, error %+v", it.Events, it.SetupError)
			}
			continue
		}
		if it.SetupError == nil {
			t.Errorf("%s: no error, want %s", name, want[name])
			continue
		}
		if got := it.SetupError.Type + ": " + it.SetupError.Message; got != want[name] {
			t.Errorf("%s: raised %s, want %s", name, got, want[name])
		}
		// pytest's own faulthandler plugin cancels a dump in every setup.
		e := it.Events[0]
		if e.Fixture != name || e.Rejected != want[name] || e.Arms() || e.Disarms() || len(e.Frames) == 0 || e.Frames[0].File != "tests/conftest.py" {
			t.Errorf("%s: recorded %+v", name, it.Events)
		}
	}
	if got := r.Items["alarm_str"].Events[0].Given; len(got) != 1 || got[0] != "'5'" {
		t.Errorf("alarm_str given %q", got)
	}
}

// Asked to run with pytest-timeout where it is not loaded, the session
// registers a stand-in under its name: the conftest's hasplugin("timeout")
// branch is taken, as it is with the plugin installed.
func TestTimeoutStandIn(t *testing.T) {
	python := testenv.Python(t)
	t.Setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
	root := testenv.WriteTree(t, map[string]string{"tests/conftest.py": `import signal

import pytest


@pytest.fixture
def deadline(request):
    if request.config.pluginmanager.hasplugin("timeout"):
        yield
        return
    signal.alarm(2)
    yield
    signal.alarm(0)
`})
	items := []Item{{ID: "a", Dir: "tests", Fixture: "deadline"}}
	results, err := Sessions(root, python, nil, []Run{{Items: items}, {Items: items, Timeout: true}})
	if err != nil {
		t.Fatal(err)
	}
	without, with := results[0], results[1]
	if without.TimeoutStandIn || len(without.Items["a"].Events) == 0 {
		t.Errorf("without pytest-timeout: stand-in %v, events %+v", without.TimeoutStandIn, without.Items["a"].Events)
	}
	a := with.Items["a"]
	if !with.TimeoutStandIn || a == nil || len(a.Events) != 0 || a.Timeout == nil || !a.Timeout.Loaded {
		t.Errorf("with the stand-in: %v, item %+v\n%s", with.TimeoutStandIn, a, with.Output)
	}
}
