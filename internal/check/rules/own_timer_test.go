package rules

import (
	"slices"
	"strings"
	"testing"
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
    signal.signal(signal.SIGALRM, _count)
    signal.setitimer(signal.ITIMER_REAL, 0.01, 0.01)
    time.sleep(0.05)
    signal.setitimer(signal.ITIMER_REAL, 0)


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
