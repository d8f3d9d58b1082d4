#!/usr/bin/env bash
# suite-file-selection.sh CHECK BUILD SOURCE: a suite file's cases under
# CTest (ADR 0023), run the way a user does, as a ctest run of its own in
# the build tree BUILD with its files in a fresh folder
# (GREENBENCH_SUITE_RESULTS). Every JUnit file the fixture writes, the
# report's and the one of a campaign that did not run, must be valid by
# stats/schema/greenbench-suite-junit.xsd. CHECK is one of:
#   exact    `ctest -L smoke -L workload=nbody -L language=c` runs the 2
#            C n-body cases and their fixture, all passing, and the records
#            hold exactly those 2 configurations (work and startup rows),
#            nothing of another language or workload; the fixture wrote the
#            report (results.md, summary.json in the records, the same bytes
#            as `greenbench report` gives) and the project JUnit file
#            smoke-nbody-junit.xml: the 2 cases passed, the suite's 14 others
#            skipped (no run recorded); by hand, a C case passes, a Python
#            case fails (not measured), or is skipped once the state says
#            interrupted.
#   refused  a ctest argument the fixture does not know: it fails at once
#            with the reason on ctest's own output and in the JUnit file
#            (every one of the 16 cases failed), measures nothing.
#   by-hand  the fixture started outside ctest refuses with the way out,
#            also in the JUnit file.
#   parity   a suite whose expect gives C a wrong output hash: the campaign
#            (GREENBENCH_SELECT=all) stops, and the case fails with the
#            reason naming the field, as do both cases in the JUnit file.
#   unreadable  a suite file that cannot be read: the fixture fails with the
#            reason, and an earlier run's JUnit file is removed.
#   report   a report that cannot be written (--junit a folder): the
#            campaign's state fails with the reason, and so does each case.
set -u
check=$1 build=$2 source=$3
suite="$build/greenbench-suite" gb="$build/greenbench"
# junit_check FILE ARGS: FILE valid by the project's JUnit schema, and read
# by junitparser with the counts ARGS give.
junit_check() {
  xmllint --noout --schema "$source/stats/schema/greenbench-suite-junit.xsd" "$1" 2>"$tmp/xmllint" ||
    { cat "$tmp/xmllint" >&2; echo "$1: not valid by stats/schema/greenbench-suite-junit.xsd" >&2; return 1; }
  /usr/bin/python3 "$source/stats/tests/junit_check.py" --suite-cases "$@"
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GREENBENCH_SUITE_RESULTS="$tmp"
fail() { echo "suite-file-selection.sh ($check): $*" >&2; exit 1; }
# c_nbody NAME FILE [HASH]: the example with C and n-body alone, named NAME,
# into FILE, beside the example's programs ({suitedir}); with HASH, that is
# the expected output hash of n=1000.
c_nbody() {
  ln -sfn "$source/examples/nbody" "$tmp/nbody"
  /usr/bin/python3 - "$source/examples/nbody.json" "$@" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["name"] = sys.argv[2]
s["languages"] = [l for l in s["languages"] if l["name"] == "c"]
s["workloads"] = s["workloads"][:1]
if len(sys.argv) > 4:
    s["workloads"][0]["expect"][0]["output_hash"] = sys.argv[4]
json.dump(s, open(sys.argv[3], "w"))
PY
}

case $check in
exact)
  start=$(date +%s)
  ctest --test-dir "$build" -L smoke -L workload=nbody -L language=c --output-on-failure >"$tmp/out" 2>&1 ||
    { cat "$tmp/out"; fail "ctest failed"; }
  grep -q '100% tests passed, 0 tests failed out of 3' "$tmp/out" || { cat "$tmp/out"; fail "expected 3 tests passed"; }
  for t in smoke/nbody/campaign smoke/nbody/c/nbody/n=1000 smoke/nbody/c/nbody/n=20000; do
    grep -q "Test *#[0-9]*: $t \.*  *Passed" "$tmp/out" || { cat "$tmp/out"; fail "$t did not pass"; }
  done
  records=$(sed -n 's/^records: //p' "$tmp/smoke-nbody-campaign.state")
  [ -f "$records/runs.csv" ] || fail "no runs.csv in '$records'"
  got=$(awk -F, 'NR > 1 { print $2 "/" $3 "/" $4 "/" $5 }' "$records/runs.csv" | sort | uniq -c | awk '{ print $2 ":" $1 }' | tr '\n' ' ')
  want="startup/c/nbody/n=1000:5 startup/c/nbody/n=20000:5 work/c/nbody/n=1000:5 work/c/nbody/n=20000:5 "
  [ "$got" = "$want" ] || fail "runs.csv measured: $got (expected $want)"
  langs=$(/usr/bin/python3 -c 'import json, sys; print(*[l["name"] for l in json.load(open(sys.argv[1]))["languages"]])' "$records/meta.json")
  [ "$langs" = c ] || fail "meta.json lists the languages '$langs', expected c alone"
  grep -q '^measured: c/nbody/n=1000 c/nbody/n=20000$' "$records/ctest-selection.txt" ||
    fail "ctest-selection.txt does not say what was measured"
  # The report, as the study's fixture writes its own: results.md and
  # summary.json in the records, the JUnit file beside the state.
  mkdir "$tmp/again"
  "$gb" report "$records" --out "$tmp/again/results.md" --junit "$tmp/again/junit.xml" \
    --summary "$tmp/again/summary.json" >/dev/null || fail "greenbench report on the records failed"
  cmp "$records/results.md" "$tmp/again/results.md" || fail "results.md is not the report's"
  cmp "$records/summary.json" "$tmp/again/summary.json" || fail "summary.json is not the report's"
  cmp "$tmp/smoke-nbody-junit.xml" "$tmp/again/junit.xml" || fail "the JUnit file is not the report's"
  junit_check "$tmp/smoke-nbody-junit.xml" --tests 16 --failures 0 --skipped 14 ||
    fail "the project JUnit is not 2 passing cases and 14 skipped"
  # The fixture records the default machine label, as the study's fixture,
  # and the JUnit names lead with it.
  label=$(/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["machine"]["label"])' "$records/meta.json") ||
    fail "meta.json records no machine label"
  grep -q "<testsuite name=\"$label.nbody.smoke.c.nbody\" tests=\"2\" failures=\"0\" errors=\"0\" skipped=\"0\"" \
    "$tmp/smoke-nbody-junit.xml" || fail "the C n-body cases did not pass in the project JUnit"
  echo "took $(($(date +%s) - start)) s"
  # The case tests' verdicts on those records, by hand (outside ctest, as
  # init's child, so that no ctest pid is compared): a C case passes; a
  # Python case, never measured, fails in a finished campaign and is
  # skipped (77) in an interrupted one.
  by_hand() {
    rm -f "$tmp/rc"
    bash -c '{ "$@"; echo $? >"$0.rc"; } >"$0" 2>&1 </dev/null & exit 0' "$tmp/case" \
      "$suite" --suite "$source/examples/nbody.json" --check-case "$1" --state "$tmp/smoke-nbody-campaign.state"
    for _ in $(seq 100); do [ -s "$tmp/case.rc" ] && break; sleep 0.1; done
    rc=$(cat "$tmp/case.rc"); rm -f "$tmp/case.rc"
  }
  by_hand smoke/nbody/c/nbody/n=20000
  [ "$rc" = 0 ] && grep -q 'valid: its runs ok, parity held' "$tmp/case" || { cat "$tmp/case"; fail "the C case does not pass by hand"; }
  by_hand smoke/nbody/python/nbody/n=1000
  [ "$rc" = 1 ] && grep -q '^smoke/nbody/python/nbody/n=1000: 0 work runs recorded, 5 planned' "$tmp/case" ||
    { cat "$tmp/case"; fail "an unmeasured case does not fail with the reason ($rc)"; }
  sed -i 's/^status: finished$/status: interrupted/' "$tmp/smoke-nbody-campaign.state"
  by_hand smoke/nbody/python/nbody/n=1000
  [ "$rc" = 77 ] && grep -q 'skipped: the campaign was interrupted' "$tmp/case" ||
    { cat "$tmp/case"; fail "an unreached case of an interrupted campaign is not skipped ($rc)"; }
  ;;
