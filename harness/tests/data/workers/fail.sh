#!/bin/sh
# Refuses its arguments the way a worker does: one line on stderr, exit 2.
echo "worker: debug noise" >&2
echo "worker: error: --size must be an integer from 1 to 10000000, got 'x'" >&2
exit 2
