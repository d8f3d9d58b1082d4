#!/usr/bin/env python3
"""The precision of the C per-sort medians (docs/performance.md, issue 19):
for each records folder's summary.json (written by `greenbench report`),
the 95% interval's half-width of time per sort as a percentage of the
median, per C configuration, then its median and worst over them.

usage: precision.py LABEL=SUMMARY.json [LABEL=SUMMARY.json ...]
Standard library only; prints one block per summary.
"""
import json
import statistics
import sys


def half_widths(path):
    with open(path, encoding="utf-8") as f:
        summary = json.load(f)
    rows = []
    for c in summary["configurations"]:
        t = c.get("time_per_sort_ns")
        if c["language"] != "c" or not t or t["point"] is None or t["low"] is None:
            continue
        rows.append((c["label"], 100.0 * (t["high"] - t["low"]) / 2.0 / t["point"]))
    return rows


def main(args):
    if not args or any("=" not in a for a in args):
        sys.exit(__doc__.strip().splitlines()[-2])
    for arg in args:
        label, path = arg.split("=", 1)
        rows = half_widths(path)
        if not rows:
            sys.exit(f"precision.py: {path}: no C configuration with a time per sort")
        values = [w for _, w in rows]
        worst = max(rows, key=lambda r: r[1])
        print(f"{label}: {len(rows)} C configurations; 95% half-width of time per sort, "
              f"% of the median: median {statistics.median(values):.1f}%, "
              f"worst {worst[1]:.1f}% ({worst[0]})")
        for name, w in sorted(rows):
            print(f"  {name:28s} {w:5.1f}%")


if __name__ == "__main__":
    main(sys.argv[1:])
