"""Inbox channel: publishes queued items and recovers after a dropped connection.

The toy SDK is imported only inside functions, so loading this module (which
happens at test collection) stays cheap.
"""

import time


def backoff_delays(attempts, base=0.002, cap=0.02):
    """Return the sleep before each reconnect attempt: doubling, capped."""
    return [min(cap, base * 2**attempt) for attempt in range(attempts)]


def to_message(channel, item):
    """Wrap ``item`` in a toy SDK message for ``channel``."""
    from toysdk.shared.message import Message
    from toysdk.types import TextContent

    return Message(channel=channel, content=TextContent(text=str(item)))


class Channel:
    """A named inbox channel over a pub/sub client such as toyredis.FakeRedis."""

    def __init__(self, client, name="inbox", attempts=6):
        """Bind the channel to ``client``; reconnect at most ``attempts`` times."""
        self.client = client
        self.name = name
        self.attempts = attempts
        self.pending = []
        self.handlers = []

    def send(self, item):
        """Queue ``item``; it is published by the next flush or recovery."""
        self.pending.append(item)

    def subscribe(self, handler):
        """Register ``handler`` for this channel's messages, now and after drops."""
        self.handlers.append(handler)
        self.client.subscribe(self.name, handler)

    def flush(self, encode=to_message):
        """Publish pending items in order, encoded by ``encode(name, item)``."""
        while self.pending:
            item = self.pending[0]
            self.client.publish(self.name, encode(self.name, item))
            self.pending.pop(0)

    def reconnect(self):
        """Reconnect with backoff; return the attempts used or raise ConnectionError."""
        for attempt, delay in enumerate(backoff_delays(self.attempts), start=1):
            try:
                self.client.connect()
            except ConnectionError:
                time.sleep(delay)
            else:
                return attempt
        raise ConnectionError(f"{self.name}: gave up after {self.attempts} attempts")

    def recover(self, encode=to_message):
        """Reconnect, resubscribe every handler, then flush pending items."""
        attempts = self.reconnect()
        for handler in self.handlers:
            self.client.subscribe(self.name, handler)
        self.flush(encode)
        return attempts
