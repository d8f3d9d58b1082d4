#!/bin/sh
# Dies of a segmentation fault, as a worker with a memory bug would.
echo "about to crash" >&2
kill -SEGV $$
