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
#   by-hand   the fixture started outside ctest refuses, with the reason and
#             the way out; with GREENBENCH_SELECT=all it takes the whole
#             profile and says so.
#   forms     the same 2 cases selected in every form CTest reads: from
#             inside the build folder with no --test-dir, an absolute and a
#             relative --test-dir, the long options, -LE, -R and -E, -I and
#             -U, --preset from the source folder (ADR 0016): each measures
#             exactly those 2 cases.
#   refused   a selection the fixture cannot read (an argument it does not
#             know; --label-regex=X, which CTest 3.25 ignores) fails at once
#             with its reason on ctest's own output and in the project
#             JUnit, and measures nothing.
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

# The configurations runs.csv of the state's records holds, as
# language/algorithm/order/size lines.
measured() {
  local records
  records=$(sed -n 's/^records: //p' "$tmp/smoke-campaign.state")
  [ -f "$records/runs.csv" ] || return 1
  awk -F, 'NR > 1 && $2 == "sort" { print $3 "/" $4 "/" $5 "/" $6 }' "$records/runs.csv" | sort -u | tr '\n' ' '
}

# expect_c_quick_sorted WHAT: the last run measured exactly the C quick
# sorted smoke cases.
expect_c_quick_sorted() {
  local got
  got=$(measured) || { cat "$tmp/out"; fail "$1: no records"; }
  [ "$got" = "c/quick/sorted/100 c/quick/sorted/200 " ] || { cat "$tmp/out"; fail "$1 measured: $got"; }
  grep -q 'tests passed, 0 tests failed out of 3' "$tmp/out" || { cat "$tmp/out"; fail "$1: expected 3 tests passed"; }
  rm -f "$tmp/smoke-campaign.state"
}

case $check in
forms)
  source=$5
  sel=(-L smoke -L language=c -L algorithm=quick -L order=sorted)
  (cd "$build" && ctest "${sel[@]}" >"$tmp/out" 2>&1)
  expect_c_quick_sorted "no --test-dir, from inside the build folder"
  ctest --test-dir "$build" "${sel[@]}" >"$tmp/out" 2>&1
  expect_c_quick_sorted "an absolute --test-dir"
  (cd "$build/.." && ctest --test-dir "$(basename "$build")" "${sel[@]}" >"$tmp/out" 2>&1)
  expect_c_quick_sorted "a relative --test-dir"
  (cd "$build/suite" && ctest --test-dir .. "${sel[@]}" >"$tmp/out" 2>&1)
  expect_c_quick_sorted "--test-dir .. from a subfolder"
  ctest --test-dir "$build" --label-regex smoke --label-regex language=c --label-regex algorithm=quick \
    --label-exclude 'order=(random|reversed|nearly)' >"$tmp/out" 2>&1
  expect_c_quick_sorted "--label-regex and --label-exclude"
  ctest --test-dir "$build" -L smoke -L language=c -L algorithm=quick -LE 'order=(random|reversed|nearly)' >"$tmp/out" 2>&1
  expect_c_quick_sorted "-LE"
  ctest --test-dir "$build" -R '^smoke/c/quick/' -E '/(random|reversed|nearly)/' >"$tmp/out" 2>&1
  expect_c_quick_sorted "-R and -E"
  ctest --test-dir "$build" --tests-regex '^smoke/c/quick/' --exclude-regex '/(random|reversed|nearly)/' >"$tmp/out" 2>&1
  expect_c_quick_sorted "--tests-regex and --exclude-regex"
  n100=$(ctest --test-dir "$build" -N | sed -n 's|^ *Test *#\([0-9]*\): smoke/c/quick/sorted/100$|\1|p')
  n200=$(ctest --test-dir "$build" -N | sed -n 's|^ *Test *#\([0-9]*\): smoke/c/quick/sorted/200$|\1|p')
  [ -n "$n100" ] && [ -n "$n200" ] || fail "cannot number the two cases"
  ctest --test-dir "$build" -I "0,0,0,$n100" -U -R '^smoke/c/quick/sorted/200$' >"$tmp/out" 2>&1
  expect_c_quick_sorted "-I with -U"
  ctest --test-dir "$build" --tests-information "0,0,0,$n100,$n200" >"$tmp/out" 2>&1
  expect_c_quick_sorted "--tests-information"
  # --preset reads CMakePresets.json where ctest starts: a copy of the
  # source folder's with build/ naming this build tree, as a clone has.
  mkdir "$tmp/clone" && cp "$source/CMakePresets.json" "$tmp/clone/" && ln -s "$build" "$tmp/clone/build"
  (cd "$tmp/clone" && ctest --preset default "${sel[@]}" >"$tmp/out" 2>&1)
  expect_c_quick_sorted "--preset default"
  (cd "$tmp/clone" && ctest --preset=default "${sel[@]}" >"$tmp/out" 2>&1)
  expect_c_quick_sorted "--preset=default"
  ;;
