#!/usr/bin/env bash
# Runs end-to-end scripts of testscripts/ under a CPU hog and prints how
# many of the runs of each passed. The scripts wait on real timers (pytest's
# deadlines, pytest-timeout, planted cold imports), so a script whose
# assertions depend on how fast the machine is passes on a quiet machine and
# fails on a busy one; this makes the machine busy on purpose. HOGS busy
# loops (default 2) run for the whole time and are ended on exit; the
# scripts named run together, RUNS rounds of them (default 10), as
# go test -count=RUNS runs them. A failed run's output is kept in
# $OUT (default a temporary folder, printed at the end).
#
# Usage: bash bench/underload.sh [NAME ...]
#        RUNS=10 HOGS=2 bash bench/underload.sh triage_timeout probe_fix
# With no NAME, the six scripts that once failed only under load:
# triage_timeout, probe_fix, late_import_xdist, generate_deadline,
# adopt_timeout_pytest_fail_fallback and shield_rollback.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-10}
hogs=${HOGS:-2}
out=${OUT:-$(mktemp -d)}
if [ $# -eq 0 ]; then
  set -- triage_timeout probe_fix late_import_xdist generate_deadline \
    adopt_timeout_pytest_fail_fallback shield_rollback
fi

cd "$root/cmd/fixturegen"
go test -c -o "$out/fixturegen.test" .

pids=()
stop() {
  # Only the loops started here, by their process ids.
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
}
trap stop EXIT
for _ in $(seq "$hogs"); do
  (while :; do :; done) &
  pids+=($!)
done

pattern="TestScripts/^($(IFS='|'; echo "$*"))\$"
export FIXTUREGEN_REQUIRE_PYTEST=1
start=$(date +%s)
status=0
"$out/fixturegen.test" -test.v -test.count="$runs" -test.run "$pattern" >"$out/log" 2>&1 || status=$?
stop
end=$(date +%s)

echo "$runs runs of each, $hogs busy loops, load average at the end: $(cut -d' ' -f1-3 /proc/loadavg), $((end - start)) s"
echo "script  passed  failed"
for name in "$@"; do
  passed=$(grep -c -- "--- PASS: TestScripts/$name " "$out/log" || true)
  failed=$(grep -c -- "--- FAIL: TestScripts/$name " "$out/log" || true)
  echo "$name  $passed/$runs  $failed"
done
echo "go test output: $out/log"
# A test binary that failed without a script failing (a build or set-up
# error) must not read as ten passes of nothing.
if [ "$status" -ne 0 ] && ! grep -q -- "--- FAIL: TestScripts/" "$out/log"; then
  tail -20 "$out/log" >&2
fi
exit $status
