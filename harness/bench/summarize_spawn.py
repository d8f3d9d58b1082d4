#!/usr/bin/python3
"""Figure 1 of docs/performance.md: per-process overhead, from the samples
ci/bench collected in interleaved rounds.

usage: summarize_spawn.py LABEL RAW_FILE HYPERFINE_JSON...

RAW_FILE holds bench_spawn's "ROUND METHOD NS" lines; each HYPERFINE_JSON is
one round's `hyperfine --export-json` file, named ...-rROUND.json. For each
method it prints the median over all rounds' runs, and, per round, the
ratio of medians to the fork/exec/wait4 floor and to hyperfine; the figure
is the median of the per-round ratios (so slow drift of a shared machine
cancels within a round) with its range over rounds. Then the harness's
wall_ns against the two goals of issue 19, round by round, and one line per
goal starting PASS or FAIL (ci/bench collects them): no more than 1.02 x
the posix_spawn floor, and no more than hyperfine -N, each in at least 5 of
7 rounds (5/7 of the rounds, rounded up, for another count). Standard
library only.
"""
import math
import json
import re
import statistics
import sys
from collections import defaultdict

METHODS = [
    ("fork", "floor: fork + execve + wait4 (C, CLOCK_MONOTONIC_RAW)"),
    ("spawn", "floor: posix_spawn + wait4"),
    ("hyperfine", "hyperfine -N (its own per-run time)"),
    ("harness", "harness: gb_spawn_run wall_ns, checked"),
    ("call", "harness: the whole gb_spawn_run call"),
    ("batch", "harness: startup batch, per launch"),
    ("proto", "prototype: posix_spawn, memory files, pidfd"),
]


def load(raw_path, json_paths):
    samples = defaultdict(lambda: defaultdict(list))  # method -> round -> [ns]
    with open(raw_path) as f:
        for line in f:
            rnd, method, ns = line.split()
            samples[method][int(rnd)].append(int(ns))
    for path in json_paths:
        rnd = int(re.search(r"-r(\d+)\.json$", path).group(1))
        with open(path) as f:
            times = json.load(f)["results"][0]["times"]
        samples["hyperfine"][rnd].extend(round(t * 1e9) for t in times)
    return samples


def per_round(samples, method):
    return {r: statistics.median(v) for r, v in samples[method].items()}


def main(argv):
    if len(argv) < 3:
        sys.exit("usage: summarize_spawn.py LABEL RAW_FILE HYPERFINE_JSON...")
    label, samples = argv[1], load(argv[2], argv[3:])
    rounds = sorted(samples["fork"])
    print(f"figure 1, {label}: {len(rounds)} interleaved rounds")
    print(f"  {'method':50} {'median':>10} {'x fork':>8} {'x hyperfine':>12}  range of x hyperfine")
    fork, hf = per_round(samples, "fork"), per_round(samples, "hyperfine")
    for method, title in METHODS:
        if method not in samples:
            continue
        med = per_round(samples, method)
        pooled = statistics.median(v for r in samples[method].values() for v in r)
        common = [r for r in rounds if r in med and r in fork and r in hf]
        x_fork = [med[r] / fork[r] for r in common]
        x_hf = [med[r] / hf[r] for r in common]
        print(f"  {title:50} {pooled / 1e3:8.1f}us {statistics.median(x_fork):8.3f} "
              f"{statistics.median(x_hf):12.3f}  {min(x_hf):.3f} .. {max(x_hf):.3f}")
    added = lambda m: [per_round(samples, m)[r] - fork[r] for r in rounds]
    h_add, hf_add = statistics.median(added("harness")), statistics.median(added("hyperfine"))
    print(f"  added over the fork floor: harness {h_add / 1e3:+.1f} us, "
          f"hyperfine {hf_add / 1e3:+.1f} us (medians of rounds)")
    tag = re.sub(r"[^A-Za-z0-9]+", "_", label).strip("_").upper()
    goals(label, tag, samples, rounds)


def goals(label, tag, samples, rounds):
    """Issue 19's goals, counted round by round."""
    harness, spawn = per_round(samples, "harness"), per_round(samples, "spawn")
    hf = per_round(samples, "hyperfine")
    x_spawn = {r: harness[r] / spawn[r] for r in rounds}
    x_hf = {r: harness[r] / hf[r] for r in rounds}
    print(f"  {'harness wall_ns, round':28}" + "".join(f"{'r' + str(r):>7}" for r in rounds))
    print(f"  {'  x posix_spawn floor':28}" + "".join(f"{x_spawn[r]:7.3f}" for r in rounds))
    print(f"  {'  x hyperfine -N':28}" + "".join(f"{x_hf[r]:7.3f}" for r in rounds))
    need = math.ceil(5 * len(rounds) / 7)
    for key, title, limit, ratios in (
        ("SPAWN", "1.02 x posix_spawn floor", 1.02, x_spawn),
        ("HYPERFINE", "hyperfine -N", 1.0, x_hf),
    ):
        met = sum(1 for v in ratios.values() if v <= limit)
        values = list(ratios.values())
        print(f"SPAWN_{tag}_HARNESS_OVER_{key}={statistics.median(values):.4f}")
        verdict = "PASS" if met >= need else "FAIL"
        print(f"{verdict}: {label}: harness wall_ns <= {title} in >= {need} of {len(rounds)} rounds "
              f"({met} of {len(rounds)}; median {statistics.median(values):.3f}, "
              f"range {min(values):.3f} .. {max(values):.3f})")


if __name__ == "__main__":
    main(sys.argv)
