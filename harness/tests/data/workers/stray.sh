#!/bin/sh
# Exits 0 but leaves a background process behind that still holds stdout.
sleep 60 &
echo "$!"
