#!/usr/bin/env bash
# ctest-selection.sh CHECK BUILD SCHEMA JUNIT_CHECK: runs the CTest suite
# the way a user does, as a ctest run of its own inside the build tree BUILD,
# with its files in a fresh folder (GREENBENCH_SUITE_RESULTS), and checks
# one behaviour of ADR 0009. CHECK is one of:
#   labels    `-L smoke -L language=c -L algorithm=quick -L order=sorted`
#             runs exactly those 2 cases and the fixture; runs.csv holds
#             nothing else; CTest's JUnit has one testcase per test; the
#             project JUnit validates and has the 2 cases, named by profile.
#   exact     a selection that is not a product (C at 100 and Python at
#             200, quicksort on sorted input) measures those 2 cases and no
#             other, and meta.json lists the other 2 as settings.omit.
#   study     `-L study` without energy: every one of the 144 cases fails
#             in seconds with the reason; the project JUnit lists 144
#             failures and validates.
#   stale     a run whose fixture is left out (-FS) finds the state of an
#             earlier run and fails every case, never passes on old records.
#   by-hand   the fixture started outside ctest measures the whole profile
#             and says so.
set -u
check=$1 build=$2 schema=$3 junit_check=$4
suite="$build/greenbench-suite"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GREENBENCH_SUITE_RESULTS="$tmp"
fail() { echo "ctest-selection.sh ($check): $*" >&2; exit 1; }

run_ctest() {
  ctest --test-dir "$build" --output-junit "$tmp/ctest-junit.xml" --output-on-failure "$@" >"$tmp/out" 2>&1
}

case $check in
labels)
  run_ctest -L smoke -L language=c -L algorithm=quick -L order=sorted || { cat "$tmp/out"; fail "ctest failed"; }
  grep -q '100% tests passed, 0 tests failed out of 3' "$tmp/out" || { cat "$tmp/out"; fail "expected 3 tests passed"; }
  records=$(sed -n 's/^records: //p' "$tmp/smoke-campaign.state")
  [ -f "$records/runs.csv" ] || fail "no runs.csv in '$records'"
  others=$(awk -F, 'NR > 1 && !($3 == "c" && $5 == "sorted")' "$records/runs.csv" | head -3)
  [ -z "$others" ] || fail "runs.csv holds other cases: $others"
  sorts=$(awk -F, 'NR > 1 && $2 == "sort" && $4 != "quick"' "$records/runs.csv" | head -3)
  [ -z "$sorts" ] || fail "runs.csv holds sorts of other algorithms: $sorts"
  n=$(grep -c '<testcase ' "$tmp/ctest-junit.xml")
  [ "$n" -eq 3 ] || fail "CTest's JUnit has $n testcases, expected 3"
  xmllint --noout --schema "$schema" "$tmp/smoke-junit.xml" || fail "the project JUnit is not valid"
  /usr/bin/python3 "$junit_check" "$tmp/smoke-junit.xml" --tests 2 --failures 0 --skipped 0 ||
    fail "the project JUnit is not 2 passing cases"
  grep -q 'classname="[^".]*\.smoke\.c\.quick"' "$tmp/smoke-junit.xml" ||
    fail "the project JUnit's classnames do not name the machine and the profile"
  ;;
