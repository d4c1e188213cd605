#!/usr/bin/env bash
# What installing pytest-import-shield costs a pytest-timeout user.
#
#   bash bench/plugin_cost.sh [RUNS]       (default 15)
#   BENCH_ONLY=import bash bench/plugin_cost.sh   (the import alone)
#
# The plugin's wheel, as the release builds it (internal/dist/pluginwheel), is
# unpacked where pip would put it and found through PYTHONPATH. Two
# measurements, side by side in one run:
#
#   warm     2,000 trivial tests (20 files of 100), whole pytest runs under
#            pytest-timeout's signal method (--timeout 30), without the
#            plugin (-p no:import_shield) and with it; target with/without
#            at most 1.03;
#   import   the plugin's import at pytest start: importing
#            pytest_import_shield in a process that has imported pytest, as
#            pytest's entry-point loading does, timed by the process itself;
#            target under 5 ms. "nothing" times an empty statement the same
#            way, to show the timer's own floor.
#
# The runs alternate after a warm-up each, and the medians are compared
# (bench/median_ratio.py).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-15}
python=$(bash "$root/scripts/venv")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

(cd "$root" && go run ./internal/dist/pluginwheel "$work/dist" >/dev/null)
"$python" -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' \
  "$work"/dist/pytest_import_shield-*.whl "$work/site"
# pip byte-compiles what it installs; so does this, once.
"$python" -m compileall -q "$work/site"
export PYTHONPATH=$work/site

mkdir -p "$work/warm/tests"
for f in $(seq -w 0 19); do
  {
    printf 'import pytest\n'
    for t in $(seq -w 0 99); do printf '\n\ndef test_%s():\n    pass\n' "$t"; done
  } >"$work/warm/tests/test_$f.py"
done

cat >"$work/import.py" <<'PY'
"""Time one import of the module named by argv[1] after pytest's, into $BENCH_OUT."""
import os
import sys
import time

import pytest  # noqa: F401

wall, cpu = time.perf_counter(), time.process_time()
if sys.argv[1] != "-":
    __import__(sys.argv[1])
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
with open(os.environ["BENCH_OUT"], "a") as out:
    out.write(f"{wall} {cpu}\n")
PY

pytest="$python -m pytest -q -p no:cacheprovider -p no:xdist -p no:randomly --timeout 30 --timeout-method signal"
status=0
if [ "${BENCH_ONLY:-}" != import ]; then
echo "warm run of 2,000 tests under pytest-timeout, without and with the plugin:"
"$python" "$root/bench/median_ratio.py" "$runs" 1.03 \
  "without=cd $work/warm && $pytest --rootdir . -p no:import_shield tests" \
  "with=cd $work/warm && $pytest --rootdir . tests" || status=$?
fi
echo "importing the plugin at pytest start:"
"$python" "$root/bench/median_ratio.py" --self-timed "$runs" 5ms \
  "nothing=$python $work/import.py -" \
  "plugin=$python $work/import.py pytest_import_shield" || status=$?
exit $status
