#!/usr/bin/env bash
# Times `fixturegen generate` on the bundled example when there is nothing to
# change, as a whole process, next to `true` (the cost of starting a process
# at all). Target: a median under 20 ms.
#
#   bash bench/generate.sh [RUNS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/fixturegen" "$root/cmd/fixturegen"
cp -r "$root/examples/inbox" "$work/inbox"
"$work/fixturegen" -C "$work/inbox" generate
python3 "$root/bench/median_ratio.py" "${1:-100}" 20ms \
  "true=true" \
  "generate=$work/fixturegen -C $work/inbox generate"
