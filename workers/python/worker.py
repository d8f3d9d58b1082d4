#!/usr/bin/python3
"""The Python worker: a line-for-line port of the C worker (workers/c/worker.c,
workers/c/args.c, workers/src/*.c). It generates the input, hashes it, sorts a
fresh copy --sorts times, checks every result and prints one JSON line
(docs/design.md, "The worker contract"): the study's, or with --contract
generic a suite's contract line (docs/suites.md). Exit 2 on bad arguments, 3 on a failed
check. Keep it in step with the C files; the parity tests compare them.

Run it with Debian's /usr/bin/python3 and python3-xxhash. It is one file on
purpose: the parity tests run patched copies of it from a scratch folder.
"""
import os
import sys

try:
    import xxhash
except ImportError:
    sys.stderr.write(
        "worker: error: the Python module xxhash is missing (install Debian's "
        "python3-xxhash and run this worker with /usr/bin/python3)\n"
    )
    sys.exit(1)

import platform
import time
from array import array

EXIT_BAD_ARGS = 2
EXIT_CHECK_FAILED = 3

DEFAULT_SEED = 2463534242
MAX_SIZE = 10000000
MAX_SORTS = 1000000000
UINT32_MAX = 4294967295
# args.c formats its messages into a 256-byte buffer, so a message longer than
# 255 bytes (a very long bad argument) is cut there; cut it at the same byte.
MSG_MAX_BYTES = 255

ALGORITHMS = ("bubble", "insertion", "quick")
ORDERS = ("random", "sorted", "reversed", "nearly")

MODE_SORT, MODE_STARTUP, MODE_DUMP_INPUT, MODE_DUMP_XORSHIFT = range(4)

CONTRACTS = ("study", "generic")

RUNTIME = platform.python_implementation() + " " + platform.python_version()

# PROJECT_VERSION of the top CMakeLists.txt; the test version/worker.py
# fails when they differ.
VERSION = "0.2.0"
ASKED_VERSION = "--version"

USAGE = (
    "usage: worker.py --algorithm bubble|insertion|quick --order random|sorted|reversed|nearly\n"
    "                 --size N --sorts K [--seed S] [--startup-only]\n"
    "                 [--contract study|generic]\n"
    "       worker.py --dump-input --order O --size N [--seed S]\n"
    "       worker.py --dump-xorshift COUNT [--seed S]\n"
    "       worker.py --version | --help\n"
)


# ---- xorshift.c -------------------------------------------------------------


class Xorshift32:
    """Marsaglia (2003), shifts 13, 17, 5, on a uint32 state that is never 0."""

    __slots__ = ("x",)

    def __init__(self, seed):
        # A zero state would only ever produce zeros: refused, never replaced.
        if seed == 0:
            raise ValueError("zero seed")
        self.x = seed

    def next(self):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return x


# ---- input.c ----------------------------------------------------------------


def swap(a, i, j):
    t = a[i]
    a[i] = a[j]
    a[j] = t


