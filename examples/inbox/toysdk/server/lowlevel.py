"""Low-level toy server (stand-in for mcp.server.lowlevel)."""

from toysdk.server.stdio import stdio_server


class Server:
    """A named server with a table of request handlers."""

    def __init__(self, name):
        """Create a server called ``name`` with no handlers."""
        self.name = name
        self.handlers = {}

    def run_stdio(self):
        """Open the stdio transport and return its streams."""
        return stdio_server()
