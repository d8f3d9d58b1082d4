#!/usr/bin/python3
"""The report's per-configuration bootstrap in vectorised numpy: the speed
comparison with the C stats library (stats/bench/run.sh), and the
independent peer that stats/tests/numpy_check.py holds the report to.

Same method as stats/src/analysis.c and bootstrap.c: the ok runs of each
configuration; startup cost per process = batch / launches, the median over
the trial's ok batches, which each resample resamples too (the trial's
batches drawn with replacement, their medians subtracted in place of the
fixed ones; held fixed with --startup-fixed, as `greenbench report
--startup-fixed`); per-run time, CPU time, net energy
(idle baseline scaled to the run's length), process time and energy with
idle, per sort; 10,000 resamples of the run indices, the median of each
estimate along the resample axis, net power as the ratio of the two
medians, and 2.5% / 97.5% percentiles (numpy's default "linear" method,
Hyndman & Fan type 7). The random numbers differ from the C library's
(numpy's PCG64 against xoshiro256**), so intervals agree only to bootstrap
noise; the point estimates must agree exactly, and are checked against
POINTS from bench_report when given.

Units as the C library's: time in ns, energy in uJ, power in W.

usage: bootstrap_numpy.py DIR [POINTS] [--startup-fixed]
"""
import csv
import sys
import time
import warnings

import numpy as np

RESAMPLES = 10000
# Rows of config_values' arrays and of replicates' (POWER only there).
TIME, ENERGY, PROCESS, CPU, GROSS, POWER = range(6)


def read_rows(path, status="ok"):
    """runs.csv's rows as dicts, in file order: those with this status, or
    every row when status is None."""
    with open(path, newline="") as f:
        return [r for r in csv.DictReader(f) if status is None or r["status"] == status]


def number(s):
    """A CSV field as a float; NaN when empty (a missing optional value)."""
    return float(s) if s != "" else np.nan


def energy(r, prefix=""):
    pkg, dram = r[prefix + "pkg_uj"], r[prefix + "dram_uj"]
    if r["energy"] != "ok" or pkg == "":
        return np.nan
    return float(pkg) + (float(dram) if dram else 0.0)


def net(r):
    """Energy net of the idle baseline scaled to the run's length (uJ),
    evaluated in gb_net_energy_uj's order; NaN when energy is missing."""
    return energy(r) - energy(r, "idle_") * (float(r["wall_ns"]) / number(r["idle_ns"]))


def startup_batches(rows):
    """Per startup trial (language, order, size) a (n, 3) array of its ok
    batches' costs per process, in file order: wall, CPU, net energy."""
    groups = {}
    for r in rows:
        if r["kind"] != "startup":
            continue
        k = (r["language"], r["order"], r["size"])
        n = float(r["launches"])
        cpu = float(r["user_ns"]) + float(r["sys_ns"])
        groups.setdefault(k, []).append((float(r["wall_ns"]) / n, cpu / n, net(r) / n))
    return {k: np.array(v) for k, v in groups.items()}


def startup_costs(rows):
    """The median cost per process of each trial (type 7; energy NaN when
    any batch lacks it, as in analysis.c)."""
    return {k: np.quantile(v, 0.5, axis=0) for k, v in startup_batches(rows).items()}


def config_values(rows, costs):
    """Per configuration with a measured startup a (5, n) array of its ok
    runs in file order: time, energy, process, cpu, gross (rows TIME..GROSS)."""
    groups = {}
    for r in rows:
        k = (r["language"], r["order"], r["size"])
        if r["kind"] != "sort" or k not in costs:
            continue
        st_t, st_c, st_e = costs[k]
        sorts, wall = float(r["sorts"]), float(r["wall_ns"])
        t = (wall - st_t) / sorts
        e = (net(r) - st_e) / sorts
        cpu = (float(r["user_ns"]) + float(r["sys_ns"]) - st_c) / sorts
        gross = e + energy(r, "idle_") / number(r["idle_ns"]) * t
        k = (r["language"], r["algorithm"], r["order"], r["size"])
        groups.setdefault(k, []).append((t, e, wall, cpu, gross))
    return {k: np.array(v).T for k, v in groups.items()}


def config_shift(rows, costs):
    """Per configuration what a resampled startup needs of its ok runs, in
    config_values' order: a (2, n) array of 1 / sorts and idle power
    (uJ per ns, NaN without energy)."""
    groups = {}
    for r in rows:
        k = (r["language"], r["order"], r["size"])
        if r["kind"] != "sort" or k not in costs:
            continue
        k = (r["language"], r["algorithm"], r["order"], r["size"])
        groups.setdefault(k, []).append(
            (1.0 / float(r["sorts"]), energy(r, "idle_") / number(r["idle_ns"])))
    return {k: np.array(v).T for k, v in groups.items()}


