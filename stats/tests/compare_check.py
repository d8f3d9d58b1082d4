#!/usr/bin/python3
"""compare.json of a campaign compared with itself reports perfect agreement.

usage: compare_check.py COMPARE_JSON

Every verdict the same, every pair's rank rho of time per sort 1 (interval
[1, 1] when computed), and every configuration's and ratio's figures the same
on every machine (the machine's name aside); against the first, every later
campaign's answer to question 1 unchanged (null without energy) and every
ratio of time, energy and net power exactly 1, its interval around it. Exit
0, or 1 with one line per problem."""
import json
import sys


def strip(entry):
    return {k: v for k, v in entry.items() if k != "machine"}


def problems_of(d):
    out = []
    if d.get("schema_version") != 1:
        out.append(f"schema_version {d.get('schema_version')!r}, want 1")
    if len(d["machines"]) < 2:
        out.append("fewer than two machines")
    if not d["verdict_agreement"]["agree"]:
        out.append(f"verdicts disagree: {d['verdict_agreement']['verdicts']}")
    for p in d["pairs"]:
        rho = p["time_rank_rho"]
        if not p["verdicts_agree"]:
            out.append(f"pair {p['machines']}: verdicts disagree")
        if rho is None or (rho["point"], rho["low"], rho["high"]) != (1, 1, 1):
            out.append(f"pair {p['machines']}: time rank rho {rho}, want 1 [1, 1]")
        if p["configurations"] != len(d["configurations"]):
            out.append(f"pair {p['machines']}: {p['configurations']} configurations")
    for kind, key in (("configuration", "configurations"), ("ratio", "ratios")):
        for e in d[key]:
            first = strip(e["machines"][0])
            for m in e["machines"][1:]:
                if strip(m) != first:
                    out.append(f"{kind} {e.get('a', e.get('language'))}: {m['machine']} differs")
        if not d[key]:
            out.append(f"no {key}")
    out += [f"ratio {r['a']} / {r['b']}: readings disagree" for r in d["ratios"]
            if not r["readings_agree"]]
    return out + change_problems(d)


def change_problems(d):
    out = []
    if len(d["changes"]) != len(d["machines"]) - 1:
        out.append(f"{len(d['changes'])} changes for {len(d['machines'])} campaigns")
    for ch in d["changes"]:
        changed = ch["question_1"]["changed"]
        if changed is not (False if ch["energy_measured_in_both"] else None):
            out.append(f"{ch['campaign']}: question 1 changed: {changed}")
        for k in ch["configurations"]:
            for what in ("time", "energy", "power"):
                r = k[f"{what}_ratio"]
                if r is None and (what == "time" or ch["energy_measured_in_both"]):
                    out.append(f"{ch['campaign']} {k['language']}: no {what} ratio")
                elif r is not None and not (r["point"] == 1 and r["low"] <= 1 <= r["high"]):
                    out.append(f"{ch['campaign']} {k['language']}: {what} ratio {r}")
    return out


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        problems = problems_of(json.load(f))
    for p in problems:
        print(p)
    if not problems:
        print("perfect agreement")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
