import signal

import pytest


@pytest.fixture
def deadline():
    signal.alarm(2)
    yield
    signal.alarm(0)


@pytest.fixture
def loader():
    signal.alarm(2)
    try:
        return {"answer": 42}
    finally:
        signal.alarm(0)


def received():
    value = yield
    return (yield value)


def delegates(inner):
    yield from inner


def one_line(): yield 1


def under_if(flag):
    if flag: yield 1


def in_a_field():
    print(f"{(yield)}")


def lambda_only():
    return lambda: (yield)


def lambda_then_yield():
    return (lambda x: x, (yield))


def nested_only():
    def inner():
        yield 1

    return inner


async def agen():
    signal.alarm(1)
    yield 1


class Holder:
    def method(self):
        yield self
