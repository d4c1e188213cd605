package discover

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/internal/python/pyscan"
	"github.com/fixturegen/fixturegen/internal/testenv"
	"github.com/fixturegen/fixturegen/schema"
)

// shape is what TestDeadlineShapes compares: the [deadline] values a
// hand-written deadline fixture yields, and the keys left unread.
type shape struct {
	Autouse     bool
	Seconds     float64
	SecondsEnv  string
	Timer       string
	Guarded     bool
	Interval    bool
	Handler     string // "" without one; "nested " prefixed when nested
	Raises      string
	Message     string
	DumpThreads bool
	OptIn       bool     // armed_when_env_set
	Defers      bool     // defer_to_pytest_timeout
	Unread      []string // key: why
}

func shapeOf(c *Contract) shape {
	sh := shape{
		Autouse: c.Spec.Autouse, Seconds: c.Spec.Seconds, SecondsEnv: strings.Join(c.Spec.SecondsEnv, ","), Timer: c.Spec.Timer,
		Interval: c.Interval != "", Raises: c.Spec.Raises, Message: c.Spec.Message, DumpThreads: c.Spec.DumpThreads,
		OptIn: c.Spec.ArmedWhenEnvSet, Defers: c.Spec.DeferToPytestTimeout, Guarded: c.Spec.WithoutTimer == schema.WithoutTimerOff,
	}
	if c.Handler != nil {
		sh.Handler = c.Handler.Name
		if c.HandlerNested {
			sh.Handler = "nested " + sh.Handler
		}
	}
	for _, u := range c.Unread {
		sh.Unread = append(sh.Unread, u.Key+": "+u.Why)
	}
	return sh
}