def median_last_axis(v):
    """The type 7 median along the last axis by np.partition, which is
    about twice as fast as np.median here (it skips np.median's NaN checks
    and full mean); the same values."""
    n = v.shape[-1]
    h = (n - 1) // 2
    if n % 2:
        return np.partition(v, h, axis=-1)[..., h]
    p = np.partition(v, [h, h + 1], axis=-1)
    return (p[..., h] + p[..., h + 1]) / 2.0


def power_w(e, t):
    """Net power (W) from energy (uJ) and time (ns) per sort, NaN where the
    time is not > 0 (as bootstrap.c's power_w)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(t > 0, e / t * 1e3, np.nan)


def paired_power(x):
    """Each run's own net power (W): its energy per sort over its time per
    sort, NaN where that time is not > 0 (the paired estimator, ADR 0015)."""
    return power_w(x[ENERGY], x[TIME])


def replicates(x, rng, resamples=RESAMPLES, rows=(TIME, ENERGY, PROCESS, CPU, GROSS),
               paired=False, startup=None):
    """A (6, resamples) array: rows TIME..GROSS the medians of each
    resample of x's runs (one index vector for every estimate), row POWER
    their energy over time, or with paired the median of the resample's
    per-run powers (NaN left out). Only the rows listed are computed (the
    others are NaN): the same draws, less work. startup, when given, is
    (batches (m, 3), their median (3,), config_shift's (2, n)): each
    resample also draws m batches and moves every run's values from the
    fixed startup to that draw's medians (a paired power too: each run's
    energy over its time, both net of that resample's startup)."""
    n = x.shape[1]
    idx = rng.integers(0, n, size=(resamples, n))
    vals = x[list(rows)][:, idx]
    if startup is not None:
        batches, cost, shift = startup
        m = batches.shape[0]
        sidx = rng.integers(0, m, size=(resamples, m))
        d = median_last_axis(batches.T[:, sidx]) - cost[:, None]  # (3, resamples)
        inv, idle = shift[0][idx], shift[1][idx]
        moves = {TIME: d[0][:, None] * inv, CPU: d[1][:, None] * inv,
                 ENERGY: d[2][:, None] * inv,
                 GROSS: (d[2][:, None] + idle * d[0][:, None]) * inv, PROCESS: 0.0}
        for j, e in enumerate(rows):
            vals[j] = vals[j] - moves[e]
    med = np.full((5, resamples), np.nan)
    med[list(rows)] = median_last_axis(vals)
    if not paired:
        return np.vstack([med, power_w(med[ENERGY], med[TIME])])
    e, t = x[ENERGY][idx], x[TIME][idx]
    if startup is not None:
        e, t = e - moves[ENERGY], t - moves[TIME]
    pw = power_w(e, t)
    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.vstack([med, np.nanmedian(pw, axis=1)])


def bootstrap(x, rng, startup=None):
    return np.percentile(replicates(x, rng, startup=startup), [2.5, 97.5], axis=1)


def check_points(points, path):
    worst = 0.0
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            k = (r["language"], r["algorithm"], r["order"], r["size"])
            mine = points[k]
            theirs = (float(r["time_per_sort_ns"]), float(r["energy_per_sort_uj"]))
            for a, b in zip(mine, theirs):
                worst = max(worst, abs(a - b) / max(abs(b), 1e-300))
    return worst


def main():
    args = [a for a in sys.argv[1:] if a != "--startup-fixed"]
    fixed = len(args) < len(sys.argv) - 1
    if len(args) not in (1, 2):
        sys.exit("usage: bootstrap_numpy.py DIR [POINTS] [--startup-fixed]")
    t0 = time.perf_counter()
    rows = read_rows(args[0] + "/runs.csv")
    batches = startup_batches(rows)
    costs = startup_costs(rows)
    values = config_values(rows, costs)
    shifts = config_shift(rows, costs)
    t1 = time.perf_counter()
    rng = np.random.default_rng(2463534242)
    points = {}
    for k in sorted(values):
        x = values[k]
        st = (k[0], k[2], k[3])
        bootstrap(x, rng, None if fixed else (batches[st], costs[st], shifts[k]))
        points[k] = (np.median(x[0]), np.median(x[1]))
    t2 = time.perf_counter()
    print("numpy %s: read and derive %.3f s, bootstrap of %d configurations %.3f s"
          % (np.__version__, t1 - t0, len(values), t2 - t1))
    print("PY_BOOTSTRAP_S=%.6f" % (t2 - t1))
    print("PY_TOTAL_S=%.6f" % (t2 - t0))
    if len(args) == 2:
        worst = check_points(points, args[1])
        print("point estimates: largest relative difference from C %.3g" % worst)
        if worst > 1e-12:
            sys.exit("point estimates differ from the C library's")


if __name__ == "__main__":
    main()
