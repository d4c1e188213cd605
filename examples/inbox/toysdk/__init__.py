"""Toy stand-in for the mcp SDK, whose cold import is slow on purpose.

Importing ``toysdk.server`` (directly, or through ``toysdk.shared.message``)
loads ``toysdk.server.stdio`` first and then pays a one-off cold cost in
``toysdk.server.fastmcp``. See ``toysdk._cold`` for the knob.
"""
