"""Pieces shared by toy SDK clients and servers (stand-in for mcp.shared)."""
