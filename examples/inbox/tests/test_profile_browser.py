"""Profile browser: launches the SDK's stdio server once per profile list."""

import pytest

pytestmark = pytest.mark.xdist_group("toy-sdk")


def launch_tools(cache, key):
    """Return the cached tools for ``key``, launching the stdio server on a miss."""
    import toysdk.server.stdio

    if key not in cache:
        cache[key] = toysdk.server.stdio.stdio_server()
    return cache[key]


def test_a_list_without_a_matching_cache_launches_once_and_caches_the_tools(
    monkeypatch,
):
    """A cache miss launches the server once; the next call is a hit."""
    launches = []

    def fake():
        launches.append("launch")
        return ("fake-read", "fake-write")

    monkeypatch.setattr("toysdk.server.stdio.stdio_server", fake)
    cache = {}

    assert launch_tools(cache, "default") == ("fake-read", "fake-write")
    assert launch_tools(cache, "default") == ("fake-read", "fake-write")
    assert launches == ["launch"]


def test_a_list_with_a_matching_cache_does_not_launch(monkeypatch):
    """A cache hit never reaches the stdio server."""

    def fake():
        raise AssertionError("stdio server launched on a cache hit")

    monkeypatch.setattr("toysdk.server.stdio.stdio_server", fake)
    cache = {"default": ("cached-read", "cached-write")}

    assert launch_tools(cache, "default") == ("cached-read", "cached-write")
