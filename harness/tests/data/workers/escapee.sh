#!/bin/sh
# Counts its launches in the file $GB_COUNTER. The first leaves a process in
# a session of its own, out of reach of a kill of its group, that keeps
# stdout open and writes "late" to it every few milliseconds for seconds,
# from 50 ms on; it prints that process's pid, and exits once the process
# has left the group. Later launches print "second" after 0.2 s, while the
# first one's process is still writing.
n=$(cat "$GB_COUNTER" 2>/dev/null || echo 0)
n=$((n + 1))
echo "$n" > "$GB_COUNTER"
if [ "$n" -eq 1 ]; then
  rm -f "$GB_COUNTER.escaped"
  setsid sh -c 'echo $$ > "$GB_COUNTER.escaped"; sleep 0.05
    for i in $(seq 1000); do echo late; sleep 0.005; done' &
  echo "$!"
  while [ ! -s "$GB_COUNTER.escaped" ]; do sleep 0.01; done
else
  sleep 0.2
  echo "second"
fi
