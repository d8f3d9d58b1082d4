#!/usr/bin/python3
"""Holds summary.json and datapackage.json to what `greenbench report`
prints and to the records they describe.

Runs `greenbench report` on a copy of DIR's records (meta.json, runs.csv,
warmups.csv) with its default outputs, then:

- summary.json against results.md: every per-configuration figure (time,
  CPU time and energy per sort, net power, each with both interval ends;
  run-to-run rho; process time's median, p95, min and max; outliers; ok
  runs; sorts per process), every startup cost, every time, energy and
  power ratio with its interval and reading, rank agreement, coupling, the
  carbon intensities and carbon per sort, the answer to question 1 (its
  verdict and the many-inconclusive note), the tallies' counts and the data
  checks' counts. results.md's tables are found by their headers, units are
  read from the headers, and a number is compared within the precision
  results.md printed it with (half its last printed digit), so a change in
  how many digits results.md prints needs no change here. A cell that holds
  no number (not measured, pending, n/a, undefined) must be null in
  summary.json;
- datapackage.json against the CSV files: a tabular data package whose
  resources are exactly the CSV files present, with relative paths; every
  header column described in order; every field of every row parses as its
  type, keeps its constraints, and is empty only where missing is allowed.
  With Debian's python3-pandas installed, the files are also loaded with
  pandas using the package's types.

Standard library only (pandas optional).

usage: summary_check.py DIR --greenbench EXE [--allow-partial] [--perturb L/A/O/N]
  --perturb  multiplies that configuration's time per sort in summary.json by
             1.01 before comparing, so the check must fail: for the test that
             shows it can.
exit 0 when everything agrees; 1 with one FAIL line per disagreement; 2 on
bad arguments or a report that cannot be made.
"""
import argparse
import csv
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

TITLES = {"C": "c", "Python": "python", "Node.js": "node"}
READINGS = {"same power": "same", "differs": "differs", "inconclusive": "inconclusive",
            "undefined": "undefined"}
# Units as results.md's headers name them, in the summary's base units.
TIME_SCALE = {"ns": 1.0, "µs": 1e-3, "us": 1e-3, "ms": 1e-6, "s": 1e-9}
ENERGY_SCALE = {"µJ": 1.0, "uJ": 1.0, "mJ": 1e-3, "J": 1e-6}
MASS_SCALE = {"µg": 1e6, "ug": 1e6, "mg": 1e3, "g": 1.0}  # from grams
NUMBER = r"-?[0-9]+(?:\.[0-9]+)?"
CELL_NUMBER = re.compile(r"(%s)(?: \[(%s), (%s)\])?" % (NUMBER, NUMBER, NUMBER))


class Checker:
    def __init__(self):
        self.failures = []
        self.compared = 0

    def fail(self, what, printed, value):
        self.failures.append("FAIL %s: results.md prints %s, summary.json gives %s"
                             % (what, printed, value))

    def number(self, what, printed, value, scale=1.0):
        """printed is value x scale to results.md's printed precision."""
        self.compared += 1
        if value is None:
            self.fail(what, printed, "null")
            return
        want = value * scale
        dec = len(printed.split(".")[1]) if "." in printed else 0
        half = 0.5 * 10.0 ** -dec
        if abs(float(printed) - want) > half * (1 + 1e-9) + 1e-12 * abs(want):
            self.fail(what, printed, repr(want))

    def equal(self, what, printed, value):
        self.compared += 1
        if printed != value:
            self.fail(what, printed, value)

    def interval(self, what, cell, iv, scale=1.0):
        """A cell "p [lo, hi]" (marks after it ignored) against {point, low,
        high}; a cell without a number against null."""
        m = CELL_NUMBER.match(cell)
        if not m:
            self.compared += 1
            if iv is not None:
                self.fail(what, cell, json.dumps(iv))
            return
        if iv is None:
            self.fail(what, cell, "null")
            return
        self.number(what, m.group(1), iv["point"], scale)
        if m.group(2) is not None:
            self.number(what + " low end", m.group(2), iv["low"], scale)
            self.number(what + " high end", m.group(3), iv["high"], scale)

    def value(self, what, cell, v, scale=1.0):
        m = CELL_NUMBER.match(cell)
        if not m:
            self.compared += 1
            if v is not None:
                self.fail(what, cell, v)
            return
        self.number(what, m.group(1), v, scale)


