"""Plain data types shared by the toy SDK (stand-in for mcp.types)."""

from dataclasses import dataclass


@dataclass(frozen=True)
class TextContent:
    """A text payload carried by a message."""

    text: str
    type: str = "text"
