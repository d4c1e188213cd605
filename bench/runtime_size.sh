#!/usr/bin/env bash
# How much runtime each shape of spec gets, and how much of it the
# example's suite runs.
#
#   bash bench/runtime_size.sh            (BINARY=PATH measures another build)
#
# For each shape, generated into a copy of examples/inbox: the runtime's
# lines (wc -l), and its statements and the share of them that ran
# (coverage.py's figures) when the example's suite runs serially with two
# reruns, pytest-timeout's signal method at 1 s wherever a shape holds the
# shield (so the toy SDK's 1.2 s cold import is held), and a coverage.py
# measurement restricted to the runtime file. coverage.py is no dependency
# of the project: the script installs it into a temporary folder with pip
# when the project's Python lacks it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
python=$(bash "$root/scripts/venv")
work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
binary=${BINARY:-}
if [ -z "$binary" ]; then
  binary=$work/fixturegen
  go build -o "$binary" "$root/cmd/fixturegen"
fi
covpath=
if ! "$python" -c 'import coverage' 2>/dev/null; then
  "$python" -m pip install -q --target "$work/cov" 'coverage==7.17.3'
  covpath=$work/cov
fi

example=$root/examples/inbox
spec=$(cat "$example/fixturegen.toml")
shield=$'\n[shield]\n'
shield_only=$'version = 1\n\n[shield]\n\n[paths]\nconftest = "tests/inbox/conftest.py"\n'
thread=$(printf '%s\n' "$spec" | sed -e 's/^timer = "real"/timer = "thread"\nautouse = true\nseconds_env = "SUITE_TEST_LIMIT"/' -e '/^\[group\]$/,/^name = /d')

printf '%-18s %7s %10s %8s\n' shape lines statements covered
[ -z "${KEEP:-}" ] || echo "work folder: $work"
for shape in deadline deadline+shield shield-only thread-autouse; do
  dir=$work/$shape
  cp -r "$example" "$dir"
  rm -f "$dir"/tests/inbox/_fixturegen_runtime.py
  case $shape in
  deadline) printf '%s\n' "$spec" >"$dir/fixturegen.toml" ;;
  deadline+shield) printf '%s\n%s' "$spec" "$shield" >"$dir/fixturegen.toml" ;;
  shield-only)
    printf '%s' "$shield_only" >"$dir/fixturegen.toml"
    rm -f "$dir"/tests/inbox/alarm_probe.py "$dir"/tests/inbox/test_channel_reconnect_alarm.py
    # The suite as a pytest-timeout user has it: no deadline fixture.
    "$python" - "$dir" <<'PY'
import pathlib, re, sys
d = pathlib.Path(sys.argv[1]) / "tests" / "inbox"
c = (d / "conftest.py").read_text()
(d / "conftest.py").write_text(re.sub(r"\n\n# fixturegen:begin.*# fixturegen:end\n", "\n", c, flags=re.S))
t = d / "test_channel_reconnect.py"
t.write_text(t.read_text().replace('    pytest.mark.usefixtures("toy_sdk", "recovery_deadline"),\n', ""))
PY
    ;;
  thread-autouse) printf '%s\n' "$thread" >"$dir/fixturegen.toml" ;;
  esac
  "$binary" -C "$dir" generate >/dev/null
  runtime=$dir/tests/inbox/_fixturegen_runtime.py
  timeout=()
  case $shape in *shield*) timeout=(--timeout 1 --timeout-method signal) ;; esac
  (
    cd "$dir"
    PYTHONPATH=$covpath TOYSDK_COLD_SECONDS=1.2 "$python" -m coverage run --data-file="$dir/.coverage" \
      --include="$runtime" -m pytest -q -p no:cacheprovider -p no:xdist -o 'addopts=--reruns 2' \
      "${timeout[@]}" --ignore=tests/inbox/test_channel_reconnect_alarm.py tests >"$dir/pytest.log" 2>&1 || true
    PYTHONPATH=$covpath "$python" -m coverage report --data-file="$dir/.coverage" --format=total >"$dir/total" 2>/dev/null || echo 0 >"$dir/total"
    PYTHONPATH=$covpath "$python" -m coverage json --data-file="$dir/.coverage" -o "$dir/cov.json" >/dev/null 2>&1 || true
  )
  statements=$("$python" -c 'import json,sys; print(json.load(open(sys.argv[1]))["totals"]["num_statements"])' "$dir/cov.json" 2>/dev/null || echo "?")
  printf '%-18s %7s %10s %7s%%\n' "$shape" "$(wc -l <"$runtime")" "$statements" "$(cat "$dir/total")"
done
