import signal


def test_lambda():
    arm = lambda: signal.alarm(2)
    arm()
