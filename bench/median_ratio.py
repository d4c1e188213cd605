"""Run measurements interleaved and print their medians and ratios.

Usage: python3 bench/median_ratio.py [--self-timed | --no-shell] RUNS TARGET BASE=COMMAND [BASE2=COMMAND ...] NAME=COMMAND

TARGET is the largest acceptable ratio of NAME's wall-time median to BASE's
(1.10), or, written with "ms", the largest acceptable wall-time median of
NAME itself (20ms); BASE then shows what starting any process costs. With
more than one base, TARGET lists one ratio per base, comma-separated
(1.03,1.02), and NAME is compared with each, side by side; a target of -
prints the ratio without a verdict (an older build, timed for comparison).

Each COMMAND runs through the shell and is measured twice: wall time, and
CPU time (user + system, the command and all its children). With
--self-timed, each command instead appends its own measurement to the file
named by $BENCH_OUT, one line of "WALL CPU" seconds, so that a benchmark
can time just the part it is about.

With --no-shell, each COMMAND is split into words (shlex) and run without
a shell, its output thrown away, so that what is timed is the process
alone: a command of a few milliseconds, such as check on a small project,
is otherwise measured together with the shell that starts it. The medians
of each command's minor page faults are printed too.

The commands alternate (A, B, A, B, ...) after one warm-up run each,
so a noisy neighbour slows both alike. The verdict is on the ratio of the
wall-time medians, NAME/BASE, against TARGET; the CPU-time ratio is printed
beside it because on a shared machine it is the steadier of the two.
"""

import os
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure_alone(command):
    """Wall time, CPU time and minor page faults of COMMAND run without a shell."""
    argv = shlex.split(command)
    with open(os.devnull, "wb") as null:
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdout=null, stderr=null)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode not in (0, 1):  # 1 is a finding, 2 an error
        sys.exit(f"exit status {child.returncode}: {command}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_minflt


def measure(command, self_timed):
    with tempfile.NamedTemporaryFile("r", suffix=".txt") as out:
        env = dict(os.environ, BENCH_OUT=out.name)
        cpu, start = children_cpu(), time.perf_counter()
        subprocess.run(command, shell=True, check=True, capture_output=True, env=env)
        wall, cpu = time.perf_counter() - start, children_cpu() - cpu
        lines = out.read().split("\n")
    if not self_timed:
        return wall, cpu
    pairs = [tuple(float(x) for x in line.split()) for line in lines if line.strip()]
    if not pairs:
        sys.exit(f"--self-timed, but this command wrote no measurement: {command}")
    return sum(p[0] for p in pairs), sum(p[1] for p in pairs)


def main(argv):
    if len(argv) > 1 and argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0
    self_timed = len(argv) > 1 and argv[1] == "--self-timed"
    alone = len(argv) > 1 and argv[1] == "--no-shell"
    if self_timed or alone:
        argv = argv[1:]
    if len(argv) < 5 or not argv[1].isdigit() or not all("=" in a for a in argv[3:]):
        # 1 is a missed target; a command line it cannot read is 2.
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    runs, targets = int(argv[1]), argv[2].split(",")
    commands = [arg.split("=", 1) for arg in argv[3:]]
    *bases, (name, _) = commands
    if len(targets) != len(bases):
        sys.exit(f"{len(bases)} base command(s) need as many targets, not {argv[2]}")
    samples = {label: [] for label, _ in commands}

    def run(command):
        return measure_alone(command) if alone else measure(command, self_timed)

    for _, command in commands:
        run(command)
    for _ in range(runs):
        for label, command in commands:
            samples[label].append(run(command))
    wall = {k: statistics.median(s[0] for s in v) for k, v in samples.items()}
    cpu = {k: statistics.median(s[1] for s in v) for k, v in samples.items()}
    for k, v in samples.items():
        walls = [s[0] for s in v]
        faults = ""
        if alone:
            faults = f"   faults median {statistics.median(s[2] for s in v):6.0f}"
        print(
            f"{k:<11} wall median {wall[k] * 1000:9.1f} ms (min {min(walls) * 1000:.1f}, "
            f"max {max(walls) * 1000:.1f}; {runs} runs)   cpu median {cpu[k] * 1000:9.1f} ms{faults}"
        )
    met_all = True
    for (base, _), target in zip(bases, targets):
        ratio, cpu_ratio = wall[name] / wall[base], cpu[name] / cpu[base]
        if target == "-":
            print(f"ratio {name}/{base}: wall {ratio:.3f}, cpu {cpu_ratio:.3f}")
            continue
        if target.endswith("ms"):
            met = wall[name] * 1000 <= float(target[:-2])
            verdict = f"{name} median {'within' if met else 'MISSES'} the target {target}"
        else:
            met = ratio <= float(target)
            verdict = f"{'within' if met else 'MISSES'} the target {target}"
        print(f"ratio {name}/{base}: wall {ratio:.3f} ({verdict}), cpu {cpu_ratio:.3f}")
        met_all = met_all and met
    return 0 if met_all else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
