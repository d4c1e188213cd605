package discover

import (
	"reflect"
	"strings"
	"testing"
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
	Unread      []string // key: why
}

func shapeOf(c *Contract) shape {
	sh := shape{
		Autouse: c.Autouse, Seconds: c.Seconds, SecondsEnv: strings.Join(c.SecondsEnv, ","), Timer: c.Timer,
		Guarded: c.Guard != "", Interval: c.Interval != "", Raises: c.Raises, Message: c.Message,
		DumpThreads: c.DumpThreads,
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
// their values are written.
func TestDeadlineShapes(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want shape
		note string // one of the notes, when set
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
		want: shape{Autouse: true, Seconds: 4, SecondsEnv: "SUITE_TEST_LIMIT", Timer: "real", Handler: "_on_timeout",
			Raises: "TimeoutError", Message: "test exceeded {seconds} s"},
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
		want: shape{Autouse: true, SecondsEnv: "", Timer: "real", Handler: "nested handler", Raises: "TimeoutError", Message: "slow",
			Unread: []string{"seconds: the helper _limit() returns different seconds on different paths ($LIMIT or 5 and 30)"}},
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
			Raises: "TimeoutError", Message: "over {seconds}s (raise LIMIT)", DumpThreads: true},
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
		name: "values init cannot read are named, never invented",
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
		want: shape{Autouse: true, SecondsEnv: "TEST_TIMEOUT", Timer: "real", Unread: []string{
			"seconds: os.environ[\"TEST_TIMEOUT\"] has no default",
			"raises: the handler on_alarm is not defined in this conftest",
			"message: the handler on_alarm is not defined in this conftest",
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
		want: shape{Autouse: true, Timer: "real", Handler: "nested handler", Unread: []string{
			"seconds: the seconds are computed (float(os.environ.get(\"T\", \"1\")) * 2)",
			"raises: the handler raises Timeout; the generated deadline raises AssertionError, TimeoutError or Failed",
			"message: the message formats {request.node.nodeid}, which is not the deadline's seconds",
		}},
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
		want: shape{Autouse: true, SecondsEnv: "T", Timer: "real", Handler: "nested handler", Raises: "TimeoutError", Unread: []string{
			"seconds: the seconds are 0, not more than 0",
			"message: the exception is raised without a message",
		}},
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
		want: shape{Autouse: true, Seconds: 5, Timer: "real", Raises: "Failed", Message: "hung"},
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
		name: "an async fixture of pytest-asyncio's",
		src: `import signal

import pytest_asyncio


@pytest_asyncio.fixture(autouse=True)
async def deadline():
    def handler(signum, frame):
        raise TimeoutError("slow")

    signal.signal(signal.SIGALRM, handler)
    signal.alarm(5)
    yield
    signal.alarm(0)
`,
		want: shape{Autouse: true, Seconds: 5, Timer: "real", Handler: "nested handler", Raises: "TimeoutError", Message: "slow"},
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
		want: shape{Autouse: true, Timer: "real", Unread: []string{
			"seconds: the seconds come from seconds, which the calls of _arm() give different values",
			"raises: no raise statement or pytest.fail call found in the handler",
			"message: no raise statement or pytest.fail call found in the handler",
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
		want: shape{Timer: "real", Unread: []string{
			"seconds: the seconds come from seconds, a parameter of timeout_function(), which nothing in this conftest calls: the tests choose them",
			"raises: no raise statement or pytest.fail call found in the handler",
			"message: no raise statement or pytest.fail call found in the handler",
		}},
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
			"raises: the handler calls os._exit, so a test that runs out of time ends its process at once (a pytest-xdist worker, or the session), where the generated deadline fails it",
			"message: the handler calls os._exit, so a test that runs out of time ends its process at once (a pytest-xdist worker, or the session), where the generated deadline fails it",
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
			"raises: the handler raises TimeoutError (the conftest's own TimeoutError); the generated deadline raises AssertionError, TimeoutError or Failed",
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
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := fromConftest("", "conftest.py", []byte(tt.src))
			if c == nil {
				t.Fatal("no deadline fixture found")
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
				t.Errorf("got\n%+v\nwant\n%+v\nnotes:\n%s", got, tt.want, strings.Join(c.Notes, "\n"))
			}
		})
	}
}

// Messages formatted the older ways, with % or .format, are read as the
// f-strings that say the same.
func TestFormattedMessages(t *testing.T) {
	const conftest = `import signal

import pytest

LIMIT = 3
NAME = "x"


def _on_timeout(signum, frame):
    raise TimeoutError(MESSAGE)


@pytest.fixture(autouse=True)
def deadline():
    signal.signal(signal.SIGALRM, _on_timeout)
    signal.alarm(LIMIT)
    yield
    signal.alarm(0)
`
	tests := []struct{ expr, message, unread string }{
		{`"timed out after %s s" % LIMIT`, "timed out after {seconds} s", ""},
		{`"timed out after %d seconds" % (LIMIT,)`, "timed out after {seconds} seconds", ""},
		{`'100%% over: %r' % LIMIT`, "100% over: {seconds}", ""},
		{`"{a}: %i" % LIMIT`, "{{a}}: {seconds}", ""},
		{`"over {} s".format(LIMIT)`, "over {seconds} s", ""},
		{`"over {0} s, {0!s}".format(LIMIT)`, "over {seconds} s, {seconds}", ""},
		{`"over {n} s".format(n=LIMIT)`, "over {seconds} s", ""},
		{`"{{literal}} {}".format(LIMIT)`, "{{literal}} {seconds}", ""},
		{`"%s: %s" % (NAME, LIMIT)`, "", "the message formats {NAME}, which is not the deadline's seconds"},
		{`"over %.1f s" % LIMIT`, "over {seconds} s", ""},
		{`"over %(n)s s" % {"n": LIMIT}`, "", `the message is computed ("over %(n)s s" % {"n": LIMIT})`},
		{`"over %x s" % (LIMIT,)`, "", "the message formats with %x, which init does not read"},
		{`f"over {LIMIT:.0f} s"`, "over {seconds} s", ""},
		{`f"over {LIMIT=}"`, "", "the message formats the seconds as {LIMIT=}"},
		{`"%s and %s" % LIMIT`, "", "the message has more % fields than arguments"},
		{`"over {n} s".format(LIMIT)`, "", "the message formats {n}, which no argument of .format names"},
		{`"over {} s".format(LIMIT * 2)`, "", `the message is computed ("over {} s".format(LIMIT * 2))`},
		{`f"over {LIMIT}" % NAME`, "", `the message is computed (f"over {LIMIT}" % NAME)`},
	}
	for _, tt := range tests {
		c, _ := fromConftest("", "conftest.py", []byte(strings.Replace(conftest, "MESSAGE", tt.expr, 1)))
		if c == nil {
			t.Fatalf("%s: no contract", tt.expr)
		}
		unread := ""
		if u := c.UnreadKey("message"); u != nil {
			unread = u.Why
		}
		if c.Message != tt.message || unread != tt.unread {
			t.Errorf("%s: message %q, unread %q; want %q, %q", tt.expr, c.Message, unread, tt.message, tt.unread)
		}
	}
}

// Fixed seconds written as arithmetic over numbers and the names bound to
// them are read as their value; arithmetic over a variable is not.
func TestArithmeticSeconds(t *testing.T) {
	const conftest = `import os
import signal

import pytest

TIMEOUT_MS = 1500
MINUTE = 60
_DEFAULT = "2.0"


@pytest.fixture(autouse=True)
def deadline():
    signal.setitimer(signal.ITIMER_REAL, SECONDS)
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
`
	tests := []struct {
		expr    string
		seconds float64
		unread  string
	}{
		{"TIMEOUT_MS / 1000", 1.5, ""},
		{"2 * MINUTE", 120, ""},
		{"(1 + 2) * 2", 6, ""},
		{"1 + 2 * 2", 5, ""},
		{"10 - 2 - 3", 5, ""},
		{"MINUTE / 2 / 3", 10, ""},
		{"TIMEOUT_MS // 1000", 1, ""},
		{"MINUTE // 7 * 2", 16, ""},
		{"-1 + 3", 2, ""},
		{`float(os.environ.get("T", _DEFAULT))`, 2, ""},
		{`float(os.environ.get("T", os.getenv("U", _DEFAULT)))`, 2, ""},
		{"TIMEOUT_MS / 0", 0, "the seconds are computed (TIMEOUT_MS / 0)"},
		{`int(os.getenv("T", 2)) * 2`, 0, `the seconds are computed (int(os.getenv("T", 2)) * 2)`},
		{"max(1, 2) + 1", 0, "the seconds are computed (max(1, 2) + 1)"},
	}
	for _, tt := range tests {
		c, _ := fromConftest("", "conftest.py", []byte(strings.Replace(conftest, "SECONDS", tt.expr, 1)))
		if c == nil {
			t.Fatalf("%s: no contract", tt.expr)
		}
		unread := ""
		if u := c.UnreadKey("seconds"); u != nil {
			unread = u.Why
		}
		if c.Seconds != tt.seconds || unread != tt.unread {
			t.Errorf("%s: %v s, unread %q; want %v s, %q", tt.expr, c.Seconds, unread, tt.seconds, tt.unread)
		}
	}
}

func TestMessageBeforeSeconds(t *testing.T) {
	for msg, want := range map[string]string{
		"test exceeded {seconds} s":         "test exceeded",
		"timed out after {seconds}s":        "timed out",
		"Test took longer than {seconds} s": "Test took longer",
		"Test exceeded {seconds} seconds":   "Test exceeded",
		"per-test limit: {seconds} seconds": "per-test limit",
		"over {seconds}":                    "over",
		"{seconds} s passed":                "",
		"over {seconds} s, see {{stderr}}":  "",
		"took {seconds} of {seconds} s":     "",
		"no seconds here":                   "",
		"{seconds}":                         "",
	} {
		got, ok := MessageBeforeSeconds(msg)
		if got != want || ok != (want != "") {
			t.Errorf("MessageBeforeSeconds(%q) = %q, %v; want %q", msg, got, ok, want)
		}
	}
}

// TestSecondsInMessage checks that a literal message stating the armed
// seconds is read as one that formats them, and that any other number is
// left as the user wrote it.
func TestSecondsInMessage(t *testing.T) {
	for _, tc := range []struct {
		seconds float64
		message string
		want    string
		spec    string // MessageBeforeSeconds of want, "" when it maps nothing
	}{
		{10, "Test exceeded 10 seconds", "Test exceeded {seconds} seconds", "Test exceeded"},
		{5, "timed out after 5s", "timed out after {seconds}s", "timed out"},
		{5, "timed out after 5 s", "timed out after {seconds} s", "timed out"},
		{1.5, "deadline of 1.5 s passed", "deadline of 1.5 s passed", ""},
		{10, "Test exceeded 110 seconds", "Test exceeded 110 seconds", ""},
		{10, "10 workers timed out", "10 workers timed out", ""},
		{2, "test exceeded 2.0 s", "test exceeded {seconds} s", "test exceeded"},
		{1.5, "timed out after 1.50s", "timed out after {seconds}s", "timed out"},
		{2, "test exceeded 2.05 s", "test exceeded 2.05 s", ""},
		{2, "try 2.0 of 3 timed out after 2 s", "try 2.0 of 3 timed out after {seconds} s", "try 2.0 of 3 timed out"},
		{2, "v1.2 timed out", "v1.2 timed out", ""},
		{10, "", "", ""},
	} {
		c := &Contract{Seconds: tc.seconds, Message: tc.message}
		c.secondsInMessage()
		if c.Message != tc.want {
			t.Errorf("%v s, %q: message %q, want %q", tc.seconds, tc.message, c.Message, tc.want)
		}
		if got, _ := MessageBeforeSeconds(c.Message); got != tc.spec {
			t.Errorf("%v s, %q: spec message %q, want %q", tc.seconds, tc.message, got, tc.spec)
		}
	}
}
