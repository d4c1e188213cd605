"""Progress of the inner pytest run of ``fixturegen probe``.

Loaded with ``-p _fixturegen_progress`` next to the recording probe. It
writes one JSON line per test to the file descriptor named by
``FIXTUREGEN_PROGRESS_FD`` as soon as the test's teardown is reported: its
node id, outcome and seconds (setup, call and teardown together). A
collector that fails is written as it fails, with pytest's message, so
fixturegen can name the node that did not collect.
"""

import json
import os

_out = None
_seconds = {}
_outcome = {}


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


def pytest_runtest_logreport(report):
    node = report.nodeid
    _seconds[node] = _seconds.get(node, 0.0) + report.duration
    if report.when == "setup":
        _outcome[node] = "error" if report.failed else report.outcome
    elif report.when == "call":
        _outcome[node] = report.outcome
    elif report.when == "teardown":
        outcome = _outcome.pop(node, "passed")
        if report.failed and outcome == "passed":
            outcome = "error"
        _write({"node": node, "outcome": outcome, "seconds": round(_seconds.pop(node), 3)})
