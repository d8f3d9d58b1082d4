#!/usr/bin/python3
"""Holds `greenbench report` to an independent numpy computation from the
same records (runs.csv, meta.json): every figure results.md prints is
recomputed here, with numpy and the method of stats/src (analysis.c,
bootstrap.c, ratio.c, spearman.c; the quantile rule of
docs/adr/0005-quantile-rule.md), and compared with the printed text.

Point estimates must equal numpy's to the printed precision: the printed
text is numpy's value rounded as the report rounds (4 significant digits,
3 for rho and the net-power sentence). They are: per configuration the
medians of time, CPU time and energy per sort, net power, process time's
median, p95, min and max and its Tukey outliers, run-to-run rho; per
startup trial the median wall, CPU and energy per process; every time,
energy and power ratio between languages and between orders, and the
median (range) summaries of them; the comparisons ratios; the net-power
range; coupling and rank-agreement rho; carbon per sort. Counts printed
beside them (ok runs, ratios per row) must be equal. Net power and the
power ratios are the report's estimator's (--power-estimator, passed on to
the report: paired, the default, or study; ADR 0015).

Bootstrap interval ends can agree only statistically: numpy draws its own
10,000 resamples per configuration (PCG64, one stream per configuration),
the C library its own (xoshiro256**). The C end is the type 7 quantile at
p = 0.025 (0.975) of B_C = 10,000 draws from the bootstrap distribution F,
so F(C end) is p with standard error sqrt(p (1 - p) / B_C); numpy's
empirical distribution G estimates F with error sqrt(F (1 - F) / B_N).
Independently, G(C end) - p is normal with mean 0 and standard deviation
s = sqrt(p (1 - p) (1 / B_C + 1 / B_N)) (0.0022 for B = 10,000). The check:
the printed C end, widened by half its last printed digit, reaches numpy's
quantiles at p - z s and p + z s. This compares ranks, not values, so it
needs no density estimate and holds for the few-valued bootstrap
distributions of 1 to 3 runs as for 30. z is Bonferroni's for a
family-wise false-alarm rate of 0.001 over all the ends of one report
(about 4.9 for 1,000 ends: numpy's 1.4% to 3.6% quantiles for a low end).
The records and both seeds are fixed, so is the verdict (for one numpy).

usage: numpy_check.py DIR --greenbench EXE [--allow-partial] [--perturb L/A/O/N]
  --perturb  numpy reads that configuration's ok sort runs with wall_ns 1%
             longer, so its figures must disagree: for the test that shows
             the check can fail.
exit 0 when every figure agrees; 1 with one line per disagreeing figure
(naming it and both values); 2 on bad arguments, a report that cannot be
made, or a results.md without the tables expected.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
from statistics import NormalDist

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench"))
import bootstrap_numpy as bn  # noqa: E402  (the shared numpy peer)

LANGS = ["c", "python", "node"]  # the records' enum orders (records.h)
ALGS = ["bubble", "insertion", "quick"]
ORDERS = ["random", "sorted", "reversed", "nearly"]
TITLE = {"c": "C", "python": "Python", "node": "Node.js"}
LANGUAGE_PAIRS = [("python", "c"), ("node", "c"), ("python", "node")]
SEED = 2463534242  # the report's default, GB_ANALYSIS_SEED_DEFAULT
RANK_RESAMPLES = 2000  # GB_ANALYSIS_RANK_RESAMPLES
TAIL = 0.025  # of a 95% interval
FALSE_ALARM = 0.001  # family-wise, over one report's interval ends
NEEDS_ENERGY = (bn.ENERGY, bn.GROSS, bn.POWER)


def die(msg):
    print("numpy_check: error: " + msg, file=sys.stderr)
    sys.exit(2)


# ---- The report's number format (stats/src/textbuf.c) -------------------------


def fmt_sig(v, sig):
    """gbi_fmt_sig: sig significant digits as plain decimals, "0" for 0,
    "n/a" for NaN."""
    if not math.isfinite(v):
        return "n/a"
    if v == 0.0:
        return "0"
    dec = min(max(sig - 1 - math.floor(math.log10(abs(v))), 0), 15)
    if dec > 0 and round(abs(v) * 10.0**dec) >= 10.0**sig:
        dec -= 1
    return "%.*f" % (dec, v)


def decimals(s):
    return len(s.split(".")[1]) if "." in s else 0


def interval_decimals(point, lo, hi, sig):
    """gbi_interval_decimals: two significant digits of the half-width, and
    never more than sig significant digits of the largest of the three;
    None where the C side falls back to sig digits each."""
    big = max(abs(point), abs(lo), abs(hi))
    if not math.isfinite(big) or big == 0.0:
        return None

    def dec_for(x, digits):
        return min(max(digits - 1 - math.floor(math.log10(x)), 0), 15)

    dec = dec_for(big, sig)
    half = (hi - lo) / 2.0
    return min(dec, dec_for(half, 2)) if half > 0 else dec


def range_decimals(median, lo, hi, sig):
    """gbi_range_decimals: interval_decimals with the range in place of the
    interval, but a range of positive figures also keeps two significant
    digits of its smallest, unless that gives the largest more than sig
    (None: each figure with sig significant digits)."""
    dec = interval_decimals(median, lo, hi, sig)
    if dec is None or not lo > 0:
        return dec

    def dec_for(x, digits):
        return min(max(digits - 1 - math.floor(math.log10(x)), 0), 15)

    keep = dec_for(lo, 2)
    if keep <= dec:
        return dec
    return keep if keep <= dec_for(hi, sig) else None


def same_printed(printed, value, sig):
    """printed is value rounded to the report's precision. A value within
    an ulp of a rounding tie may round either way; the printed digits
    must still be as many and within half of the last one."""
    want = fmt_sig(value, sig)
    if printed == want:
        return True
    if want == "n/a" or printed in ("n/a", "0") or decimals(printed) != decimals(want):
        return False
    half = 0.5 * 10.0 ** -decimals(printed)
    return abs(float(printed) - value) <= half * (1 + 1e-9)


# ---- results.md ----------------------------------------------------------------

CELL_SPLIT = re.compile(r"(?<!\\)\|")
INTERVAL = re.compile(r"(\S+) \[(?:(\S+), (\S+)|n/a)\]\Z")
RANGE = re.compile(r"(\S+) \((\S+) to (\S+)\)(?:, (\d+) of (\d+) defined)?\Z")
NONPOSITIVE = " ⚠ not above 0"
# The loop-time cross-check's marks (issue 32): after time per sort, the
# worker's loop time per sort where the two disagree; after CPU per sort,
# where it exceeds time per sort x the workers' CPUs; after a time ratio
# whose side is so marked.
LOOP = re.compile(r" ‡ loop time (\S+)\Z")
IMPOSSIBLE = " ⊘ impossible"
RATIO_LOOP = " ‡"
LOOP_TOLERANCE = 0.10
OUTSIDE = re.compile(r" † outside its interval of (\d+) of (\d+)\Z")
NET_POWER = re.compile(r"Net power above idle has a median of (\S+) W across the (\d+) "
                       r"configurations with energy \(from (\S+) W to (\S+) W\)")


def cells(line):
    return [c.strip() for c in CELL_SPLIT.split(line.strip()[1:-1])]


def tables(text):
    """Every table of results.md as (caption, header, rows): the caption is
    the last line of prose before it, rows are lists of cell strings."""
    out, caption, lines, i = [], "", text.split("\n"), 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("|") and i + 1 < len(lines) and lines[i + 1].startswith("|---"):
            header, rows, i = cells(line), [], i + 2
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(cells(lines[i]))
                i += 1
            out.append((caption, header, rows))
            continue
        if line.strip() and not line.startswith("<"):
            caption = line
        i += 1
    return out


# ---- numpy's side -----------------------------------------------------------------


def spearman(x, y):
    """Spearman's rho with ties given their average rank; NaN when n < 2
    or either side has no spread (gbi_spearman)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    if len(x) < 2:
        return np.nan
    rx, ry = average_ranks(x[:, None])[:, 0], average_ranks(y[:, None])[:, 0]
    return rank_pearson(rx[:, None], ry[:, None])[0]


