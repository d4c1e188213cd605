import signal


def test_fstring():
    print(f"{signal.alarm(3)}")
