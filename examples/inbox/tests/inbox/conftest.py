"""Fixtures for the inbox channel tests."""

import pytest

from inbox.channel import Channel


@pytest.fixture
def channel():
    """Return an inbox Channel over a fresh, connected toyredis.FakeRedis."""
    import toyredis

    return Channel(toyredis.FakeRedis())


# fixturegen:begin -- from "fixturegen.toml"; edit it and run fixturegen generate
def _fixturegen_load():
    """Load the deadline runtime once per process; every name bound is private."""
    import importlib.util as _fixturegen_util
    import sys as _fixturegen_sys
    from pathlib import Path as _FixturegenPath

    import pytest as _fixturegen_pytest

    name, modules = "_fixturegen_runtime", _fixturegen_sys.modules
    if name not in modules:
        path = _FixturegenPath(__file__).parent / "_fixturegen_runtime.py"
        spec = _fixturegen_util.spec_from_file_location(name, path)
        modules[name] = _fixturegen_util.module_from_spec(spec)
        spec.loader.exec_module(modules[name])
    return modules[name], _fixturegen_pytest


_fixturegen, _fixturegen_pytest = _fixturegen_load()
pytest_configure = _fixturegen.pytest_configure


@_fixturegen_pytest.fixture
def toy_sdk():
    """Import what recovery_deadline's tests would otherwise import under its alarm."""
    # isort: off
    import toyredis  # noqa: F401
    import toysdk.server.lowlevel
    import toysdk.server.stdio
    import toysdk.shared.message  # noqa: F401
    # isort: on

    yield


@_fixturegen_pytest.fixture
def recovery_deadline(toy_sdk):
    """Fail the test after 1 second of real time; toy_sdk runs first."""
    yield from _fixturegen.deadline()


# fixturegen:end
