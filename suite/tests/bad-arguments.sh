#!/usr/bin/env bash
# bad-arguments.sh SUITE: every bad argument of greenbench-suite gets one
# line, "greenbench-suite: error: ...", and exit status 2, before anything
# runs (no records folder appears in the scratch folder it runs in).
set -u
suite=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failed=0
check() {
  "$suite" "$@" >out 2>&1 </dev/null
  local rc=$? lines
  lines=$(wc -l <out)
  if [ "$rc" -ne 2 ] || [ "$lines" -ne 1 ] || ! grep -q '^greenbench-suite: error: ' out; then
    echo "FAIL greenbench-suite $*: exit $rc, $lines lines:" >&2
    head -5 out >&2
    failed=1
  fi
  if [ -e results ]; then
    echo "FAIL greenbench-suite $*: something ran (results/ was made)" >&2
    rm -rf results
    failed=1
  fi
}
check --machine-label 'bad label'
check --machine-label=a.b
check --profile nope
check --select language=cobol
check --select size=7
check --select ' | '
check --select language=c --select language=python
check --check-case nope --state x
check --check-case smoke/c/quick/sorted/100
check --campaign
check --state x
check --progress-log x --check-case smoke/c/quick/sorted/100 --state x
check --selct x
check stray
check --profile smoke --profile study
check --out
check --jobs
check --jobs abc
check -jx
check --timeout abc
check --color=weird
check --junit "$tmp/no-such-folder/j.xml"
[ "$failed" -eq 0 ] && echo "bad-arguments.sh: every bad argument got one line and exit 2"
exit "$failed"