# ---- results.md ---------------------------------------------------------------------


def cells(line):
    parts = re.split(r"(?<!\\)\|", line.strip())
    return [p.strip() for p in parts[1:-1]]


def tables(md):
    """Every pipe table: (header cells, rows of cells)."""
    lines = md.split("\n")
    out = []
    i = 0
    while i + 1 < len(lines):
        if lines[i].startswith("|") and re.match(r"\|(-+\|)+\s*$", lines[i + 1].strip()):
            head = cells(lines[i])
            rows = []
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(cells(lines[i]))
                i += 1
            out.append((head, rows))
        else:
            i += 1
    return out


def find_table(all_tables, *must):
    found = [t for t in all_tables if all(any(h.startswith(m) for h in t[0]) for m in must)]
    return found


def column(head, prefix):
    for i, h in enumerate(head):
        if h.startswith(prefix):
            return i
    return None


def unit(header, scales):
    m = re.search(r"\(([^()]+)\)\s*$", header)
    if not m or m.group(1) not in scales:
        raise SystemExit("summary_check: no known unit in header '%s'" % header)
    return scales[m.group(1)]


# ---- Per configuration --------------------------------------------------------------


def config_key(c):
    return (c["language"], c["algorithm"], c["order"], c["size"])


def check_config_row(k, head, row, c):
    label = c["label"]
    ok = row[column(head, "Ok runs")]
    k.equal(label + " ok runs", ok, "%d of %d" % (c["ok_runs"], c["rows"]))
    sorts = row[column(head, "Sorts per process")]
    lo, hi = c["sorts_per_process_min"], c["sorts_per_process_max"]
    want = "n/a" if lo is None else ("%d" % lo if lo == hi else "%d to %d" % (lo, hi))
    k.equal(label + " sorts per process", sorts, want)
    for prefix, key, scales in (("Time per sort", "time_per_sort_ns", TIME_SCALE),
                                ("CPU per sort", "cpu_time_per_sort_ns", TIME_SCALE),
                                ("Energy per sort", "energy_per_sort_uj", ENERGY_SCALE),
                                ("Net power", "net_power_w", {"W": 1.0})):
        i = column(head, prefix)
        k.interval("%s %s" % (label, prefix), row[i], c[key], unit(head[i], scales))
    i = column(head, "Run-to-run rho")
    if i is not None:
        k.value(label + " run-to-run rho", row[i], c["run_to_run_rho"])
    p = c["process_wall_ns"] or {}
    i = column(head, "Process time")
    s = unit(head[i], TIME_SCALE)
    k.value(label + " process time median", row[i], p.get("median"), s)
    i = column(head, "p95")
    k.value(label + " process time p95", row[i], p.get("p95"), unit(head[i], TIME_SCALE))
    i = column(head, "Min to max")
    m = re.match(r"(%s) to (%s)" % (NUMBER, NUMBER), row[i])
    if m:
        sc = unit(head[i], TIME_SCALE)
        k.number(label + " process time min", m.group(1), p.get("min"), sc)
        k.number(label + " process time max", m.group(2), p.get("max"), sc)
    else:
        k.equal(label + " process time range", row[i] == "n/a", not p)
    i = column(head, "Outliers")
    if p:
        k.equal(label + " outliers", row[i],
                "%d low, %d high" % (p["low_outliers"], p["high_outliers"]))


def check_configs(k, all_tables, s):
    found = find_table(all_tables, "Time per sort", "Ok runs", "Sorts per process")
    if len(found) != 1:
        k.fail("per-configuration table", "%d tables" % len(found), "1")
        return
    head, rows = found[0]
    by_key = {config_key(c): c for c in s["configurations"]}
    k.equal("per-configuration rows", len(rows), len(by_key))
    for row in rows:
        key = (row[0], row[1], row[2], int(row[3]))
        if key not in by_key:
            k.fail("configuration %s" % (key,), "a row", "none")
            continue
        check_config_row(k, head, row, by_key[key])


