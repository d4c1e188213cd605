import signal


def test_tabs():
	if True:
		signal.alarm(1)

def test_ff():
    signal.alarm(2)