def average_ranks(v):
    """Ranks 1..k down each column of v (k, B), ties averaged: the values
    below, plus the mean position among the equal ones."""
    less = (v[None, :, :] < v[:, None, :]).sum(axis=1)
    equal = (v[None, :, :] == v[:, None, :]).sum(axis=1)
    return less + (equal + 1) / 2.0


def rank_pearson(rx, ry):
    """Pearson's r down each column of two rank arrays (k, B), NaN where a
    column has no spread, clamped to [-1, 1]."""
    k = rx.shape[0]
    dx, dy = rx - (k + 1) / 2.0, ry - (k + 1) / 2.0
    sxx, syy = (dx * dx).sum(axis=0), (dy * dy).sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = (dx * dy).sum(axis=0) / np.sqrt(sxx * syy)
    return np.where((sxx == 0) | (syy == 0), np.nan, np.clip(r, -1.0, 1.0))


def q7(v, p):
    """Type 7 quantile(s) of v's values that are not NaN; NaN if none."""
    v = np.asarray(v, float)
    v = v[~np.isnan(v)]
    return np.quantile(v, p) if len(v) else np.full(np.shape(p), np.nan)


# The report's estimator of net power and the power ratios (--power-estimator).
PAIRED = True


def positive_ratio(x, y):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where((x > 0) & (y > 0), x / y, np.nan)


def stream(lang, alg, order, size):
    """gbi_analysis_stream: the configuration's stream number, so numpy too
    draws each configuration's resamples on its own."""
    key = (LANGS.index(lang) * 3 + ALGS.index(alg)) * 4 + ORDERS.index(order)
    return (key << 32) | (int(size) & 0xFFFFFFFF)


