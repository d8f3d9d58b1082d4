#!/bin/sh
# Writes 20 MiB of 'x' to stdout (flood.sh out) or to stderr (flood.sh err),
# more than a launch's capture holds, then says it is still there on the
# other stream. The write that crosses the capture's limit fails.
if [ "$1" = err ]; then
  head -c 20971520 /dev/zero | tr '\0' x >&2
  echo "still here"
else
  head -c 20971520 /dev/zero | tr '\0' x
  echo "still here" >&2
fi
