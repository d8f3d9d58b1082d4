#!/bin/sh
# Reports what it was started with: stdin (must be empty: /dev/null), the
# GB_PROBE variable, its own pid and its process group.
cat
printf 'probe=%s\n' "$GB_PROBE"
echo "pid=$$"
echo "pgid=$(cut -d' ' -f5 /proc/$$/stat)"