class Peer:
    """Everything the report prints, computed by numpy from DIR's records."""

    def __init__(self, folder, perturb=None):
        with open(os.path.join(folder, "meta.json")) as f:
            meta = json.load(f)
        s = meta["settings"]
        self.energy = meta["energy"]["status"] == "ok"
        self.cpus = cpus_in(meta["pinning"]["cpus"]) or meta["machine"]["cpus_online"]
        self.langs = [x for x in LANGS if x in s["languages"]]
        self.algs = [x for x in ALGS if x in s["algorithms"]]
        self.orders = [x for x in ORDERS if x in s["orders"]]
        self.sizes = [str(z) for z in s["sizes"]]
        self.settings_orders = s["orders"]
        rows = bn.read_rows(os.path.join(folder, "runs.csv"), status=None)
        for r in rows:
            key = "/".join((r["language"], r["algorithm"], r["order"], r["size"]))
            if r["kind"] == "sort" and r["status"] == "ok" and key == perturb:
                r["wall_ns"] = repr(float(r["wall_ns"]) * 1.01)
        ok = [r for r in rows if r["status"] == "ok"]
        groups = {}
        for r in rows:
            k = (r["language"], r["order"], r["size"])
            k = k if r["kind"] == "startup" else (k[0], r["algorithm"]) + k[1:]
            groups.setdefault(k, []).append(r)
        self.startups(groups, ok)
        self.configs(groups, ok)
        self.ratios()

    def startups(self, groups, ok):
        batches = bn.startup_batches(ok)
        self.batches = batches
        self.costs = {k: np.quantile(v, 0.5, axis=0) for k, v in batches.items()}
        self.startup = {}
        for lang in self.langs:
            for order in self.orders:
                for size in self.sizes:
                    k = (lang, order, size)
                    mine = groups.get(k, [])
                    first_ok = [r for r in mine if r["status"] == "ok"][:1]
                    self.startup[k] = {
                        "rows": len(mine), "ok": len(batches.get(k, [])),
                        "cost": self.costs.get(k),
                        "launches": first_ok[0]["launches"] if first_ok else None}

    def configs(self, groups, ok):
        values = bn.config_values(ok, self.costs)
        self.shifts = bn.config_shift(ok, self.costs)
        self.config = {}
        for lang in self.langs:
            for alg in self.algs:
                for order in self.orders:
                    for size in self.sizes:
                        k = (lang, alg, order, size)
                        self.config[k] = self.config_of(k, groups.get(k, []), values.get(k))

    def config_of(self, k, mine, x):
        ok = [r for r in mine if r["status"] == "ok"]
        counted = [r for r in ok if r["comparisons"] != "" and r["writes"] != ""][:1]
        c = {"rows": len(mine), "ok": len(ok), "measured": x is not None,
             "comparisons": float(counted[0]["comparisons"]) if counted else None}
        if x is None:
            return c
        has_energy = not np.isnan(x[bn.ENERGY]).any()
        loops = [float(r["loop_ns"]) / float(r["sorts"]) for r in ok if r["loop_ns"] != ""]
        c["loop"] = np.quantile(loops, 0.5) if loops else np.nan
        point = [np.quantile(x[e], 0.5) for e in range(bn.POWER)]
        if PAIRED:
            pw = bn.paired_power(x)
            pw = pw[~np.isnan(pw)]
            defined = point[bn.TIME] > 0 and point[bn.ENERGY] > 0
            point.append(np.quantile(pw, 0.5) if defined and pw.size else np.nan)
        else:
            point.append(bn.power_w(point[bn.ENERGY], point[bn.TIME])[()])
        # The report shows no interval of process time; energy's only with energy.
        shown = (bn.TIME, bn.CPU) + ((bn.ENERGY, bn.GROSS) if has_energy else ())
        # The report resamples the startup batches in every replicate
        # (docs/adr/0014-startup-in-the-intervals.md); so does numpy.
        st = (k[0], k[2], k[3])
        reps = bn.replicates(x, np.random.default_rng([SEED, stream(*k)]), rows=shown,
                             paired=PAIRED and has_energy,
                             startup=(self.batches[st], self.costs[st], self.shifts[k]))
        for e in NEEDS_ENERGY if not has_energy else ():
            point[e] = np.nan
        wall = x[bn.PROCESS]
        q1, q3 = np.quantile(wall, [0.25, 0.75])
        e_process = np.array([bn.energy(r) for r in ok])
        c.update(has_energy=has_energy, point=point, reps=reps,
                 process=(np.quantile(wall, 0.5), np.quantile(wall, 0.95), wall.min(),
                          wall.max()),
                 outliers=(int((wall < q1 - 1.5 * (q3 - q1)).sum()),
                           int((wall > q3 + 1.5 * (q3 - q1)).sum())),
                 rho=np.nan if np.isnan(e_process).any() else spearman(wall, e_process))
        return c

    def ratio(self, family, a, b):
        x, y = self.config[a], self.config[b]
        r = {"family": family, "a": a, "b": b, "computed": x["measured"] and y["measured"]}
        if not r["computed"]:
            return r
        px, py = x["point"], y["point"]
        t = positive_ratio(px[bn.TIME], py[bn.TIME])[()]
        e = positive_ratio(px[bn.ENERGY], py[bn.ENERGY])[()]
        rx, ry = x["reps"], y["reps"]
        tr = positive_ratio(rx[bn.TIME], ry[bn.TIME])
        er = positive_ratio(rx[bn.ENERGY], ry[bn.ENERGY])
        with np.errstate(invalid="ignore"):
            pr = np.where(np.isnan(tr), np.nan, er / tr)
        er = np.where(np.isnan(pr), np.nan, er)
        p = np.nan if np.isnan(t) or np.isnan(e) else e / t
        if PAIRED:
            pr = positive_ratio(rx[bn.POWER], ry[bn.POWER])
            p = positive_ratio(px[bn.POWER], py[bn.POWER])[()]
        r.update(point={"time": t, "energy": e, "power": p},
                 reps={"time": tr, "energy": er, "power": pr})
        return r

    def ratios(self):
        self.ratio_list = []
        for la, lb in LANGUAGE_PAIRS:
            for alg in ALGS:
                for order in ORDERS:
                    for size in self.sizes:
                        a, b = (la, alg, order, size), (lb, alg, order, size)
                        if a in self.config and b in self.config:
                            self.ratio_list.append(self.ratio("languages", a, b))
        for lang in LANGS:
            for alg in ALGS:
                for order in ORDERS[1:]:
                    for size in self.sizes:
                        a, b = (lang, alg, order, size), (lang, alg, "random", size)
                        if a in self.config and b in self.config:
                            self.ratio_list.append(self.ratio("orders", a, b))

    def summary(self, select):
        """Count and median (range) of the point ratios of the ratios
        select keeps (energy and power only with energy measured)."""
        sel = [r for r in self.ratio_list if select(r)]
        out = {"n": len(sel)}
        for what in ("time", "energy", "power"):
            v = [r["point"][what] for r in sel if r["computed"] and
                 not np.isnan(r["point"][what]) and (what == "time" or self.energy)]
            out[what] = np.quantile(v, [0.5, 0.0, 1.0]) if v else None
            out[what + "_used"] = len(v)
        return out


