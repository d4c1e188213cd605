import signal as sg
from signal import ITIMER_REAL, setitimer as arm


def test_module_alias():
    sg.alarm(1)


def test_name_alias():
    arm(ITIMER_REAL, 1)