refused)
  for bad in "--label-regex=language=c" "--no-such-option"; do
    rm -f "$tmp/smoke-campaign.state" "$tmp/smoke-junit.xml"
    # Through a pipe, as a terminal or a CI log reads ctest: the reason is on
    # ctest's own output without -V or --output-on-failure.
    ctest --test-dir "$build" -L smoke -R '^smoke/(c|python)/quick/sorted/|campaign' "$bad" 2>&1 | cat >"$tmp/out"
    line=$(grep -m1 '^greenbench-suite: error: smoke/campaign: the selection of the ctest run cannot be read' "$tmp/out") ||
      { cat "$tmp/out"; fail "$bad: no reason on ctest's output"; }
    grep -q 'GREENBENCH_SELECT=all' <<<"$line" || fail "$bad: the reason names no way out: $line"
    case $bad in
    --label-regex=*) grep -q "'--label-regex=language=c'.*write the value after a space" <<<"$line" || fail "$bad: $line" ;;
    *) grep -q "'--no-such-option' is not an option" <<<"$line" || fail "$bad: $line" ;;
    esac
    grep -q 'smoke/campaign .*\*\*\*Failed' "$tmp/out" || { cat "$tmp/out"; fail "$bad: the fixture did not fail"; }
    grep -q '^status: failed' "$tmp/smoke-campaign.state" || fail "$bad: the state is not failed"
    ls -d "$tmp"/smoke-2* >/dev/null 2>&1 && fail "$bad: a records folder was made"
    grep -q 'selection of the ctest run cannot be read' "$tmp/smoke-junit.xml" || fail "$bad: the JUnit file lacks the reason"
  done
  ;;
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
  by_hand() {
    rm -f "$tmp/study-campaign.state"
    GREENBENCH_POWERCAP_ROOT="$tmp/no-powercap" bash -c '"$@" >"$0" 2>&1 </dev/null & exit 0' "$tmp/out" \
      "$suite" --profile study --campaign --out "$tmp" --state "$tmp/study-campaign.state" \
      --junit "$tmp/study-junit.xml" --progress-log "$tmp/study-progress.log"
    for _ in $(seq 600); do
      grep -qs '^status: failed' "$tmp/study-campaign.state" && break
      sleep 0.1
    done
    grep -qs '^status: failed' "$tmp/study-campaign.state" || { cat "$tmp/out"; fail "the fixture did not finish"; }
    sleep 0.2
  }
  by_hand
  grep -q 'cannot be read (it was not started by ctest), and nothing is measured .*GREENBENCH_SELECT=all for the whole profile' "$tmp/out" ||
    { cat "$tmp/out"; fail "it does not refuse with the way out"; }
  grep -q 'energy is unavailable' "$tmp/out" && fail "it went on to start the campaign"
  GREENBENCH_SELECT=all by_hand
  grep -q 'could not be read (it was not started by ctest): measuring GREENBENCH_SELECT=all of the study profile' "$tmp/out" ||
    { cat "$tmp/out"; fail "it does not say it measures the whole profile"; }
  /usr/bin/python3 "$junit_check" "$tmp/study-junit.xml" --tests 144 --failures 144 --skipped 0 ||
    fail "the project JUnit does not list the whole profile"
  ;;
*) fail "unknown check" ;;
esac
echo "ctest-selection.sh ($check): ok"
