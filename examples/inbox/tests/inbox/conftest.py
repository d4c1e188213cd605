"""Fixtures for the inbox channel tests."""

import pytest

from inbox.channel import Channel


@pytest.fixture
def channel():
    """Return an inbox Channel over a fresh, connected toyredis.FakeRedis."""
    import toyredis

    return Channel(toyredis.FakeRedis())


# fixturegen:begin -- generated from "fixturegen.toml"; edit the spec and run `fixturegen generate`, not this region
import os
import signal
import sys
import threading
import time
import warnings

import pytest


def pytest_configure(config):
    """Register the xdist_group marker when pytest-xdist, which owns it, is absent.

    Modules keep their xdist_group marks either way, so --strict-markers passes
    with and without pytest-xdist installed.
    """
    if not config.pluginmanager.hasplugin("xdist"):
        config.addinivalue_line(
            "markers",
            "xdist_group(name): run every test of the group on one pytest-xdist worker",
        )


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """Make sure --dist loadgroup sees each xdist_group test's group.

    On each worker, pytest-xdist appends "@<group>" to a grouped test's node
    id, and the scheduler keeps tests with the same suffix on one worker.
    pytest 9.2 derives node ids from a structured id, so the suffix xdist
    writes never reaches the scheduler and the group spreads over workers.
    This puts the suffix into the structured id where pytest keeps one, and
    fails the collection where the node id cannot carry it.
    """
    if not getattr(config.option, "loadgroup", False):
        return
    for item in items:
        grouped = item.__dict__.get("_nodeid")
        if grouped is None or item.nodeid == grouped:
            continue
        structured = getattr(item, "_id", None)
        parse = getattr(type(structured), "parse", None)
        if parse is not None:
            item._id = parse(grouped)
        if item.nodeid != grouped:
            # A worker's exceptions do not reach the terminal; a failed
            # collection report does, and it stops the session.
            report = pytest.CollectReport(
                "", "failed", _fixturegen_void_group(item, grouped), []
            )
            config.hook.pytest_collectreport(report=report)
            items.clear()
            return