def check_startups(k, all_tables, s):
    found = find_table(all_tables, "Launches per batch")
    if len(found) != 1:
        k.fail("startup table", "%d tables" % len(found), "1")
        return
    head, rows = found[0]
    starts = {(t["language"], t["order"], t["size"]): t for t in s["startups"]}
    k.equal("startup rows", len(rows), len(starts))
    for row in rows:
        t = starts.get((row[0], row[1], int(row[2])))
        if t is None:
            k.fail("startup %s" % row[:3], "a row", "none")
            continue
        label = "startup %s/%s/%s" % (row[0], row[1], row[2])
        k.equal(label + " ok batches", row[3], "%d of %d" % (t["ok_batches"], t["rows"]))
        k.value(label + " launches", row[4], t["launches_per_batch"])
        for prefix, key, scales in (("Wall", "time_per_process_ns", TIME_SCALE),
                                    ("CPU", "cpu_time_per_process_ns", TIME_SCALE),
                                    ("Energy", "energy_per_process_uj", ENERGY_SCALE)):
            i = column(head, prefix)
            k.value("%s %s" % (label, prefix), row[i], t[key], unit(head[i], scales))


# ---- Ratios, ranks, coupling ----------------------------------------------------------


def ratio_key(r):
    a, b = r["a"], r["b"]
    if r["family"] == "languages":
        return ("languages", a["language"], b["language"], a["algorithm"], a["order"], a["size"])
    return ("orders", a["language"], a["algorithm"], a["order"], b["order"], a["size"])


def row_ratio_key(head, row):
    if head[0] == "Languages":
        x, y = row[0].split(" / ")
        return ("languages", TITLES[x], TITLES[y], row[1], row[2], int(row[3]))
    x, y = row[2].split(" / ")
    return ("orders", TITLES[row[0]], row[1], x, y, int(row[3]))


def check_reading(k, label, cell, r, energy):
    if not r["computed"]:
        k.equal(label + " reading", cell.startswith("undefined"), True)
    elif not energy:
        k.equal(label + " reading", cell, "pending")
        k.equal(label + " reading in summary.json", r["reading"], None)
    else:
        k.equal(label + " reading", READINGS.get(cell, cell), r["reading"])


def check_ratios(k, all_tables, s):
    found = find_table(all_tables, "Time ratio", "Reading", "Size")
    ratios = {ratio_key(r): r for r in s["ratios"]}
    seen = 0
    for head, rows in found:
        for row in rows:
            key = row_ratio_key(head, row)
            r = ratios.get(key)
            if r is None:
                k.fail("ratio %s" % (key,), "a row", "none")
                continue
            seen += 1
            label = "ratio %s" % "/".join(str(x) for x in key)
            for prefix, name in (("Time ratio", "time_ratio"), ("Energy ratio", "energy_ratio"),
                                 ("Power ratio", "power_ratio")):
                k.interval("%s %s" % (label, prefix), row[column(head, prefix)], r[name])
            check_reading(k, label, row[column(head, "Reading")], r, s["energy_measured"])
    k.equal("ratio rows", seen, len(ratios))


def check_ranks(k, all_tables, s):
    found = find_table(all_tables, "Scope", "Configurations", "rho [")
    if len(found) != 1:
        k.fail("rank table", "%d tables" % len(found), "1")
        return
    rows = found[0][1]
    k.equal("rank rows", len(rows), len(s["rank_agreement"]))
    for row, r in zip(rows, s["rank_agreement"]):
        label = "rank agreement " + row[0]
        k.equal(label + " configurations", int(row[1]), r["configurations"])
        k.interval(label, row[2], r["rho"])


