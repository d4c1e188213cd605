#!/usr/bin/env bash
# Times one probe case, as the generated probe test runs it (a fresh
# interpreter with the recording plugin), against a bare `python -m pytest
# NODE` of the same case, side by side. Target: a ratio of at most 1.2.
#
# The toy SDK's planted cold-import cost is set to zero here, so pytest's own
# start-up dominates and the plugin's overhead shows as clearly as it can.
#
#   bash bench/probe.sh [RUNS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
python=$(bash "$root/scripts/venv")
cd "$root/examples/inbox"
node=tests/inbox/test_channel_reconnect.py::test_pending_items
common="TOYSDK_COLD_SECONDS=0 PYTHONDONTWRITEBYTECODE=1 $python -m pytest -o addopts= -p no:cacheprovider -q"
python3 "$root/bench/median_ratio.py" "${1:-20}" 1.2 \
  "bare=$common $node" \
  "probe=PYTHONPATH=tests/inbox $common -p alarm_probe $node"
