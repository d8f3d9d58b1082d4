#!/usr/bin/python3
"""readme_check.py README RESULTS: every figure the README's "What the
results say so far" quotes must be the figure results.md prints, so the
README's prose can never drift from the report it summarises.

Each claim is a pattern in the README and the same figure read from
results.md; a claim the README no longer makes is a failure too (update
this check with the prose). Exit 0 when all agree, 1 with one line per
disagreement."""
import re
import sys


def table_rows(md):
    """Every Markdown table row of md, as its stripped cells."""
    rows = []
    for line in md.splitlines():
        if line.startswith("| ") and not line.startswith("|---"):
            rows.append([c.strip() for c in line.strip().strip("|").split(" | ")])
    return rows


def first_number(cell):
    """The median of a "median (min to max)" cell."""
    return cell.split(" ")[0]


def main():
    readme, results = (open(p, encoding="utf-8").read() for p in sys.argv[1:3])
    section = readme.split("## What the results say so far", 1)[-1].split("\n## ", 1)[0]
    prose = " ".join(section.split())
    rows = table_rows(results)
    failures = []

    def claim(what, pattern, want):
        m = re.search(pattern, prose)
        if not m:
            failures.append("README no longer states %s (pattern %r)" % (what, pattern))
            return
        got = tuple(g.replace(",", "") for g in m.groups())
        if got != tuple(want):
            failures.append("README says %s is %s; results.md prints %s"
                            % (what, " / ".join(got), " / ".join(want)))

    def result(pattern, what):
        m = re.search(pattern, results)
        if not m:
            sys.exit("readme_check: results.md has no %s (pattern %r)" % (what, pattern))
        return m.groups()

    runs = result(r"\*\*Runs\*\*: (\d+) rows in runs\.csv, (\d+) ok", "Runs check")
    claim("the runs, all ok", r"([\d,]+) measured runs, every one ok", runs[:1])
    valid = result(r"(\d+) of (\d+) configurations valid", "Validity check")
    claim("the configurations whose parity held", r"parity held in all (\d+) configurations",
          valid[1:] if valid[0] == valid[1] else ("not all: %s of %s" % valid,))
    for lang in ("Python", "Node.js"):
        medians = sorted((first_number(r[3]) for r in rows
                          if len(r) > 3 and r[0] == "%s / C" % lang and r[2].isdigit()),
                         key=float)
        claim("%s's time against C, medians per algorithm" % lang,
              re.escape(lang) + r" (?:takes )?(\S+) to (\S+) times as long", (medians[0], medians[-1]))
    by_order = {r[2].split(" /")[0]: first_number(r[4]) for r in rows
                if len(r) > 4 and r[0] == "Python" and r[1] == "bubble" and "/ random" in r[2]
                and "(" in r[3]}
    claim("Python bubble sort's time ratios against random input",
          r"in Python, sorted input takes (\S+), reversed (\S+) and nearly sorted (\S+) times "
          r"as long as random", (by_order["sorted"], by_order["reversed"], by_order["nearly"]))
    loops = result(r"\*\*Sort loops\*\*: (\d+) of (\d+) measured loops fell short of the (\d+) ms "
                   r"target; the shortest lasted (\S+) ms", "Sort loops check")
    claim("the short sort loops",
          r"([\d,]+) of ([\d,]+) sort loops fell short of the (\d+) ms target \(the shortest "
          r"(\d+) ms\)", loops[:3] + ("%.0f" % float(loops[3]),))
    plateau = result(r"(\d+) configurations reached it, (\d+) did not", "Warm-up plateau check")
    total = str(int(plateau[0]) + int(plateau[1]))
    claim("the configurations that missed the warm-up plateau",
          r"(\d+) of (\d+) configurations did not reach a warm-up plateau", (plateau[1], total))
    extended = result(r"\((\d+) of them extended warm-up", "count of extended warm-ups")
    claim("the configurations that extended their warm-up", r"(\d+) extended their warm-up",
          extended)
    loop = result(r"\*\*Loop time\*\* .*?: (\d+) of (\d+) configurations with a loop time "
                  r"disagree; CPU time per sort above time per sort times the (\d+) CPUs? .*?"
                  r"impossible: (\d+)", "Loop time check")
    claim("the configurations whose time per sort disagrees with the loop time",
          r"In (\d+) of (\d+) configurations, all Node\.js, the time per sort", loop[:2])
    claim("the configurations with CPU time above wall time",
          r"and (\d+) show more CPU time per sort than wall time", loop[3:])
    for f in failures:
        print("readme_check: " + f)
    if failures:
        return 1
    print("readme_check: the README's figures are results.md's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