def _fixturegen_void_group(item, grouped):
    """Explain why --dist loadgroup cannot keep this pytest's groups together."""
    import importlib.metadata

    versions = []
    for name in ("pytest", "pytest-xdist"):
        try:
            versions.append(f"{name} {importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            versions.append(f"{name} (version unknown)")
    return (
        f"--dist loadgroup would not keep the xdist_group tests on one worker "
        f"under {' and '.join(versions)}: {item.nodeid!r} should be scheduled as "
        f"{grouped!r}, but this pytest does not let pytest-xdist change node ids. "
        f"Pin pytest below 9.2 or upgrade pytest-xdist to a release that supports "
        f"this pytest."
    )


@pytest.fixture
def toy_sdk():
    """Import every module a deadline test would otherwise import under its alarm.

    recovery_deadline depends on this fixture, so pytest runs it before the alarm
    is armed, whatever order a test lists the two in. Only the first test on a
    worker pays the cold imports; later tests find the modules in sys.modules.
    """
    import toyredis  # noqa: F401
    import toysdk.server.lowlevel
    import toysdk.server.stdio
    import toysdk.shared.message  # noqa: F401

    yield


@pytest.fixture
def recovery_deadline(toy_sdk):
    """Fail the test with AssertionError after 1 second of real time (ITIMER_REAL).

    toy_sdk runs first, so no preloaded module is imported under the alarm.
    An import that starts under the alarm is never interrupted, and its time is
    not charged to the deadline (on_import = "exclude").
    Teardown disarms the alarm, restores the previous signal handler and any timer
    that was already running, and fails the test if the code under test caught the
    deadline's AssertionError and returned anyway.
    """
    deadline = _FixturegenDeadline()
    deadline.arm()
    try:
        yield
    finally:
        deadline.disarm()
    deadline.check()


class _FixturegenLateImport(UserWarning):
    """A module was imported for the first time while the deadline's alarm was armed."""


class _FixturegenDeadlineExceeded(BaseException):
    """The deadline fired again after the code under test caught its AssertionError.

    It derives from BaseException so that a retry loop's ``except Exception``
    cannot catch it: the deadline ends the test even then.
    """


class _FixturegenDeadline:
    """One armed deadline: its timer, its signal handler and the imports it saw.

    The settings below come from the spec named by SPEC; change them there.
    """

    FIXTURE = "recovery_deadline"
    SPEC = "fixturegen.toml"
    MODULES_KEY = "[preload].modules"
    SECONDS = 1
    TIMER = "real time"
    WHICH = signal.ITIMER_REAL
    SIGNUM = signal.SIGALRM
    MESSAGE = "recovery loop exceeded its deadline"
    ON_IMPORT = "exclude"
    LATE_IMPORTS = "warn"
    IMPORT_GRACE = 60
    # Once the deadline has passed, the alarm fires again every REFIRE seconds
    # until the test function returns, so a retry loop that catches Exception
    # still ends, and a deadline that passes before the test function starts
    # fails it as soon as it does.
    REFIRE = 0.05
    # The shortest wait handed to setitimer: zero would disarm it.
    TICK = 0.001

    # The functions that call a test function: pytest's, and unittest's for
    # TestCase methods. The alarm raises only below one of them, while the
    # test function runs: raising in pytest's own machinery, as it sets up
    # other fixtures, reports or tears down, would break the session
    # instead of failing the test.
    TEST_CALLERS = ("pytest_pyfunc_call", "_callTestMethod")

    def __init__(self):
        # pytest names the running test in PYTEST_CURRENT_TEST, followed by
        # the phase: "tests/test_x.py::test_y (setup)".
        current = os.environ.get("PYTEST_CURRENT_TEST", "")
        self.nodeid = current.rpartition(" ")[0] or "this test"
        self.clock = time.monotonic
        self.main = threading.main_thread()
        self.main_ident = self.main.ident
        self.armed = False
        self.due = 0.0
        self.raised = []
        self.late = []
        self.depth = 0
        self.importing = None
        self.import_start = 0.0
        self.rang = False
        self.passed_in = None
        self.detail = ""
        self.previous = None
        self.outer = None
        self.outer_fired = False
        self.find_and_load = None
        self.watcher = None

    def arm(self):
        """Install the handler and start the timer, keeping any running timer."""
        if threading.current_thread() is not self.main:
            pytest.fail(
                f"{self.FIXTURE} arms a {self.TIMER} timer, and Python delivers its "
                f"signal only to the main thread, but this test runs in thread "
                f"{threading.current_thread().name!r}. Run it in the main thread "
                f"(without a thread-based runner), or drop {self.FIXTURE} from it.",
                pytrace=False,
            )
        now = self.clock()
        left, interval = signal.getitimer(self.WHICH)
        if left > 0:
            self.outer = (now + left, interval)
        self.due = now + self.SECONDS
        self.previous = signal.signal(self.SIGNUM, self._on_signal)
        self.armed = True
        self._watch_imports()
        self._rearm()

    def disarm(self):
        """Stop the timer, restore the previous handler and any outer timer."""
        self.armed = False
        signal.setitimer(self.WHICH, 0)
        self._unwatch_imports()
        previous = signal.SIG_DFL if self.previous is None else self.previous
        signal.signal(self.SIGNUM, previous)
        if self.outer is not None and not self.outer_fired:
            due, interval = self.outer
            signal.setitimer(self.WHICH, max(due - self.clock(), self.TICK), interval)

    def check(self):
        """Fail a test that swallowed the deadline, and report late imports."""
        # pytest keeps the exception that ended the test function in
        # sys.last_value; a deadline that fired once while the test function
        # still returned was swallowed by the code under test.
        if len(self.raised) == 1 and getattr(sys, "last_value", None) is None:
            pytest.fail(
                f"{self.MESSAGE}: the deadline fired, but the code under test "
                f"caught its AssertionError and returned. Let AssertionError "
                f"propagate out of retry loops.",
                pytrace=False,
            )
        if self.late and self.LATE_IMPORTS != "off":
            modules = ", ".join(f"{name} ({took:.2f} s)" for name, took in self.late)
            message = (
                f"{self.nodeid} imported {modules} for the first time while "
                f"{self.FIXTURE} was armed. Add the module(s) to {self.MODULES_KEY} "
                f"in {self.SPEC} and run `fixturegen generate`, or run "
                f"`fixturegen probe --fix`."
            )
            if self.LATE_IMPORTS == "fail":
                pytest.fail(message, pytrace=False)
            warnings.warn(_FixturegenLateImport(message), stacklevel=2)

    def _rearm(self):
        """Set the timer for the next moment the handler has something to do."""
        now = self.clock()
        if self.depth and self.ON_IMPORT != "raise":
            wait = self.import_start + self.IMPORT_GRACE - now
            if self.ON_IMPORT == "defer" and self.passed_in is None:
                wait = min(wait, self.due - now)
        elif self.raised or now >= self.due:
            wait = self.REFIRE
        else:
            wait = self.due - now
        if self.outer is not None and not self.outer_fired:
            wait = min(wait, self.outer[0] - now)
        signal.setitimer(self.WHICH, min(max(wait, self.TICK), self.IMPORT_GRACE))

    def _on_signal(self, signum, frame):
        """Raise the deadline's AssertionError, unless an import is running."""
        now = self.clock()
        if self.outer is not None and not self.outer_fired and now >= self.outer[0]:
            self._outer_due(signum, frame, now)
            return
        if self.depth and self.ON_IMPORT != "raise":
            self.rang = True
            if now - self.import_start >= self.IMPORT_GRACE:
                self.detail = (
                    f"; importing {self.importing} took longer than import_grace "
                    f"({self.IMPORT_GRACE} s), so the alarm interrupted it and it "
                    f"may be left half imported on this worker"
                )
                self._fire()
            # Under "exclude" the clock stopped when the import started.
            charged = self.import_start if self.ON_IMPORT == "exclude" else now
            if charged >= self.due:
                self.passed_in = self.importing
            self._rearm()
            return
        if (self.raised or now >= self.due) and self._in_test(frame):
            self._fire()
        self._rearm()

    def _outer_due(self, signum, frame, now):
        """Hand the signal to the timer that was running before the deadline."""
        due, interval = self.outer
        if interval > 0:
            # A periodic timer fires again every interval: keep it going.
            while due <= now:
                due += interval
            self.outer = (due, interval)
        else:
            self.outer_fired = True
        self._rearm()
        if self.previous is signal.SIG_DFL:
            # The signal's default action ends the process, as it would have
            # without the deadline: let it.
            signal.signal(signum, signal.SIG_DFL)
            signal.raise_signal(signum)
        elif callable(self.previous):
            self.previous(signum, frame)

    def _in_test(self, frame):
        """Tell whether the test function is running (is on frame's stack)."""
        while frame is not None:
            if frame.f_code.co_name in self.TEST_CALLERS:
                return True
            frame = frame.f_back
        return False

    def _fire(self):
        detail, self.detail = self.detail, ""
        message = f"{self.MESSAGE} ({self.SECONDS} s, {self.TIMER}){detail}"
        if self.raised:
            error = _FixturegenDeadlineExceeded(
                f"{message}; the code under test caught the deadline's "
                f"AssertionError, so it is raised again as an exception that "
                f"`except Exception` does not catch"
            )
        else:
            error = AssertionError(message)
        self.raised.append(error)
        self._rearm()
        raise error

    def _watch_imports(self):
        """Wrap the import system's entry point for modules not yet loaded."""
        bootstrap = sys.modules.get("importlib._bootstrap")
        original = getattr(bootstrap, "_find_and_load", None)
        if original is None:
            return

        def find_and_load(name, *args, **kwargs):
            if not self.armed or threading.get_ident() != self.main_ident:
                return original(name, *args, **kwargs)
            return self._import(original, name, args, kwargs)

        self.find_and_load = original
        self.watcher = find_and_load
        bootstrap._find_and_load = find_and_load

    def _unwatch_imports(self):
        bootstrap = sys.modules.get("importlib._bootstrap")
        if self.watcher is not None and bootstrap._find_and_load is self.watcher:
            bootstrap._find_and_load = self.find_and_load

    def _import(self, original, name, args, kwargs):
        """Run one import in the main thread, keeping the alarm out of it."""
        if self.depth:
            self.depth += 1
            try:
                return original(name, *args, **kwargs)
            finally:
                self.depth -= 1
        fresh = name not in sys.modules
        self.importing = name
        self.import_start = self.clock()
        self.depth = 1
        # The timer stays as it is: if it rings during the import, the
        # handler puts the alarm off until the import completes, or until
        # the import grace runs out. It is never set further away than the
        # grace, so it rings in time to bound an import that hangs.
        self.rang = False
        try:
            return original(name, *args, **kwargs)
        finally:
            self.depth = 0
            self.importing = None
            took = self.clock() - self.import_start
            if fresh and name in sys.modules:
                self.late.append((name, took))
            if self.ON_IMPORT == "exclude" and not self.raised:
                self.due += took
            passed_in, self.passed_in = self.passed_in, None
            if passed_in is not None:
                self.detail = (
                    f"; the deadline passed while {passed_in} was being imported, "
                    f"so the failure waited until the import completed"
                )
                if self._in_test(sys._getframe()):
                    self._fire()
            # Without a ring during the import, the timer is still set for
            # the deadline as it was, no later than it is now: if it rings
            # early, the handler sets it again.
            if self.rang:
                self._rearm()


# fixturegen:end
