#!/usr/bin/python3
"""Writes records folders whose answer to question 1 is known by
construction, one per branch of the verdict (docs/study.md), beside this
script's folder:

  report-verdict-yes/     every configuration draws 20 W while sorting, each run
                    within a few percent: the power ratios read same power
                    and about as many exclude 1 as chance gives
  report-verdict-differs/  Python draws 5% more than C, runs within 0.5%: every
                    ratio lies inside the 10% margin, yet the language
                    ratios exclude 1, more than chance gives
  report-verdict-no/      Python draws 30% more than C: the language ratios
                    differ beyond the margin, half the ratios do not read
                    same power; Python's runs on sorted input scatter by 15%,
                    so one ratio in four is inconclusive (many)
  report-verdict-noisy/    equal power, but every run's power scatters by 60%:
                    the intervals reach beyond the margin, inconclusive
  report-verdict-cannot/   one language and one order: no power ratio exists

Each has languages c and python (verdict-cannot: c), quicksort, orders
random and sorted (verdict-cannot: random), size 100, 30 runs. A sorting run
is a startup (drawing its language's power) and then its loop; the startup
trials draw the same power, so net power per sort is exactly the drawn
power and every power ratio's true value is the ratio of the powers above.
Counts and input hashes are the real ones; the output is deterministic.
Run it with /usr/bin/python3 (Debian's python3-xxhash)."""
import copy
import json
import os
import random

import make_fixtures as mf

RUNS = 30
SIZE = 100
STARTUP_NS = {"c": 2000000, "python": 18000000}
PER_SORT_NS = {"c": 2500.0, "python": 400000.0}
IDLE_W = 5.0

# name: languages, orders, watts per language, scatter of each run's power
# (per language and order, default "*"), scatter of its loop time.
CASES = {
    "report-verdict-yes": (["c", "python"], ["random", "sorted"], {"c": 20.0, "python": 20.0},
                    {"*": 0.03}, 0.02),
    "report-verdict-differs": (["c", "python"], ["random", "sorted"], {"c": 20.0, "python": 21.0},
                        {"*": 0.005}, 0.01),
    "report-verdict-no": (["c", "python"], ["random", "sorted"], {"c": 20.0, "python": 26.0},
                   {"*": 0.005, ("python", "sorted"): 0.15}, 0.01),
    "report-verdict-noisy": (["c", "python"], ["random", "sorted"], {"c": 20.0, "python": 20.0},
                      {"*": 0.6}, 0.01),
    "report-verdict-cannot": (["c"], ["random"], {"c": 20.0}, {"*": 0.01}, 0.01),
}


# The random seed of a case, where not 1000 + its position. verdict-yes is
# drawn under equal power, where about one campaign in 20 has more power
# intervals excluding 1 than the chance count calibrated for its design
# allows (and reads "power differs measurably"): its seed gives a draw with
# none (issue 32; seed 1000 gave one of 4).
SEEDS = {"report-verdict-yes": 1100}


def sorts_of(lang):
    return max(1, round(mf.TARGET_MS * 1.2e6 / PER_SORT_NS[lang]))


def energy(watts, busy_ns, wall_ns):
    """Package and DRAM readings of a run drawing watts for busy_ns over
    wall_ns with the idle power beneath, and its idle window's."""
    total = watts * busy_ns * 1e-3 + IDLE_W * wall_ns * 1e-3
    idle_ns = wall_ns + 1000
    idle = IDLE_W * idle_ns * 1e-3
    return dict(energy="ok", pkg_uj=int(total * 0.9), dram_uj=int(total) - int(total * 0.9),
                idle_ns=idle_ns, idle_pkg_uj=int(idle * 0.9),
                idle_dram_uj=int(idle) - int(idle * 0.9))


def base_row(kind, lang, order, h, wall):
    return mf.Row(kind=kind, language=lang, order=order, size=SIZE, status="ok", wall_ns=wall,
                  user_ns=int(wall * 0.95), sys_ns=int(wall * 0.02), max_rss_kib=1800,
                  input_hash=h, freq_start_khz=3000000, freq_end_khz=3000000,
                  temp_start_mc=45000, temp_end_mc=45500, message="")


def rows_of(langs, orders, watts, scatter, time_scatter, rng):
    rows = []
    for lang in langs:
        for order in orders:
            a = mf.make_input(order, SIZE)
            counts, h = mf.quick_counts(a), mf.input_hash(a)
            sd = scatter.get((lang, order), scatter["*"])
            sorts = sorts_of(lang)
            for rep in range(RUNS):
                w = watts[lang] * max(0.05, 1 + rng.gauss(0, sd))
                loop = int(sorts * PER_SORT_NS[lang] * (1 + rng.gauss(0, time_scatter)))
                start = STARTUP_NS[lang]
                r = base_row("sort", lang, order, h, start + loop)
                r.update(sorts=sorts, launches=1, loop_ns=loop, comparisons=counts[0],
                         writes=counts[1], rep=rep)
                r.update(energy(1.0, w * loop + watts[lang] * start, start + loop))
                rows.append(r)
                launches = max(1, round(240e6 / start))
                s = base_row("startup", lang, order, h, launches * start)
                s.update(sorts=0, launches=launches, loop_ns="", comparisons="", writes="",
                         rep=rep)
                s.update(energy(watts[lang], launches * start, launches * start))
                rows.append(s)
    rng.shuffle(rows)
    return rows


def meta_of(langs, orders, n_rows):
    m = mf.meta(True, True, n_rows, n_rows)
    configs = len(langs) * len(orders)
    m["command"] = ["greenbench", "run", "--profile", "custom", "--languages", ",".join(langs),
                    "--algorithms", "quick", "--orders", ",".join(orders), "--sizes",
                    str(SIZE), "--runs", str(RUNS), "--warmups", "2", "--energy", "on",
                    "--out", "results/verdict"]
    m["settings"].update(languages=langs, orders=orders, sizes=[SIZE], runs=RUNS)
    m["plan"] = {"configurations": configs, "sort_runs": configs * RUNS,
                 "startup_runs": configs * RUNS, "measured_runs": 2 * configs * RUNS}
    m["calibration"] = [{"language": l, "algorithm": "quick", "order": o, "size": SIZE,
                         "sorts": sorts_of(l),
                         "warmup_loop_ns": [int(PER_SORT_NS[l] * sorts_of(l))] * 2}
                        for l in langs for o in orders]
    m["startup"] = [{"language": l, "order": o, "size": SIZE,
                     "launches": max(1, round(240e6 / STARTUP_NS[l]))}
                    for l in langs for o in orders]
    m["runtimes"] = {l: copy.copy(mf.meta(True, True, 0, 0)["runtimes"][l]) for l in langs}
    return m


def main():
    for i, (name, (langs, orders, watts, scatter, time_scatter)) in enumerate(CASES.items()):
        rows = rows_of(langs, orders, watts, scatter, time_scatter,
                       random.Random(SEEDS.get(name, 1000 + i)))
        mf.write(name, rows, meta_of(langs, orders, len(rows)), None)


if __name__ == "__main__":
    os.chdir(os.path.dirname(os.path.abspath(__file__)))
    main()
