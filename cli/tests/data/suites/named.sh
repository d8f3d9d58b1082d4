#!/bin/sh
# named.sh ORDER N REPS|--startup-only: line.sh's good line for the number
# 10 N + 0 (ORDER up) or 10 N + 1 (down), so that every parameter set has
# its own hashes; any other ORDER exits 2 with one line. For the suite with
# a named parameter (named.json) in the CLI's tests.
case $1 in
up) o=0 ;;
down) o=1 ;;
*)
  echo "named.sh: unknown order '$1'" >&2
  exit 2
  ;;
esac
exec sh "$(dirname "$0")/line.sh" good $(($2 * 10 + o)) "$3"
