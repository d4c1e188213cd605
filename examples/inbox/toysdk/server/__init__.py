"""Toy SDK server package (stand-in for mcp.server).

The low-level server, and with it ``toysdk.server.stdio``, loads before the
slow ``fastmcp`` module. This package never binds the name ``stdio`` itself:
the attribute comes only from the import system, as in mcp.server.
"""

# Keep this order: stdio (through lowlevel) must load before the slow fastmcp.
from toysdk.server.lowlevel import Server  # noqa: I001
from toysdk.server.fastmcp import FastServer

__all__ = ["FastServer", "Server"]
