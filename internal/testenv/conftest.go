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