# ---- The comparison -------------------------------------------------------------------


class Check:
    def __init__(self):
        self.failures, self.points, self.words, self.ends = [], 0, 0, []

    def fail(self, what, printed, numpy):
        self.failures.append("%s: results.md prints %s, numpy gives %s" % (what, printed, numpy))

    def text(self, what, printed, want):
        """A cell that is a word or a count: equal, or a failure."""
        self.words += 1
        if printed != want:
            self.fail(what, repr(printed), repr(want))

    def point(self, what, printed, value, sig=4):
        self.points += 1
        if not same_printed(printed, value, sig):
            self.fail(what, printed, "%.17g (%s at this precision)" % (value, fmt_sig(value, sig)))

    def rounded(self, what, printed, lo, hi, value, sig, rule=interval_decimals):
        """A point printed to what its interval supports: point and ends
        share the decimals of interval_decimals (for the true ends, which
        lie within a unit of the last printed digit of the printed ones),
        and the point is value rounded to them."""
        self.points += 1
        dec = decimals(printed)
        if decimals(lo) != dec or decimals(hi) != dec:
            self.fail(what, "%s [%s, %s]" % (printed, lo, hi), "one number of decimals")
            return
        u = 10.0 ** -dec
        allowed = {rule(value, float(lo) + a, float(hi) + b, sig)
                   for a in (-u, 0.0, u) for b in (-u, 0.0, u)}
        if None in allowed:
            allowed.add(decimals(fmt_sig(value, sig)))
        if dec not in allowed:
            self.fail(what + " rounding", printed,
                      "%s decimals (two digits of the half-width, at most %d significant)"
                      % (" or ".join(str(d) for d in sorted(x for x in allowed if x is not None)),
                         sig))
            return
        if abs(float(printed) - value) > 0.5 * u * (1 + 1e-9):
            self.fail(what, printed, "%.17g (%.*f at this precision)" % (value, dec, value))

    def interval(self, what, cell, point, reps, scale=1.0, sig=4):
        """An interval cell "point [lo, hi]": its point (already scaled as
        printed) now, its ends later against numpy's replicates reps, which
        are scaled here."""
        mark = OUTSIDE.search(cell)
        if mark:
            cell = cell[:mark.start()]
        m = INTERVAL.match(cell)
        if m and m.group(2) is not None:
            p, lo, hi = (float(x) for x in m.groups())
            # From the printed (rounded) numbers: outside with the mark,
            # inside without it, a tie allowed either way.
            if (mark and lo < p < hi) or (not mark and (p < lo or p > hi)):
                self.fail(what + " mark of a point outside its interval", repr(cell),
                          "the mark" if not mark else "no mark")
            if mark and int(mark.group(1)) > int(mark.group(2)):
                self.fail(what + " resamples used", mark.group(0), "at most all of them")
        if not m:
            self.fail(what, repr(cell), "an interval around %s" % fmt_sig(point, sig))
            return
        if m.group(2) is None:
            self.point(what, m.group(1), point, sig)
        else:
            self.rounded(what, m.group(1), m.group(2), m.group(3), point, sig)
        v = np.asarray(reps, float) * scale
        v = v[~np.isnan(v)]
        if m.group(2) is None or len(v) == 0:
            self.text(what + " interval", "n/a" if m.group(2) is None else "an interval",
                      "n/a" if len(v) == 0 else "an interval")
            return
        for end, printed, p in (("low", m.group(2), TAIL), ("high", m.group(3), 1 - TAIL)):
            self.ends.append(("%s 95%% interval, %s end" % (what, end), printed, v, p))

    def check_ends(self):
        """The interval ends against numpy's (module docstring)."""
        if not self.ends:
            return 0.0
        z = NormalDist().inv_cdf(1 - FALSE_ALARM / (2 * len(self.ends)))
        for what, printed, v, p in self.ends:
            b = len(v)  # numpy's used replicates; the C side's count is taken as the same
            delta = z * math.sqrt(p * (1 - p) * 2.0 / b)
            lo, hi = np.quantile(v, [max(p - delta, 0.0), min(p + delta, 1.0)])
            c = float(printed) if printed != "n/a" else np.nan
            half = 0.5 * 10.0 ** -decimals(printed)
            if not (c + half >= lo and c - half <= hi):
                self.fail(what, printed,
                          "%s at its %.1f%% quantile; at most %.2f Monte Carlo standard errors "
                          "away is %s to %s (its %.2f%% to %.2f%% quantiles)"
                          % (fmt_sig(np.quantile(v, p), 6), 100 * p, z, fmt_sig(lo, 6),
                             fmt_sig(hi, 6), 100 * max(p - delta, 0), 100 * min(p + delta, 1)))
        return z


