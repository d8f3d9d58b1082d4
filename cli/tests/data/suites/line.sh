#!/bin/sh
# line.sh MODE N REPS|--startup-only: one contract line, fixed by MODE and
# N, for the suite check's tests (cli/tests/test_suite_check.c). MODE good
# prints the contract; wronghash, counters and noncontract each break one
# thing; exit2 exits 2 with one line on stderr.
mode=$1 n=$2
in=$(printf '%016x' "$n")
out=$(printf '%016x' $((n * 7)))
if [ "$3" = --startup-only ]; then
  printf '{"startup_only":true,"input_hash":"%s","runtime":"sh"}\n' "$in"
  exit 0
fi
pairs=$((n * 10))
case $mode in
wronghash) out=ffffffffffffffff ;;
counters) pairs=$((pairs + 1)) ;;
noncontract)
  echo "result: 42"
  exit 0
  ;;
exit2)
  echo "line.sh: bad arguments" >&2
  exit 2
  ;;
esac
printf '{"loop_ns":1,"counters":{"advances":%d,"pairs":%d},"input_hash":"%s","output_hash":"%s","runtime":"sh"}\n' \
  "$n" "$pairs" "$in" "$out"
