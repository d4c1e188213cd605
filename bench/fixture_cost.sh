#!/usr/bin/env bash
# What the generated deadline fixture costs a suite of trivial tests.
#
#   bash bench/fixture_cost.sh [RUNS]      (default 7)
#
# Three copies of one suite of 2,000 trivial tests (20 files of 100), each
# test using the deadline fixture through its module's pytestmark:
#
#   empty        the conftest defines the preload and deadline fixtures as
#                two empty yield fixtures, the second depending on the first;
#   handwritten  the deadline fixture is the reference's hand-written one:
#                signal.signal and signal.setitimer, restored afterwards;
#   generated    the conftest holds the region fixturegen generates, with its
#                runtime (on_import = "exclude", late_imports = "warn").
#
# Each run is a whole `pytest -q` process; the runs alternate, and the
# medians are compared, side by side. Targets: generated/empty at most 1.03,
# generated/handwritten at most 1.02.
#
# With BENCH_INSTRUCTIONS=1 (and valgrind installed), each suite also runs
# once under callgrind and the instruction counts are compared: a count does
# not move with what else the machine is doing, so on a shared machine it is
# the steadier measure of the same ratios.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/spec.sh"
runs=${1:-7}
python=$(bash "$root/scripts/venv")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/fixturegen" "$root/cmd/fixturegen"

mkdir -p "$work/generated/tests" "$work/empty/tests" "$work/handwritten/tests"
for f in $(seq -w 0 19); do
  {
    printf 'import pytest\n\npytestmark = pytest.mark.usefixtures("deadline")\n'
    for t in $(seq -w 0 99); do printf '\n\ndef test_%s():\n    pass\n' "$t"; done
  } >"$work/generated/tests/test_$f.py"
done
cp "$work"/generated/tests/test_*.py "$work/empty/tests/"
cp "$work"/generated/tests/test_*.py "$work/handwritten/tests/"

bench_spec 30 >"$work/generated/fixturegen.toml"
"$work/fixturegen" -C "$work/generated" generate >/dev/null

cat >"$work/empty/tests/conftest.py" <<'PY'
import pytest


@pytest.fixture
def preload():
    yield


@pytest.fixture
def deadline(preload):
    yield
PY

cat >"$work/handwritten/tests/conftest.py" <<'PY'
import signal

import pytest


@pytest.fixture
def preload():
    yield


@pytest.fixture
def deadline(preload):
    def on_alarm(signum, frame):
        raise AssertionError("test exceeded its deadline")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, 30)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
PY

pytest="$python -m pytest -q -p no:cacheprovider -p no:xdist -p no:rerunfailures tests"
for project in empty handwritten generated; do
  out=$(cd "$work/$project" && $pytest 2>&1 | tail -1)
  case $out in
    *"2000 passed"*) ;;
    *) echo "the $project suite does not pass: $out" >&2; exit 1 ;;
  esac
done
echo "2,000 trivial tests, each using the deadline fixture; whole pytest runs:"
status=0
"$python" "$root/bench/median_ratio.py" "$runs" 1.03,1.02 \
  "empty=cd $work/empty && $pytest" \
  "handwritten=cd $work/handwritten && $pytest" \
  "generated=cd $work/generated && $pytest" || status=$?

if [ "${BENCH_INSTRUCTIONS:-}" = 1 ]; then
  echo "instructions executed, one run each under callgrind:"
  declare -A count
  for project in empty handwritten generated; do
    count[$project]=$(cd "$work/$project" &&
      valgrind --tool=callgrind --callgrind-out-file=/dev/null $pytest 2>&1 >/dev/null |
      sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
    echo "$project ${count[$project]}"
  done
  python3 -c "import sys; e, h, g = map(int, sys.argv[1:]); print(f'ratio generated/empty: instructions {g / e:.3f} (target 1.03)   generated/handwritten: instructions {g / h:.3f} (target 1.02)')" \
    "${count[empty]}" "${count[handwritten]}" "${count[generated]}"
fi
exit $status
