"""fixturegen init's recording plugin.

Loaded with ``-p`` into a pytest session that collects nothing of the
project's own tests: in each folder named by the configuration (the file
named by ``FIXTUREGEN_OBSERVE``), it adds throwaway tests, each requesting
one fixture (or none, so that only the folder's autouse fixtures and hooks
run), and writes one JSON document with what happened:

- every call of ``signal.alarm``, ``signal.setitimer``, ``signal.signal``
  and ``faulthandler.dump_traceback_later``, with its arguments, the fixture
  being set up and the project's frames that made it. The timers are
  emulated, never armed, so that nothing fires while the session runs;
- in each test's body, the handler installed for each timer's signal, and
  what it does when it is called as the signal would call it: the exception
  it raises and its message (with the spec messages whose ``{seconds}``
  field gives that text at the seconds armed), a thread dump, ``os._exit``,
  or nothing;
- the reads of the environment variables the configuration watches, and
  the environment each test ran its setup under;
- each test's setup error, with the project's frame that raised it.
"""

from __future__ import annotations

import atexit
import faulthandler
import importlib
import itertools
import json
import math
import operator
import os
import re
import signal
import sys
import time
import types
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import pytest

if TYPE_CHECKING:
    from collections.abc import Callable, Generator

_CONFIG: dict[str, Any] = json.loads(
    Path(os.environ["FIXTUREGEN_OBSERVE"]).read_text(encoding="utf-8")
)
_ROOT = Path(_CONFIG["root"]).resolve()
# Go writes a list or a map it never filled as null.
_WATCH: frozenset[str] = frozenset(_CONFIG["watch_env"] or ())
_ITEMS: list[dict[str, Any]] = _CONFIG["items"] or []
_DIRS = frozenset(_ROOT / item["dir"] for item in _ITEMS)
_HERE = str(Path(__file__).resolve().parent)

# The timers and the signal each one delivers.
_SIGNALS = {
    signal.ITIMER_REAL: signal.SIGALRM,
    signal.ITIMER_VIRTUAL: signal.SIGVTALRM,
    signal.ITIMER_PROF: signal.SIGPROF,
}

_out: dict[str, Any] = {
    "configured": False,
    "session": [],
    "env_reads": [],
    "items": {},
    "collect_errors": [],
    "timeout_stand_in": False,
}
_now: dict[str, Any] = {"item": None, "phase": "session", "fixtures": []}
_armed: dict[int, tuple[float, float, float]] = {}  # which: start, delay, interval


def _write() -> None:
    Path(_CONFIG["out"]).write_text(json.dumps(_out), encoding="utf-8")


atexit.register(_write)


def _in_project(filename: str) -> bool:
    return (
        filename.startswith(str(_ROOT))
        and "site-packages" not in filename
        and not filename.startswith(_HERE)
    )


