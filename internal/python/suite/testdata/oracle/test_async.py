import signal


async def test_async():
    signal.setitimer(signal.ITIMER_REAL, 1)
