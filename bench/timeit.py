"""Time whole commands side by side and print medians and their ratios.

Usage: python3 bench/timeit.py RUNS NAME=COMMAND [NAME=COMMAND ...]

The commands run interleaved (A, B, A, B, ...) so that a noisy neighbour on
a shared machine slows every command alike, and the medians are compared:
each line shows a command's median wall time and its ratio to the first.
Commands run through the shell, in the current directory.
"""

import statistics
import subprocess
import sys
import time


def main(argv):
    runs = int(argv[1])
    commands = [arg.split("=", 1) for arg in argv[2:]]
    times = {name: [] for name, _ in commands}
    for name, command in commands:  # one warm-up run each
        subprocess.run(command, shell=True, check=True, capture_output=True)
    for _ in range(runs):
        for name, command in commands:
            start = time.perf_counter()
            subprocess.run(command, shell=True, check=True, capture_output=True)
            times[name].append(time.perf_counter() - start)
    base = statistics.median(times[commands[0][0]])
    for name, _ in commands:
        median = statistics.median(times[name])
        print(f"{name:<24} median {median * 1000:8.2f} ms  ratio {median / base:5.2f}")


if __name__ == "__main__":
    main(sys.argv)
