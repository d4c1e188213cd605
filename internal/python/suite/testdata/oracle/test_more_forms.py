import asyncio
import signal
import signal as s2, os
from signal import alarm as a1, setitimer


def test_assign_alias():
    arm = signal.alarm
    arm(1)


def test_nested():
    def inner():
        signal.alarm(1)
    inner()


def test_walrus():
    if (n := signal.alarm(1)):
        pass


def test_conversion():
    print(f"{signal.alarm(1)!r}")


def test_spec():
    print(f"{1:{signal.alarm(1)}}")


def test_nested_fstring():
    print(f"{f'{signal.alarm(1)}'}")


def test_guard():
    match 1:
        case x if signal.alarm(1):
            pass


def test_genexp():
    sum(signal.alarm(n) for n in (1,) if n)


def test_kw():
    print(end=str(signal.alarm(1)))


def test_semicolon():
    x = 1; signal.alarm(x)


def test_continuation():
    x = 1 + \
        signal.alarm(1)


async def test_await():
    await asyncio.sleep(signal.alarm(0) + 0)


async def test_async_with():
    async with asyncio.timeout(1):
        signal.setitimer(signal.ITIMER_REAL, 1)


def test_try():
    try:
        pass
    finally:
        s2.alarm(1)


def test_lambda_default():
    f = lambda n=a1(1): n
    f()


def test_class_in_test():
    class C:
        x = setitimer(signal.ITIMER_REAL, 1)


def test_decorator():
    @staticmethod
    def f(): return signal.alarm(1)
    f()


def test_ternary():
    x = signal.alarm(1) if True else None
