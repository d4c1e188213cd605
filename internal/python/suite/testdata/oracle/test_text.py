import signal


def test_text():
    # signal.alarm(1)
    print("signal.alarm(1)", f"signal.alarm(1) {signal.SIGALRM}", f"{1:signal.alarm}")
