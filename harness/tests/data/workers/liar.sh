#!/bin/sh
# Runs the real C worker ($GB_REAL_WORKER) and reports one comparison too
# many: a worker that lies about its work, for the campaign's parity check.
# With GB_LIE_ONCE_RECORDED=FILE it lies only once FILE (a runs.csv) holds a
# row, so warm-ups and the first measured run tell the truth.
out=$("$GB_REAL_WORKER" "$@") || exit $?
case "$*" in *--startup-only*) printf '%s\n' "$out"; exit 0 ;; esac
if [ -n "$GB_LIE_ONCE_RECORDED" ] && [ "$(wc -l < "$GB_LIE_ONCE_RECORDED")" -lt 2 ]; then
  printf '%s\n' "$out"
  exit 0
fi
c=$(printf '%s' "$out" | sed 's/.*"comparisons":\([0-9]*\).*/\1/')
printf '%s\n' "$out" | sed "s/\"comparisons\":$c,/\"comparisons\":$((c + 1)),/"
