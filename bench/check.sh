#!/usr/bin/env bash
# Times `fixturegen check` as a whole process against the grep the alarm
# contract's reference tells readers to run for the group's modules,
# `grep -rl 'xdist_group("mcp-sdk")' tests`, on the same synthetic tree of
# 10,000 test modules (see bench/checkbench). Targets: check's median wall
# time at most grep's (ratio <= 1.00), and its peak RSS under 64 MiB.
#
#   bash bench/check.sh [RUNS]
#
# The figures in bench/README.md come from this script. Run it on an idle
# machine: check reads on every core, grep on one, so a busy neighbour
# slows check more.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/fixturegen" "$root/cmd/fixturegen"
go build -o "$work/checkbench" "$root/bench/checkbench"
"$work/checkbench" gen "$work/tree"
cd "$work/tree"
"$work/fixturegen" generate >/dev/null
echo "check finds: $("$work/fixturegen" check | tail -n 1)"
echo "grep finds: $(grep -rl 'xdist_group("mcp-sdk")' tests | wc -l) modules"
"$work/checkbench" time "${1:-21}" \
  "$work/fixturegen check" \
  "grep -rl xdist_group(\"mcp-sdk\") tests"
echo "and with --list-group, which answers grep's question:"
"$work/checkbench" time "${1:-21}" \
  "$work/fixturegen check --list-group" \
  "grep -rl xdist_group(\"mcp-sdk\") tests"
