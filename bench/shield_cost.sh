#!/usr/bin/env bash
# What the import shield costs a pytest-timeout user.
#
#   bash bench/shield_cost.sh [RUNS]       (default 15)
#
# pytest-timeout runs with the signal method (--timeout 30), so every test
# has pytest-timeout's SIGALRM handler installed, which the shield holds
# during each first import. Two measurements, each plain (no fixturegen)
# against shielded (a spec with only [shield], its region in
# tests/conftest.py):
#
#   warm     2,000 trivial tests (20 files of 100), whole pytest runs;
#            target shielded/plain at most 1.03;
#   cold     a package of 200 modules (coldpkg.m000 ... m199, byte-compiled
#            beforehand) imported for the first time inside one test, each
#            module by importlib.import_module, so all 201 imports are
#            outermost first imports under pytest-timeout's handler; only
#            the import loop is timed; target shielded/plain at most 1.05.
#            A third copy, wrapped, has the shield hold no signal
#            (signals = []): the wrapper's cost alone, printed beside.
#
# The runs alternate after a warm-up each, and the medians are compared.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/coldpkg.sh"
runs=${1:-15}
python=$(bash "$root/scripts/venv")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/fixturegen" "$root/cmd/fixturegen"

shield_spec() {
  printf 'version = 1\n\n[shield]\n\n[paths]\nconftest = "tests/conftest.py"\n'
}

# The warm suite.
mkdir -p "$work/warm-plain/tests" "$work/warm-shielded/tests"
for f in $(seq -w 0 19); do
  {
    printf 'import pytest\n'
    for t in $(seq -w 0 99); do printf '\n\ndef test_%s():\n    pass\n' "$t"; done
  } >"$work/warm-plain/tests/test_$f.py"
done
cp "$work"/warm-plain/tests/test_*.py "$work/warm-shielded/tests/"
shield_spec >"$work/warm-shielded/fixturegen.toml"
"$work/fixturegen" -C "$work/warm-shielded" generate >/dev/null

# The cold package, in two copies of one project.
project=$work/cold-plain
mkdir -p "$project/tests"
cold_package "$project"
cat >"$project/tests/test_import.py" <<'PY'
import importlib
import os
import signal
import sys
import time

NAMES = ["coldpkg"] + [f"coldpkg.m{i:03d}" for i in range(200)]


def test_cold_import():
    assert not any(name in sys.modules for name in NAMES), "not a cold import"
    assert callable(signal.getsignal(signal.SIGALRM)), "no pytest-timeout handler"
    start, cpu = time.perf_counter(), time.process_time()
    for name in NAMES:
        importlib.import_module(name)
    took, cpu = time.perf_counter() - start, time.process_time() - cpu
    with open(os.environ["BENCH_OUT"], "a") as out:
        out.write(f"{took} {cpu}\n")
PY
"$python" -m compileall -q "$project/coldpkg"
cp -rp "$project" "$work/cold-shielded"
shield_spec >"$work/cold-shielded/fixturegen.toml"
"$work/fixturegen" -C "$work/cold-shielded" generate >/dev/null
# A control: the same runtime and wrapper, holding no signal, to tell the
# wrapper's cost from the cost of holding pytest-timeout's handler.
cp -rp "$project" "$work/cold-wrapped"
shield_spec | sed 's/^\[shield\]$/[shield]\nsignals = []/' >"$work/cold-wrapped/fixturegen.toml"
"$work/fixturegen" -C "$work/cold-wrapped" generate >/dev/null

pytest="$python -m pytest -q -p no:cacheprovider -p no:xdist -p no:rerunfailures -c /dev/null --timeout 30 --timeout-method signal"
for project in warm-plain warm-shielded cold-plain cold-wrapped cold-shielded; do
  out=$(cd "$work/$project" && BENCH_OUT=/dev/null $pytest --rootdir "$work/$project" -o pythonpath=. tests 2>&1 | tail -1)
  case $out in
    *" passed"*) ;;
    *) echo "the $project suite does not pass: $out" >&2; exit 1 ;;
  esac
done
status=0
echo "2,000 trivial tests under pytest-timeout's signal method; whole pytest runs:"
"$python" "$root/bench/median_ratio.py" "$runs" 1.03 \
  "plain=cd $work/warm-plain && $pytest --rootdir . tests" \
  "shielded=cd $work/warm-shielded && $pytest --rootdir . tests" || status=$?
echo "cold import of 201 modules under pytest-timeout's handler; only the import loop is timed:"
"$python" "$root/bench/median_ratio.py" --self-timed "$runs" 1.05,- \
  "plain=cd $work/cold-plain && $pytest --rootdir . -o pythonpath=. tests" \
  "wrapped=cd $work/cold-wrapped && $pytest --rootdir . -o pythonpath=. tests" \
  "shielded=cd $work/cold-shielded && $pytest --rootdir . -o pythonpath=. tests" || status=$?
exit $status