def _column(frame: types.FrameType) -> int:
    """Return the 1-based column of the instruction frame runs, or 0."""
    positions = getattr(frame.f_code, "co_positions", None)
    if positions is None or frame.f_lasti < 0:
        return 0
    pos = next(itertools.islice(positions(), frame.f_lasti // 2, None), None)
    if pos is None or pos[2] is None:
        return 0
    return int(pos[2]) + 1


# How many of the project's frames an event keeps.
_MAX_FRAMES = 12


def _frames(start: types.FrameType | None) -> list[dict[str, Any]]:
    """Return the project's frames from start outward, innermost first."""
    out: list[dict[str, Any]] = []
    frame = start
    while frame is not None and len(out) < _MAX_FRAMES:
        code = frame.f_code
        if _in_project(code.co_filename):
            out.append(
                {
                    "file": os.path.relpath(code.co_filename, _ROOT),
                    "line": frame.f_lineno,
                    "col": _column(frame),
                    "function": getattr(code, "co_qualname", code.co_name),
                }
            )
        frame = frame.f_back
    return out


def _record(call: str, **args: Any) -> None:
    event = {
        "call": call,
        "phase": _now["phase"],
        "fixture": _now["fixtures"][-1] if _now["fixtures"] else "",
        "frames": _frames(sys._getframe(2)),
        **args,
    }
    item = _now["item"]
    if item is None:
        _out["session"].append(event)
    else:
        _out["items"][item]["events"].append(event)


def _remaining(which: int) -> tuple[float, float]:
    start, delay, interval = _armed.get(which, (0.0, 0.0, 0.0))
    if delay <= 0:
        return 0.0, 0.0
    # A timer the emulation never fires stays armed, however long ago.
    return max(delay - (time.monotonic() - start), 1e-6), interval


def _arm(which: int, seconds: float, interval: float) -> tuple[float, float]:
    old = _remaining(which)
    if seconds > 0:
        _armed[which] = (time.monotonic(), float(seconds), float(interval))
    else:
        _armed.pop(which, None)
    return old


# The stand-ins take and refuse the arguments the real calls do, with the
# real calls' exceptions: a conftest that hands signal.alarm a string fails
# here as it fails under pytest. A refused call is recorded too, with the
# value it was given and the exception.


def _positional(
    name: str, args: tuple[Any, ...], kwargs: dict[str, Any], low: int, high: int
) -> None:
    """Refuse keywords and a wrong count of arguments, as a C function does."""
    if kwargs:
        msg = f"{name}() takes no keyword arguments"
        raise TypeError(msg)
    if not low <= len(args) <= high:
        want = f"exactly {low}" if low == high else f"from {low} to {high}"
        msg = f"{name} expected {want} arguments, got {len(args)}"
        raise TypeError(msg)


def _c_int(value: Any) -> int:
    """Read value as a C int, as the signal module's arguments are."""
    number = operator.index(value)
    if not -(2**31) <= number < 2**31:
        msg = "Python int too large to convert to C int"
        raise OverflowError(msg)
    return number


def _seconds_object(value: Any) -> float:
    """Read value as seconds, as setitimer and dump_traceback_later do."""
    if isinstance(value, float):
        if math.isnan(value):
            msg = "Invalid value NaN (not a number)"
            raise ValueError(msg)
        if abs(value) >= 2**63 / 1e9:
            msg = "timestamp out of range for platform time_t"
            raise OverflowError(msg)
        return value
    return float(operator.index(value))


def _refused(
    call: str, exc: BaseException, given: tuple[Any, ...], **args: Any
) -> None:
    _record(
        call,
        rejected=f"{type(exc).__name__}: {exc}",
        given=[repr(g)[:80] for g in given],
        **args,
    )


def _alarm(*args: Any, **kwargs: Any) -> int:
    try:
        _positional("alarm", args, kwargs, 1, 1)
        seconds = _c_int(args[0])
    except (TypeError, ValueError, OverflowError) as exc:
        _refused("alarm", exc, args, which=signal.ITIMER_REAL)
        _ring_refused(signal.ITIMER_REAL, args[0] if args else None)
        raise
    _record("alarm", which=signal.ITIMER_REAL, seconds=seconds, interval=0)
    return math.ceil(_arm(signal.ITIMER_REAL, seconds, 0)[0])


def _setitimer(*args: Any, **kwargs: Any) -> tuple[float, float]:
    try:
        _positional("setitimer", args, kwargs, 2, 3)
        which = _c_int(args[0])
        seconds = _seconds_object(args[1])
        interval = _seconds_object(args[2]) if args[2:] else 0.0
        if which not in _SIGNALS or seconds < 0 or interval < 0:
            raise signal.ItimerError(22, "Invalid argument")
    except (TypeError, ValueError, OverflowError, OSError) as exc:
        _refused("setitimer", exc, args)
        if len(args) > 1 and isinstance(args[0], int) and args[0] in _SIGNALS:
            _ring_refused(args[0], args[1])
        raise
    _record("setitimer", which=which, seconds=seconds, interval=interval)
    return _arm(which, seconds, interval)


def _ring_refused(which: int, given: Any) -> None:
    """Ring a timer whose arming was refused, as if it had taken its seconds.

    A setup that hands signal.alarm a variable's text ("30") never runs a
    test, but its handler is installed: init learns what it would have
    raised at the seconds the text states.
    """
    item = _now["item"]
    if item is None or _now["phase"] != "setup":
        return
    try:
        seconds = float(given)
    except (TypeError, ValueError):
        return
    if not 0 < seconds < math.inf:
        return
    saved = _armed.get(which)
    _armed[which] = (time.monotonic(), seconds, 0.0)
    try:
        _out["items"][item].setdefault("rings", {})[str(which)] = _ring(which)
    finally:
        if saved is None:
            _armed.pop(which, None)
        else:
            _armed[which] = saved


def _getitimer(which: int) -> tuple[float, float]:
    return _remaining(which)


_real_signal = signal.signal


def _signal(*args: Any, **kwargs: Any) -> Any:
    # The real call refuses what it refuses before anything is recorded.
    try:
        previous = _real_signal(*args, **kwargs)
    except BaseException as exc:
        _refused("signal", exc, args)
        raise
    signalnum = int(args[0] if args else kwargs["signalnum"])
    handler = args[1] if len(args) > 1 else kwargs["handler"]
    _record("signal", signum=signalnum, handler=_describe(handler))
    if _now["item"] is None:
        _installs.append((signalnum, _caller_file(), handler))
    return previous


# The handlers of the timers' signals before any conftest ran, and those a
# conftest installed outside the tests (at import, in pytest_configure), by
# the file that installed them.
_initial = {int(sig): signal.getsignal(sig) for sig in _SIGNALS.values()}
_installs: list[tuple[int, str, Any]] = []


def _caller_file() -> str:
    frames = _frames(sys._getframe(2))
    return str(_ROOT / frames[-1]["file"]) if frames else ""


def _reset_timers(folder: Path) -> None:
    """Give a test the timers' handlers its folder's conftests installed.

    Each test starts as if its folder's tests ran alone: what another
    folder's conftest or an earlier test installed is undone.
    """
    _armed.clear()
    for sig, handler in _initial.items():
        mine = [
            h for s, file, h in _installs if s == sig and folder in Path(file).parents
        ]
        _real_signal(sig, mine[-1] if mine else handler)


def _positive(seconds: float) -> float:
    """Refuse a timeout that is not more than 0, as dump_traceback_later does."""
    if seconds <= 0:
        msg = "timeout must be greater than 0"
        raise ValueError(msg)
    return seconds


def _dump_later(
    timeout: Any, repeat: Any = False, file: Any = None, exit: Any = False
) -> None:
    try:
        seconds = _positive(_seconds_object(timeout))
        operator.index(repeat)
        operator.index(exit)
    except (TypeError, ValueError, OverflowError) as exc:
        _refused("dump_traceback_later", exc, (timeout,))
        raise
    _record("dump_traceback_later", seconds=seconds, exit=bool(exit))


def _cancel_dump_later() -> None:
    _record("cancel_dump_traceback_later")


signal.alarm = _alarm
signal.setitimer = _setitimer
signal.getitimer = _getitimer
signal.signal = _signal
faulthandler.dump_traceback_later = _dump_later
faulthandler.cancel_dump_traceback_later = _cancel_dump_later

_real_getitem = os._Environ.__getitem__


def _getitem(self: Any, key: Any) -> Any:
    if self is os.environ and key in _WATCH and not _now.get("quiet"):
        _out["env_reads"].append(
            {"name": key, "item": _now["item"], "phase": _now["phase"]}
        )
    return _real_getitem(self, key)


os._Environ.__getitem__ = _getitem  # type: ignore[method-assign]


def _describe(handler: Any) -> dict[str, Any]:
    """Say what a signal handler is, and where its code is."""
    if handler in (signal.SIG_DFL, signal.SIG_IGN) or handler is None:
        return {"kind": "default" if handler is not signal.SIG_IGN else "ignore"}
    kind, target = "function", handler
    if isinstance(handler, types.MethodType):
        kind, target = "method", handler.__func__
    elif not isinstance(handler, types.FunctionType) and callable(handler):
        call = type(handler).__call__
        if isinstance(call, types.FunctionType):
            kind, target = "object", call
        else:
            return {"kind": "other", "name": repr(handler)[:80]}
    code = getattr(target, "__code__", None)
    if code is None:
        return {"kind": "other", "name": repr(handler)[:80]}
    name = getattr(target, "__qualname__", target.__name__)
    if kind == "object":
        name = type(handler).__qualname__
    return {
        "kind": kind,
        "name": name,
        "file": os.path.relpath(code.co_filename, _ROOT)
        if _in_project(code.co_filename)
        else "",
        "line": code.co_firstlineno,
        "function": code.co_name,
    }


class _Exited(BaseException):
    """Stands for os._exit while a handler runs: the process goes on."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def _exit(status: int) -> NoReturn:
    raise _Exited(status)


def _ring(which: int) -> dict[str, Any]:
    """Call the handler of which's signal as the signal would, and say what it did."""
    signum = _SIGNALS[which]
    handler = signal.getsignal(signum)
    described = _describe(handler)
    out: dict[str, Any] = {"signal": int(signum), "handler": described, "dumps": []}
    if not callable(handler):
        return out

    def dump(file: Any = None, all_threads: bool = True) -> None:
        out["dumps"].append(
            {"all_threads": all_threads, "frames": _frames(sys._getframe(1))}
        )

    real_dump, real_exit = faulthandler.dump_traceback, os._exit
    faulthandler.dump_traceback = dump
    os._exit = _exit
    try:
        for _ in range(2):
            # Twice: a message that changes from one call to the next is
            # no fixed text.
            outcome = _call(handler, signum)
            out.setdefault("outcomes", []).append(outcome)
            if outcome["kind"] == "returned":
                break
    finally:
        faulthandler.dump_traceback, os._exit = real_dump, real_exit
    first = out["outcomes"][0]
    seconds = _armed.get(which, (0.0, 0.0, 0.0))[1]
    if first["kind"] == "raised" and seconds > 0:
        out["seconds"] = seconds
        out["templates"] = _templates(first["message"], seconds)
    return out


# The format specs a message's {seconds} field is tried with, simplest first.
_FORMAT_SPECS = ("", "g", ".1f", ".2f", ".3f", ".0f")

# What follows a number that states seconds: a unit, or only punctuation.
_UNIT = re.compile(
    r"[ \t\n\f\r]*(s|sec|secs|second|seconds)\b|[ \t\n\f\r.,;:!)\]]*\Z", re.ASCII
)


def _templates(message: str, seconds: float) -> dict[str, list[str]]:
    """Return the spec messages that give message at these seconds.

    A spec message is the text with its braces doubled and a {seconds}
    field where it states the seconds, with a format spec that str.format
    turns into the same text, S passed as the generated deadline passes it
    (an int when whole). For each format spec in turn, the field stands at
    every place the seconds stand as a number of their own at once, then at
    each alone; under "unit" only at the places a unit of seconds (or
    nothing but punctuation) follows, since one message alone proves
    nothing of a number that merely equals the seconds. The text as it is
    comes last: it gives itself at any seconds.
    """
    value = int(seconds) if seconds.is_integer() else seconds
    out: dict[str, list[str]] = {"any": [], "unit": []}
    for spec in _FORMAT_SPECS:
        shown = format(value, spec)
        number = re.compile(
            rf"(?<![A-Za-z0-9_.])(?={re.escape(shown)}(?![0-9]|\.[0-9]))"
        )
        places = [m.start() for m in number.finditer(message)]
        units = [p for p in places if _UNIT.match(message, p + len(shown))]
        for key, found in (("any", places), ("unit", units)):
            tries = [found, *([p] for p in found)] if len(found) > 1 else [found]
            for at in filter(None, tries):
                text = _place(message, at, len(shown), spec)
                if text.format(seconds=value) == message:
                    out[key].append(text)
    for templates in out.values():
        templates.append(_braces(message))
    return out


def _place(message: str, places: list[int], width: int, spec: str) -> str:
    """Put a {seconds} field over the width characters at each of places."""
    field = "{seconds" + (":" + spec if spec else "") + "}"
    cuts = [0, *(c for p in places for c in (p, p + width)), len(message)]
    return field.join(
        _braces(message[a:b]) for a, b in zip(cuts[::2], cuts[1::2], strict=True)
    )


def _braces(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def _call(handler: Callable[..., Any], signum: int) -> dict[str, Any]:
    try:
        handler(signum, sys._getframe())
    except _Exited as exited:
        return {"kind": "exit", "code": exited.code}
    except BaseException as exc:  # noqa: BLE001 - whatever the handler raises is what init learns
        kind = type(exc)
        msg = getattr(exc, "msg", None)
        message = msg if isinstance(msg, str) else str(exc)
        outcome = next(
            (name for name, cls in _OUTCOMES.items() if isinstance(exc, cls)), ""
        )
        return {
            "kind": "raised",
            "outcome": outcome,
            "module": kind.__module__,
            "type": kind.__qualname__,
            "message": message,
            "pytrace": getattr(exc, "pytrace", None),
            "args": len(exc.args),
            "frames": _tb_frames(exc.__traceback__),
        }
    return {"kind": "returned"}


# pytest's outcomes, whose exceptions a handler may raise by calling them.
_OUTCOMES: dict[str, type[BaseException]] = {
    "fail": pytest.fail.Exception,
    "skip": pytest.skip.Exception,
    "xfail": pytest.xfail.Exception,
    "exit": pytest.exit.Exception,
}


def _tb_frames(tb: types.TracebackType | None) -> list[dict[str, Any]]:
    """Return the project's frames of a traceback, innermost first."""
    out: list[dict[str, Any]] = []
    while tb is not None:
        code = tb.tb_frame.f_code
        if _in_project(code.co_filename):
            col = 0
            positions = getattr(code, "co_positions", None)
            if positions is not None:
                pos = next(itertools.islice(positions(), tb.tb_lasti // 2, None), None)
                if pos is not None and pos[2] is not None:
                    col = int(pos[2]) + 1
            out.insert(
                0,
                {
                    "file": os.path.relpath(code.co_filename, _ROOT),
                    "line": tb.tb_lineno,
                    "col": col,
                    "function": getattr(code, "co_qualname", code.co_name),
                },
            )
        tb = tb.tb_next
    return out


def _body() -> None:
    """Note the timers armed when the test runs, then ring each one."""
    item = _out["items"][_now["item"]]
    item["armed"] = {str(w): _remaining(w)[0] for w in _SIGNALS if _remaining(w)[0] > 0}
    item["rings"] = {str(w): _ring(w) for w in _SIGNALS if _remaining(w)[0] > 0}
    if not item["rings"]:
        item["rings"][str(signal.ITIMER_REAL)] = _ring(signal.ITIMER_REAL)
    item["timeout"] = _timeout_settings()
    # What runs after the body in the call phase (a hook wrapper's
    # teardown) disarms what the body saw.
    _now["phase"] = "after"


def _timeout_settings() -> dict[str, Any] | None:
    """Say what pytest-timeout would arm for the running test, if it is loaded."""
    config = _now.get("config")
    if config is None or not config.pluginmanager.hasplugin("timeout"):
        return None
    node = _now.get("node")
    try:
        module = importlib.import_module("pytest_timeout")
        settings = module._get_item_settings(node)
    except Exception:  # noqa: BLE001 - an older pytest-timeout without the helper
        return {"loaded": True}
    return {"loaded": True, "timeout": settings.timeout, "method": settings.method}


class _Probes(pytest.Module):
    """The throwaway tests of one folder, in a module that is never imported."""

    def _getobj(self) -> types.ModuleType:
        module = types.ModuleType("_fixturegen_init_probe")
        here = self.path.parent
        for item in _ITEMS:
            if _ROOT / item["dir"] != here:
                continue

            def test() -> None:
                _body()

            if item["fixture"]:
                test = pytest.mark.usefixtures(item["fixture"])(test)
            setattr(module, "fixturegen_" + item["id"], test)
        return module

    def funcnamefilter(self, name: str) -> bool:
        return name.startswith("fixturegen_")


def pytest_configure(config: pytest.Config) -> None:
    """Note that pytest got as far as configuring the plugin."""
    _out["configured"] = True
    _now["config"] = config
    if _out.get("timeout_stand_in"):
        config.addinivalue_line(
            "markers", "timeout(timeout, method=None): pytest-timeout's"
        )


class _TimeoutStandIn:
    """Stands for pytest-timeout where it is not installed.

    Registered under pytest-timeout's plugin name, so that a conftest's
    ``config.pluginmanager.hasplugin("timeout")`` takes the branch it takes
    with the plugin loaded; it times nothing.
    """


def pytest_addoption(
    parser: pytest.Parser, pluginmanager: pytest.PytestPluginManager
) -> None:
    """In a session asked to run with pytest-timeout, stand in for it if it is missing."""
    if not _CONFIG.get("timeout") or pluginmanager.hasplugin("timeout"):
        return
    pluginmanager.register(_TimeoutStandIn(), "timeout")
    _out["timeout_stand_in"] = True
    # The settings pytest-timeout adds, which a conftest may read.
    parser.addini("timeout", "pytest-timeout's timeout (a stand-in)")
    parser.addini("timeout_method", "pytest-timeout's method (a stand-in)")
    parser.addini(
        "timeout_func_only", "pytest-timeout's func_only (a stand-in)", type="bool"
    )
    group = parser.getgroup("timeout")
    group.addoption(
        "--timeout", type=float, default=None, help="pytest-timeout's (a stand-in)"
    )
    group.addoption(
        "--timeout-method",
        "--timeout_method",
        dest="timeout_method",
        default=None,
        help="pytest-timeout's (a stand-in)",
    )


@pytest.hookimpl(tryfirst=True)
def pytest_ignore_collect(collection_path: Path) -> bool | None:
    """Collect nothing but the folders that hold the throwaway tests."""
    if collection_path.name == "conftest.py" and collection_path.parent in _DIRS:
        return None
    if collection_path.is_dir() and any(
        collection_path in (d, *d.parents) for d in _DIRS
    ):
        return None
    return True


def pytest_collect_file(
    file_path: Path, parent: pytest.Collector
) -> pytest.Collector | None:
    """Add the throwaway tests of a folder that holds some, beside its conftest."""
    if file_path.name == "conftest.py" and file_path.parent in _DIRS:
        # Named after the conftest, a file that exists: pytest finds the
        # conftests whose hooks a test runs by the folder of its file.
        return _Probes.from_parent(parent, path=file_path)
    return None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Keep only the throwaway tests, in the configuration's order."""
    order = {"fixturegen_" + item["id"]: i for i, item in enumerate(_ITEMS)}
    items[:] = sorted(
        (i for i in items if i.name in order), key=lambda i: order[i.name]
    )


def pytest_collectreport(report: pytest.CollectReport) -> None:
    """Note a folder that did not collect, such as a conftest that does not import."""
    if report.failed:
        _out["collect_errors"].append(
            {"node": report.nodeid, "error": str(report.longrepr)[-4000:]}
        )


def _set_env(env: dict[str, str | None]) -> dict[str, str | None]:
    """Set (a value) or unset (None) variables, unseen; return what they were."""
    _now["quiet"] = True
    try:
        saved = {name: os.environ.get(name) for name in env}
        for name, value in env.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    finally:
        _now["quiet"] = False
    return saved


def _item_config(item: pytest.Item) -> dict[str, Any] | None:
    if not item.name.startswith("fixturegen_"):
        return None
    key = item.name.removeprefix("fixturegen_")
    return next((i for i in _ITEMS if i["id"] == key), None)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    """Set the test's environment, and note what its setup did."""
    conf = _item_config(item)
    if conf is None:
        return (yield)
    env = conf["env"] or {}
    _out["items"][conf["id"]] = {"events": [], "env": env}
    _reset_timers(_ROOT / conf["dir"])
    _now["saved"] = _set_env(env)
    _now.update(item=conf["id"], phase="setup", node=item)
    tracer = _Tracer() if conf.get("trace") else None
    if tracer is not None:
        sys.settrace(tracer)
    try:
        return (yield)
    except BaseException as exc:
        _out["items"][conf["id"]]["setup_error"] = {
            "type": type(exc).__qualname__,
            "message": str(exc)[:500],
            "frames": _tb_frames(exc.__traceback__),
        }
        raise
    finally:
        if tracer is not None:
            sys.settrace(None)
            _out["items"][conf["id"]]["handled"] = tracer.handled


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    """Note the call phase, where a hook wrapper may arm a timer too."""
    if _item_config(item) is not None:
        _now["phase"] = "call"
    return (yield)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_teardown(item: pytest.Item) -> Generator[None, None, None]:
    """Put the environment back after the test."""
    conf = _item_config(item)
    if conf is None:
        return (yield)
    _now["phase"] = "teardown"
    try:
        return (yield)
    finally:
        _now.update(item=None, phase="session", node=None)
        _set_env(_now.pop("saved", {}))


@pytest.hookimpl(wrapper=True)
def pytest_fixture_setup(
    fixturedef: pytest.FixtureDef[Any],
) -> Generator[None, Any, Any]:
    """Note which fixture is being set up, for the calls it makes."""
    _now["fixtures"].append(fixturedef.argname)
    try:
        return (yield)
    finally:
        _now["fixtures"].pop()


class _Tracer:
    """Finds, in the project's frames, the returns that follow a caught exception.

    An ``except ValueError: return 5`` that gives the default when a
    variable holds no number is one.
    """

    def __init__(self) -> None:
        self.handled: list[dict[str, Any]] = []

    def __call__(self, frame: types.FrameType, event: str, arg: Any) -> Any:
        if event != "call" or not _in_project(frame.f_code.co_filename):
            return None
        caught = {"raised": False, "handled": False}

        def local(frame: types.FrameType, event: str, arg: Any) -> Any:
            if event == "exception":
                caught["raised"] = True
            elif event == "line" and caught["raised"]:
                caught["handled"] = True
            elif event == "return" and caught["handled"]:
                value = (
                    arg
                    if isinstance(arg, (int, float)) and not isinstance(arg, bool)
                    else None
                )
                self.handled.append(
                    {
                        "file": os.path.relpath(frame.f_code.co_filename, _ROOT),
                        "line": frame.f_lineno,
                        "value": value,
                    }
                )
            return local

        return local
