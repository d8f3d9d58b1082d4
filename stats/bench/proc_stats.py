#!/usr/bin/python3
"""Runs a command N times, one after another, and prints its median wall
time and its largest peak resident set size over the runs: the peak from
wait4's ru_maxrss (the child's own high-water mark, in KiB on Linux), the
wall time from time.perf_counter around fork and wait. The command's
standard output and error go to /dev/null; a failing run is an error.

usage: proc_stats.py N CMD [ARG...]
prints WALL_S=<median seconds> and MAXRSS_KIB=<largest peak> on stdout.
"""
import os
import statistics
import sys
import time


def run_once(argv):
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
        try:
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        sys.exit("proc_stats.py: %s failed (wait status %d)" % (" ".join(argv), status))
    return wall, usage.ru_maxrss


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: proc_stats.py N CMD [ARG...]")
    n = int(sys.argv[1])
    runs = [run_once(sys.argv[2:]) for _ in range(max(n, 1))]
    print("WALL_S=%.6f" % statistics.median(w for w, _ in runs))
    print("MAXRSS_KIB=%d" % max(r for _, r in runs))


if __name__ == "__main__":
    main()