def check_coupling(k, all_tables, s):
    found = find_table(all_tables, "Language", "Algorithm", "Configurations", "rho, median")
    if len(found) != 1:
        k.fail("coupling table", "%d tables" % len(found), "1")
        return
    rows = found[0][1]
    k.equal("coupling rows", len(rows), len(s["coupling"]))
    for row, c in zip(rows, s["coupling"]):
        label = "coupling %s/%s" % (c["language"], c["algorithm"])
        k.equal(label + " language", TITLES[row[0]], c["language"])
        if not s["energy_measured"]:
            k.equal(label, row[2:4], ["pending", "pending"])
            continue
        k.equal(label + " configurations", int(row[2]), c["configurations_defined"])
        m = re.match(r"(%s) \((%s) to (%s)\)" % (NUMBER, NUMBER, NUMBER), row[3])
        if not m:
            k.equal(label, row[3], "n/a" if c["rho_median"] is None else c["rho_median"])
            continue
        for g, key in zip(m.groups(), ("rho_median", "rho_min", "rho_max")):
            k.number("%s %s" % (label, key), g, c[key])


# ---- Carbon ----------------------------------------------------------------------------


def check_carbon(k, all_tables, s):
    found = find_table(all_tables, "Region", "Code", "Year")
    ints = s["carbon_intensities"]
    if ints and len(found) != 1:
        k.fail("carbon intensity table", "%d tables" % len(found), "1")
        return
    for row, x in zip(found[0][1] if found else [], ints):
        label = "carbon intensity " + x["region"]
        k.equal(label + " code", row[1], x["code"] or "custom")
        k.equal(label + " year", row[2], "given" if x["year"] is None else str(x["year"]))
        k.number(label, row[3], x["g_co2e_per_kwh"])
    per = find_table(all_tables, "Language", "Algorithm", "Order", "Size")
    per = [t for t in per if any(", net (" in h for h in t[0])]
    if not s["energy_measured"] or not ints:
        k.equal("carbon per sort table", len(per), 0)
        return
    if len(per) != 1:
        k.fail("carbon per sort table", "%d tables" % len(per), "1")
        return
    head, rows = per[0]
    by_key = {config_key(c): c for c in s["configurations"]}
    for row in rows:
        c = by_key[(row[0], row[1], row[2], int(row[3]))]
        for j, x in enumerate(c["carbon"]):
            for kind, key in ((", net (", "net_co2e_per_sort_ug"),
                              (", with idle (", "with_idle_co2e_per_sort_ug")):
                i = column(head, x["region"] + kind)
                sc = unit(head[i], MASS_SCALE) / 1e6  # summary.json is in µg
                k.interval("%s carbon %s%s" % (c["label"], x["region"], kind.rstrip(" (")),
                           row[i], c["carbon"][j][key], sc)


# ---- Answers and checks (counts in prose) --------------------------------------------------

VERDICT_WORDS = {"pending": "Pending", "cannot_answer": "Cannot be answered", "yes": "Yes",
                 "yes_within_margin_but_power_differs": "Within the margin, yes",
                 "too_noisy": "Too noisy", "no": "No"}


def check_question_1(k, md, s):
    q = s["question_1"]
    m = re.search(r"### 1\.[^\n]*\n\n\*\*([^*]+)\*\*", md)
    if not m:
        k.fail("question 1", "no bold answer", q["verdict"])
        return
    word = VERDICT_WORDS.get(q["verdict"], "?")
    k.equal("question 1 verdict (%s)" % q["verdict"], m.group(1).startswith(word), True)
    noisy = re.search(r"Many readings are inconclusive: (\d+) of the (\d+) defined", md)
    k.equal("question 1 many inconclusive", noisy is not None, q["many_inconclusive"])
    if noisy:
        t = s["tallies"]["all"]
        k.equal("many inconclusive counts", (int(noisy.group(1)), int(noisy.group(2))),
                (t["inconclusive"], t["defined"]))


TALLY = re.compile(r"Of the (\d+) power ratios( between languages| between an input order"
                   r" and random input| \((\d+) between languages, (\d+) between input "
                   r"orders\)), (\d+) read \*same power within [^*]*\*, (\d+) \*differ\*, "
                   r"(\d+) (?:is|are) \*inconclusive\* and (\d+) \*undefined\*\. (\d+) of the (\d+) "
                   r"defined power intervals excludes? 1; chance alone would give about "
                   r"(%s) \(5%%\), and more than (\d+) only one time in 20\. "
                   r"(?:Under equal power, the (\d+) campaigns simulated for this design gave "
                   r"about (%s) \((%s)%% of the defined intervals\), and more than (\d+) only "
                   r"one time in 20: the verdict counts against (\d+)\. )?"
                   % (NUMBER, NUMBER, NUMBER))


