#!/usr/bin/env bash
# What the generated deadline costs a cold import that runs under it.
#
#   bash bench/import_cost.sh [RUNS]       (default 21)
#
# A package of 200 modules (coldpkg.m000 ... coldpkg.m199, each a class,
# functions and constants, byte-compiled beforehand) is imported for the
# first time in a fresh pytest process, inside one test:
#
#   plain      the test uses no fixture;
#   armed      the test uses the generated deadline with on_import =
#              "exclude" and late_imports = "warn", and nothing preloaded,
#              so all 201 imports start under the armed alarm.
#
# Only the import loop is timed (wall and process CPU time), inside the
# test, so pytest's own start-up does not dilute the ratio. The runs alternate and the medians are
# compared. Target: armed/plain at most 1.05.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/spec.sh"
. "$root/bench/coldpkg.sh"
runs=${1:-21}
python=$(bash "$root/scripts/venv")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/fixturegen" "$root/cmd/fixturegen"

project=$work/project
mkdir -p "$project/tests"
cold_package "$project"
"$python" -m compileall -q "$project/coldpkg"

bench_spec 600 >"$project/fixturegen.toml"
"$work/fixturegen" -C "$project" generate >/dev/null

cat >"$project/tests/test_import.py" <<'PY'
import importlib
import os
import sys
import time

NAMES = ["coldpkg"] + [f"coldpkg.m{i:03d}" for i in range(200)]


def _import_all():
    assert not any(name in sys.modules for name in NAMES), "not a cold import"
    start, cpu = time.perf_counter(), time.process_time()
    for name in NAMES:
        importlib.import_module(name)
    took, cpu = time.perf_counter() - start, time.process_time() - cpu
    with open(os.environ["BENCH_OUT"], "a") as out:
        out.write(f"{took} {cpu}\n")


def test_plain():
    _import_all()


def test_armed(deadline):
    _import_all()
PY

pytest="$python -m pytest -q -p no:cacheprovider -p no:xdist -p no:rerunfailures --rootdir $project -c /dev/null"
pytest+=" -o pythonpath=$project -W ignore::UserWarning"
# One run of each must pass, and the armed one must have seen the imports.
armed_out=$(cd "$project" && BENCH_OUT=/dev/null $pytest -W default tests/test_import.py::test_armed 2>&1 || true)
case $armed_out in
  *"1 passed"*"imported coldpkg"*|*"imported coldpkg"*"1 passed"*) ;;
  *) echo "the armed run did not pass or did not report the late imports:" >&2; echo "$armed_out" >&2; exit 1 ;;
esac
echo "cold import of 201 modules inside one test; only the import loop is timed:"
"$python" "$root/bench/median_ratio.py" --self-timed "$runs" 1.05 \
  "plain=cd $project && $pytest tests/test_import.py::test_plain" \
  "armed=cd $project && $pytest tests/test_import.py::test_armed"
