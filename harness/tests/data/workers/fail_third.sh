#!/bin/sh
# Counts its launches in the file $GB_COUNTER and fails on the third.
n=$(cat "$GB_COUNTER" 2>/dev/null || echo 0)
n=$((n + 1))
echo "$n" > "$GB_COUNTER"
if [ "$n" -eq 3 ]; then
  echo "launch $n failed" >&2
  exit 1
fi
