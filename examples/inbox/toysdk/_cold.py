"""Simulated cold-cache cost for the toy SDK's slow imports.

A real SDK's first import is slow because its bytecode and dependencies are
cold; a second attempt in the same process is fast. ``pay`` models that: it
sleeps only the first time a name is paid, and records the payment before
sleeping, so an import interrupted mid-sleep is warm when retried. The
payments are kept on the ``sys`` module, not here: what a real import warms
(the disk cache, the bytecode) stays warm for the process even when this
module is imported again, as after a rolled-back import.

``TOYSDK_COLD_SECONDS`` (a float) overrides the default cost of 1.5 seconds.
"""

import os
import sys
import time

DEFAULT_SECONDS = 1.5
ENV_VAR = "TOYSDK_COLD_SECONDS"

_paid = sys.__dict__.setdefault("_toysdk_cold_paid", set())


def cold_seconds():
    """Return the cold import cost: ``TOYSDK_COLD_SECONDS`` or the default."""
    value = os.environ.get(ENV_VAR, "").strip()
    return float(value) if value else DEFAULT_SECONDS


def pay(name, seconds):
    """Sleep ``seconds`` the first time ``name`` is paid in this process."""
    if name in _paid:
        return
    _paid.add(name)
    time.sleep(seconds)
