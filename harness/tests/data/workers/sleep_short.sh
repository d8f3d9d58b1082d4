#!/bin/sh
# Runs for 50 ms, then exits 0.
sleep 0.05