def cpus_in(text):
    """The CPUs of a list as sched_setaffinity takes it ("2,4", "0-3")."""
    n = 0
    for part in filter(None, text.split(",")):
        lo, _, hi = part.partition("-")
        n += int(hi or lo) - int(lo) + 1
    return n


def label(k):
    return "/".join(k)


def est_cell(chk, peer, what, cell, c, e, scale):
    """est() of report_md.c: a configuration's estimate with its interval."""
    if not c["measured"]:
        chk.text(what, cell, "not measured")
    elif e in NEEDS_ENERGY and not c["has_energy"]:
        chk.text(what, cell, "missing" if peer.energy else "pending")
    elif np.isnan(c["point"][e]):
        chk.text(what, cell, "undefined")
    else:
        point = c["point"][e] * scale
        if e == bn.TIME:
            loop = LOOP.search(cell)
            cell = cell[:loop.start()] if loop else cell
            far = abs(c["point"][bn.TIME] - c["loop"]) > LOOP_TOLERANCE * c["loop"]
            if far or loop:
                chk.text(what + " loop-time mark", bool(loop), True)
            if loop:
                chk.point(what + " loop time", loop.group(1), c["loop"] * scale)
        if e == bn.CPU:
            impossible = cell.endswith(IMPOSSIBLE)
            cell = cell[:-len(IMPOSSIBLE)] if impossible else cell
            chk.text(what + " impossible mark", impossible,
                     bool(c["point"][bn.CPU] > c["point"][bn.TIME] * peer.cpus))
        flagged = cell.endswith(NONPOSITIVE)
        if e in (bn.TIME, bn.ENERGY):
            chk.text(what + " flag for a figure not above 0", flagged, not point > 0)
        chk.interval(what, cell[:-len(NONPOSITIVE)] if flagged else cell, point, c["reps"][e],
                     scale)


def range_cell(chk, what, cell, v, sig=4, used=None, n=None):
    """A "median (min to max)" cell, with ", U of N defined" when only U of
    the group's N ratios are defined; n/a with nothing to summarise."""
    if v is None:
        chk.text(what, cell, "n/a")
        return
    m = RANGE.match(cell)
    if not m:
        chk.fail(what, repr(cell), "%s (%s to %s)" % tuple(fmt_sig(x, sig) for x in v))
        return
    # Rounded as an interval with the range in its place, keeping two
    # digits of a positive smallest (gbi_tb_range, gbi_range_decimals).
    med, lo, hi = m.groups()[:3]
    if range_decimals(v[0], v[1], v[2], sig) is None and v[1] > 0:
        for part, printed, x in (("median", med, v[0]), ("min", lo, v[1]), ("max", hi, v[2])):
            chk.point("%s, %s" % (what, part), printed, x, sig)
    else:
        chk.rounded(what + ", median", med, lo, hi, v[0], sig, rule=range_decimals)
    for part, printed, x in (("min", lo, v[1]), ("max", hi, v[2])):
        if abs(float(printed) - x) > 0.5 * 10.0 ** -decimals(printed) * (1 + 1e-9):
            chk.fail("%s, %s" % (what, part), printed, "%.17g" % x)
    want = "%d of %d defined" % (used, n) if used is not None and used < n else None
    got = "%s of %s defined" % m.groups()[3:] if m.group(4) else None
    chk.text(what + " count used", got, want)


def find(tabs, header_start, caption_start=""):
    for caption, header, rows in tabs:
        if header[:len(header_start)] == header_start and caption.startswith(caption_start):
            return header, rows
    return None, None


def keyed_rows(chk, table, rows, nkey, expected):
    """The rows of a table by their first nkey cells; a row expected but
    missing, or present but not expected, is a failure."""
    got = {tuple(r[:nkey]): r for r in rows}
    for k in expected:
        if k not in got:
            chk.fail("%s row %s" % (table, " | ".join(k)), "no such row", "one")
    for k in got:
        if k not in expected:
            chk.fail("%s row %s" % (table, " | ".join(k)), "a row", "none")
    return got


