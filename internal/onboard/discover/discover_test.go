package discover

import (
	"reflect"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/internal/testenv"
	"github.com/fixturegen/fixturegen/schema"
)

// handwritten is a conftest shaped like the reference's: a preload fixture
// that imports the SDK, and a deadline fixture that takes it and arms a
// one second ITIMER_REAL alarm from a handler that raises AssertionError.
const handwritten = `"""Fixtures for the inbox channel tests."""

import signal

import pytest


@pytest.fixture
def channel():
    # signal.setitimer(signal.ITIMER_REAL, 99) in a comment is not a call.
    return "signal.alarm(7) in a string is not a call either"


@pytest.fixture
def toy_sdk():
    import toyredis  # noqa: F401
    import toysdk.server.lowlevel  # noqa: F401
    import toysdk.server.stdio  # noqa: F401
    import toysdk.shared.message  # noqa: F401

    yield


@pytest.fixture
` + testenv.HandwrittenDeadline

const reconnect = `import pytest

pytestmark = [
    pytest.mark.xdist_group("toy-sdk"),
    pytest.mark.usefixtures("toy_sdk", "recovery_deadline"),
]


def test_a():
    pass
`

const byParameter = `import pytest


@pytest.mark.xdist_group(name="toy-sdk")
def test_b(recovery_deadline):
    pass
`

// other marks a group but uses neither fixture: its group does not count.
const other = `import pytest

pytestmark = pytest.mark.xdist_group("elsewhere")
`

const plugin = `import signal

_original = signal.setitimer


def pytest_configure(config):
    signal.setitimer = _original
`

const probeTests = `PLUGIN = "alarm_probe"
`

func TestFind(t *testing.T) {
	root := testenv.WriteTree(t, map[string]string{
		"tests/inbox/conftest.py":                 handwritten,
		"tests/inbox/test_channel_reconnect.py":   reconnect,
		"tests/inbox/test_waker.py":               byParameter,
		"tests/inbox/test_other.py":               other,
		"tests/inbox/alarm_probe.py":              plugin,
		"tests/inbox/test_alarm.py":               probeTests,
		".venv/lib/conftest.py":                   handwritten, // never read
		"tests/conftest_helpers/not_conftest.py":  handwritten,
		"tests/inbox/test_outside_the_group_x.py": "x = 1\n",
		// The modules the preload fixture imports, which its setup needs.
		"tests/inbox/toyredis.py":               "",
		"tests/inbox/toysdk/__init__.py":        "",
		"tests/inbox/toysdk/server/__init__.py": "",
		"tests/inbox/toysdk/server/lowlevel.py": "",
		"tests/inbox/toysdk/server/stdio.py":    "",
		"tests/inbox/toysdk/shared/__init__.py": "",
		"tests/inbox/toysdk/shared/message.py":  "",
	})
	c, _, err := Find(root, testenv.Python(t))
	if err != nil {
		t.Fatal(err)
	}
	if c == nil {
		t.Fatal("no contract found")
	}
	want := &Contract{
		Conftest: "tests/inbox/conftest.py",
		Deadline: Fixture{"recovery_deadline", "tests/inbox/conftest.py:25:5"},
		Preload:  &Fixture{"toy_sdk", "tests/inbox/conftest.py:15:5"},
		Spec:     schema.Deadline{Fixture: "recovery_deadline", Seconds: 1, Timer: "real", Raises: "AssertionError", Message: "recovery loop exceeded its deadline", MessageVerbatim: true},
		Origin: map[string]string{
			"deadline":         "tests/inbox/conftest.py:25:5",
			"seconds":          "tests/inbox/conftest.py:30:42",
			"timer":            "tests/inbox/conftest.py:30:5",
			"raises":           "tests/inbox/conftest.py:27:15",
			"message":          "tests/inbox/conftest.py:27:30",
			"message_verbatim": "tests/inbox/conftest.py:27:30",
		},
		Handler:       &Fixture{"on_alarm", "tests/inbox/conftest.py:26:9"},
		HandlerNested: true,
		Modules:       []string{"toyredis", "toysdk.server.lowlevel", "toysdk.server.stdio", "toysdk.shared.message"},
		Group:         "toy-sdk",
		GroupUses: []Use{
			{"toy-sdk", "tests/inbox/test_channel_reconnect.py:4:29"},
			{"toy-sdk", "tests/inbox/test_waker.py:4:31"},
		},
		Probe: &Probe{Plugin: "tests/inbox/alarm_probe.py", Tests: []string{"tests/inbox/test_alarm.py"}},
	}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("got\n%+v\nwant\n%+v", c, want)
	}
}

