"""Inbox channel recovery after a dropped connection, under a deadline.

Every case runs the channel's reconnect/recovery loop under the
``recovery_deadline`` alarm; the loop itself takes milliseconds.
"""

import pytest
from test_channel_server import collect_into, encode_item, item_texts

pytestmark = [
    pytest.mark.xdist_group("toy-sdk"),
    pytest.mark.usefixtures("toy_sdk", "recovery_deadline"),
]


def test_pending_items(channel):
    """Items queued during an outage are published in order after recovery."""
    channel.client.drop(refusals=3)
    for item in (1, 2, 3):
        channel.send(item)

    assert channel.recover(encode=encode_item) == 4
    assert channel.pending == []
    assert [message.content.text for _, message in channel.client.published] == (
        item_texts([1, 2, 3])
    )


def test_subscriber(channel):
    """A subscriber dropped with the connection is resubscribed and served."""
    received = []
    channel.subscribe(collect_into(received))
    channel.client.drop(refusals=2)
    channel.send("hello")

    assert channel.recover(encode=encode_item) == 3
    assert received == item_texts(["hello"])


def test_gives_up_after_every_attempt(channel):
    """A connection refused on every attempt ends the loop with an error."""
    channel.client.drop(refusals=channel.attempts)

    with pytest.raises(ConnectionError, match="gave up"):
        channel.recover(encode=encode_item)