def check_tallies(k, md, s):
    found = {}
    for m in TALLY.finditer(md):
        which = ("languages" if "languages," not in m.group(2) and "languages" in m.group(2)
                 else "orders" if "input order and" in m.group(2) else "all")
        found[which] = m
    t = s["tallies"]
    if s["energy_measured"]:
        k.equal("tally sentences", sorted(found), sorted(x for x in t if t[x]["ratios"] > 0))
    for which, m in found.items():
        y = t[which]
        label = "tally " + which
        k.equal(label + " ratios", int(m.group(1)), y["ratios"])
        if which == "all":
            k.equal(label + " split", (int(m.group(3)), int(m.group(4))),
                    (t["languages"]["ratios"], t["orders"]["ratios"]))
        got = tuple(int(m.group(i)) for i in (5, 6, 7, 8, 9, 10))
        k.equal(label + " counts", got, (y["same"], y["differs"], y["inconclusive"],
                                         y["undefined"], y["excluding_one"], y["defined"]))
        k.number(label + " expected by chance", m.group(11), y["expected_by_chance"])
        k.equal(label + " chance bound, binomial", int(m.group(12)),
                y["chance_bound_binomial"])
        if m.group(13) is None:
            k.equal(label + " chance bound", int(m.group(12)), y["chance_bound"])
            k.equal(label + " null campaigns", 0, y["null_campaigns"])
            continue
        k.equal(label + " null campaigns", int(m.group(13)), y["null_campaigns"])
        k.number(label + " null rate (%)", m.group(15), 100.0 * y["null_rate"])
        k.number(label + " null mean", m.group(14), y["null_rate"] * y["defined"])
        k.equal(label + " chance bound", (int(m.group(16)), int(m.group(17))),
                (y["chance_bound"], y["chance_bound"]))


def check_checks(k, md, s):
    c = s["checks"]
    rules = [
        (r"\*\*Runs\*\*: (\d+) rows in runs\.csv, (\d+) ok", (c["rows"], c["rows_by_status"]["ok"])),
        (r"(\d+) of (\d+) configurations measured, (\d+) without any row",
         (c["configurations_measured"], c["configurations"], c["configurations_without_rows"])),
        (r"\*\*Validity\*\*[^:]*: (\d+) of (\d+) configurations valid",
         (c["configurations_valid"], c["configurations"])),
        (r"\*\*Sort loops\*\*: (\d+) of (\d+) measured loops", (c["loops_short"], c["loops"])),
        (r"\*\*Warm-up plateau\*\*[^:]*: (\d+) configurations reached it, (\d+) did not, (\d+) "
         r"could not", (c["warmup_plateau"]["reached"], c["warmup_plateau"]["missed"],
                        c["warmup_plateau"]["unchecked"])),
    ]
    for pattern, want in rules:
        m = re.search(pattern, md)
        if not m:
            k.fail("data check /%s/" % pattern, "nothing matching", want)
            continue
        k.equal("data check /%s/" % pattern, tuple(int(g) for g in m.groups()), want)
    m = re.search(r"the shortest lasted (%s) ms" % NUMBER, md)
    if m:
        k.number("shortest loop", m.group(1), c["shortest_loop_ns"], 1e-6)
    m = re.search(r"\*\*Throttling\*\*: (\d+) of the (\d+) ok sorting runs", md)
    if m:
        k.equal("throttling", (int(m.group(1)), int(m.group(2))),
                (c["throttled_runs"], c["frequency_runs"]))
    m = re.search(r"\*\*Warnings\*\* \((\d+)\)", md)
    k.equal("warnings", int(m.group(1)) if m else 0, len(s["warnings"]))


RANGE_CELL = re.compile(r"(%s) \((%s) to (%s)\)(?:, (\d+) of (\d+) defined)?\Z"
                        % (NUMBER, NUMBER, NUMBER))