refused)
  ctest --test-dir "$build" -L suite=nbody -L language=c --no-such-option 2>&1 | cat >"$tmp/out"
  line=$(grep -m1 '^greenbench-suite: error: smoke/nbody/campaign: the selection of the ctest run cannot be read' "$tmp/out") ||
    { cat "$tmp/out"; fail "no reason on ctest's output"; }
  grep -q "'--no-such-option' is not an option.*GREENBENCH_SELECT=all" <<<"$line" || fail "$line"
  grep -q '^status: failed' "$tmp/smoke-nbody-campaign.state" || fail "the state is not failed"
  ls -d "$tmp"/smoke-nbody-2* >/dev/null 2>&1 && fail "a records folder was made"
  junit_check "$tmp/smoke-nbody-junit.xml" --tests 16 --failures 16 --skipped 0 ||
    fail "the project JUnit does not fail the whole suite"
  grep -q 'type="campaign-not-run" message="the selection of the ctest run cannot be read' \
    "$tmp/smoke-nbody-junit.xml" || fail "the project JUnit lacks the reason"
  ;;
by-hand)
  bash -c '"$@" >"$0" 2>&1 </dev/null & exit 0' "$tmp/out" \
    "$suite" --suite "$source/examples/nbody.json" --profile smoke --campaign --out "$tmp" \
    --state "$tmp/smoke-nbody-campaign.state" --junit "$tmp/smoke-nbody-junit.xml" \
    --progress-log "$tmp/smoke-nbody-progress.log"
  for _ in $(seq 300); do
    grep -qs '^status: failed' "$tmp/smoke-nbody-campaign.state" && break
    sleep 0.1
  done
  sleep 0.2
  grep -q 'cannot be read (it was not started by ctest), and nothing is measured .*GREENBENCH_SELECT=all to measure the whole suite' "$tmp/out" ||
    { cat "$tmp/out"; fail "it does not refuse with the way out"; }
  junit_check "$tmp/smoke-nbody-junit.xml" --tests 16 --failures 16 --skipped 0 ||
    fail "the project JUnit does not fail the whole suite"
  grep -q 'it was not started by ctest' "$tmp/smoke-nbody-junit.xml" || fail "the project JUnit lacks the reason"
  ;;
