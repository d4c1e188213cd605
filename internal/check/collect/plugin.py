"""Report pytest's own view of the collected tests to fixturegen check --collect.

fixturegen runs this file with ``python -c``, so nothing is written into the
project: it starts pytest with the plugin below and the arguments it was given.
When the session ends, the plugin writes one JSON document to the file named by
FIXTUREGEN_COLLECT_REPORT: every collected item with its location, fixture
closure and xdist_group marks, whether its group reaches its node id under
--dist loadgroup, and the deadline fixtures those items resolve to.
"""

import json
import linecache
import os
import re
import sys

try:
    import pytest
except ImportError as exc:
    # This interpreter has no pytest (or one that does not import): say so
    # in the report, which fixturegen turns into one sentence, instead of a
    # traceback.
    with open(os.environ["FIXTUREGEN_COLLECT_REPORT"], "w", encoding="utf-8") as _f:
        json.dump({"import_error": {"name": exc.name or "", "message": str(exc)}, "executable": sys.executable}, _f)
    sys.exit(4)


def _mark_loadgroup(config, items):
    """Do to items what pytest-xdist's worker does under --dist loadgroup.

    The worker appends "@<group>" to each grouped item's node id, and the
    scheduler keeps items with the same suffix together. pytest-xdist's own
    hook does this where it can be reached; the fallback does the same.
    """
    try:
        from xdist.remote import WorkerInteractor

        WorkerInteractor.pytest_collection_modifyitems(None, config, items)
        return
    except (ImportError, AttributeError, TypeError):
        pass
    for item in items:
        names = {_group_name(mark) for mark in item.iter_markers("xdist_group")}
        if names:
            item._nodeid = f"{item.nodeid}@{'_'.join(sorted(names))}"


def _group_name(mark):
    return str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))


