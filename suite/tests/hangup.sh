#!/usr/bin/env bash
# hangup.sh BUILD: a hang-up (SIGHUP to ctest's process group, as a closed
# terminal or a dropped SSH session sends it) during `ctest -L smoke -L
# language=c` stops the campaign at once and keeps every finished row; the
# case tests it did not reach are skipped or fail, never pass; and
# `greenbench run --resume` continues the records to the end (ADR 0016).
set -u
build=$1
tmp=$(mktemp -d)
trap 'kill -9 -- -"$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
export GREENBENCH_SUITE_RESULTS="$tmp"
fail() { echo "hangup.sh: $*" >&2; exit 1; }
setsid ctest --test-dir "$build" -L smoke -L language=c >"$tmp/out" 2>&1 </dev/null &
pid=$!
records=
for _ in $(seq 600); do
  records=$(sed -n 's/^records: //p' "$tmp/smoke-campaign.state" 2>/dev/null)
  [ -n "$records" ] && [ "$(grep -c ',sort,' "$records/runs.csv" 2>/dev/null)" -ge 3 ] && break
  sleep 0.1
done
[ -n "$records" ] && [ -f "$records/runs.csv" ] || { cat "$tmp/out"; fail "the campaign did not start"; }
head -n 4 "$records/runs.csv" >"$tmp/seen"
kill -HUP -- -"$pid"
for _ in $(seq 300); do
  grep -qs '^status: \(interrupted\|finished\|failed\)' "$tmp/smoke-campaign.state" && break
  sleep 0.1
done
status=$(sed -n 's/^status: //p' "$tmp/smoke-campaign.state")
[ "$status" = interrupted ] || { cat "$tmp/out" "$tmp/smoke-campaign.state"; fail "status after SIGHUP: $status"; }
cmp -s "$tmp/seen" <(head -n 4 "$records/runs.csv") || fail "rows seen before the hang-up are gone"
/usr/bin/python3 - "$records/meta.json" <<'PY' || fail "meta.json does not say the campaign stopped early"
import json, sys
m = json.load(open(sys.argv[1]))
sys.exit(0 if m["completed"] is False and m["runs_done"] < m["plan"]["measured_runs"] else f"meta.json: {m['completed']} {m['runs_done']}")
PY
kept=$(($(wc -l <"$records/runs.csv") - 1))
wait "$pid" 2>/dev/null
"$build/greenbench" run --resume "$records" --quiet 2>"$tmp/resume" || { cat "$tmp/resume"; fail "greenbench run --resume failed"; }
/usr/bin/python3 - "$records/meta.json" "$kept" <<'PY' || fail "the resumed campaign did not finish"
import json, sys
m = json.load(open(sys.argv[1]))
kept = int(sys.argv[2])
ok = m["completed"] is True and m["runs_done"] == m["plan"]["measured_runs"] > kept
sys.exit(0 if ok else f"meta.json: completed {m['completed']}, {m['runs_done']} runs, {kept} kept")
PY
echo "hangup.sh: the hang-up kept $kept rows; --resume finished the campaign"
