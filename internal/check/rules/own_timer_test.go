package rules

import (
	"slices"
	"strings"
	"testing"

	"github.com/fixturegen/fixturegen/schema"
)

// An EINTR test arms a timer whose handler returns: the alarm interrupts
// a system call and can leave no import half done, so own-timer reports
// only the timers whose handler can raise, or whose handler the module
// does not install.
func TestOwnTimerOnlyWhereAHandlerCanRaise(t *testing.T) {
	got, _ := checkTree(t, map[string]string{
		"tests/conftest.py": "",
		"tests/test_eintr.py": `import signal
import time
import unittest


def _count(signum, frame):
    _count.calls += 1


_count.calls = 0


def test_sleep_restarts_after_a_signal():
    previous = signal.signal(signal.SIGALRM, _count)
    signal.setitimer(signal.ITIMER_REAL, 0.01, 0.01)
    time.sleep(0.05)
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous)


class EINTRTests(unittest.TestCase):
    def _ignore(self, signum, frame):
        return None

    def test_select(self):
        signal.signal(signal.SIGVTALRM, self._ignore)
        signal.setitimer(signal.ITIMER_VIRTUAL, 0.01)

    def test_lambda(self):
        signal.signal(signal.SIGPROF, lambda *args: None)
        signal.setitimer(signal.ITIMER_PROF, 0.01)
`,
		"tests/test_raises.py": `import signal
import unittest


def _stop(signum, frame):
    _fail("too slow")


def _fail(msg):
    raise TimeoutError(msg)


def test_helper_raises():
    signal.signal(signal.SIGALRM, _stop)
    signal.alarm(1)


class Timed(unittest.TestCase):
    def _expire(self, signum, frame):
        self.fail("expired")

    def test_fails(self):
        signal.signal(signal.SIGVTALRM, self._expire)
        signal.setitimer(signal.ITIMER_VIRTUAL, 1)

    def test_lambda_calls(self):
        signal.signal(signal.SIGPROF, lambda *args: self.fail("x"))
        signal.setitimer(signal.ITIMER_PROF, 1)


def test_handler_elsewhere():
    signal.setitimer(signal.ITIMER_REAL, 1)
`,
	})
	var own []string
	for _, f := range got {
		if strings.HasSuffix(f, " "+RuleOwnTimer) {
			own = append(own, strings.TrimSuffix(f, " "+RuleOwnTimer))
		}
	}
	want := []string{
		"tests/test_raises.py:14:5", "tests/test_raises.py:15:5",
		"tests/test_raises.py:23:9", "tests/test_raises.py:24:9",
		"tests/test_raises.py:27:9", "tests/test_raises.py:28:9",
		"tests/test_raises.py:32:5",
	}
	if !slices.Equal(own, want) {
		t.Errorf("own-timer at\n  %q\nwant\n  %q", own, want)
	}
}

// A unittest base class in a helper module arms an alarm in setUp: the
// finding is at each test class that derives from it, in the test modules,
// with the import shield as the fix; the helper, which holds no tests, is
// not reported. With [shield] holding SIGALRM, nothing is.
func TestOwnTimerOfABaseClassIsReportedWhereItsTestsLive(t *testing.T) {
	files := map[string]string{
		"tests/conftest.py": "",
		"tests/helpers.py": `import signal
import unittest


def _expire(signum, frame):
    raise TimeoutError("test took too long")


class TimedCase(unittest.TestCase):
    def setUp(self):
        signal.signal(signal.SIGALRM, _expire)
        signal.alarm(5)

    def tearDown(self):
        signal.alarm(0)

    def test_inherited(self):
        pass


class Quiet(unittest.TestCase):
    def setUp(self):
        signal.signal(signal.SIGALRM, lambda *a: None)
        signal.alarm(5)
`,
		"tests/test_jobs.py": `from tests.helpers import Quiet, TimedCase


class JobTests(TimedCase):
    def test_runs(self):
        pass


class QuietTests(Quiet):
    def test_quiet(self):
        pass
`,
		"tests/sub/test_more.py": `import helpers_elsewhere

from tests import helpers


class MoreTests(helpers.TimedCase):
    pass
`,
	}
	got, msgs := checkTree(t, files)
	want := []string{"tests/sub/test_more.py:6:7 own-timer", "tests/test_jobs.py:4:7 own-timer"}
	if !slices.Equal(got, want) {
		t.Fatalf("findings\n  %q\nwant\n  %q", got, want)
	}
	msg := msgs[want[1]]
	if !strings.Contains(msg, "class JobTests derives from TimedCase (tests/helpers.py:9), whose method setUp arms signal.alarm (tests/helpers.py:12) in the tests of JobTests") {
		t.Errorf("message: %s", msg)
	}
	if !strings.Contains(msg, "which do not use recovery_deadline") {
		t.Errorf("message: %s", msg)
	}

	// The import shield holds SIGALRM's handler back during a first
	// import: nothing is left to report.
	got, _ = checkTreeWith(t, files, func(s *schema.Spec) {
		s.Shield = schema.Shield{On: true, Signals: []string{schema.SignalAlarm}}
	})
	if len(got) != 0 {
		t.Errorf("with [shield]: findings %q, want none", got)
	}
}

// A fixture that keeps an interval timer ticking with a handler that
// returns, for an EINTR test, is no hand-written deadline, and its timer
// is no own timer.
func TestAFixtureWhoseHandlerReturnsIsNoDeadline(t *testing.T) {
	got, _ := checkTree(t, map[string]string{
		"tests/conftest.py": "",
		"tests/test_ticking.py": `import signal
import time

import pytest


def _tick(signum, frame):
    pass


@pytest.fixture
def ticking():
    previous = signal.signal(signal.SIGALRM, _tick)
    signal.setitimer(signal.ITIMER_REAL, 0.01, 0.01)
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous)


def test_sleep_resumes(ticking):
    time.sleep(0.05)
`,
	})
	if len(got) != 0 {
		t.Errorf("findings %q, want none", got)
	}
}