exact)
  run_ctest -L smoke -L algorithm=quick -L order=sorted -R 'smoke/(c/.*/100$|python/.*/200$|campaign)' ||
    { cat "$tmp/out"; fail "ctest failed"; }
  grep -q '100% tests passed, 0 tests failed out of 3' "$tmp/out" || { cat "$tmp/out"; fail "expected 3 tests passed"; }
  records=$(sed -n 's/^records: //p' "$tmp/smoke-campaign.state")
  [ -f "$records/runs.csv" ] || fail "no runs.csv in '$records'"
  cases=$(awk -F, 'NR > 1 && $2 == "sort" { print $3 "/" $4 "/" $5 "/" $6 }' "$records/runs.csv" | sort -u | tr '\n' ' ')
  [ "$cases" = "c/quick/sorted/100 python/quick/sorted/200 " ] || fail "runs.csv measured: $cases"
  startups=$(awk -F, 'NR > 1 && $2 == "startup" { print $3 "/" $5 "/" $6 }' "$records/runs.csv" | sort -u | tr '\n' ' ')
  [ "$startups" = "c/sorted/100 python/sorted/200 " ] || fail "startup trials measured: $startups"
  /usr/bin/python3 - "$records/meta.json" <<'PY' || fail "meta.json does not omit the 2 other cases"
import json, sys
omit = json.load(open(sys.argv[1]))["settings"]["omit"]
got = sorted((o["language"], o["size"]) for o in omit)
sys.exit(0 if got == [("c", 200), ("python", 100)] else f"settings.omit: {omit}")
PY
  grep -q 'measured: .*|' "$records/ctest-selection.txt" || fail "ctest-selection.txt lacks the expression"
  ;;
study)
  start=$(date +%s)
  GREENBENCH_POWERCAP_ROOT="$tmp/no-powercap" run_ctest -L study && fail "ctest -L study passed without energy"
  took=$(($(date +%s) - start))
  [ "$took" -le 120 ] || fail "ctest -L study took $took s to fail"
  grep -q '0% tests passed, 145 tests failed out of 145' "$tmp/out" ||
    grep -q 'tests passed, 144 tests failed out of 145' "$tmp/out" || { tail -5 "$tmp/out"; fail "expected the 144 cases to fail"; }
  grep -q 'energy is unavailable' "$tmp/out" ||
    fail "the reason is not in the case tests' output"
  xmllint --noout --schema "$schema" "$tmp/study-junit.xml" || fail "the project JUnit is not valid"
  /usr/bin/python3 "$junit_check" "$tmp/study-junit.xml" --tests 144 --failures 144 --skipped 0 ||
    fail "the project JUnit does not list 144 failures"
  grep -q 'energy is unavailable' "$tmp/study-junit.xml" || fail "the project JUnit lacks the reason"
  ;;
stale)
  run_ctest -L smoke -L language=c -L algorithm=quick -L order=sorted || { cat "$tmp/out"; fail "the first run failed"; }
  run_ctest -L smoke -L language=c -L algorithm=quick -L order=sorted -FS smoke/campaign &&
    fail "a run without its fixture passed on an earlier run's records"
  grep -q 'is of another run' "$tmp/out" || fail "no reason given"
  ;;
by-hand)
  # Started by a shell that exits at once, the fixture has no ctest among
  # its ancestors (it is adopted by init), as when a user runs it by hand.
  GREENBENCH_POWERCAP_ROOT="$tmp/no-powercap" bash -c '"$@" >"$0" 2>&1 </dev/null & exit 0' "$tmp/out" \
    "$suite" --profile study --campaign --out "$tmp" --state "$tmp/study-campaign.state" \
    --junit "$tmp/study-junit.xml" --progress-log "$tmp/study-progress.log"
  for _ in $(seq 600); do
    grep -qs '^status: failed' "$tmp/study-campaign.state" && break
    sleep 0.1
  done
  grep -qs '^status: failed' "$tmp/study-campaign.state" || { cat "$tmp/out"; fail "the fixture did not finish"; }
  sleep 0.2
  grep -q 'could not be read (it was not started by ctest): measuring the whole study profile' "$tmp/out" ||
    { cat "$tmp/out"; fail "it does not say it measures the whole profile"; }
  /usr/bin/python3 "$junit_check" "$tmp/study-junit.xml" --tests 144 --failures 144 --skipped 0 ||
    fail "the project JUnit does not list the whole profile"
  ;;
*) fail "unknown check" ;;
esac
echo "ctest-selection.sh ($check): ok"
