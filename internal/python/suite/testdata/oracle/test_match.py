import signal


def test_match():
    match 1:
        case 1:
            signal.alarm(1)
        case _:
            pass
