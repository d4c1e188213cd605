package testenv

// HandwrittenDeadline is the deadline fixture the reference writes by
// hand, without its decorators: it takes the preload fixture toy_sdk and
// arms a one second ITIMER_REAL alarm whose handler raises AssertionError.
// The tests of reading it into a spec (discover) and of replacing it with
// the generated region (adopt) start from the same text.
const HandwrittenDeadline = `def recovery_deadline(toy_sdk):
    def on_alarm(signum, frame):
        raise AssertionError("recovery loop exceeded its deadline")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, 1)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
`

// RegionConftest is a conftest whose region, between fixturegen's
// markers, defines the two fixtures of the tests' spec (toy_sdk and
// recovery_deadline) and arms the alarm, as the generated one does: the
// tests of the tree model and of the rules read the same file.
const RegionConftest = `import pytest

# fixturegen:begin -- generated
import signal


@pytest.fixture
def toy_sdk():
    yield


@pytest.fixture
def recovery_deadline(toy_sdk):
    signal.setitimer(signal.ITIMER_REAL, 1)
    yield
# fixturegen:end
`
