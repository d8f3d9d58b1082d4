#!/bin/sh
# Prints a line that is not valid JSON (cut off after a key).
printf '%s\n' '{"language":"c","algorithm":'
