"""Helpers that stand in for the SDK side of an inbox channel.

They import the toy SDK inside their functions, so the first reconnect case
on a worker is the first code to import it.
"""


def encode_item(channel, item):
    """Encode ``item`` as a toy SDK message for ``channel``."""
    from toysdk.shared.message import Message
    from toysdk.types import TextContent

    return Message(channel=channel, content=TextContent(text=f"item:{item}"))


def collect_into(received):
    """Return a subscriber that checks each message and appends its text."""

    def handler(message):
        from toysdk.shared.message import Message

        assert isinstance(message, Message)
        received.append(message.content.text)

    return handler


def item_texts(items):
    """Return the texts ``encode_item`` produces for ``items``."""
    return [f"item:{item}" for item in items]


def test_item_texts_prefix_every_item():
    """Plain helper check; it does not touch the SDK."""
    assert item_texts([1, "a"]) == ["item:1", "item:a"]