def check_configs(chk, peer, tabs):
    header, rows = find(tabs, ["Language", "Algorithm", "Order", "Size", "Ok runs"])
    if header is None:
        die("results.md has no per-configuration table")
    col = {h: i for i, h in enumerate(header)}
    got = keyed_rows(chk, "per-configuration", rows, 4, list(peer.config))
    estimates = [("Time per sort (µs)", bn.TIME, 1e-3), ("CPU per sort (µs)", bn.CPU, 1e-3),
                 ("Energy per sort (µJ)", bn.ENERGY, 1.0), ("Net power (W)", bn.POWER, 1.0)]
    for k, c in peer.config.items():
        row = got.get(k)
        if row is None:
            continue
        chk.text(label(k) + " ok runs", row[col["Ok runs"]], "%d of %d" % (c["ok"], c["rows"]))
        for name, e, scale in estimates:
            est_cell(chk, peer, "%s %s" % (label(k), name), row[col[name]], c, e, scale)
        if peer.energy:
            what, cell = label(k) + " run-to-run rho", row[col["Run-to-run rho"]]
            if c["measured"] and not np.isnan(c["rho"]):
                chk.point(what, cell, c["rho"], 3)
            else:
                chk.text(what, cell, "n/a")
        names = ["Process time, median (ms)", "p95 (ms)", "Min to max (ms)", "Outliers"]
        if not c["measured"]:
            for name in names:
                chk.text("%s %s" % (label(k), name), row[col[name]], "n/a")
            continue
        med, p95, lo, hi = (v * 1e-6 for v in c["process"])
        chk.point(label(k) + " process time median (ms)", row[col[names[0]]], med)
        chk.point(label(k) + " process time p95 (ms)", row[col[names[1]]], p95)
        span = row[col[names[2]]].split(" to ")
        if len(span) != 2:
            chk.fail(label(k) + " process time min to max (ms)", repr(row[col[names[2]]]),
                     "%s to %s" % (fmt_sig(lo, 4), fmt_sig(hi, 4)))
        else:
            chk.point(label(k) + " process time min (ms)", span[0], lo)
            chk.point(label(k) + " process time max (ms)", span[1], hi)
        chk.text(label(k) + " process time outliers", row[col[names[3]]],
                 "%d low, %d high" % c["outliers"])


def check_startups(chk, peer, tabs):
    header, rows = find(tabs, ["Language", "Order", "Size", "Ok batches"])
    if header is None:
        die("results.md has no startup table")
    got = keyed_rows(chk, "startup", rows, 3, list(peer.startup))
    for k, s in peer.startup.items():
        row = got.get(k)
        if row is None:
            continue
        what = "startup " + label(k)
        chk.text(what + " ok batches", row[3], "%d of %d" % (s["ok"], s["rows"]))
        if s["cost"] is None:
            chk.text(what, " | ".join(row[4:]), "n/a | not measured | not measured | not measured")
            continue
        wall, cpu, energy = s["cost"]
        chk.text(what + " launches per batch", row[4], s["launches"])
        chk.point(what + " wall per process (ms)", row[5], wall * 1e-6)
        chk.point(what + " CPU per process (ms)", row[6], cpu * 1e-6)
        if np.isnan(energy):
            chk.text(what + " energy per process (mJ)", row[7],
                     "missing" if peer.energy else "pending")
        else:
            chk.point(what + " energy per process (mJ)", row[7], energy * 1e-3)


def ratio_key(r):
    (la, alg, order, size), lb = r["a"], r["b"][0]
    if r["family"] == "languages":
        return ("%s / %s" % (TITLE[la], TITLE[lb]), alg, order, size)
    return (TITLE[la], alg, "%s / random" % order, size)


def check_ratio_tables(chk, peer, tabs):
    for family, first in (("languages", "Languages"), ("orders", "Language")):
        mine = [r for r in peer.ratio_list if r["family"] == family]
        header, rows = find(tabs, [first, "Algorithm", "Order" if first == "Languages" else
                                   "Orders", "Size", "Time ratio"])
        if header is None:
            die("results.md has no table of ratios between %s" % family)
        got = keyed_rows(chk, "ratios between " + family, rows, 4, [ratio_key(r) for r in mine])
        for r in mine:
            row = got.get(ratio_key(r))
            if row is None:
                continue
            for i, what in ((4, "time"), (5, "energy"), (6, "power")):
                name = "%s %s ratio" % (" | ".join(ratio_key(r)), what)
                if not r["computed"]:
                    chk.text(name, row[i], "not measured")
                elif what != "time" and not peer.energy:
                    chk.text(name, row[i], "pending")
                elif np.isnan(r["point"][what]):
                    chk.text(name, row[i].removesuffix(RATIO_LOOP),
                             "n/a" if what == "time" else "undefined")
                else:
                    chk.interval(name, row[i].removesuffix(RATIO_LOOP) if what == "time"
                                 else row[i], r["point"][what], r["reps"][what])


def asked(chk, peer, family, rows, what):
    """Whether the report answers the question about ratios of this family
    (None: never), so prints what; a table present but not asked for is a
    failure, one missing an error."""
    want = any(r["family"] == family for r in peer.ratio_list)
    if want and rows is None:
        die("results.md has no " + what[what.index(" ") + 1:])
    if rows is not None and not want:
        chk.fail(what, "present", "none")
    return want


