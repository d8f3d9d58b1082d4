#!/bin/sh
# Never finishes on its own.
sleep 60
