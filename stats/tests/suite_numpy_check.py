#!/usr/bin/python3
"""Holds a suite campaign's results.md to an independent numpy computation
from the same records (runs.csv, suite.json): every point figure of its
case tables, rank agreement and carbon tables is recomputed here by the
method of stats/src (suite_analysis.c over analysis.c and bootstrap.c:
startup per process = the median over ok startup batches of batch /
launches; time per repetition = (wall - startup) / reps; energy net of the
idle baseline scaled to the run's length, less the startup's, / reps; the
paired mean power, the median of each run's energy over its time; ratios
of medians; Spearman's rho of the configurations' median time and energy,
ties averaged) and compared with the printed text to its printed precision
(the printed figure is numpy's rounded to the decimals printed). Counts
(ok runs of those measured, repetitions) must be equal, and each reading
must agree with its printed time-ratio interval (slower: wholly above 1,
faster: wholly below, no clear difference: holding 1). Interval ends are
bootstrap draws and are not checked here.

usage: suite_numpy_check.py DIR [--results FILE] [--suite FILE] [--greenbench EXE]
                            [--perturb LANG/WORKLOAD/PARAMS]
  DIR         the records folder (runs.csv; suite.json unless --suite)
  --results   results.md to check; without it, `EXE report DIR` makes it
              (its three files into a temporary folder, never into DIR), and
              the points of its summary.json are checked too (to 1e-9)
  --perturb   (PARAMS with ',' or ';' between parameters) numpy reads that configuration's ok work runs with wall_ns 1%
              longer, so its figures must disagree: for the test that shows
              the check can fail.
exit 0 when every figure agrees; 1 with one line per disagreeing figure;
2 on bad arguments or a results.md without the tables expected.
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

FIG = r"(-?[0-9]+(?:\.[0-9]+)?)"


def median(v):
    return float(np.median(np.asarray(v, dtype=float))) if len(v) else float("nan")


def ranks(v):
    """Average ranks 1..n, ties averaged (scipy's "average")."""
    v = np.asarray(v, dtype=float)
    order = np.argsort(v, kind="mergesort")
    r = np.empty(len(v))
    i = 0
    while i < len(v):
        j = i
        while j + 1 < len(v) and v[order[j + 1]] == v[order[i]]:
            j += 1
        r[order[i:j + 1]] = (i + j) / 2.0 + 1.0
        i = j + 1
    return r


def spearman(x, y):
    rx, ry = ranks(x), ranks(y)
    if np.all(rx == rx[0]) or np.all(ry == ry[0]):
        return float("nan")
    return float(np.corrcoef(rx, ry)[0, 1])


def opt(row, name):
    return float(row[name]) if row[name] != "" else float("nan")


class Config:
    def __init__(self):
        self.work, self.startup = [], []


def load(dirname, perturb):
    configs = {}
    with open(os.path.join(dirname, "runs.csv"), newline="") as f:
        for row in csv.DictReader(f):
            key = (row["language"], row["workload"], row["params"])
            c = configs.setdefault(key, Config())
            (c.startup if row["kind"] == "startup" else c.work).append(row)
    for key, c in configs.items():
        if "/".join(key) == perturb.replace(",", ";"):
            for row in c.work:
                if row["status"] == "ok":
                    row["wall_ns"] = str(float(row["wall_ns"]) * 1.01)
    return configs


def energy_of(row):
    if row["energy"] != "ok" or row["pkg_uj"] == "":
        return float("nan")
    return opt(row, "pkg_uj") + (opt(row, "dram_uj") if row["dram_uj"] else 0.0)


def idle_of(row):
    if row["energy"] != "ok" or row["idle_pkg_uj"] == "":
        return float("nan")
    return opt(row, "idle_pkg_uj") + (opt(row, "idle_dram_uj") if row["idle_dram_uj"] else 0.0)


def net_energy(row):
    wall = float(row["wall_ns"])
    return energy_of(row) - idle_of(row) * (wall / opt(row, "idle_ns"))


def figures(c):
    """The configuration's point figures, as the report computes them."""
    ok = [r for r in c.work if r["status"] == "ok"]
    batches = [r for r in c.startup if r["status"] == "ok"]
    out = {"n_ok": len(ok), "n_rows": len(c.work), "reps": sorted({int(r["reps"]) for r in ok})}
    if not ok or not batches:
        return out
    st_time = median([float(b["wall_ns"]) / int(b["launches"]) for b in batches])
    st_energy = median([net_energy(b) / int(b["launches"]) for b in batches])
    t = np.array([(float(r["wall_ns"]) - st_time) / int(r["reps"]) for r in ok])
    e = np.array([(net_energy(r) - st_energy) / int(r["reps"]) for r in ok])
    idle_w = np.array([idle_of(r) / opt(r, "idle_ns") for r in ok])
    out["time"] = median(t)
    out["energy"] = median(e)
    out["power"] = median((e / t)[t > 0]) * 1e3 if not np.isnan(e).any() else float("nan")
    out["gross"] = median(e + idle_w * t)
    return out


def decimals(text):
    return len(text.split(".")[1]) if "." in text else 0


class Checker:
    def __init__(self):
        self.failures, self.checked = [], 0

    def figure(self, where, printed, value):
        self.checked += 1
        half = 0.5 * 10 ** -decimals(printed)
        if not abs(float(printed) - value) <= half * (1 + 1e-9) + 1e-12 * abs(value):
            self.failures.append(f"FAIL {where}: results.md prints {printed}, numpy gives {value:.10g}")

    def equal(self, where, printed, value):
        self.checked += 1
        if printed != value:
            self.failures.append(f"FAIL {where}: results.md prints {printed}, numpy gives {value}")


def point(cell):
    m = re.match(FIG + r"(?: \[" + FIG + ", " + FIG + r"\])?", cell)
    return m.groups() if m else None


def check_cases(md, suite, configs, chk):
    titles = {lang["title"] if "title" in lang else lang["name"]: lang["name"]
              for lang in suite["languages"]}
    first = suite["languages"][0]["name"]
    tables = re.findall(r"^### ([^\n]+)\n\n((?:\|[^\n]*\n)+)", md, re.M)
    if not tables:
        print("no case table in results.md")
        sys.exit(2)
    medians = {}
    for heading, table in tables:
        workload, params = heading.split(", ", 1)
        params = params.replace(", ", ";")
        lines = table.strip("\n").split("\n")
        head = [h.strip() for h in lines[0].strip("|").split("|")]
        for line in lines[2:]:
            cells = dict(zip(head, [x.strip() for x in line.strip("|").split("|")]))
            lang = titles[cells["Language"].replace("\\", "")]
            key = (lang, workload.replace("\\", ""), params)
            where = "/".join(key)
            f = figures(configs.get(key, Config()))
            medians[key] = f
            chk.equal(where + " ok runs", cells["Ok runs"], f"{f['n_ok']} of {f['n_rows']}")
            reps = f["reps"]
            want = "n/a" if not reps else str(reps[0]) if len(reps) == 1 else f"{reps[0]} to {reps[-1]}"
            chk.equal(where + " reps", cells["Reps"], want)
            for col, name, scale in (("Time per rep (µs)", "time", 1e-3),
                                     ("Energy per rep (µJ)", "energy", 1.0),
                                     ("Mean power (W)", "power", 1.0)):
                p = point(cells.get(col, ""))
                if col in cells and p:
                    chk.figure(f"{where} {col}", p[0], f[name] * scale)
            base = medians.get((first, key[1], key[2]))
            for col, name in (("Time ratio to", "time"), ("Energy ratio to", "energy")):
                col = next((h for h in head if h.startswith(col)), None)
                p = point(cells.get(col, "")) if col else None
                if p and lang != first and base:
                    chk.figure(f"{where} {col}", p[0], f[name] / base[name])
                    if name == "time" and p[1]:
                        lo, hi = float(p[1]), float(p[2])
                        word = "slower" if lo > 1 else "faster" if hi < 1 else "no clear difference"
                        chk.equal(where + " reading", cells["Reading"].split(";")[0], word)
    return medians


def check_rank(md, medians, chk):
    m = re.search(r"over the ([0-9]+) measured configurations is " + FIG, md)
    if not m:
        return
    keys = [k for k, f in medians.items() if "time" in f]
    chk.equal("rank agreement: configurations", int(m.group(1)), len(keys))
    rho = spearman([medians[k]["time"] for k in keys], [medians[k]["energy"] for k in keys])
    chk.figure("rank agreement rho", m.group(2), rho)


def check_carbon(md, titles, medians, chk):
    rows = re.findall(r"^\| ([^|]+) \| ([A-Z]+|custom) \| ([0-9]+|given) \| " + FIG + r" \|$", md,
                      re.M)
    table = re.search(r"\| Language \| Workload \| Parameters \|[^\n]*\n\|[-|]+\n((?:\|[^\n]*\n)+)",
                      md)
    if not rows or not table:
        return
    for line in table.group(1).strip("\n").split("\n"):
        cells = [x.strip() for x in line.strip("|").split("|")]
        key = (titles[cells[0].replace("\\", "")], cells[1].replace("\\", ""),
               cells[2].replace(", ", ";"))
        f = medians.get(key, {})
        for i, region in enumerate(rows):
            g = float(region[3])
            for cell, name, what in ((cells[3 + 2 * i], "energy", "net"),
                                     (cells[4 + 2 * i], "gross", "with idle")):
                p = point(cell)
                if p and name in f:
                    chk.figure(f"{'/'.join(key)} carbon {region[0]} {what}", p[0],
                               f[name] / 3.6e12 * g * 1e6)


def check_summary(summary, configs, chk):
    """summary.json's point figures against numpy's, to 1e-9 relative."""
    for c in summary["configurations"]:
        key = (c["language"], c["workload"], c["params"])
        f = figures(configs.get(key, Config()))
        chk.equal("/".join(key) + " summary runs_ok", c["runs_ok"], f["n_ok"])
        for name, field in (("time", "time_per_rep_ns"), ("energy", "energy_per_rep_uj"),
                            ("power", "net_power_w")):
            got = c[field]["point"] if c[field] else None
            if got is None or name not in f:
                continue
            chk.checked += 1
            if not abs(got - f[name]) <= 1e-9 * abs(f[name]):
                chk.failures.append(f"FAIL {'/'.join(key)} summary {field}: {got!r}, numpy gives "
                                    f"{f[name]!r}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--results")
    ap.add_argument("--suite")
    ap.add_argument("--greenbench")
    ap.add_argument("--perturb", default="")
    a = ap.parse_args()
    with open(a.suite or os.path.join(a.dir, "suite.json")) as f:
        suite = json.load(f)
    summary = None
    if a.results:
        with open(a.results, encoding="utf-8") as f:
            md = f.read()
    else:
        if not a.greenbench:
            print("give --results or --greenbench")
            return 2
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "results.md")
            subprocess.run([a.greenbench, "report", a.dir, "--out", out, "--quiet",
                            "--junit", os.path.join(tmp, "junit.xml"),
                            "--summary", os.path.join(tmp, "summary.json")], check=True)
            with open(out, encoding="utf-8") as f:
                md = f.read()
            with open(os.path.join(tmp, "summary.json"), encoding="utf-8") as f:
                summary = json.load(f)
    configs = load(a.dir, a.perturb)
    chk = Checker()
    medians = check_cases(md, suite, configs, chk)
    check_rank(md, medians, chk)
    titles = {lang.get("title", lang["name"]): lang["name"] for lang in suite["languages"]}
    check_carbon(md, titles, medians, chk)
    if summary is not None:
        check_summary(summary, configs, chk)
    for line in chk.failures:
        print(line)
    if chk.failures:
        return 1
    print(f"PASS: {chk.checked} figures agree with numpy")
    return 0


if __name__ == "__main__":
    sys.exit(main())
