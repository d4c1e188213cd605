"""Progress of the inner pytest run of ``fixturegen probe``.

Loaded with ``-p _fixturegen_progress`` next to the recording probe. It
writes one JSON line per test to the file descriptor named by
``FIXTUREGEN_PROGRESS_FD`` as soon as the test's teardown is reported: its
node id, outcome and seconds (setup, call and teardown together), and for
a test that failed or errored the first line of what it raised. A
collector that fails is written as it fails, with pytest's message, so
fixturegen can name the node that did not collect.
"""

import json
import os

_out = None
_seconds = {}
_outcome = {}
_message = {}


def pytest_configure(config):
    global _out
    fd = os.environ.pop("FIXTUREGEN_PROGRESS_FD", "")
    if fd:
        _out = os.fdopen(int(fd), "w", buffering=1)


def _write(doc):
    if _out is not None:
        _out.write(json.dumps(doc) + "\n")


def pytest_collectreport(report):
    if report.failed:
        _write({"collect_error": report.nodeid, "message": report.longreprtext})


def _crash(report):
    """Return the first line of what a failed phase raised, or ""."""
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None:
        return crash.message.split("\n", 1)[0]
    return str(report.longrepr).strip().split("\n")[-1]


def pytest_runtest_logreport(report):
    node = report.nodeid
    _seconds[node] = _seconds.get(node, 0.0) + report.duration
    if report.failed and node not in _message:
        _message[node] = _crash(report)
    if report.when == "setup":
        _outcome[node] = "error" if report.failed else report.outcome
    elif report.when == "call":
        _outcome[node] = report.outcome
    elif report.when == "teardown":
        outcome = _outcome.pop(node, "passed")
        if report.failed and outcome == "passed":
            outcome = "error"
        doc = {"node": node, "outcome": outcome, "seconds": round(_seconds.pop(node), 3)}
        message = _message.pop(node, "")
        if message:
            doc["message"] = message
        _write(doc)
