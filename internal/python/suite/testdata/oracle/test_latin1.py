# -*- coding: latin-1 -*-
import signal


def test_latin():
    x = "é"; signal.alarm(1)
