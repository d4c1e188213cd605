#!/usr/bin/env bash
# Times the start-up row of bench/trees.sh alone: `fixturegen check` on a
# project of one test module (and the files generate writes) against
# `grep -rl --include='*.py' 'xdist_group("mcp-sdk")' tests`, target at
# most 2.00x, with bench/median_ratio.py, REPEAT times in a row. See
# bench/README.md for the figures.
#
#   bash bench/startup.sh [RUNS] [REPEAT]
#   bash bench/startup.sh --project DIR FIXTUREGEN   (writes the project only)
#
# With BEFORE set to another fixturegen binary (an older build), every run
# times it too, alternating with the others, and then the two builds alone
# (median_ratio.py --no-shell, 5 x RUNS runs): wall, CPU and page faults of
# the processes without the shell that starts them. The binary is built as a
# release is and copied, as bench/trees.sh explains. The script exits 1
# when a run misses the target.
set -euo pipefail

# project DIR FIXTUREGEN: the one-module project, generated.
project() {
  mkdir -p "$1/tests"
  cat >"$1/fixturegen.toml" <<'EOF'
version = 1

[deadline]
fixture = "recovery_deadline"
seconds = 5

[group]
name = "mcp-sdk"

[preload]
fixture = "mcp_sdk"
modules = ["json"]

[paths]
conftest = "tests/conftest.py"
probe_plugin = "tests/alarm_probe.py"
probe_tests = "tests/test_alarm_probe.py"
EOF
  printf 'import pytest\n\n\ndef test_one():\n    assert True\n' >"$1/tests/test_one.py"
  (cd "$1" && "$2" generate >/dev/null)
}

if [ "${1:-}" = --project ]; then
  project "$2" "$3"
  exit 0
fi

root=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-41}
repeat=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$work/fixturegen.linked" ./cmd/fixturegen)
cp "$work/fixturegen.linked" "$work/fixturegen"
fg=$work/fixturegen
before=${BEFORE:-}
project "$work/one" "$fg"
cd "$work/one"

# check and grep exit 1 when they find something; 2 is an error.
quiet() { printf '%s >/dev/null 2>&1; [ $? -le 1 ]' "$1"; }
grep_cmd="grep -rl --include='*.py' 'xdist_group(\"mcp-sdk\")' tests"
status=0
for _ in $(seq "$repeat"); do
  if [ -n "$before" ]; then
    python3 "$root/bench/median_ratio.py" "$runs" 2.00,- grep="$(quiet "$grep_cmd")" \
      before="$(quiet "$before check")" check="$(quiet "$fg check")" || status=1
  else
    python3 "$root/bench/median_ratio.py" "$runs" 2.00 grep="$(quiet "$grep_cmd")" \
      check="$(quiet "$fg check")" || status=1
  fi
  echo
done
# The processes alone, without the shell: check against the older build.
if [ -n "$before" ]; then
  python3 "$root/bench/median_ratio.py" --no-shell $((runs * 5)) - \
    before="$before check" check="$fg check"
fi
exit $status