parity)
  # The example with C alone and a wrong expected hash for n=1000.
  c_nbody wrong "$tmp/wrong.json" 0000000000000000
  GREENBENCH_SELECT=all "$suite" --suite "$tmp/wrong.json" --profile smoke --campaign --out "$tmp" \
    --state "$tmp/state" --junit "$tmp/junit.xml" --progress-log "$tmp/log" >"$tmp/out" 2>&1 ||
    { cat "$tmp/out"; fail "the fixture failed"; }
  grep -q '^status: failed' "$tmp/state" || { cat "$tmp/out"; fail "the campaign did not stop"; }
  junit_check "$tmp/junit.xml" --tests 2 --failures 2 --skipped 0 || fail "the project JUnit does not fail both cases"
  grep -q 'message="the campaign stopped: .*output_hash' "$tmp/junit.xml" || fail "the project JUnit lacks the reason"
  "$suite" --suite "$tmp/wrong.json" --check-case smoke/wrong/c/nbody/n=1000 --state "$tmp/state" 2>"$tmp/err" &&
    fail "the case passed"
  grep -q '^smoke/wrong/c/nbody/n=1000: the campaign stopped: .*output_hash' "$tmp/err" ||
    { cat "$tmp/err"; fail "the case does not give the reason"; }
  "$suite" --suite "$tmp/wrong.json" --check-case smoke/wrong/c/nbody/n=9 --state "$tmp/state" 2>"$tmp/err"
  [ $? -eq 2 ] && grep -q "is not a case of suite wrong" "$tmp/err" || fail "an unknown case is not refused"
  ;;
report)
  c_nbody conly "$tmp/c.json"
  mkdir "$tmp/jdir"
  GREENBENCH_SELECT=all "$suite" --suite "$tmp/c.json" --profile smoke --campaign --out "$tmp" \
    --state "$tmp/state" --junit "$tmp/jdir" --progress-log "$tmp/log" >"$tmp/out" 2>&1 </dev/null ||
    { cat "$tmp/out"; fail "the fixture failed"; }
  grep -q '^status: failed' "$tmp/state" && grep -q 'the report was not written: .*is a folder' "$tmp/state" ||
    { cat "$tmp/state" "$tmp/out"; fail "the state does not fail with the reason"; }
  grep -q '^greenbench-suite: error: the JUnit file was not written: ' "$tmp/out" ||
    { cat "$tmp/out"; fail "no line says the JUnit file was not written"; }
  "$suite" --suite "$tmp/c.json" --check-case smoke/conly/c/nbody/n=1000 --state "$tmp/state" 2>"$tmp/err" &&
    fail "the case passed"
  grep -q 'the report was not written' "$tmp/err" || { cat "$tmp/err"; fail "the case does not give the reason"; }
  ;;
unreadable)
  echo '<testsuites name="greenbench" tests="1" failures="0"/>' >"$tmp/j.xml"
  "$suite" --suite "$tmp/no-such-suite.json" --profile smoke --campaign --out "$tmp" \
    --state "$tmp/state" --junit "$tmp/j.xml" --progress-log "$tmp/log" >"$tmp/out" 2>&1 </dev/null
  [ $? -eq 1 ] || { cat "$tmp/out"; fail "the fixture did not fail"; }
  grep -q "^greenbench-suite: error: .*no-such-suite.json: suite .*no-such-suite.json: " "$tmp/out" ||
    { cat "$tmp/out"; fail "no reason"; }
  [ ! -e "$tmp/j.xml" ] || fail "the stale JUnit file is still there"
  grep -q '^status: failed' "$tmp/state" || fail "the state is not failed"
  ;;
*) fail "unknown check" ;;
esac
echo "suite-file-selection.sh ($check): ok"
