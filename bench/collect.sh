#!/usr/bin/env bash
# Times `fixturegen check --collect` on the example against a bare
# `python -m pytest --collect-only -q` there, side by side. Target: a ratio
# of at most 1.2.
#
# Both run without writing bytecode (check --collect never writes into the
# project), so neither gains from the other's cache.
#
#   bash bench/collect.sh [RUNS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
python=$(bash "$root/scripts/venv")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/fixturegen" "$root/cmd/fixturegen"
cd "$root/examples/inbox"
echo "check --collect finds: $("$work/fixturegen" check --collect --python "$python" | tail -n 1)"
echo "pytest collects: $(PYTHONDONTWRITEBYTECODE=1 "$python" -m pytest --collect-only -q | tail -n 1)"
python3 "$root/bench/median_ratio.py" "${1:-21}" 1.2 \
  "bare=PYTHONDONTWRITEBYTECODE=1 $python -m pytest --collect-only -q" \
  "collect=$work/fixturegen check --collect --python $python"
