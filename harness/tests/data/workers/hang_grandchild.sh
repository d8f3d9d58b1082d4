#!/bin/sh
# Leaves a grandchild of the harness that also hangs, and says which pid it
# is, so a test can check that the timeout killed the whole group.
sleep 60 &
echo "$!"
sleep 60
