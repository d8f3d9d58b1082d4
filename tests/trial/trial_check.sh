#!/usr/bin/env bash
# ci/bare-metal-trial on this machine, with the counters it is pointed at:
#   trial_check.sh cannot BUILD_DIR   no counters at all: it must stop within
#                                     10 s, exit 1, say why for both ways,
#                                     and build nothing
#   trial_check.sh time-only BUILD_DIR  a frozen fake powercap tree and
#                                     --time-only: the whole trial (set-up,
#                                     build, check, a time-only campaign,
#                                     report, pack) within 8 minutes
set -euo pipefail
mode=$1
build=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
[ -n "${TRIAL_KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
fail() { echo "trial_check: FAIL: $*" >&2; exit 1; }

export GREENBENCH_PERF_POWER_DIR="$tmp/no-power-pmu"
export GREENBENCH_POWERCAP_ROOT="$tmp/powercap"
export GB_TRIAL_BUILD_DIR="$build"
mkdir -p "$GREENBENCH_POWERCAP_ROOT"

if [ "$mode" = cannot ]; then
  start=$SECONDS
  rc=0
  "$root/ci/bare-metal-trial" --out "$tmp/out" >"$tmp/log" 2>&1 || rc=$?
  took=$((SECONDS - start))
  cat "$tmp/log"
  [ "$rc" -eq 1 ] || fail "exit $rc, want 1"
  [ "$took" -le 10 ] || fail "took ${took}s, want at most 10"
  grep -q '^bare-metal-trial: this machine cannot measure energy:$' "$tmp/log" || fail "no verdict"
  grep -q "^  powercap: no intel-rapl:N zone named package-N under $GREENBENCH_POWERCAP_ROOT " \
    "$tmp/log" || fail "no powercap reason"
  grep -q "^  perf_event: no power PMU with energy-pkg at $GREENBENCH_PERF_POWER_DIR " \
    "$tmp/log" || fail "no perf_event reason"
  [ ! -e "$tmp/out" ] || fail "it went on to write $tmp/out"
  echo "trial_check: stopped in ${took}s with both reasons"
  exit 0
fi

# A package zone whose counter never moves, as in a virtual machine.
zone="$GREENBENCH_POWERCAP_ROOT/intel-rapl:0"
mkdir -p "$zone"
echo package-0 >"$zone/name"
echo 1234 >"$zone/energy_uj"
echo 262143328850 >"$zone/max_energy_range_uj"
start=$SECONDS
rc=0
"$root/ci/bare-metal-trial" --time-only --out "$tmp/out" >"$tmp/log" 2>&1 || rc=$?
took=$((SECONDS - start))
cat "$tmp/log"
[ "$rc" -eq 0 ] || fail "exit $rc, want 0"
grep -q "powercap: $zone/energy_uj stayed at 1234 uJ for 0.3 s: the counters are frozen" \
  "$tmp/log" || fail "no frozen reason"
grep -q '^verdict: this machine cannot measure energy' "$tmp/out/check.txt" || fail "check"
[ -f "$tmp/out/records.tar.gz" ] || fail "no records.tar.gz"
tar -tzf "$tmp/out/records.tar.gz" >"$tmp/packed"
grep -q '/results.md$' "$tmp/packed" || fail "no report in the pack"
grep -q '/trial-check.txt$' "$tmp/packed" || fail "no check in the pack"
rows=$(($(wc -l <"$tmp/out/records/runs.csv") - 1))
[ "$rows" -eq 180 ] || fail "$rows rows, want 180"
grep -q '^rows: 180, energy ok: 0$' "$tmp/out/cross-check.txt" || fail "cross-check"
[ "$took" -le 480 ] || fail "took ${took}s, want at most 480"
echo "trial_check: the time-only trial took ${took}s (limit 480)"
