#!/bin/sh
# A fake suite program for the suite campaign's tests: fake.sh TAG N REPS
# or fake.sh TAG N --startup-only. Its loop "takes" REPS ms; TAG says how it
# behaves: good, lie (one step too many), badhash (another output hash),
# garbage (not the contract), badstart (another input hash at startup), or
# late DIR: good for its first 6 launches (counted in DIR/calls), then lie.
tag=$1 n=$2 reps=$3
if [ "$tag" = late ]; then
  calls=$(($(cat "$4/calls" 2>/dev/null || echo 0) + 1))
  echo "$calls" >"$4/calls"
  [ "$calls" -gt 6 ] && tag=lie || tag=good
fi
if [ "$tag" = garbage ]; then
  echo "hello"
  exit 0
fi
if [ "$reps" = --startup-only ]; then
  in=$n
  [ "$tag" = badstart ] || [ "$tag" = lie ] && in=$((n + 1))
  printf '{"startup_only":true,"input_hash":"%016x","runtime":"sh %s"}\n' "$in" "$tag"
  exit 0
fi
steps=$n out=$((n * 3))
[ "$tag" = lie ] && steps=$((n + 1))
[ "$tag" = badhash ] && out=$((n * 5))
printf '{"loop_ns":%d,"counters":{"steps":%d},"input_hash":"%016x","output_hash":"%016x","runtime":"sh %s"}\n' \
  $((reps * 1000000)) "$steps" "$n" "$out" "$tag"
