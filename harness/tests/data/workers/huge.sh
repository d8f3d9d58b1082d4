#!/bin/sh
# Writes 1 MiB to stdout and 256 KiB to stderr, far more than a pipe holds:
# it finishes only if the harness keeps draining both.
head -c 1048576 /dev/zero | tr '\0' 'x'
head -c 262144 /dev/zero | tr '\0' 'e' >&2
echo >&2
echo "last stderr line" >&2
