"""What the two example programs share: their arguments, the monotonic clock,
FNV-1a 64 and the contract line (docs/suites.md). A line-for-line port of
../c/contract.h."""
import platform
import re
import sys
import time

REPS_MAX = 1000000


def usage_fail(prog, what):
    """One stderr line and exit 2: every bad argument ends here."""
    sys.stderr.write("%s: error: %s (usage: %s N REPS | %s N --startup-only)\n"
                     % (prog, what, prog, prog))
    sys.exit(2)


def parse_count(s, maximum):
    """A whole number of 1..15 ASCII digits within [1, maximum]; -1 otherwise."""
    if not re.fullmatch(r"[0-9]{1,15}", s):
        return -1
    v = int(s)
    return v if 1 <= v <= maximum else -1


def parse_args(argv, prog, n_max):
    """(n, reps); reps is 0 for the startup form."""
    if len(argv) != 3:
        usage_fail(prog, "expected 2 arguments")
    n = parse_count(argv[1], n_max)
    if n < 0:
        usage_fail(prog, "N must be a whole number 1..%d" % n_max)
    if argv[2] == "--startup-only":
        return n, 0
    reps = parse_count(argv[2], REPS_MAX)
    if reps < 0:
        usage_fail(prog, "REPS must be a whole number 1..%d or --startup-only" % REPS_MAX)
    return n, reps


def now_ns():
    return time.monotonic_ns()


def fnv1a64(s):
    """FNV-1a 64 over the text s."""
    h = 0xcbf29ce484222325
    for b in s.encode("ascii"):
        h ^= b
        h = (h * 0x100000001b3) & 0xffffffffffffffff
    return h


def runtime_name():
    return "%s %s" % (platform.python_implementation(), platform.python_version())


def print_startup(text):
    sys.stdout.write('{"startup_only":true,"input_hash":"%016x","runtime":"%s"}\n'
                     % (fnv1a64(text), runtime_name()))


def print_measured(loop_ns, counters, text, output):
    """counters: "name":value pairs already joined, e.g. '"advances":1000'."""
    sys.stdout.write('{"loop_ns":%d,"counters":{%s},"input_hash":"%016x",'
                     '"output_hash":"%016x","runtime":"%s"}\n'
                     % (loop_ns, counters, fnv1a64(text), fnv1a64(output), runtime_name()))


def check_same(prog, same):
    """A repetition that disagrees with the one before is a broken program, not
    a result: exit 1 with one line. Comparing also uses every repetition's
    result."""
    if not same:
        sys.stderr.write("%s: error: a repetition gave a different result\n" % prog)
        sys.exit(1)
