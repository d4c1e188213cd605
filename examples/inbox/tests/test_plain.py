"""Quick tests unrelated to the toy SDK; they run in no worker group."""

import pytest

from inbox.channel import Channel, backoff_delays


class _Refusing:
    """A client that refuses every connection."""

    def connect(self):
        """Refuse the connection."""
        raise ConnectionError("refused")


def test_backoff_doubles_until_the_cap():
    """Delays double from the base and stop growing at the cap."""
    assert backoff_delays(5, base=1, cap=4) == [1, 2, 4, 4, 4]


def test_a_new_channel_has_nothing_pending():
    """A fresh channel has no queued items and no handlers."""
    channel = Channel(client=None, name="plain")
    assert (channel.pending, channel.handlers) == ([], [])


def test_reconnect_raises_once_attempts_run_out():
    """A client that always refuses exhausts the reconnect loop."""
    channel = Channel(_Refusing(), name="plain", attempts=2)
    with pytest.raises(ConnectionError, match="plain: gave up after 2"):
        channel.reconnect()
