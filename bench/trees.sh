#!/usr/bin/env bash
# Times `fixturegen check` against grep on several trees in one run and
# prints, for each, the medians and the ratio beside its target, then the
# peak RSS of check on every tree. See bench/README.md for the figures.
#
#   bash bench/trees.sh [RUNS] [FOLDER ...]
#
# The rows, each timed with bench/median_ratio.py (the two commands
# alternate, after a warm-up run each):
#
#   synthetic   the 10,000-module tree of bench/checkbench gen; check at
#               most 1.50x grep -rl --include='*.py' 'xdist_group("mcp-sdk")'
#   strings     the same tree where every module names signal.setitimer(
#               and signal.alarm( in a comment and a string; at most 3.00x
#   start-up    a project with one test module (and the three files
#               generate writes); at most 2.00x grep -rl on its tests/
#   timeout     the synthetic tree with the deadline fixture named
#               "timeout", against the same tree with the default name;
#               at most 1.50x
#   FOLDER      each folder given (sympy's sympy/, twisted's src/, CPython's
#               Lib/test), checked with --scan FOLDER from the synthetic
#               project; at most 1.50x grep; then with the deadline
#               fixture named "timeout" against the default name, 1.50x
#
# and the peak RSS of check on every tree, target under 32 MiB. The script
# exits 1 when a row misses its target. Run it on a quiet machine.
#
# With BEFORE set to another fixturegen binary (an older build), each row
# times it too, alternating with the others, as "before": the check rows
# print check's ratio to it beside the ratio to grep, the timeout rows are
# repeated for it, and its peak RSS is printed beside check's.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-11}
shift || true
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# fixturegen is built as a release is (docs/releasing.md): a static binary,
# which starts a millisecond sooner than one linked to the C library. It is
# then copied, as installing a release copies it: the linker writes its
# output through a memory map, and a binary the kernel holds in memory that
# way starts about 10% slower (CPU time and wall, measured on the start-up
# row) than the same bytes written the ordinary way, as grep's were.
(cd "$root" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$work/fixturegen.linked" ./cmd/fixturegen &&
  go build -o "$work/checkbench" ./bench/checkbench)
cp "$work/fixturegen.linked" "$work/fixturegen"
fg=$work/fixturegen
before=${BEFORE:-}
bt=${before:+,-} # no target for the ratio to the older build
status=0

# check and grep exit 1 when they find something; 2 is an error.
quiet() { printf '%s >/dev/null 2>&1; [ $? -le 1 ]' "$1"; }
grep_cmd() { quiet "grep -rl --include='*.py' 'xdist_group(\"mcp-sdk\")' $1"; }

row() { # TITLE DIR TARGET BASE=COMMAND NAME=COMMAND
  local title=$1 dir=$2
  shift 2
  echo "== $title"
  (cd "$dir" && python3 "$root/bench/median_ratio.py" "$runs" "$@") || status=1
  echo
}

peaks=()
peak() { # TITLE DIR COMMAND...: check's peak RSS, in MiB, and its page faults
  local title=$1 dir=$2
  shift 2
  local kib faults
  read -r kib faults < <(cd "$dir" && python3 -c '
import os, subprocess, sys
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
code = os.waitstatus_to_exitcode(status)
print(usage.ru_maxrss if code in (0, 1) else 0, usage.ru_minflt)' "$@")
  peaks+=("$(printf '%-34s %6.1f MiB %6d page faults' "$title" "$(echo "$kib / 1024" | bc -l)" "$faults")")
  if [ "$kib" -eq 0 ] || [ "$kib" -ge $((32 * 1024)) ]; then status=1; fi
}

# The synthetic project, and its tree with the timer calls in every module.
"$work/checkbench" gen "$work/synth" >/dev/null
(cd "$work/synth" && "$fg" generate >/dev/null)
cp -r "$work/synth" "$work/strings"
find "$work/strings/tests" -name 'test_mod*.py' -exec python3 -c '
import sys
note = ("# Never call signal.setitimer( or signal.alarm( here: the fixture arms it.\n"
        "NOTE = \"signal.setitimer(signal.ITIMER_REAL, 5) and signal.alarm(5) are the fixture'"'"'s\"\n")
for name in sys.argv[1:]:
    with open(name, "a") as f:
        f.write(note)' {} +
# The same project with the deadline fixture named "timeout".
cp -r "$work/synth" "$work/timeout"
grep -rl recovery_deadline "$work/timeout" | xargs sed -i 's/recovery_deadline/timeout/g'
(cd "$work/timeout" && "$fg" generate >/dev/null)
# The smallest project: one test module (bench/startup.sh writes it).
bash "$root/bench/startup.sh" --project "$work/one" "$fg"

# bcheck ARGS: the older build's "before=COMMAND" argument, when there is one.
bcheck() { if [ -n "$before" ]; then echo "before=$(quiet "$before $*")"; fi; }
# timeout_rows TITLE ARGS: the timeout row of each build.
timeout_rows() {
  local title=$1
  shift
  row "$title" "$work/synth" 1.50 \
    default="$(quiet "$fg check $*")" timeout="$(quiet "$fg -C $work/timeout check $*")"
  if [ -n "$before" ]; then
    row "$title, before" "$work/synth" 1.50 \
      default="$(quiet "$before check $*")" timeout="$(quiet "$before -C $work/timeout check $*")"
  fi
}
# peaks TITLE DIR ARGS: check's peak RSS, and the older build's.
peaks_of() {
  local title=$1 dir=$2
  shift 2
  peak "$title" "$dir" "$fg" "$@"
  if [ -n "$before" ]; then
    local met=$status # the older build's memory is no verdict on this one
    peak "$title, before" "$dir" "$before" "$@"
    status=$met
  fi
}

row "synthetic: 10,000 modules" "$work/synth" "1.50$bt" \
  grep="$(grep_cmd tests)" ${before:+"$(bcheck check)"} check="$(quiet "$fg check")"
row "strings: every module names the timer calls in a comment and a string" "$work/strings" "3.00$bt" \
  grep="$(grep_cmd tests)" ${before:+"$(bcheck check)"} check="$(quiet "$fg check")"
row "start-up: one test module" "$work/one" "2.00$bt" \
  grep="$(grep_cmd tests)" ${before:+"$(bcheck check)"} check="$(quiet "$fg check")"
timeout_rows "timeout: the deadline fixture named timeout, against the default name"
peaks_of "synthetic" "$work/synth" check
peaks_of "strings" "$work/strings" check
peaks_of "start-up" "$work/one" check
peaks_of "timeout" "$work/timeout" check

for dir in "$@"; do
  dir=$(cd "$dir" && pwd)
  row "$dir" "$work/synth" "1.50$bt" \
    grep="$(grep_cmd "$dir")" ${before:+"$(bcheck check --scan "$dir")"} check="$(quiet "$fg check --scan $dir")"
  timeout_rows "$dir, fixture named timeout" --scan "$dir"
  peaks_of "$dir" "$work/synth" check --scan "$dir"
  peaks_of "$dir, timeout" "$work/timeout" check --scan "$dir"
done

echo "== peak RSS of check (target under 32 MiB), and its page faults"
printf '%s\n' "${peaks[@]}"
exit $status
