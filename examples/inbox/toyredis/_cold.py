"""Simulated cold-cache cost for toyredis's first import.

The same pattern as ``toysdk._cold``, kept separate so that toyredis never
imports toysdk: the first payment of a name sleeps, later ones return at
once, and the payment is recorded before sleeping.
"""

import time

COLD_SECONDS = 0.3

_paid = set()


def pay(name, seconds=COLD_SECONDS):
    """Sleep ``seconds`` the first time ``name`` is paid in this process."""
    if name in _paid:
        return
    _paid.add(name)
    time.sleep(seconds)