// The autouse per-test timeouts found in public conftests, and the ways
// their values are written: what init learns by running each once.
func TestDeadlineShapes(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want shape
		note string // one of the notes, when set
		lack string // in none of the notes, when set
		none bool   // no deadline: the fixture keeps no timer armed
	}{{
		name: "setitimer, seconds from the environment, TimeoutError from a module-level handler",
		src: `import os
import signal

import pytest

LIMIT = float(os.environ.get("SUITE_TEST_LIMIT", "4"))


def _on_timeout(signum, frame):
    raise TimeoutError(f"test exceeded {LIMIT} s")


@pytest.fixture(autouse=True)
def _per_test_timeout():
    if LIMIT <= 0:
        yield
        return
    previous = signal.signal(signal.SIGALRM, _on_timeout)
    signal.setitimer(signal.ITIMER_REAL, LIMIT)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
`,
		// LIMIT is a float: the message said "4.0".
		want: shape{Autouse: true, Seconds: 4, SecondsEnv: "SUITE_TEST_LIMIT", Timer: "real", Handler: "_on_timeout",
			Raises: "TimeoutError", Message: "test exceeded {seconds:.1f} s"},
	}, {
		name: "seconds from a local helper over two variables, with a ValueError fallback",
		src: `import os
import signal

import pytest


def _get_timeout_seconds() -> int:
    try:
        return int(os.getenv("PER_TEST_TIMEOUT", os.getenv("SUITE_TIMEOUT", "5")))
    except ValueError:
        return 5


@pytest.fixture(autouse=True)
def per_test_timeout():
    timeout = _get_timeout_seconds()

    def handler(signum, frame):
        pytest.fail(f"Test timed out after {timeout}s", pytrace=False)

    old = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, old)
`,
		want: shape{Autouse: true, Seconds: 5, SecondsEnv: "PER_TEST_TIMEOUT,SUITE_TIMEOUT", Timer: "real", Handler: "nested handler",
			Raises: "Failed", Message: "Test timed out after {seconds}s"},
	}, {
		name: "a helper whose fallback differs from its default",
		src: `import os
import signal

import pytest


def _limit():
    try:
        return float(os.environ.get("LIMIT", "5"))
    except ValueError:
        return 30


@pytest.fixture(autouse=True)
def per_test_timeout():
    def handler(signum, frame):
        raise TimeoutError("slow")

    signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, _limit())
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
`,
		want: shape{Autouse: true, Seconds: 5, SecondsEnv: "LIMIT", Timer: "real", Handler: "nested handler", Raises: "TimeoutError", Message: "slow"},
		note: `with $LIMIT="soon" (no number) the fixture arms 30 s`,
	}, {
		name: "signal.alarm with an int default, a nested handler raising AssertionError",
		src: `import os
import signal

import pytest


@pytest.fixture(autouse=True)
def timeout():
    seconds = int(os.getenv("TEST_TIMEOUT", 10))

    def handler(signum, frame):
        raise AssertionError("the test ran out of time")

    old = signal.signal(signal.SIGALRM, handler)
    signal.alarm(seconds)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)
`,
		want: shape{Autouse: true, Seconds: 10, SecondsEnv: "TEST_TIMEOUT", Timer: "real", Handler: "nested handler",
			Raises: "AssertionError", Message: "the test ran out of time"},
	}, {
		name: "setitimer with a repeat interval, faulthandler, pytest.fail",
		src: `import faulthandler
import signal
from os import environ

import pytest

TIMEOUT = float(environ.get("PER_TEST_TIMEOUT", "2.5"))
MESSAGE = "timed out: {see stderr}"


def on_alarm(signum, frame):
    faulthandler.dump_traceback(all_threads=True)
    pytest.fail(MESSAGE)


@pytest.fixture(autouse=True)
def per_test_timeout():
    signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, TIMEOUT, 1)
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
`,
		want: shape{Autouse: true, Seconds: 2.5, SecondsEnv: "PER_TEST_TIMEOUT", Timer: "real", Interval: true, Handler: "on_alarm",
			Raises: "Failed", Message: "timed out: {{see stderr}}", DumpThreads: true},
	}, {
		name: "a hasattr guard, the variable or a default, faulthandler with its default",
		src: `import faulthandler
import os
import signal

import pytest

HAS_ALARM = hasattr(signal, "SIGALRM")


@pytest.fixture(autouse=True)
def _deadline():
    if not HAS_ALARM:
        yield
        return
    limit = float(os.environ.get("LIMIT") or 3)

    def boom(signum, frame):
        faulthandler.dump_traceback()
        raise TimeoutError(f"over {limit!s}s" " (raise LIMIT)")

    signal.signal(signal.SIGALRM, boom)
    signal.setitimer(signal.ITIMER_REAL, limit, limit)
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
`,
		want: shape{Autouse: true, Seconds: 3, SecondsEnv: "LIMIT", Timer: "real", Guarded: true, Interval: true, Handler: "nested boom",
			Raises: "TimeoutError", Message: "over {seconds:.1f}s (raise LIMIT)", DumpThreads: true},
	}, {
		name: "fixed seconds in a local name, an annotated module constant for the message",
		src: `import signal

import pytest

MSG: str = "deadline"


@pytest.fixture
def deadline():
    budget = 7

    def handler(*_):
        raise TimeoutError(MSG)

    signal.signal(signal.SIGALRM, handler)
    signal.alarm(budget)
    yield
    signal.alarm(0)
`,
		want: shape{Seconds: 7, Timer: "real", Handler: "nested handler", Raises: "TimeoutError", Message: "deadline"},
	}, {
		name: "a conftest that does not import: nothing is invented",
		src: `import os
import signal

import pytest

from helpers import on_alarm


@pytest.fixture(autouse=True)
def timeout():
    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(int(os.environ["TEST_TIMEOUT"]))
    yield
    signal.alarm(0)
`,
		want: shape{Autouse: true, Timer: "real", Unread: []string{
			"seconds: pytest could not run the fixture: ModuleNotFoundError: No module named 'helpers'; if this Python is not the one the project's tests run under, name that one with --python",
		}},
	}, {
		name: "a computed deadline, a custom exception, a message naming the test",
		src: `import os
import signal

import pytest

LIMIT = float(os.environ.get("T", "1")) * 2


class Timeout(Exception):
    pass


@pytest.fixture(autouse=True)
def timeout(request):
    def handler(signum, frame):
        raise Timeout(f"{request.node.nodeid} took over {LIMIT} s")

    signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, LIMIT)
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
`,
		// The seconds are what the fixture arms; $T changes them, but
		// not to its value, which no seconds_env says.
		want: shape{Autouse: true, Seconds: 2, Timer: "real", Handler: "nested handler", Unread: []string{
			"raises: the handler raises Timeout; the generated deadline raises AssertionError, TimeoutError or Failed",
			"message: the message names the test, which a spec's message cannot",
		}},
		note: "$T changes the seconds, but not to its value (311 gives 622 s)",
	}, {
		name: "a bare raise, a default of 0",
		src: `import os
import signal

import pytest


@pytest.fixture(autouse=True)
def timeout():
    def handler(signum, frame):
        raise TimeoutError

    signal.signal(signal.SIGALRM, handler)
    signal.alarm(int(os.environ.get("T", "0")))
    yield
    signal.alarm(0)
`,
		want: shape{Autouse: true, SecondsEnv: "T", Timer: "real", Handler: "nested handler", Raises: "TimeoutError", OptIn: true, Unread: []string{
			"message: the exception is raised without a message",
		}},
	}, {
		name: "an opt-in alarm handed the variable's text, never disarmed",
		src: `import os
import signal

import pytest


def _on_alarm(signum, frame):
    raise TimeoutError("budget exhausted")


@pytest.fixture(autouse=True)
def budget():
    limit = os.environ.get("B")
    if limit:
        signal.signal(signal.SIGALRM, _on_alarm)
        signal.alarm(limit)
    yield
`,
		want: shape{Autouse: true, SecondsEnv: "B", Timer: "real", Handler: "_on_alarm", Raises: "TimeoutError", Message: "budget exhausted", OptIn: true},
		note: "with $B=311 the fixture's setup raises TypeError: 'str' object cannot be interpreted as an integer: it hands signal.alarm the variable's text, '311'",
	}, {
		name: "an alarm never disarmed",
		src: `import signal

import pytest


def _on_alarm(signum, frame):
    raise TimeoutError("over")


@pytest.fixture(autouse=True)
def budget():
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.alarm(4)
    yield
`,
		want: shape{Autouse: true, Seconds: 4, Timer: "real", Handler: "_on_alarm", Raises: "TimeoutError", Message: "over"},
		note: "the fixture arms signal.alarm and never disarms it",
	}, {
		name: "a lambda handler calling pytest.fail, after the signal is reset",
		src: `import signal

import pytest


@pytest.fixture(autouse=True)
def deadline():
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    signal.signal(signal.SIGALRM, lambda signum, frame: pytest.fail("hung"))
    signal.alarm(5)
    yield
    signal.alarm(0)
`,
		want: shape{Autouse: true, Seconds: 5, Timer: "real", Handler: "nested <lambda>", Raises: "Failed", Message: "hung"},
		note: "conftest.py:9:57: the handler calls pytest.fail with its traceback",
	}, {
		name: "an alarm cleared before it is armed",
		src: `import signal

import pytest


@pytest.fixture(autouse=True)
def deadline():
    def handler(signum, frame):
        raise TimeoutError("slow")

    signal.alarm(0)
    signal.signal(signal.SIGALRM, handler)
    signal.alarm(5)
    yield
    signal.alarm(0)
`,
		want: shape{Autouse: true, Seconds: 5, Timer: "real", Handler: "nested handler", Raises: "TimeoutError", Message: "slow"},
	}, {
		name: "a handler that skips the test",
		src: `import signal

import pytest


@pytest.fixture
def timeout():
    def handler(*args):
        pytest.skip("taking too long")

    previous = signal.signal(signal.SIGALRM, handler)
    signal.alarm(2)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)
`,
		want: shape{Seconds: 2, Timer: "real", Handler: "nested handler", Unread: []string{
			"raises: the handler calls pytest.skip, so a test that runs out of time ends skipped, where the generated deadline fails it",
			"message: the handler calls pytest.skip, so a test that runs out of time ends skipped, where the generated deadline fails it",
		}},
	}, {
		name: "a handler built by a factory of the conftest",
		src: `import signal

import pytest

LIMIT = 2


def _build_timeout_handler(seconds):
    def _handle_timeout(signum, frame):
        pytest.fail("Test exceeded its timeout", pytrace=False)

    return _handle_timeout


@pytest.fixture(autouse=True)
def per_test_timeout():
    handler = _build_timeout_handler(LIMIT)
    previous = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, LIMIT)
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous)
`,
		want: shape{Autouse: true, Seconds: 2, Timer: "real", Handler: "nested _handle_timeout", Raises: "Failed", Message: "Test exceeded its timeout"},
	}, {
		name: "a handler built by a factory in the call that installs it",
		src: `import signal

import pytest


def _make(seconds):
    def expired(signum, frame):
        raise TimeoutError("expired")

    return expired


@pytest.fixture(autouse=True)
def per_test_timeout():
    signal.signal(signal.SIGALRM, _make(3))
    signal.alarm(3)
    yield
    signal.alarm(0)
`,
		want: shape{Autouse: true, Seconds: 3, Timer: "real", Handler: "nested expired", Raises: "TimeoutError", Message: "expired"},
	}, {
		name: "seconds given to a nested helper that arms the timer",
		src: `import signal

import pytest


def _on_alarm(signum, frame):
    raise TimeoutError("test hung")


@pytest.fixture(autouse=True)
def deadline():
    def arm(handler, seconds):
        signal.signal(signal.SIGALRM, handler)
        signal.alarm(seconds)

    arm(_on_alarm, seconds=2)
    yield
    signal.alarm(0)
`,
		want: shape{Autouse: true, Seconds: 2, Timer: "real", Handler: "_on_alarm", Raises: "TimeoutError", Message: "test hung"},
	}, {
		name: "seconds a helper's calls give differently",
		src: `import signal

import pytest


@pytest.fixture(autouse=True)
def deadline():
    def _arm(seconds):
        signal.alarm(seconds)

    _arm(2)
    yield
    _arm(0)
`,
		want: shape{Autouse: true, Seconds: 2, Timer: "real", Unread: []string{
			"raises: no handler of SIGALRM is installed when the test runs, so the alarm ends the process",
			"message: no handler of SIGALRM is installed when the test runs, so the alarm ends the process",
		}},
	}, {
		name: "a loader that bounds its own setup with the alarm, before the deadline",
		src: `import signal

import pytest


def _alarm(signum, frame):
    raise TimeoutError("slow")


@pytest.fixture(scope="module")
def loader():
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(9)
    try:
        loaded = {"answer": 42}
    finally:
        signal.alarm(0)
    return loaded


@pytest.fixture(autouse=True)
def deadline():
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(2)
    yield
    signal.alarm(0)
`,
		want: shape{Autouse: true, Seconds: 2, Timer: "real", Handler: "_alarm", Raises: "TimeoutError", Message: "slow"},
		note: "conftest.py:11:5: fixture loader arms the timer to bound its own setup and disarms it before any test runs; generate --adopt leaves it as it is, and check reports its alarm (own-timer)",
	}, {
		name: "a second deadline fixture, which a module's tests request",
		src: `import signal

import pytest


def _alarm(signum, frame):
    raise TimeoutError("slow")


@pytest.fixture(autouse=True)
def deadline():
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(2)
    yield
    signal.alarm(0)


@pytest.fixture
def long_deadline():
    signal.alarm(9)
    yield
    signal.alarm(0)
`,
		want: shape{Autouse: true, Seconds: 2, Timer: "real", Handler: "_alarm", Raises: "TimeoutError", Message: "slow"},
		note: "conftest.py:19:5: fixture long_deadline arms the timer too; init reads only deadline, and generate --adopt replaces only it",
	}, {
		name: "an opt-out mark",
		src: `import signal

import pytest


def _alarm(signum, frame):
    raise TimeoutError("slow")


@pytest.fixture(autouse=True)
def deadline(request):
    if request.node.get_closest_marker("no_timeout"):
        yield
        return
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(2)
    yield
    signal.alarm(0)
`,
		want: shape{Autouse: true, Seconds: 2, Timer: "real", Handler: "_alarm", Raises: "TimeoutError", Message: "slow"},
		note: "conftest.py:13:9: the fixture yields here, before it arms the timer, for the tests a mark opts out",
	}, {
		name: "seconds from pytest-timeout's variable",
		src: `import os
import signal

import pytest


def _alarm(signum, frame):
    raise TimeoutError("slow")


@pytest.fixture(autouse=True)
def deadline():
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(int(os.environ.get("PYTEST_TIMEOUT", 3)))
    yield
    signal.alarm(0)
`,
		want: shape{Autouse: true, Seconds: 3, SecondsEnv: "PYTEST_TIMEOUT", Timer: "real", Handler: "_alarm", Raises: "TimeoutError", Message: "slow"},
		note: "conftest.py:14:37: PYTEST_TIMEOUT is pytest-timeout's variable too",
	}, {
		name: "seconds from pytest-timeout's variable, with the timing left to pytest-timeout where it is loaded",
		src: `import os
import signal

import pytest


def _alarm(signum, frame):
    raise TimeoutError("slow")


@pytest.fixture(autouse=True)
def deadline(request):
    if request.config.pluginmanager.hasplugin("timeout"):
        yield
        return
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(int(os.environ.get("PYTEST_TIMEOUT", 3)))
    yield
    signal.alarm(0)
`,
		want: shape{Autouse: true, Seconds: 3, SecondsEnv: "PYTEST_TIMEOUT", Timer: "real", Handler: "_alarm", Raises: "TimeoutError", Message: "slow", Defers: true},
		lack: "PYTEST_TIMEOUT is pytest-timeout's variable too",
	}, {
		name: "a context manager the fixture yields to its tests",
		src: `import contextlib
import signal

import pytest


@pytest.fixture
def timeout():
    @contextlib.contextmanager
    def timeout_function(seconds):
        signal.alarm(seconds)
        yield
        signal.alarm(0)

    yield timeout_function
`,
		// It arms no timer when it runs: its tests arm one.
		none: true,
	}, {
		name: "an except clause around the yield that catches the handler's exception",
		src: `import signal

import pytest


def _handler(signum, frame):
    raise TimeoutError("slow")


@pytest.fixture(autouse=True)
def deadline():
    signal.signal(signal.SIGALRM, _handler)
    try:
        signal.alarm(2)
        try:
            yield
        except ValueError:
            raise
        except (TimeoutError, OSError):
            pytest.fail("timed out")
        finally:
            signal.alarm(0)
    finally:
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
`,
		want: shape{Autouse: true, Seconds: 2, Timer: "real", Handler: "_handler", Raises: "TimeoutError", Message: "slow"},
		note: "conftest.py:19:9: the fixture catches TimeoutError around its yield, but pytest never raises a test's exception there, so this clause never ran; the failure the tests saw is the handler's, which the spec keeps",
	}, {
		name: "a module-level handler that ends the process",
		src: `import faulthandler
import os
import signal

import pytest


def _hard_timeout(signum, frame):
    faulthandler.dump_traceback(all_threads=True)
    os._exit(3)


@pytest.fixture(autouse=True)
def hang_guard():
    signal.signal(signal.SIGALRM, _hard_timeout)
    signal.alarm(2)
    yield
    signal.alarm(0)
`,
		want: shape{Autouse: true, Seconds: 2, Timer: "real", Handler: "_hard_timeout", DumpThreads: true, Unread: []string{
			"raises: the handler calls os._exit(3), so a test that runs out of time ends its process at once (a pytest-xdist worker, or the session), where the generated deadline fails it",
			"message: the handler calls os._exit(3), so a test that runs out of time ends its process at once (a pytest-xdist worker, or the session), where the generated deadline fails it",
		}},
	}, {
		name: "a TimeoutError class of the conftest's own, and a session scope",
		src: `import signal

import pytest


class TimeoutError(Exception):
    pass


def _on_alarm(signum, frame):
    raise TimeoutError("the session took too long")


@pytest.fixture(scope="session", autouse=True)
def session_deadline():
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.alarm(600)
    yield
    signal.alarm(0)
`,
		want: shape{Autouse: true, Seconds: 600, Timer: "real", Handler: "_on_alarm", Message: "the session took too long", Unread: []string{
			"raises: the handler raises TimeoutError (conftest.TimeoutError, not the builtin); the generated deadline raises AssertionError, TimeoutError or Failed",
		}},
		note: `conftest.py:14:23: the fixture has scope="session", so its alarm bounds each session as a whole`,
	}, {
		name: "a handler installed by pytest_configure",
		src: `import signal

import pytest


def _on_alarm(signum, frame):
    raise TimeoutError("the test hung")


def pytest_configure(config):
    signal.signal(signal.SIGALRM, _on_alarm)


@pytest.fixture(autouse=True)
def deadline():
    signal.alarm(2)
    yield
    signal.alarm(0)
`,
		want: shape{Autouse: true, Seconds: 2, Timer: "real", Handler: "_on_alarm", Raises: "TimeoutError", Message: "the test hung"},
	}, {
		name: "a handler bound to another name first",
		src: `import signal

import pytest


def _expired(signum, frame):
    raise TimeoutError("expired")


@pytest.fixture(autouse=True)
def deadline():
    handler = _expired
    signal.signal(signal.SIGALRM, handler)
    signal.alarm(5)
    yield
    signal.alarm(0)
`,
		want: shape{Autouse: true, Seconds: 5, Timer: "real", Handler: "_expired", Raises: "TimeoutError", Message: "expired"},
	}, {
		name: "a guard around the whole fixture",
		src: `import signal

import pytest

if hasattr(signal, "SIGALRM"):

    @pytest.fixture(autouse=True)
    def timeout():
        def handler(signum, frame):
            raise TimeoutError("slow")

        signal.signal(signal.SIGALRM, handler)
        signal.alarm(3)
        yield
        signal.alarm(0)
`,
		want: shape{Autouse: true, Seconds: 3, Timer: "real", Guarded: true, Handler: "nested handler", Raises: "TimeoutError", Message: "slow"},
		note: "conftest.py:8:9: timeout is defined inside a block (an if or a try); move it to module level",
	}}
	python := testenv.Python(t)
	root := t.TempDir()
	var cfs []*conftest
	for i, tt := range tests {
		dir := filepath.Join(root, fmt.Sprintf("s%02d", i))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "conftest.py"), []byte(tt.src), 0o644); err != nil {
			t.Fatal(err)
		}
		cf := scanConftest(fmt.Sprintf("s%02d/conftest.py", i), []byte(tt.src), pyscan.Scan([]byte(tt.src)))
		if cf == nil {
			t.Fatalf("%s: no candidate found", tt.name)
		}
		cfs = append(cfs, cf)
	}
	// One run for them all, as init runs every conftest's candidates.
	tree, err := readTree(root)
	if err != nil {
		t.Fatal(err)
	}
	l, err := run(tree, python, cfs)
	if err != nil {
		t.Fatal(err)
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := l.contract(cfs[i])
			if tt.none {
				if c != nil {
					t.Errorf("found a deadline %+v", shapeOf(c))
				}
				return
			}
			if c == nil {
				t.Fatal("no deadline fixture found")
			}
			if tt.lack != "" && strings.Contains(strings.Join(c.Notes, "\n"), tt.lack) {
				t.Errorf("notes\n%s\nhold\n%s", strings.Join(c.Notes, "\n"), tt.lack)
			}
			if tt.note != "" && !strings.Contains(strings.Join(c.Notes, "\n"), tt.note) {
				t.Errorf("notes\n%s\nlack\n%s", strings.Join(c.Notes, "\n"), tt.note)
			}
			// An early yield that turns the deadline off (the seconds are
			// 0) is no opt-out: the spec keeps it.
			if notes := strings.Join(c.Notes, "\n"); strings.Contains(notes, "yields here") && !strings.Contains(tt.note, "yields here") {
				t.Errorf("an opt-out noted:\n%s", notes)
			}
			if got := shapeOf(c); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got\n%#v\nwant\n%#v\nnotes:\n%s", got, tt.want, strings.Join(c.Notes, "\n"))
			}
		})
	}
}
