import signal


def test_fstring_triple():
    print(f"""armed: {
        signal.setitimer(signal.ITIMER_REAL, 2)
    }""")
