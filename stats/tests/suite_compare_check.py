#!/usr/bin/python3
"""compare.json of suite campaigns against a numpy recomputation.

usage: suite_compare_check.py COMPARE_JSON DIR DIR... [--self] [--perturb L/W/P]

Every configuration's point figures of each campaign (time and energy per
repetition, net power by the paired estimator; the suite report's rules, as
suite_numpy_check.py computes them from each DIR's runs.csv) and every
change's point ratios (campaign / first) to 1e-9 relative. With --self (a
campaign compared with itself): every ratio exactly 1, its interval holding
1, read "same". --perturb makes one configuration's wall times 1% longer in
the last DIR (the check must then fail). Exit 0 with "PASS: N figures", or 1
with one line per problem."""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from suite_numpy_check import Config, figures, load  # noqa: E402

FIELDS = (("time", "time_per_rep_ns"), ("energy", "energy_per_rep_uj"), ("power", "net_power_w"))


def close(got, want):
    return abs(got - want) <= 1e-9 * abs(want)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("compare_json")
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--self", action="store_true")
    ap.add_argument("--perturb", default="")
    a = ap.parse_args()
    with open(a.compare_json, encoding="utf-8") as f:
        d = json.load(f)
    campaigns = [load(x, a.perturb if i == len(a.dirs) - 1 else "") for i, x in
                 enumerate(a.dirs)]
    fail, checked = [], 0
    if d.get("format") != "greenbench-suite-compare-1":
        fail.append(f"format {d.get('format')!r}")
    if len(d["campaigns"]) != len(a.dirs):
        fail.append(f"{len(d['campaigns'])} campaigns, {len(a.dirs)} folders given")
    figs = {}
    for c in d["configurations"]:
        key = (c["language"], c["workload"], c["params"])
        figs[key] = [figures(x.get(key, Config())) for x in campaigns]
        for m, v in enumerate(c["campaigns"]):
            for name, field in FIELDS:
                if v[field] is None or name not in figs[key][m]:
                    continue
                checked += 1
                if not close(v[field]["point"], figs[key][m][name]):
                    fail.append(f"FAIL {'/'.join(key)} campaign {m} {field}: "
                                f"{v[field]['point']!r}, numpy gives {figs[key][m][name]!r}")
    for m, ch in enumerate(d["changes"], start=1):
        for c in ch["configurations"]:
            key = (c["language"], c["workload"], c["params"])
            for name, _ in FIELDS:
                r = c[name + "_ratio"]
                if r is None:
                    continue
                checked += 1
                want = figs[key][m][name] / figs[key][0][name]
                if not close(r["point"], want):
                    fail.append(f"FAIL {'/'.join(key)} {name} ratio of campaign {m}: "
                                f"{r['point']!r}, numpy gives {want!r}")
                if a.self and not (r["point"] == 1.0 and r["low"] <= 1.0 <= r["high"] and
                                   c[name + "_reading"] == "same"):
                    fail.append(f"FAIL {'/'.join(key)} {name} ratio against itself: {r}, "
                                f"{c[name + '_reading']}")
    for line in fail:
        print(line)
    if fail:
        return 1
    print(f"PASS: {checked} figures agree with numpy")
    return 0


if __name__ == "__main__":
    sys.exit(main())
