import signal


def test_crlf():
    signal.alarm(1)