// Tests request a fixture by the name its decorator's name= argument gives
// it, so that is the name the spec and the group search must use.
func TestFindByDecoratorName(t *testing.T) {
	src := strings.NewReplacer(
		"@pytest.fixture\ndef toy_sdk():", "@pytest.fixture(name=\"toy_sdk\")\ndef _load_sdk():",
		"@pytest.fixture\ndef recovery_deadline(toy_sdk):", "@pytest.fixture(scope=\"function\", name=\"recovery_deadline\")\ndef _deadline(toy_sdk):",
	).Replace(handwritten)
	root := testenv.WriteTree(t, map[string]string{
		"tests/conftest.py":   src,
		"tests/test_waker.py": byParameter,
	})
	c, _, err := Find(root, testenv.Python(t))
	if err != nil || c == nil {
		t.Fatalf("Find = %+v, %v", c, err)
	}
	if c.Deadline.Name != "recovery_deadline" || c.Preload == nil || c.Preload.Name != "toy_sdk" || c.Group != "toy-sdk" {
		t.Errorf("deadline %+v, preload %+v, group %q; want recovery_deadline taking toy_sdk in group toy-sdk", c.Deadline, c.Preload, c.Group)
	}
}

// A conftest below the contract's that defines the deadline fixture again
// overrides it for its folder, even when its path sorts first; one that
// defines another name is a deadline of its own, not an override.
func TestFindOverrides(t *testing.T) {
	deadline := func(name, arm string) string {
		return "import os\nimport signal\n\nimport pytest\n\n\n@pytest.fixture(autouse=True)\ndef " + name + "():\n    " + arm + "\n    yield\n    signal.alarm(0)\n"
	}
	root := testenv.WriteTree(t, map[string]string{
		"tests/a_slow/conftest.py":  deadline("deadline", "signal.alarm(6)"),
		"tests/conftest.py":         deadline("deadline", "signal.alarm(2)"),
		"tests/b/conftest.py":       deadline("other", "signal.alarm(9)"),
		"tests/c/conftest.py":       deadline("deadline", "signal.alarm(int(os.environ.get(\"C_LIMIT\", \"4\")))"),
		"tests/d/conftest.py":       deadline("deadline", "signal.alarm(LIMIT)"),
		"tests/a_slow/test_slow.py": "def test_slow():\n    pass\n",
	})
	c, _, err := Find(root, testenv.Python(t))
	if err != nil || c == nil {
		t.Fatalf("Find = %+v, %v", c, err)
	}
	if c.Conftest != "tests/conftest.py" || c.Spec.Seconds != 2 {
		t.Errorf("contract in %s with %v s; want tests/conftest.py with 2 s", c.Conftest, c.Spec.Seconds)
	}
	want := []Override{
		{Conftest: "tests/a_slow/conftest.py", Pattern: "tests/a_slow/**", At: "tests/a_slow/conftest.py:8:5", Seconds: 6, SecondsAt: "tests/a_slow/conftest.py:9:18"},
		{Conftest: "tests/c/conftest.py", Pattern: "tests/c/**", At: "tests/c/conftest.py:8:5", Seconds: 4, SecondsAt: "tests/c/conftest.py:9:18", SecondsEnv: []string{"C_LIMIT"}},
		{Conftest: "tests/d/conftest.py", Pattern: "tests/d/**", At: "tests/d/conftest.py:8:5", SecondsAt: "tests/d/conftest.py:9:18"},
	}
	if !reflect.DeepEqual(c.Overrides, want) {
		t.Errorf("overrides\n%+v\nwant\n%+v", c.Overrides, want)
	}
}

