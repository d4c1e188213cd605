#!/usr/bin/env bash
# Times `fixturegen check` at the roots of real projects, with their CI
# files, pyproject.toml, tox.ini and setup.cfg in place, against one
# `grep -rl` of the folder check scans, side by side: medians of RUNS
# (11) interleaved runs each (bench/median_ratio.py), with the ratio and
# its target, 1.50. See bench/README.md for the figures.
#
#   FIXTUREGEN_BENCH_SYMPY=/tmp/sympy FIXTUREGEN_BENCH_TWISTED=/tmp/twisted \
#   FIXTUREGEN_BENCH_CPYTHON=/tmp/cpython bash bench/roots.sh [RUNS]
#
# Each variable names a checkout of the project (a clone or an archive of
# it; never commit one here). A variable that is unset, or names no such
# tree, skips its row. The rows:
#
#   sympy     check --scan sympy at sympy's root
#   twisted   check --scan src/twisted at twisted's root
#   cpython   check --scan Lib/test at CPython's root
#
# check reads the spec fixturegen-bench.toml, which the script writes at
# the project's root for the run and removes after it: a deadline spec
# whose conftest is in the scanned folder, so the configuration check
# reads is the project's own. The script exits 1 when a row misses its
# target. Run it on a quiet machine.
#
# With BEFORE set to another fixturegen binary (an older build), each row
# times it too, alternating with the others, and prints check's ratio to
# it beside the ratio to grep (no target).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-11}
work=$(mktemp -d)
specs=()
cleanup() {
  rm -rf "$work"
  if [ ${#specs[@]} -gt 0 ]; then rm -f "${specs[@]}"; fi
}
trap cleanup EXIT
# Built as a release is (docs/releasing.md), then copied, as bench/trees.sh
# explains.
(cd "$root" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$work/fixturegen.linked" ./cmd/fixturegen)
cp "$work/fixturegen.linked" "$work/fixturegen"
fg=$work/fixturegen
status=0
measured=0

row() { # NAME TREE SCAN
  local name=$1 tree=$2 scan=$3
  if [ -z "$tree" ] || [ ! -d "$tree/$scan" ]; then
    echo "== $name: skipped (set its FIXTUREGEN_BENCH_ variable to a checkout holding $scan/)"
    echo
    return
  fi
  tree=$(cd "$tree" && pwd)
  local spec=$tree/fixturegen-bench.toml
  specs+=("$spec")
  cat >"$spec" <<SPEC
version = 1

[deadline]
fixture = "recovery_deadline"
seconds = 1

[preload]
fixture = "toy_sdk"
modules = ["json"]

[group]
name = "mcp-sdk"

[paths]
conftest = "$scan/conftest.py"
SPEC
  echo "== $name: check --scan $scan at the root, against grep -rl over $scan/"
  # check and grep exit 1 when they find something; 2 is an error.
  local target=1.50 older=()
  if [ -n "${BEFORE:-}" ]; then
    target=1.50,-
    older=("before=$BEFORE --spec fixturegen-bench.toml check --scan $scan >/dev/null 2>&1; [ \$? -le 1 ]")
  fi
  (cd "$tree" && python3 "$root/bench/median_ratio.py" "$runs" "$target" \
    grep="grep -rl --include='*.py' 'xdist_group(\"mcp-sdk\")' $scan >/dev/null 2>&1; [ \$? -le 1 ]" \
    "${older[@]}" \
    check="$fg --spec fixturegen-bench.toml check --scan $scan >/dev/null 2>&1; [ \$? -le 1 ]") || status=1
  measured=$((measured + 1))
  echo
}

row sympy "${FIXTUREGEN_BENCH_SYMPY:-}" sympy
row twisted "${FIXTUREGEN_BENCH_TWISTED:-}" src/twisted
row cpython "${FIXTUREGEN_BENCH_CPYTHON:-}" Lib/test
if [ "$measured" -eq 0 ]; then
  echo "no tree measured: set FIXTUREGEN_BENCH_SYMPY, FIXTUREGEN_BENCH_TWISTED or FIXTUREGEN_BENCH_CPYTHON"
fi
exit $status
