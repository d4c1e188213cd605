"""Messages exchanged over a toy SDK session (stand-in for mcp.shared.message).

This module imports ``toysdk.server``, so the first import of the SDK through
it goes through the slow server package.
"""

from dataclasses import dataclass

import toysdk.server  # noqa: F401
from toysdk.types import TextContent


@dataclass(frozen=True)
class Message:
    """A message for one channel with text content."""

    channel: str
    content: TextContent
