#!/usr/bin/env bash
# Runs each end-to-end script of testscripts/ alone, one after another, and
# prints its wall time and its CPU time (user + system, pytest and every
# other child included), slowest first, then the sums. The slowest scripts'
# figures are the ones cmd/fixturegen/script_test.go starts first
# (scriptSeconds); refresh them from this on a quiet machine.
#
# Usage: bash bench/testscripts.sh [NAME ...]   (default: every script)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cd "$root/cmd/fixturegen"
go test -c -o "$work/fixturegen.test" .
if [ $# -eq 0 ]; then
  set -- $(cd "$root/testscripts" && ls *.txtar | sed 's/\.txtar$//')
fi

export FIXTUREGEN_REQUIRE_PYTEST=1
failed=0
for name in "$@"; do
  TIMEFORMAT="$name %R %U %S"
  if ! { time "$work/fixturegen.test" -test.count=1 -test.run "TestScripts/^$name\$" >"$work/out" 2>&1; } 2>>"$work/times"; then
    echo "$name failed:" >&2
    cat "$work/out" >&2
    failed=1
  fi
done

echo "script  wall s  CPU s"
sort -k2 -g -r "$work/times" | awk '{printf "%s  %.1f  %.1f\n", $1, $2, $3 + $4}'
awk '{w += $2; c += $3 + $4} END {printf "sum of %d scripts  %.1f  %.1f\n", NR, w, c}' "$work/times"
exit $failed