// Seconds a conftest imports from a module of the project are learned by
// running the fixture, however the import is written; a module that is not
// there leaves them to the user, at the line that fails.
func TestFindImportedSeconds(t *testing.T) {
	conftest := func(imp string) string {
		return "import signal\n\nimport pytest\n\n" + imp + "\n\n\n@pytest.fixture(autouse=True)\ndef deadline():\n    signal.alarm(LIMIT)\n    yield\n    signal.alarm(0)\n"
	}
	tests := []struct {
		name  string
		tree  map[string]string
		want  float64
		unset string
	}{
		{"a module of a package above, under another name, from a variable", map[string]string{
			"pytest.ini":               "[pytest]\npythonpath = .\n",
			"tests/unit/conftest.py":   conftest("from tests.limits import TEST_LIMIT as LIMIT"),
			"tests/__init__.py":        "",
			"tests/unit/__init__.py":   "",
			"tests/limits/__init__.py": "import os\n\nTEST_LIMIT = int(os.environ.get(\"TEST_LIMIT\", 4))\n",
		}, 4, ""},
		{"a module that is not there", map[string]string{
			"tests/conftest.py": conftest("from elsewhere import LIMIT"),
		}, 0, "pytest could not run the fixture: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _, err := Find(testenv.WriteTree(t, tt.tree), testenv.Python(t))
			if err != nil || c == nil {
				t.Fatalf("Find = %+v, %v", c, err)
			}
			unset := ""
			if u := c.UnreadKey("seconds"); u != nil {
				unset = u.Why
			}
			if c.Spec.Seconds != tt.want || !strings.HasPrefix(unset, tt.unset) || (unset == "") != (tt.unset == "") {
				t.Errorf("%v s, unread %q; want %v s, %q", c.Spec.Seconds, unset, tt.want, tt.unset)
			}
		})
	}
}

func TestFindNothing(t *testing.T) {
	root := testenv.WriteTree(t, map[string]string{
		"tests/conftest.py": "import pytest\n\n\n@pytest.fixture\ndef x():\n    return 'signal.setitimer(1, 2)'\n",
		"tests/test_x.py":   reconnect,
	})
	// Nothing to run: no Python is started.
	c, _, err := Find(root, "python-is-not-started")
	if err != nil || c != nil {
		t.Errorf("Find = %+v, %v; want nothing", c, err)
	}
}

func TestStrays(t *testing.T) {
	src := `import contextlib
import signal

import pytest

signal.alarm(30)


def _unused(seconds):
    signal.setitimer(signal.ITIMER_REAL, seconds)
    signal.setitimer(signal.ITIMER_REAL, 0)


@contextlib.contextmanager
def _limit(seconds):
    def arm():
        signal.alarm(seconds)

    arm()
    yield
    signal.alarm(0)


@pytest.fixture
def limited():
    with _limit(3):
        yield


@pytest.fixture(scope="session")
def loaded():
    signal.alarm(5)
    try:
        return {"answer": 42}
    finally:
        signal.alarm(0)


@pytest.fixture
def timeout():
    @contextlib.contextmanager
    def timeout_function(seconds):
        signal.alarm(seconds)
        yield
        signal.alarm(0)

    return timeout_function
`
	cf := scanConftest("conftest.py", []byte(src), pyscan.Scan([]byte(src)))
	if cf == nil {
		t.Fatal("no candidate")
	}
	var cands []string
	for _, cd := range cf.cands {
		cands = append(cands, cd.name)
	}
	// limited arms the timer through the context manager it enters: init
	// runs it. loaded bounds its own setup, and timeout hands its tests a
	// function: neither is.
	if want := []string{"limited"}; !reflect.DeepEqual(cands, want) {
		t.Errorf("candidates %v, want %v", cands, want)
	}
	got := cf.strays
	want := []Stray{
		{At: "conftest.py:6:1", Arms: "signal.alarm"},
		{At: "conftest.py:10:5", Arms: "signal.setitimer", In: "_unused"},
		{At: "conftest.py:17:9", Arms: "signal.alarm", In: "_limit", CalledBy: "limited"},
		{At: "conftest.py:32:5", Arms: "signal.alarm", In: "loaded", Bounds: true},
		{At: "conftest.py:43:9", Arms: "signal.alarm", In: "timeout_function", HandedBy: "timeout"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("strays\n%+v\nwant\n%+v", got, want)
	}
}
