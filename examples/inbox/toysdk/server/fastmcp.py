"""High-level toy server (stand-in for mcp.server.fastmcp).

Importing this module is slow the first time in a process: it pays the cold
cost from ``toysdk._cold`` after the low-level server has loaded.
"""

from toysdk import _cold
from toysdk.server.lowlevel import Server

_cold.pay("fastmcp", _cold.cold_seconds())


class FastServer(Server):
    """A server that registers tools with a decorator."""

    def tool(self, name):
        """Return a decorator registering a function as tool ``name``."""

        def register(function):
            self.handlers[name] = function
            return function

        return register
