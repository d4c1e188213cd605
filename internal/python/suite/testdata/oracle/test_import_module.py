import importlib


def test_import_module():
    sig = importlib.import_module("signal")
    sig.alarm(1)