def input_fill(n, order, seed):
    """The input of the given order, a permutation of 0..n-1, from a fresh
    generator seeded with seed. Raises ValueError as gb_input_fill returns
    -EINVAL."""
    if n == 0 or n > MAX_SIZE or order not in ORDERS:
        raise ValueError("bad input arguments")
    g = Xorshift32(seed)
    a = []
    for i in range(n):
        a.append(n - 1 - i if order == "reversed" else i)
    if order == "random":
        # Fisher-Yates from the top.
        for i in range(n - 1, 0, -1):
            swap(a, i, g.next() % (i + 1))
    elif order == "nearly":
        # n/20 swaps of random pairs: about 5% of positions.
        for _ in range(n // 20):
            i = g.next() % n
            j = g.next() % n
            swap(a, i, j)
    return a


# ---- sorts.c ----------------------------------------------------------------


class Counts:
    """Comparisons and array writes of one sort, counted where docs/design.md says."""

    __slots__ = ("comparisons", "writes")

    def __init__(self):
        self.comparisons = 0
        self.writes = 0


def bubble_sort(a, n, c):
    # No early exit: every pass runs, whatever the input.
    for i in range(n - 1):
        for j in range(n - 1 - i):
            c.comparisons += 1
            if a[j] > a[j + 1]:
                t = a[j]
                a[j] = a[j + 1]
                a[j + 1] = t
                c.writes += 2


def insertion_sort(a, n, c):
    for i in range(1, n):
        key = a[i]
        j = i - 1
        while j >= 0:
            c.comparisons += 1
            if a[j] > key:
                a[j + 1] = a[j]
                c.writes += 1
                j -= 1
            else:
                break
        if j + 1 != i:
            a[j + 1] = key
            c.writes += 1


def swap_counted(a, i, j, c):
    if i == j:
        return  # a self-swap is skipped and costs nothing
    t = a[i]
    a[i] = a[j]
    a[j] = t
    c.writes += 2


def partition(a, lo, hi, c):
    """Lomuto partition of a[lo..hi] around the last element."""
    pivot = a[hi]
    i = lo
    for j in range(lo, hi):
        c.comparisons += 1
        if a[j] <= pivot:
            swap_counted(a, i, j, c)
            i += 1
    swap_counted(a, i, hi, c)
    return i


def quick_range(a, lo, hi, c):
    # Recurses into the smaller side and loops on the larger, so the stack
    # stays O(log n) even on sorted input, where Lomuto degrades to n^2/2
    # comparisons.
    while lo < hi:
        p = partition(a, lo, hi, c)
        if p - lo < hi - p:
            quick_range(a, lo, p - 1, c)
            lo = p + 1
        else:
            quick_range(a, p + 1, hi, c)
            hi = p - 1


def quick_sort(a, n, c):
    if n >= 2:
        quick_range(a, 0, n - 1, c)


SORTS = {"bubble": bubble_sort, "insertion": insertion_sort, "quick": quick_sort}


def sort(algorithm, a, n, c):
    SORTS[algorithm](a, n, c)


def is_identity(a, n):
    for i in range(n):
        if a[i] != i:
            return False
    return True


# ---- hash.c -----------------------------------------------------------------


def input_hash_hex(a):
    """XXH64, seed 0, of a as little-endian int32 bytes, as 16 lowercase hex
    digits."""
    image = array("i", a)
    if image.itemsize != 4:
        raise RuntimeError("the C int of this Python is not 32 bits")
    if sys.byteorder == "big":
        image.byteswap()
    return xxhash.xxh64(image, seed=0).hexdigest()


# ---- args.c -----------------------------------------------------------------


class ArgsError(Exception):
    pass


class Args:
    __slots__ = ("mode", "contract", "algorithm", "order", "size", "sorts", "seed", "dump_count")

    def __init__(self):
        self.mode = MODE_SORT
        self.contract = "study"
        self.algorithm = None
        self.order = None
        self.size = 0
        self.sorts = 0
        self.seed = DEFAULT_SEED
        self.dump_count = 0


# Option names and whether each takes a value, in args.c's order.
OPTIONS = (
    ("--algorithm", True),
    ("--order", True),
    ("--size", True),
    ("--sorts", True),
    ("--seed", True),
    ("--startup-only", False),
    ("--dump-input", False),
    ("--dump-xorshift", True),
    ("--contract", True),
)
TAKES_VALUE = dict(OPTIONS)
DIGITS = "0123456789"


def parse_count(name, s, maximum):
    """The value of option name: decimal ASCII digits only (no sign, space or
    exponent), within [1, maximum]; ArgsError otherwise."""
    v = 0
    ok = s != ""
    for ch in s:
        if not ok:
            break
        ok = ch in DIGITS
        v = v * 10 + (ord(ch) - ord("0"))
        ok = ok and v <= maximum
    if not ok or v == 0:
        raise ArgsError(f"{name} must be an integer from 1 to {maximum}, got '{s}'")
    return v


def set_value(o, name, v):
    if name == "--algorithm":
        if v not in ALGORITHMS:
            raise ArgsError(f"unknown algorithm '{v}' (expected bubble, insertion or quick)")
        o.algorithm = v
    elif name == "--order":
        if v not in ORDERS:
            raise ArgsError(
                f"unknown order '{v}' (expected random, sorted, reversed or nearly)"
            )
        o.order = v
    elif name == "--contract":
        if v not in CONTRACTS:
            raise ArgsError(f"unknown contract '{v}' (expected study or generic)")
        o.contract = v
    elif name == "--size":
        o.size = parse_count(name, v, MAX_SIZE)
    elif name == "--sorts":
        o.sorts = parse_count(name, v, MAX_SORTS)
    elif name == "--seed":
        o.seed = parse_count(name, v, UINT32_MAX)
    else:  # --dump-xorshift
        o.dump_count = parse_count(name, v, MAX_SIZE)


def check_required(o, seen):
    """The options each mode requires, in the order their absence is
    reported."""
    modes = [m for m in ("--startup-only", "--dump-input", "--dump-xorshift") if m in seen]
    if len(modes) > 1:
        raise ArgsError(
            "only one of --startup-only, --dump-input and --dump-xorshift may be given"
        )
    if "--startup-only" in seen:
        o.mode = MODE_STARTUP
    elif "--dump-input" in seen:
        o.mode = MODE_DUMP_INPUT
    elif "--dump-xorshift" in seen:
        o.mode = MODE_DUMP_XORSHIFT
    else:
        o.mode = MODE_SORT
    if o.mode == MODE_DUMP_XORSHIFT:
        needs = ()
    elif o.mode == MODE_DUMP_INPUT:
        needs = ("--order", "--size")
    else:
        needs = ("--algorithm", "--order", "--size", "--sorts")
    for name in needs:
        if name not in seen:
            raise ArgsError(f"missing {name}")


def args_parse(argv):
    """Parses argv (with argv[0]). Returns an Args, None when --help was
    asked for or ASKED_VERSION when --version was; raises ArgsError with a
    one-line message."""
    o = Args()
    seen = set()
    i = 1
    while i < len(argv):
        arg = argv[i]
        if arg == "--help" or arg == "-h":
            return None
        if arg == "--version":
            return ASKED_VERSION
        if arg not in TAKES_VALUE:
            if arg[:1] == "-":
                raise ArgsError(f"unknown option '{arg}'")
            raise ArgsError(f"unexpected argument '{arg}'")
        if arg in seen:
            raise ArgsError(f"option '{arg}' given twice")
        seen.add(arg)
        if TAKES_VALUE[arg]:
            if i + 1 >= len(argv):
                raise ArgsError(f"option '{arg}' needs a value")
            i += 1
            set_value(o, arg, argv[i])
        i += 1
    check_required(o, seen)
    return o


# ---- worker.c ---------------------------------------------------------------


def die(code, msg):
    """One line on stderr, with the argument bytes exactly as given."""
    data = os.fsencode(msg)[:MSG_MAX_BYTES]
    sys.stderr.flush()
    sys.stderr.buffer.write(b"worker: error: " + data + b"\n")
    sys.stderr.flush()
    return code


def print_head(a):
    return (
        f'{{"language":"python","algorithm":"{a.algorithm}","order":"{a.order}",'
        f'"size":{a.size},"seed":{a.seed},"sorts":{a.sorts},'
    )


def sort_loop(a, inp):
    """Sorts a fresh copy of inp a.sorts times, checking each result; the
    check inside the loop keeps every sort's work observable (docs/methods.md #7).
    Returns (first counts, loop_ns, the last sort's result), or None after a
    failed check."""
    first = None
    work = None
    t0 = time.perf_counter_ns()
    for k in range(a.sorts):
        c = Counts()
        work = inp.copy()
        sort(a.algorithm, work, a.size, c)
        if not is_identity(work, a.size):
            die(
                EXIT_CHECK_FAILED,
                f"check failed: sort {k + 1} of {a.sorts} did not give 0..{a.size - 1} "
                f"({a.algorithm}, {a.order}, size {a.size})",
            )
            return None
        if k == 0:
            first = c
        elif c.comparisons != first.comparisons or c.writes != first.writes:
            die(EXIT_CHECK_FAILED, f"check failed: sort {k + 1} counted differently")
            return None
    loop_ns = time.perf_counter_ns() - t0
    return first, loop_ns, work


def write_lines(values):
    """Writes one decimal value per line, in chunks to bound memory."""
    chunk = 65536
    for start in range(0, len(values), chunk):
        sys.stdout.write("".join(f"{v}\n" for v in values[start : start + chunk]))


def run_dump_xorshift(a):
    try:
        g = Xorshift32(a.seed)
    except ValueError:
        return die(EXIT_BAD_ARGS, "--seed must not be 0")
    write_lines([g.next() for _ in range(a.dump_count)])
    return 0


def run(a):
    try:
        inp = input_fill(a.size, a.order, a.seed)
    except (ValueError, MemoryError):
        return die(1, "cannot allocate the input")
    if a.mode == MODE_DUMP_INPUT:
        write_lines(inp)
        return 0
    digest = input_hash_hex(inp)
    if a.mode == MODE_STARTUP:
        # The generic line is the study's without its head.
        sys.stdout.write(
            (print_head(a) if a.contract == "study" else "{")
            + f'"startup_only":true,"input_hash":"{digest}","runtime":"{RUNTIME}"}}\n'
        )
        return 0
    result = sort_loop(a, inp)
    if result is None:
        return EXIT_CHECK_FAILED
    c, loop_ns, work = result
    if a.contract == "generic":
        sys.stdout.write(
            f'{{"loop_ns":{loop_ns},"counters":{{"comparisons":{c.comparisons},'
            f'"writes":{c.writes}}},"input_hash":"{digest}",'
            f'"output_hash":"{input_hash_hex(work)}","runtime":"{RUNTIME}"}}\n'
        )
        return 0
    sys.stdout.write(
        print_head(a)
        + f'"comparisons":{c.comparisons},"writes":{c.writes},"input_hash":"{digest}",'
        f'"loop_ns":{loop_ns},"sorted":true,"runtime":"{RUNTIME}"}}\n'
    )
    return 0


def git_commit():
    """The commit of the greenbench checkout this file is in, as the build
    finds it (version/git_commit.cmake): 12 hex digits, "-dirty" when a
    tracked file differs, "unknown" outside a checkout (installed, or a
    scratch copy) or without git."""
    import subprocess  # only here: the measured runs never import it

    here = os.path.dirname(os.path.realpath(__file__))

    def git(*args):
        r = subprocess.run(["git", "-C", here, *args], capture_output=True, text=True)
        if r.returncode != 0:
            raise OSError(r.stderr)
        return r.stdout

    try:
        top = git("rev-parse", "--show-toplevel").strip()
        mine = os.path.join(top, "workers", "python", "worker.py")
        if not os.path.exists(mine) or not os.path.samefile(mine, __file__):
            return "unknown"
        head = git("rev-parse", "--short=12", "HEAD").strip()
        dirty = git("--no-optional-locks", "status", "--porcelain", "--untracked-files=no")
    except OSError:
        return "unknown"
    return head + ("-dirty" if dirty else "")


def main(argv):
    try:
        a = args_parse(argv)
    except ArgsError as e:
        return die(EXIT_BAD_ARGS, str(e))
    try:
        if a is None:
            sys.stdout.write(USAGE)
            rc = 0
        elif a is ASKED_VERSION:
            sys.stdout.write(f"greenbench {VERSION} (commit {git_commit()})\n")
            rc = 0
        else:
            rc = run_dump_xorshift(a) if a.mode == MODE_DUMP_XORSHIFT else run(a)
        sys.stdout.flush()
    except OSError:
        # Keep the interpreter from reporting the same failure again at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return die(1, "cannot write to stdout")
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv))