class FixturegenCollect:
    """Note every collected item and the deadline fixtures they resolve to."""

    def __init__(self, deadline, preload):
        self.deadline = deadline
        self.preload = preload
        self.xdist = None
        self.import_shield = False
        self.seen = []
        self.items = []
        self.deadlines = []
        self.deselected = set()
        self.errors = []

    def pytest_configure(self, config):
        # The module's own version: reading the installed distributions'
        # metadata would cost more than the rest of the plugin.
        self.import_shield = config.pluginmanager.hasplugin("import_shield")
        if config.pluginmanager.hasplugin("xdist"):
            import xdist

            self.xdist = getattr(xdist, "__version__", "unknown")

    def pytest_collection_modifyitems(self, config, items):
        # A plain hook, as pytest-xdist's worker has: registered before the
        # conftests and after pytest's own plugins, it runs where the
        # worker's does, after the conftests' hooks and before -k and -m
        # deselect. Each item is kept with its node id as pytest made it.
        self.seen = [(item, item.nodeid) for item in items]
        if self.xdist is not None:
            config.option.loadgroup = True
            _mark_loadgroup(config, items)

    def pytest_deselected(self, items):
        self.deselected.update(id(item) for item in items)

    def pytest_collectreport(self, report):
        if report.failed:
            self.errors.append(
                {"nodeid": report.nodeid, "message": report.longreprtext}
            )

    def pytest_collection_finish(self, session):
        deadlines = {}
        self.items = [
            self._item(session, item, nodeid, deadlines) for item, nodeid in self.seen
        ]
        self.deadlines = list(deadlines.values())

    def pytest_sessionfinish(self, session, exitstatus):
        report = {
            "pytest": pytest.__version__,
            "xdist": self.xdist,
            "import_shield": self.import_shield,
            "rootdir": str(session.config.rootpath),
            "items": self.items,
            "deadlines": self.deadlines,
            "errors": self.errors,
        }
        with open(
            os.environ["FIXTUREGEN_COLLECT_REPORT"], "w", encoding="utf-8"
        ) as out:
            json.dump(report, out)

    def _item(self, session, item, nodeid, deadlines):
        rel, line, _ = item.location
        groups = sorted(
            {_group_name(mark) for mark in item.iter_markers("xdist_group")}
        )
        names = list(getattr(item, "fixturenames", ()))
        _, _, chain = nodeid.partition("::")
        test = chain
        if isinstance(item, pytest.Function):
            # The test without its parameters: "TestPump::test_drain". The
            # parameters come last and may hold "::" themselves (an IPv6
            # address), so they go before the chain is split.
            classes, sep, _ = chain.partition("[")[0].rpartition("::")
            test = classes + sep + item.originalname
        entry = {
            "nodeid": nodeid,
            "path": str(item.path),
            "file": os.path.normpath(os.path.join(str(session.config.rootpath), rel)),
            "line": (line or 0) + 1,
            "python": isinstance(item, pytest.Function),
            "test": test,
            "fixtures": names,
            "groups": groups,
            "scheduled": item.nodeid,
            "deselected": id(item) in self.deselected,
            "deadline": None,
        }
        if self.deadline in names:
            defs = item._fixtureinfo.name2fixturedefs.get(self.deadline)
            if defs:
                entry["deadline"] = self._deadline(
                    session, item, nodeid, defs[-1], deadlines
                )
        return entry

    def _deadline(self, session, item, nodeid, fixturedef, deadlines):
        """Note the deadline fixture item uses, once per definition."""
        func = getattr(fixturedef, "func", None)
        code = getattr(func, "__code__", None)
        where = _def_position(code, self.deadline) if code else ("", 1, 1)
        key = f"{where[0]}:{where[1]}"
        entry = deadlines.setdefault(
            key,
            {
                "file": where[0],
                "line": where[1],
                "col": where[2],
                "preload": True,
                "without": "",
            },
        )
        # Fixtures resolve their own requests for the test that runs them, so
        # one definition can reach the preload for one test and not another.
        if entry["preload"] and not self._reaches(
            session, item, self.deadline, self.preload
        ):
            entry["preload"], entry["without"] = False, nodeid
        return key

    def _reaches(self, session, item, start, target):
        """Tell whether the fixture start, as item resolves it, needs target.

        Names resolve as pytest resolves them for item, overrides included: a
        fixture that asks for its own name gets the definition it overrides.
        """
        known = item._fixtureinfo.name2fixturedefs
        manager = session._fixturemanager

        def definitions(name):
            defs = known.get(name)
            if defs is None:
                try:
                    defs = manager.getfixturedefs(name, item)
                except (AttributeError, TypeError):
                    # pytest before 8.1 takes the node id.
                    defs = manager.getfixturedefs(name, item.nodeid)
            return defs or ()

        todo = [(start, len(definitions(start)) - 1)]
        done = set()
        while todo:
            name, index = todo.pop()
            if index < 0 or (name, index) in done:
                continue
            done.add((name, index))
            for arg in definitions(name)[index].argnames:
                if arg == target:
                    return True
                if arg == name:
                    todo.append((name, index - 1))
                else:
                    todo.append((arg, len(definitions(arg)) - 1))
        return False


def _def_position(code, name):
    """The file, line and column of the name in the def that made code.

    A decorated function's code starts at its first decorator; the def line
    is the first one below it that defines the name.
    """
    pattern = re.compile(r"\s*(?:async\s+)?def\s+(" + re.escape(code.co_name) + r")\b")
    line = code.co_firstlineno
    for offset in range(50):
        text = linecache.getline(code.co_filename, line + offset)
        if not text:
            break
        found = pattern.match(text)
        if found:
            return code.co_filename, line + offset, found.start(1) + 1
    return code.co_filename, line, 1


if __name__ == "__main__":
    settings = json.loads(os.environ["FIXTUREGEN_COLLECT"])
    plugin = FixturegenCollect(settings["deadline"], settings["preload"])
    sys.exit(pytest.main(sys.argv[1:], plugins=[plugin]))
