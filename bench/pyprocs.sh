#!/usr/bin/env bash
# Counts the Python processes the end-to-end scripts start and the CPU time
# they take, by kind and by script, beside the CPU time of the whole test
# binary: the share of go test's time that pytest's own start-up sets and
# no change to fixturegen can lower.
#
# For the length of the run it puts a .pth file into the test venv's
# site-packages that makes every Python process there note its start, and
# append one line at exit (its kind, its own CPU time, its working folder
# and its command line) to a log, and it removes the file again on exit. A
# process that ends by a signal or by os._exit (pytest-timeout's thread
# method, a probe's killed inner run) writes no exit line: it is counted
# apart, its CPU unknown. The kinds:
#   pytest  a command line that names pytest: a session's controller, a
#           serial run, a probe case's inner run;
#   worker  a pytest-xdist worker (started with -c, execnet loaded);
#   other   any other Python process.
# A process is charged to the script whose $WORK its working folder is in,
# or to "(setup)" outside every script's.
#
# Beside the scripts it times one trivial pytest run (one passing test,
# serial, in the test venv) seven times before the scripts and seven after,
# and prints the binary's CPU time as a number of such runs, from the
# slower calibration to the faster one. A pytest process here has cost
# 0.3 s to 0.6 s of CPU on average from one day to the next, so a count of
# runs compares days better than seconds do, and the two calibrations show
# how far the machine's own speed moved during the run.
#
# Usage: bash bench/pyprocs.sh [NAME ...]   (default: every script)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
python=$(bash "$root/scripts/venv")
site=$("$python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')
work=$(mktemp -d)
hook=$site/_fixturegen_bench_pyprocs
trap 'rm -f "$hook.pth" "$hook.py"; rm -rf "$work"' EXIT

cd "$root/cmd/fixturegen"
go test -c -o "$work/fixturegen.test" .

cat >"$hook.py" <<EOF
import atexit
import os
import resource
import sys

with open("$work/starts", "a") as log:
    log.write("%d\n" % os.getpid())


def _record():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    line = " ".join(sys.argv)
    if sys.argv[:1] == ["-c"] and "execnet" in sys.modules:
        kind = "worker"
    elif "pytest" in line:
        kind = "pytest"
    else:
        kind = "other"
    try:
        folder = os.getcwd()
    except OSError:
        folder = "(gone)"
    with open("$work/log", "a") as log:
        log.write("%s\t%.3f\t%s\t%s\n" % (kind, usage.ru_utime + usage.ru_stime, folder, line[:200].replace("\t", " ").replace("\n", " ")))


atexit.register(_record)
EOF
# Prints the median CPU time (user + system, children included) of seven
# trivial pytest runs, one after another.
trivial() {
  "$python" - "$work/trivial" <<'PY'
import os, resource, statistics, subprocess, sys

folder = sys.argv[1]
os.makedirs(folder, exist_ok=True)
with open(os.path.join(folder, "test_trivial.py"), "w") as f:
    f.write("def test_passes():\n    pass\n")
cpu = []
for _ in range(7):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "test_trivial.py"], cwd=folder, stdout=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
print("%.3f" % statistics.median(cpu))
PY
}
trivial_before=$(trivial)

: >"$work/starts"
: >"$work/log"
echo "import _fixturegen_bench_pyprocs" >"$hook.pth"

run=TestScripts
if [ $# -gt 0 ]; then
  run="TestScripts/^($(IFS='|'; echo "$*"))\$"
fi
TIMEFORMAT="%R %U %S"
{ time FIXTUREGEN_REQUIRE_PYTEST=1 "$work/fixturegen.test" -test.count=1 -test.run "$run" >"$work/out" 2>&1; } 2>"$work/time" || {
  cat "$work/out" >&2
  exit 1
}
rm -f "$hook.pth"
trivial_after=$(trivial)

read -r wall user sys <"$work/time"
echo "kind  processes  CPU s  CPU s each"
awk -F'\t' '{n[$1]++; c[$1] += $2} END {for (k in n) printf "%s  %d  %.1f  %.3f\n", k, n[k], c[k], c[k] / n[k]}' "$work/log" | sort
awk -F'\t' -v wall="$wall" -v user="$user" -v sys="$sys" '{n++; c += $2} END {
  cpu = user + sys
  printf "all Python  %d  %.1f  of the test binary'\''s %.1f s of CPU (%.0f%%) in %.1f s wall\n", n, c, cpu, 100 * c / cpu, wall
}' "$work/log"
awk -v a="$trivial_before" -v b="$trivial_after" -v user="$user" -v sys="$sys" 'BEGIN {
  printf "a trivial pytest run  %.3f s of CPU before the scripts, %.3f s after: the test binary'\''s CPU is %.0f to %.0f such runs\n", a, b, (user + sys) / (a > b ? a : b), (user + sys) / (a > b ? b : a)
}'
echo "ended without an exit line (a signal or os._exit)  $(( $(wc -l <"$work/starts") - $(wc -l <"$work/log") ))"
echo
echo "script  processes  workers  CPU s"
awk -F'\t' '{
  s = "(setup)"
  if (match($3, /\/script-[A-Za-z0-9_]+/)) s = substr($3, RSTART + 8, RLENGTH - 8)
  n[s]++; c[s] += $2; if ($1 == "worker") w[s]++
} END {for (k in n) printf "%s  %d  %d  %.1f\n", k, n[k], w[k], c[k]}' "$work/log" | sort -k4 -g -r