def check_range(k, label, cell, rng, n):
    """A "median (min to max)[, U of N defined]" cell against a range of
    summary.json; "n/a" or "pending" against a range with nothing defined."""
    m = RANGE_CELL.match(cell)
    if not m:
        k.equal(label, cell, "n/a")
        k.equal(label + " median", None, rng["median"])
        return
    for g, key in zip(m.groups()[:3], ("median", "min", "max")):
        k.number("%s %s" % (label, key), g, rng[key])
    if m.group(4):
        k.equal(label + " defined", (int(m.group(4)), int(m.group(5))), (rng["defined"], n))
    else:
        k.equal(label + " defined", rng["defined"], n)


def check_groups(k, all_tables, s):
    """Question 2's table by pair and algorithm, question 3's by language,
    algorithm and order: every cell against summary.json's ratio_groups."""
    groups = {"languages": [g for g in s["ratio_groups"] if g["family"] == "languages"],
              "orders": [g for g in s["ratio_groups"] if g["family"] == "orders"]}
    for family, must, first in (("languages", ("Pair", "Ratios"), 3),
                                ("orders", ("Orders", "Comparisons ratio"), 4)):
        found = find_table(all_tables, *must)
        rows = found[0][1] if len(found) == 1 else []
        k.equal("%s group rows" % family, len(rows), len(groups[family]))
        for row, g in zip(rows, groups[family]):
            label = "group %s/%s/%s" % (g["language"], g["algorithm"],
                                        g["against_language"] if family == "languages"
                                        else g["order"])
            if family == "languages":
                k.equal(label + " pair", row[0], "%s / %s" % (
                    {v: t for t, v in TITLES.items()}[g["language"]],
                    {v: t for t, v in TITLES.items()}[g["against_language"]]))
                k.equal(label + " ratios", int(row[2]), g["ratios"])
            else:
                k.equal(label + " orders", row[2], "%s / random" % g["order"])
                check_range(k, label + " comparisons", row[3], g["comparisons_ratio"],
                            g["comparisons_ratio"]["defined"])
            check_range(k, label + " time", row[first], g["time_ratio"], g["ratios"])
            if s["energy_measured"]:
                check_range(k, label + " energy", row[first + 1], g["energy_ratio"], g["ratios"])
                if family == "languages":
                    check_range(k, label + " power", row[first + 2], g["power_ratio"],
                                g["ratios"])
            readings = row[-1]
            if s["energy_measured"]:
                r = g["power_readings"]
                k.equal(label + " readings", readings,
                        "%d same, %d differ, %d inconclusive, %d undefined"
                        % (r["same"], r["differs"], r["inconclusive"], r["undefined"]))


def check_net_power(k, md, s):
    m = re.search(r"Net power above idle has a median of (%s) W across the (\d+) "
                  r"configurations with energy \(from (%s) W to (%s) W\)"
                  % (NUMBER, NUMBER, NUMBER), md)
    p = s["net_power_w"]
    if not m:
        k.equal("net power sentence", p["defined"] if s["energy_measured"] else 0, 0)
        return
    k.equal("net power configurations", int(m.group(2)), p["defined"])
    for g, key in zip((m.group(1), m.group(3), m.group(4)), ("median", "min", "max")):
        k.number("net power " + key, g, p[key])


def check_summary(k, md, s):
    k.equal("schema_version", s.get("schema_version"), 1)
    all_tables = tables(md)
    check_configs(k, all_tables, s)
    check_startups(k, all_tables, s)
    check_ratios(k, all_tables, s)
    check_ranks(k, all_tables, s)
    check_coupling(k, all_tables, s)
    check_carbon(k, all_tables, s)
    check_question_1(k, md, s)
    check_tallies(k, md, s)
    check_checks(k, md, s)
    check_groups(k, all_tables, s)
    check_net_power(k, md, s)


# ---- datapackage.json --------------------------------------------------------------------

UNITS = {"_ns": "ns", "_uj": "µJ", "_kib": "KiB", "_khz": "kHz", "_mc": "m°C"}


