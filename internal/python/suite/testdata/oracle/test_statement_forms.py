import signal
import os, signal as sg2
from signal import (
    alarm as a,
    setitimer,
)
from signal import *


class TestGroup:
    def test_method(self):
        signal.alarm(1)

    @staticmethod
    def test_static():
        sg2.alarm(1)

    async def test_async_method(self):
        await something(signal.alarm(1))


def test_star():
    alarm(1)


def test_paren_alias():
    a(1)
    setitimer(ITIMER_REAL, 1)


def test_guard():
    match 1:
        case x if signal.alarm(1):
            pass


def test_lambda_default():
    f = lambda x=signal.alarm(1): x


def test_genexp():
    sum(signal.alarm(n) for n in (1, 2))


def test_spaces():
    signal . alarm (1)
    (signal
        .alarm(2))
    signal.\
alarm(3)


def test_local_import():
    import signal as local
    local.alarm(1)


def test_local_from_import():
    from signal import alarm as late
    late(1)


def test_walrus():
    if (n := signal.alarm(1)):
        pass


def test_nested_def():
    def inner():
        signal.alarm(1)
    inner()


def test_with():
    with open(os.devnull) as f, cm(signal.alarm(1)):
        pass


async def test_async_for():
    async for x in aiter(signal.alarm(1)):
        pass
    async with cm(signal.setitimer(signal.ITIMER_REAL, 1)):
        pass


def test_try_star():
    try:
        pass
    except* ValueError:
        signal.alarm(1)


def test_semicolon(): signal.alarm(1); signal.alarm(2)


def test_decorated_inner():
    @decorate(signal.alarm(1))
    def inner():
        pass


def test_ternary():
    x = signal.alarm(1) if True else signal.alarm(2)


def test_unpack():
    print(*[signal.alarm(1)], **{"k": signal.alarm(2)})


def test_subscript():
    d[signal.alarm(1)] = 1


def test_slice():
    x[signal.alarm(1):signal.alarm(2)]


def test_global():
    global signal
    signal.alarm(1)
