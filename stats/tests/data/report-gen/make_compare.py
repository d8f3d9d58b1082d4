#!/usr/bin/python3
"""Writes the records folders of `greenbench compare`'s known-answer tests
beside this script's folder, with make_verdicts.py's campaign (languages c
and python, quicksort, orders random and sorted, size 100, 30 runs) on
machines whose power models are known:

  compare-machine-a/   label machine-a: every configuration draws 20 W
                       (verdict yes; every power ratio's true value is 1.0)
  compare-machine-b/   label machine-b: the same power model, other draws
                       (verdict yes)
  compare-machine-c/   label machine-c: Python draws 30% more (26 W) and the
                       machine is 20% faster: the language power ratios' true
                       value is 1.3 (they read differs), the order ratios'
                       1.0 (same): verdict no
  compare-other-seed/  label machine-d: machine-a's model with input seed
                       12345, another workload (compare refuses it)

and three more campaigns of machine-a (label machine-a), before/after
comparisons of one machine:

  compare-a-slower/    every sort takes 1.5 times as long at the same power
                       (the startup unchanged): time and energy per sort
                       against compare-machine-a's 1.5, net power 1.0
  compare-a-c-only/    machine-a's model for language c alone: the python
                       configurations are compared nowhere
  compare-a-no-energy/ compare-a-slower's model measured with energy off:
                       time ratios only

Time per sort depends on the order (sorted input takes 1.4 times as long),
so the four configurations rank the same way on every machine: the rank
agreement of time per sort is 1 between any two. Counts and input hashes
are the real ones; the output is deterministic. Run it with /usr/bin/python3
(Debian's python3-xxhash)."""
import os
import random

import make_fixtures as mf
import make_verdicts as mv

LANGS = ["c", "python"]
ORDERS = ["random", "sorted"]
ORDER_FACTOR = {"random": 1.0, "sorted": 1.4}

# name: label, watts per language, speed factor (time per sort), rng seed, input seed
MACHINES = {
    "compare-machine-a": ("machine-a", {"c": 20.0, "python": 20.0}, 1.0, 2001, mf.SEED),
    "compare-machine-b": ("machine-b", {"c": 20.0, "python": 20.0}, 1.0, 2002, mf.SEED),
    "compare-machine-c": ("machine-c", {"c": 20.0, "python": 26.0}, 0.8, 2003, mf.SEED),
    "compare-other-seed": ("machine-d", {"c": 20.0, "python": 20.0}, 1.0, 2004, 12345),
    "compare-a-slower": ("machine-a", {"c": 20.0, "python": 20.0}, 1.5, 2005, mf.SEED),
    "compare-a-c-only": ("machine-a", {"c": 20.0}, 1.0, 2006, mf.SEED),
    "compare-a-no-energy": ("machine-a", {"c": 20.0, "python": 20.0}, 1.5, 2007, mf.SEED),
}


def per_sort(lang, order, speed):
    return mv.PER_SORT_NS[lang] * ORDER_FACTOR[order] * speed


def rows_of(watts, speed, rng, energy=True):
    rows = []
    for lang in watts:
        for order in ORDERS:
            a = mf.make_input(order, mv.SIZE)
            counts, h = mf.quick_counts(a), mf.input_hash(a)
            sorts = mv.sorts_of(lang)
            for rep in range(mv.RUNS):
                w = watts[lang] * (1 + rng.gauss(0, 0.005))
                loop = int(sorts * per_sort(lang, order, speed) * (1 + rng.gauss(0, 0.01)))
                start = mv.STARTUP_NS[lang]
                r = mv.base_row("sort", lang, order, h, start + loop)
                r.update(sorts=sorts, launches=1, loop_ns=loop, comparisons=counts[0],
                         writes=counts[1], rep=rep)
                r.update(mv.energy(1.0, w * loop + watts[lang] * start, start + loop))
                r.update({} if energy else OFF)
                rows.append(r)
                launches = max(1, round(240e6 / start))
                s = mv.base_row("startup", lang, order, h, launches * start)
                s.update(sorts=0, launches=launches, loop_ns="", comparisons="", writes="",
                         rep=rep)
                s.update(mv.energy(watts[lang], launches * start, launches * start))
                s.update({} if energy else OFF)
                rows.append(s)
    rng.shuffle(rows)
    return rows


# A row measured with energy off (make_fixtures.energy_cols).
OFF = dict(energy="off", pkg_uj="", dram_uj="", idle_pkg_uj="", idle_dram_uj="")


def meta_of(label, speed, n_rows, langs=LANGS, energy=True):
    m = mv.meta_of(langs, ORDERS, n_rows)
    m["machine"]["label"] = label
    if not energy:
        m["command"][m["command"].index("--energy") + 1] = "off"
        m["settings"]["energy"] = "off"
        m["energy"] = {"status": "off", "reason": "energy off (--energy off)", "zones": []}
    for c in m["calibration"]:
        loop = int(per_sort(c["language"], c["order"], speed) * c["sorts"])
        c["warmup_loop_ns"] = [loop, loop]
    return m


def main():
    for name, (label, watts, speed, seed, input_seed) in MACHINES.items():
        mf.SEED = input_seed
        energy = name != "compare-a-no-energy"
        rows = rows_of(watts, speed, random.Random(seed), energy)
        mf.write(name, rows, meta_of(label, speed, len(rows), list(watts), energy), None)
    mf.SEED = 2463534242


if __name__ == "__main__":
    os.chdir(os.path.dirname(os.path.abspath(__file__)))
    main()
