#!/usr/bin/env bash
# expect.sh STATUS REGEX COMMAND...: runs COMMAND and passes only when it
# exits with STATUS and its output (stdout and stderr) matches the extended
# regular expression REGEX. CTest's PASS_REGULAR_EXPRESSION ignores the exit
# status, and WILL_FAIL ignores the message; a check of a refusal needs both.
set -u
want=$1 regex=$2
shift 2
out=$("$@" 2>&1)
got=$?
printf '%s\n' "$out"
if [ "$got" -ne "$want" ]; then
  echo "expect.sh: exit status $got, expected $want" >&2
  exit 1
fi
if ! grep -Eq -- "$regex" <<<"$out"; then
  echo "expect.sh: no line matches: $regex" >&2
  exit 1
fi