def check_summaries(chk, peer, tabs):
    """Question 2's table by language pair and algorithm, question 3's by
    language, algorithm and order, and the net-power sentence."""
    header, rows = find(tabs, ["Pair", "Algorithm", "Ratios"])
    if asked(chk, peer, "languages", rows, "a language summary table"):
        expected = {}
        for la, lb in LANGUAGE_PAIRS:
            for alg in ALGS:
                s = peer.summary(lambda r: r["family"] == "languages" and r["a"][0] == la and
                                 r["b"][0] == lb and r["a"][1] == alg)
                if s["n"]:
                    expected[("%s / %s" % (TITLE[la], TITLE[lb]), alg)] = s
        got = keyed_rows(chk, "language summary", rows, 2, list(expected))
        for k, s in expected.items():
            row, what = got.get(k), " | ".join(k)
            if row is None:
                continue
            chk.text(what + " ratios", row[2], str(s["n"]))
            range_cell(chk, what + " time ratio", row[3], s["time"], used=s["time_used"],
                       n=s["n"])
            for i, part in ((4, "energy"), (5, "power")):
                if peer.energy:
                    range_cell(chk, "%s %s ratio" % (what, part), row[i], s[part],
                               used=s[part + "_used"], n=s["n"])
                else:
                    chk.text("%s %s ratio" % (what, part), row[i], "pending")
    header, rows = find(tabs, ["Language", "Algorithm", "Orders", "Comparisons ratio, median "
                               "(range)"])
    if asked(chk, peer, "orders", rows, "an order summary table"):
        expected = {}
        for lang in LANGS:
            for alg in ALGS:
                for order in ORDERS[1:]:
                    s = peer.summary(lambda r: r["family"] == "orders" and
                                     r["a"][:3] == (lang, alg, order))
                    if s["n"]:
                        expected[(TITLE[lang], alg, order + " / random")] = (s, lang, alg, order)
        got = keyed_rows(chk, "order summary", rows, 3, list(expected))
        for k, (s, lang, alg, order) in expected.items():
            row, what = got.get(k), " | ".join(k)
            if row is None:
                continue
            v = []
            for size in peer.sizes:
                x = peer.config.get((lang, alg, order, size))
                y = peer.config.get((lang, alg, "random", size))
                if x and y and x["comparisons"] is not None and y["comparisons"]:
                    v.append(x["comparisons"] / y["comparisons"])
            range_cell(chk, what + " comparisons ratio", row[3],
                       np.quantile(v, [0.5, 0.0, 1.0]) if v else None)
            range_cell(chk, what + " time ratio", row[4], s["time"], used=s["time_used"],
                       n=s["n"])
            if peer.energy:
                range_cell(chk, what + " energy ratio", row[5], s["energy"],
                           used=s["energy_used"], n=s["n"])
            else:
                chk.text(what + " energy ratio", row[5], "pending")


def check_per_language(chk, peer, tabs):
    order = "random" if "random" in peer.orders else peer.settings_orders[0]
    for caption, e, scale, shown in (("Energy per sort", bn.ENERGY, 1.0, peer.energy),
                                     ("Time per sort", bn.TIME, 1e-3, True)):
        header, rows = find(tabs, ["Algorithm", "Size"], caption)
        if not asked(chk, peer, "languages" if shown else None, rows,
                     "a table of %s by language" % caption.lower()):
            continue
        langs = [lang for lang in LANGS for t in header[2:] if TITLE[lang] == t]
        got = keyed_rows(chk, caption.lower() + " by language", rows, 2,
                         [(alg, size) for alg in peer.algs for size in peer.sizes])
        for (alg, size), row in got.items():
            for lang, cell in zip(langs, row[2:]):
                k = (lang, alg, order, size)
                if k in peer.config:
                    est_cell(chk, peer, "%s %s (by language table)" % (label(k), caption),
                             cell, peer.config[k], e, scale)


def check_net_power(chk, peer, text):
    v = [c["point"][bn.POWER] for c in peer.config.values()
         if c["measured"] and c["has_energy"] and not np.isnan(c["point"][bn.POWER])]
    m = NET_POWER.search(text)
    if not peer.energy or not v:
        if m:
            chk.fail("net power sentence", m.group(0), "none")
        return
    if not m:
        chk.fail("net power sentence", "none", "the median of %d configurations" % len(v))
        return
    med, lo, hi = np.quantile(v, [0.5, 0.0, 1.0])
    chk.text("net power sentence, configurations", m.group(2), str(len(v)))
    for what, printed, x in (("median", m.group(1), med), ("min", m.group(3), lo),
                             ("max", m.group(4), hi)):
        chk.point("net power across configurations, " + what + " (W)", printed, x, 3)


def rank_scopes(peer):
    yield "all configurations", lambda k: True
    for size in peer.sizes:
        yield "size " + size, lambda k, size=size: k[3] == size
    for lang in peer.langs:
        yield TITLE[lang], lambda k, lang=lang: k[0] == lang
    for lang in peer.langs:
        for alg in peer.algs:
            yield "%s, %s" % (TITLE[lang], alg), lambda k, lang=lang, alg=alg: k[:2] == (lang,
                                                                                          alg)


