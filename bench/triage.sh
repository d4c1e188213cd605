#!/usr/bin/env bash
# Times `fixturegen triage` on a 100 MB pytest log against `grep -c` and
# `wc -l` on the same file, side by side, and prints the ratios and
# triage's peak RSS. Target: triage's median wall time under one second.
#
# The log is made up, and shaped like a large CI job's: 200,000 tests over
# four pytest-xdist workers with -v, reruns, a --durations section, and
# 2,000 failure sections whose tracebacks make up most of the bytes. The
# failures all land on gw1, whose later half fail with a half-import
# signature after a reconnect case ran 5.37 s and was rerun, so triage has
# a poisoned worker to find.
#
#   bash bench/triage.sh [RUNS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/fixturegen" "$root/cmd/fixturegen"
cat >"$work/gen.py" <<'PY'
import sys

tests, workers, failures, target = 200_000, 4, 2_000, int(sys.argv[2]) * 2**20
node = "tests/pkg{:03d}/test_mod{:04d}.py::test_case_{}".format
out = open(sys.argv[1], "w", buffering=1 << 20)
out.write("=" * 29 + " test session starts " + "=" * 30 + "\n")
out.write("platform linux -- Python 3.12.3, pytest-9.2.0, pluggy-1.7.0\n")
out.write("plugins: rerunfailures-16.7, xdist-3.8.0, timeout-2.4.0\n")
out.write(f"created: {workers}/{workers} workers\n{workers} workers [{tests} items]\n\n")
failed = []
poison = node(7, 700, 0)
for i in range(tests):
    n = node(i % 100, i // 100 % 10000, i % 7)
    w = i % workers
    pct = f"[{100 * (i + 1) // tests:3d}%]"
    if n == poison:
        out.write(f"[gw1] {pct} RERUN {n}@mcp-sdk\n[gw1] {pct} PASSED {n}@mcp-sdk\n")
        continue
    out.write(f"{n}\n")
    if i % (tests // failures) == 1:
        failed.append((n, w))
        out.write(f"[gw{w}] {pct} RERUN {n}\n[gw{w}] {pct} FAILED {n}\n")
    else:
        out.write(f"[gw{w}] {pct} PASSED {n}\n")
out.write("\n" + "=" * 35 + " FAILURES " + "=" * 35 + "\n")
body = 0
per = None
for k, (n, w) in enumerate(failed):
    name = n.split("::")[1]
    out.write(f"{'_' * 30} {name} {'_' * 30}\n[gw{w}] linux -- Python 3.12.3 /home/ci/venv/bin/python\n\n")
    frame = "    frame {}: value = compute(item_{}, retries=3, backoff=0.25)  # captured {}\n".format
    if per is None:
        per = (target - out.tell()) // len(failed) // len(frame(500, 500, 1000))
    for j in range(per):
        out.write(frame(j, j, k))
    if k > len(failed) // 2:
        out.write("E       AttributeError: 'module' object at mcp.server.stdio has no attribute 'stdio'\n")
    else:
        out.write("E       AssertionError: assert 3 == 4\n")
    out.write(f"\n{n.split('::')[0]}:12: AssertionError\n")
out.write("=" * 30 + " slowest durations " + "=" * 31 + "\n")
out.write(f"5.37s call     {poison}@mcp-sdk\n1.20s setup    {poison}@mcp-sdk\n")
out.write("=" * 27 + " short test summary info " + "=" * 28 + "\n")
for n, _ in failed:
    out.write(f"FAILED {n}\n")
out.write(f"{'=' * 20} {len(failed)} failed, {tests - len(failed)} passed in 3600.00s {'=' * 20}\n")
PY
python3 "$work/gen.py" "$work/ci.log" 100
python3 "$work/gen.py" "$work/small.log" 25
cat >"$work/fixturegen.toml" <<'TOML'
version = 1

[deadline]
fixture = "recovery_deadline"
seconds = 5
message = "recovery loop exceeded its deadline"

[preload]
fixture = "mcp_sdk"
modules = ["fakeredis"]

[group]
name = "mcp-sdk"

[paths]
conftest = "tests/conftest.py"
TOML
cd "$work"
echo "log: $(du -m ci.log | cut -f1) MB, $(wc -l <ci.log) lines"
echo "triage says: $(./fixturegen triage ci.log | grep -m1 '^poisoned worker' | cut -c1-120)..."
python3 "$root/bench/median_ratio.py" "${1:-7}" 1000ms "grep=grep -c FAILED ci.log" "triage=./fixturegen triage ci.log >/dev/null; test \$? = 1"
python3 "$root/bench/median_ratio.py" "${1:-7}" 1000ms "wc=wc -l ci.log" "triage=./fixturegen triage ci.log >/dev/null; test \$? = 1"
# Peak RSS follows the number of test runs, not the bytes: the same
# 200,000 tests in a quarter of the bytes cost as much memory.
for log in ci.log small.log; do
  python3 - "$log" <<'PY'
import resource, subprocess, sys
subprocess.run(["./fixturegen", "triage", sys.argv[1]], stdout=subprocess.DEVNULL)
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(f"peak RSS of triage on {sys.argv[1]} ({__import__('os').path.getsize(sys.argv[1]) >> 20} MB): {rss:.1f} MiB")
PY
done
