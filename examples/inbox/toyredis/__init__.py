"""Toy stand-in for fakeredis: an in-memory pub/sub client.

Its first import in a process is slow (0.3 seconds), like a cold fakeredis.
The client can be told to drop its connection and refuse a number of
reconnect attempts, which is what the inbox reconnect tests need.
"""

from toyredis import _cold

_cold.pay("toyredis")


class FakeRedis:
    """An in-memory pub/sub client whose connection can be dropped."""

    def __init__(self):
        """Create a connected client with no subscriptions."""
        self.connected = True
        self.refusals = 0
        self.published = []
        self._subscribers = {}

    def drop(self, refusals=0):
        """Lose the connection and its subscriptions; refuse the next reconnects."""
        self.connected = False
        self.refusals = refusals
        self._subscribers = {}

    def connect(self):
        """Reconnect, or raise ConnectionError while refusals remain."""
        if self.refusals > 0:
            self.refusals -= 1
            raise ConnectionError("toyredis: connection refused")
        self.connected = True

    def subscribe(self, channel, callback):
        """Call ``callback`` with every message later published on ``channel``."""
        self._require_connection()
        self._subscribers.setdefault(channel, []).append(callback)

    def publish(self, channel, message):
        """Deliver ``message`` to ``channel``'s subscribers; return their count."""
        self._require_connection()
        self.published.append((channel, message))
        callbacks = self._subscribers.get(channel, [])
        for callback in callbacks:
            callback(message)
        return len(callbacks)

    def _require_connection(self):
        """Raise ConnectionError unless the client is connected."""
        if not self.connected:
            raise ConnectionError("toyredis: not connected")
