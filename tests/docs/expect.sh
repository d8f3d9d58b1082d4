#!/bin/bash
# expect.sh STATUS ERE COMMAND...: runs COMMAND, shows its output, and
# succeeds only when it exited STATUS and its output matches ERE.
want=$1 pattern=$2
shift 2
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" != "$want" ]; then
  echo "expect.sh: exit $rc, want $want" >&2
  exit 1
fi
if ! grep -Eq -- "$pattern" <<<"$out"; then
  echo "expect.sh: output does not match: $pattern" >&2
  exit 1
fi