def field_error(f, v):
    """Why v is not a value of field f, or None."""
    k = f.get("constraints", {})
    if v == "":
        return "empty, but required" if k.get("required") else None
    if f["type"] == "integer":
        if not re.fullmatch(r"-?[0-9]+", v):
            return "not an integer"
        n = int(v)
        if "minimum" in k and n < k["minimum"] or "maximum" in k and n > k["maximum"]:
            return "out of bounds"
    elif f["type"] != "string":
        return "unexpected type " + f["type"]
    if "enum" in k and v not in k["enum"]:
        return "not in its enum"
    if "pattern" in k and not re.fullmatch(k["pattern"], v):
        return "does not match its pattern"
    if "maxLength" in k and len(v) > k["maxLength"]:
        return "too long"
    if "maxLength" in k and len(v.encode("utf-8")) > k["maxLength"]:
        return "longer than its maxLength in bytes (docs/records.md: < 256 bytes)"
    return None


def check_resource(k, folder, r):
    path = r["path"]
    label = "datapackage " + path
    k.equal(label + " path is relative, without ..",
            not os.path.isabs(path) and ".." not in path.split("/"), True)
    k.equal(label + " profile", r.get("profile"), "tabular-data-resource")
    fields = r["schema"]["fields"]
    k.equal(label + " missingValues", r["schema"].get("missingValues"), [""])
    for f in fields:
        suffix = next((x for x in UNITS if f["name"].endswith(x)), None)
        k.equal(label + " " + f["name"] + " described", bool(f.get("description")), True)
        if suffix:
            k.equal(label + " " + f["name"] + " unit", UNITS[suffix] in f["description"], True)
    with open(os.path.join(folder, path), newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    k.equal(label + " columns", rows[0], [f["name"] for f in fields])
    for n, row in enumerate(rows[1:], start=2):
        for f, v in zip(fields, row):
            why = field_error(f, v)
            k.compared += 1
            if why:
                k.failures.append("FAIL %s:%d: %s '%s': %s" % (path, n, f["name"], v, why))
    check_pandas(k, folder, r, len(rows) - 1)


def check_pandas(k, folder, r, n_rows):
    try:
        import pandas as pd
    except ImportError:
        return
    dtypes = {f["name"]: "Int64" if f["type"] == "integer" else "string"
              for f in r["schema"]["fields"]}
    frame = pd.read_csv(os.path.join(folder, r["path"]), dtype=dtypes, keep_default_na=False,
                        na_values=r["schema"]["missingValues"])
    k.equal("pandas rows of " + r["path"], len(frame), n_rows)


def check_datapackage(k, folder):
    with open(os.path.join(folder, "datapackage.json"), encoding="utf-8") as fh:
        p = json.load(fh)
    k.equal("datapackage profile", p.get("profile"), "tabular-data-package")
    present = [x for x in ("runs.csv", "warmups.csv") if os.path.exists(os.path.join(folder, x))]
    k.equal("datapackage resources", [r["path"] for r in p["resources"]], present)
    for r in p["resources"]:
        check_resource(k, folder, r)


# ---- Main ------------------------------------------------------------------------------------


def run_report(args, folder):
    for name in ("meta.json", "runs.csv", "warmups.csv"):
        src = os.path.join(args.dir, name)
        if os.path.exists(src):
            shutil.copy(src, folder)
    cmd = [args.greenbench, "report", folder] + (["--allow-partial"] if args.allow_partial
                                                 else [])
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        print("summary_check: %s failed: %s" % (" ".join(cmd), done.stderr.strip()))
        sys.exit(2)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--greenbench", required=True)
    ap.add_argument("--allow-partial", action="store_true")
    ap.add_argument("--perturb")
    args = ap.parse_args()
    k = Checker()
    with tempfile.TemporaryDirectory(prefix="gb-summary-") as folder:
        run_report(args, folder)
        with open(os.path.join(folder, "results.md"), encoding="utf-8") as fh:
            md = fh.read()
        with open(os.path.join(folder, "summary.json"), encoding="utf-8") as fh:
            s = json.load(fh)
        for c in s["configurations"]:
            if args.perturb == c["label"] and c["time_per_sort_ns"]:
                for end in ("point", "low", "high"):
                    c["time_per_sort_ns"][end] *= 1.01
        check_summary(k, md, s)
        check_datapackage(k, folder)
    for line in k.failures:
        print(line)
    if k.failures:
        return 1
    print("summary_check: %d comparisons agree" % k.compared)
    return 0


if __name__ == "__main__":
    sys.exit(main())
