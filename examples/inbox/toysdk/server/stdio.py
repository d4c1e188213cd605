"""Toy stdio transport (stand-in for mcp.server.stdio)."""


def stdio_server():
    """Return the (read, write) stream names of a stdio transport."""
    return ("stdin", "stdout")
