import signal


def test_comprehension():
    [signal.alarm(n) for n in (1,)]
    {n: signal.setitimer(signal.ITIMER_REAL, n) for n in (1,)}
