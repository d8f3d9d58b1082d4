#!/bin/sh
# Proves that a golden update can never pass unnoticed: on a copy of the
# goldens (GB_GOLDEN_DIR) with one file spoilt, a run with GB_UPDATE_GOLDEN
# must fail AND restore the file; the next run without it must pass.
#
# usage: golden_update.sh TEST_BINARY TEST_NAME GOLDEN_DIR FIXTURE FILE
set -u
bin=$1 name=$2 goldens=$3 fixture=$4 file=$5
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cp -R "$goldens/." "$work/" || exit 1
target="$work/$fixture/$file"
printf 'spoilt\n' >"$target"

if GB_GOLDEN_DIR=$work GB_UPDATE_GOLDEN=1 "$bin" --filter "$name" >"$work/update.log" 2>&1; then
  echo "FAIL: $name passed with GB_UPDATE_GOLDEN set"
  cat "$work/update.log"
  exit 1
fi
if ! grep -q 'GB_UPDATE_GOLDEN is set: .* rewritten' "$work/update.log"; then
  echo "FAIL: the update run did not say it rewrote $target"
  cat "$work/update.log"
  exit 1
fi
if ! cmp -s "$target" "$goldens/$fixture/$file"; then
  echo "FAIL: the update run did not restore $target to the output"
  exit 1
fi
if ! GB_GOLDEN_DIR=$work "$bin" --filter "$name" >"$work/check.log" 2>&1; then
  echo "FAIL: $name fails on the rewritten golden"
  cat "$work/check.log"
  exit 1
fi
grep -q 'Tested: 1 | Passing: 1 | Failing: 0' "$work/check.log" || {
  echo "FAIL: the check run did not run $name"
  cat "$work/check.log"
  exit 1
}
echo "ok: an update of $fixture/$file fails, rewrites the golden, and the next run passes"