def check_ranks(chk, peer, tabs):
    """Rank agreement by scope and run-to-run coupling by language and
    algorithm (spearman.c)."""
    header, rows = find(tabs, ["Scope", "Configurations"])
    if header is None:
        die("results.md has no rank agreement table")
    scopes = list(rank_scopes(peer))
    got = keyed_rows(chk, "rank agreement", rows, 1, [(name,) for name, _ in scopes])
    for name, inside in scopes:
        row = got.get((name,))
        if row is None:
            continue
        cs = [c for k, c in peer.config.items() if c["measured"] and inside(k)]
        chk.text("rank agreement %s configurations" % name, row[1], str(len(cs)))
        what = "rank agreement %s rho" % name
        if not peer.energy:
            chk.text(what, row[2], "pending")
            continue
        rho = np.nan
        if len(cs) >= 2 and all(c["has_energy"] for c in cs):
            rho = spearman([c["point"][bn.TIME] for c in cs], [c["point"][bn.ENERGY] for c in cs])
        if np.isnan(rho):
            chk.text(what, row[2], "undefined")
            continue
        t = np.array([c["reps"][bn.TIME][:RANK_RESAMPLES] for c in cs])
        e = np.array([c["reps"][bn.ENERGY][:RANK_RESAMPLES] for c in cs])
        chk.interval(what, row[2], rho, rank_pearson(average_ranks(t), average_ranks(e)), sig=3)
    header, rows = find(tabs, ["Language", "Algorithm", "Configurations", "rho, median (range)"])
    if header is None:
        die("results.md has no run-to-run coupling table")
    expected = [(TITLE[lang], alg) for lang in peer.langs for alg in peer.algs]
    got = keyed_rows(chk, "run-to-run coupling", rows, 2, expected)
    for lang in peer.langs:
        for alg in peer.algs:
            row, what = got.get((TITLE[lang], alg)), "coupling %s, %s" % (TITLE[lang], alg)
            if row is None:
                continue
            if not peer.energy:
                chk.text(what, " | ".join(row[2:]), "pending | pending")
                continue
            v = [c["rho"] for k, c in peer.config.items()
                 if k[:2] == (lang, alg) and c["measured"] and not np.isnan(c["rho"])]
            chk.text(what + " configurations", row[2], str(len(v)))
            range_cell(chk, what + " rho", row[3], np.quantile(v, [0.5, 0.0, 1.0]) if v else None)


def check_carbon(chk, peer, tabs):
    """Carbon per sort: gb_carbon_grams (uJ / 3.6e12 x g per kWh), in ug,
    at the intensities the report lists (its inputs, not figures)."""
    header, regions = find(tabs, ["Region", "Code", "Year", "g CO2e per kWh"])
    if header is None or not peer.energy:
        return
    header, rows = find(tabs, ["Language", "Algorithm", "Order", "Size",
                               regions[0][0] + ", net (µg)"])
    if header is None:
        die("results.md has no carbon table")
    got = keyed_rows(chk, "carbon", rows, 4, list(peer.config))
    for k, c in peer.config.items():
        row = got.get(k)
        for j, region in enumerate(regions):
            g = float(region[3])
            for i, (what, e) in enumerate((("net", bn.ENERGY), ("with idle", bn.GROSS))):
                name = "%s carbon %s, %s (µg)" % (label(k), what, region[0])
                cell = row[4 + 2 * j + i] if row else None
                if cell is None:
                    continue
                if c["measured"] and c["has_energy"]:
                    # The point in carbon.c's order: grams, then micrograms.
                    chk.interval(name, cell, c["point"][e] / 3.6e12 * g * 1e6, c["reps"][e],
                                 g / 3.6e12 * 1e6)
                else:
                    est_cell(chk, peer, name, cell, c, e, 1.0)


def report(folder, exe, allow_partial, out):
    cmd = [exe, "report", folder, "--out", os.path.join(out, "results.md"), "--junit",
           os.path.join(out, "junit.xml"), "--chart", os.path.join(out, "chart.svg"),
           "--summary", os.path.join(out, "summary.json"), "--no-datapackage"]
    cmd += ["--allow-partial"] if allow_partial else []
    cmd += ["--power-estimator", "paired" if PAIRED else "study"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        die("%s exited %d:\n%s" % (" ".join(cmd), p.returncode, p.stderr))
    with open(os.path.join(out, "results.md"), encoding="utf-8") as f:
        return f.read()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--greenbench", required=True)
    ap.add_argument("--allow-partial", action="store_true")
    ap.add_argument("--perturb", metavar="L/A/O/N")
    ap.add_argument("--power-estimator", choices=("paired", "study"), default="paired")
    args = ap.parse_args()
    global PAIRED
    PAIRED = args.power_estimator == "paired"
    with tempfile.TemporaryDirectory(prefix="numpy_check.") as out:
        text = report(args.dir, args.greenbench, args.allow_partial, out)
    peer = Peer(args.dir, args.perturb)
    if args.perturb and tuple(args.perturb.split("/")) not in peer.config:
        die("--perturb: no configuration %s in the settings" % args.perturb)
    tabs = tables(text)
    chk = Check()
    check_configs(chk, peer, tabs)
    check_startups(chk, peer, tabs)
    check_ratio_tables(chk, peer, tabs)
    check_summaries(chk, peer, tabs)
    check_per_language(chk, peer, tabs)
    check_net_power(chk, peer, text)
    check_ranks(chk, peer, tabs)
    check_carbon(chk, peer, tabs)
    z = chk.check_ends()
    for line in chk.failures:
        print("FAIL " + line)
    print("numpy_check: %s: %d point estimates held to numpy's at the printed precision, %d "
          "interval ends to within %.2f Monte Carlo standard errors, %d counts and words "
          "(numpy %s): %d disagree" % (args.dir, chk.points, len(chk.ends), z, chk.words,
                                       np.__version__, len(chk.failures)))
    sys.exit(1 if chk.failures else 0)


if __name__ == "__main__":
    main()
