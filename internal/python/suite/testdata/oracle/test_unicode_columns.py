import signal


def test_ünïcode():
    naïve = "ß€𝄞"; signal.alarm(1)
    print(f"{'𝄞'}{signal.alarm(2)}")
