"""Time `fixturegen init` on the projects of the init_* and adopt_* testscripts.

    python3 bench/init_scripts.py RUNS BINARY [BINARY ...]

Each script's files are written over a fresh copy of examples/inbox, as the
testscripts set them up; its file commands (cd, cp, rm, mkdir, replace) are
replayed, every `exec fixturegen ... init ...` runs with each BINARY in turn
(the order alternating from run to run, so that the machine's load falls on
all alike), and every other command is skipped. It prints each init's median
wall time per BINARY and, last, their sums: compare two builds of fixturegen
(BEFORE and after a change) side by side.
"""

import collections
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = subprocess.run(
    ["bash", str(ROOT / "scripts" / "venv")], capture_output=True, text=True, check=True
).stdout.strip()


def scripts():
    """Yield each init_* and adopt_* script's name, commands and files."""
    for path in sorted((ROOT / "testscripts").glob("*.txtar")):
        if re.match(r"(init|adopt)_", path.stem):
            parts = re.split(r"^-- (.+?) --\n", path.read_text(), flags=re.MULTILINE)
            yield path.stem, parts[0], dict(zip(parts[1::2], parts[2::2]))


def inits(binary, commands, files):
    """Replay one script with binary and return the wall time of each init."""
    work = Path(tempfile.mkdtemp(prefix="fixturegen-bench-init-"))
    try:
        shutil.copytree(ROOT / "examples" / "inbox", work / "inbox")
        for name, text in files.items():
            (work / name).parent.mkdir(parents=True, exist_ok=True)
            (work / name).write_text(text)
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", TOYSDK_COLD_SECONDS="1.2")
        cwd, times = work, []
        for line in commands.splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            words = shlex.split(
                line.lstrip("! ").replace("$PYTHON", PYTHON).replace("$WORK", str(work))
            )
            cmd, args = words[0], [cwd / a for a in words[1:]]
            if cmd == "cd":
                cwd = args[0]
            elif cmd == "cp" and words[1] not in {"stdout", "stderr"}:
                shutil.copy(args[0], args[1])
            elif cmd == "rm":
                for p in args:
                    if p.is_dir():
                        shutil.rmtree(p)
                    else:
                        p.unlink(missing_ok=True)
            elif cmd == "mkdir":
                for p in args:
                    p.mkdir(parents=True, exist_ok=True)
            elif cmd == "replace":
                old, new = (w.replace("\\n", "\n") for w in words[2:4])
                args[0].write_text(args[0].read_text().replace(old, new))
            elif cmd == "exec" and words[1] == "fixturegen" and "init" in words:
                start = time.monotonic()
                subprocess.run(
                    [binary, *words[2:]],
                    cwd=cwd,
                    env=env,
                    capture_output=True,
                    check=False,
                )
                times.append(time.monotonic() - start)
        return times
    finally:
        shutil.rmtree(work)


def main():
    runs, binaries = int(sys.argv[1]), sys.argv[2:]
    samples = collections.defaultdict(list)  # (binary, script, init) -> times
    for run in range(runs):
        for name, commands, files in scripts():
            for binary in binaries if run % 2 == 0 else binaries[::-1]:
                for i, t in enumerate(inits(binary, commands, files)):
                    samples[binary, name, i].append(t)
    for name, i in sorted({(k[1], k[2]) for k in samples}):
        medians = " ".join(
            f"{statistics.median(samples[b, name, i]):6.3f}" for b in binaries
        )
        print(f"{name} #{i}: {medians}")
    for b in binaries:
        total = sum(statistics.median(ts) for k, ts in samples.items() if k[0] == b)
        print(f"{b}: {total:.2f} s, the sum of the inits' medians over {runs} runs")


if __name__ == "__main__":
    main()
