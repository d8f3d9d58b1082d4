#!/usr/bin/python3
"""Writes the report's fixture records folders beside this script's folder:

  report-energy/   energy ok (fake but plausible numbers), warmups.csv, one
                   timeout among the runs, one loop short of the target, one
                   throttled run, one configuration whose warm-ups missed the
                   plateau; c/quick/random/100 and its startup trial carry
                   hand-picked numbers for the known-answer tests
  report-off/      the same campaign with energy off, no warmups.csv and no
                   machine.label (records from before the field)
  report-partial/  report-energy cut short: completed false, the last
                   configuration (node/quick/sorted/200) without any row
  report-zero/     energy ok, but every reading is 0 uJ: refused by the reader
  report-noisy/    report-energy where c/quick/sorted/100 sorts once per
                   process, so the startup subtracted is about as large as
                   the sort: its median time and energy per sort fall below 0;
                   and node/quick/random/200 extended its warm-up to 4 runs

Counts and input hashes are the real ones (xorshift32, Lomuto quicksort,
XXH64), so the parity checks see what the workers would print. Run it with
/usr/bin/python3 (Debian's python3-xxhash); the output is deterministic.
"""
import json
import os
import random
import struct

import xxhash

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.dirname(HERE)
SEED = 2463534242
LANGS = ["c", "python", "node"]
ORDERS = ["random", "sorted"]
SIZES = [100, 200]
RUNS = 3
WARMUPS = 2
TARGET_MS = 200
HEADER = ("run,kind,language,algorithm,order,size,seed,sorts,launches,status,wall_ns,"
          "user_ns,sys_ns,max_rss_kib,loop_ns,comparisons,writes,input_hash,energy,pkg_uj,"
          "dram_uj,idle_ns,idle_pkg_uj,idle_dram_uj,freq_start_khz,freq_end_khz,"
          "temp_start_mc,temp_end_mc,started_unix_ns,message")


def xorshift(state):
    while True:
        state ^= (state << 13) & 0xFFFFFFFF
        state ^= state >> 17
        state ^= (state << 5) & 0xFFFFFFFF
        yield state


def make_input(order, n):
    a = list(range(n))
    if order == "random":
        g = xorshift(SEED)
        for i in range(n - 1, 0, -1):
            j = next(g) % (i + 1)
            a[i], a[j] = a[j], a[i]
    return a


def quick_counts(a):
    a = list(a)
    comps = writes = 0
    lo, hi = 0, len(a) - 1
    stack = [(lo, hi)]
    while stack:
        lo, hi = stack.pop()
        while lo < hi:
            pivot, i = a[hi], lo - 1
            for j in range(lo, hi):
                comps += 1
                if a[j] <= pivot:
                    i += 1
                    if i != j:
                        a[i], a[j] = a[j], a[i]
                        writes += 2
            if i + 1 != hi:
                a[i + 1], a[hi] = a[hi], a[i + 1]
                writes += 2
            p = i + 1
            # The smaller side waits on the stack, the loop goes on with the
            # larger; the counts do not depend on which side goes first.
            if p - lo < hi - p:
                sub = (lo, p - 1)
                lo = p + 1
            else:
                sub = (p + 1, hi)
                hi = p - 1
            stack.append(sub)
    assert a == sorted(a)
    return comps, writes


def input_hash(a):
    return xxhash.xxh64(struct.pack("<%di" % len(a), *a), seed=0).hexdigest()


# Fake but plausible costs: ns per sort at size 100 on random input, startup
# ns per process, net watts while sorting.
PER_SORT = {"c": 2500.0, "python": 400000.0, "node": 30000.0}
STARTUP = {"c": 2.0e6, "python": 18.0e6, "node": 40.0e6}
WATTS = {"c": 18.0, "python": 20.0, "node": 23.0}
IDLE_W = 5.0
JITTER = [0.0, 0.012, -0.009]


def per_sort_ns(lang, order, size):
    f = 1.0 if order == "random" else 1.6
    return PER_SORT[lang] * (size / 100.0) ** 1.3 * f


class Row(dict):
    pass


def energy_cols(proc_ns, sort_ns, watts, idle_ns, energy):
    if not energy:
        return dict(energy="off", pkg_uj="", dram_uj="", idle_ns=idle_ns, idle_pkg_uj="",
                    idle_dram_uj="")
    total = watts * sort_ns * 1e-3 + IDLE_W * proc_ns * 1e-3  # uJ
    idle = IDLE_W * idle_ns * 1e-3
    return dict(energy="ok", pkg_uj=int(total * 0.9), dram_uj=int(total) - int(total * 0.9),
                idle_ns=idle_ns, idle_pkg_uj=int(idle * 0.9),
                idle_dram_uj=int(idle) - int(idle * 0.9))


def sort_row(lang, order, size, rep, counts, h, energy):
    ps = per_sort_ns(lang, order, size)
    sorts = max(1, round(TARGET_MS * 1.2e6 / ps))
    loop = int(sorts * ps * (1 + JITTER[rep]))
    wall = int(STARTUP[lang] + loop + 150000)
    r = Row(kind="sort", language=lang, order=order, size=size, sorts=sorts, launches=1,
            status="ok", wall_ns=wall, user_ns=int(wall * 0.97), sys_ns=int(wall * 0.02),
            max_rss_kib={"c": 1800, "python": 9800, "node": 45000}[lang], loop_ns=loop,
            comparisons=counts[0], writes=counts[1], input_hash=h, freq_start_khz=3000000,
            freq_end_khz=2990000, temp_start_mc=45000, temp_end_mc=47000, message="")
    r.update(energy_cols(wall, loop, WATTS[lang] * (1 + JITTER[rep] / 2), wall + 1000, energy))
    return r


def startup_row(lang, order, size, rep, h, energy):
    launches = max(1, round(240e6 / STARTUP[lang]))
    wall = int(launches * STARTUP[lang] * (1 + JITTER[rep]))
    r = Row(kind="startup", language=lang, order=order, size=size, sorts=0, launches=launches,
            status="ok", wall_ns=wall, user_ns=int(wall * 0.9), sys_ns=int(wall * 0.08),
            max_rss_kib={"c": 1800, "python": 9800, "node": 45000}[lang], loop_ns="",
            comparisons="", writes="", input_hash=h, freq_start_khz=3000000,
            freq_end_khz=3000000, temp_start_mc=45000, temp_end_mc=45500, message="")
    r.update(energy_cols(wall, wall, 3.0, wall + 1000, energy))
    return r


def hand_picked(rows, energy):
    """c/quick/random/100 and its startup trial, for the known-answer tests:
    median time per sort (257e6 - 2.0e6) / 100000 = 2550 ns; CPU per sort
    (254e6 - 1.2e6) / 100000 = 2528 ns; net energies 4.5e6, 4.7e6, 4.6e6 uJ
    (the idle window is half the run, so its energy counts twice) minus the
    startup's 22000 uJ, over 100000 sorts: median 45.78 uJ."""
    runs = [(252000000, 5500000, 500000), (262000000, 5700000, 500000),
            (257000000, 5600000, 500000)]
    starts = [(200000000, 3000000, 800000), (210000000, 3100000, 800000),
              (190000000, 2900000, 800000)]
    for r in rows:
        if r["language"] != "c" or r["order"] != "random" or r["size"] != 100:
            continue
        if r["kind"] == "sort":
            wall, e, idle = runs[r["rep"]]
            r.update(sorts=100000, wall_ns=wall, user_ns=wall - 4000000, sys_ns=1000000,
                     loop_ns=wall - 2500000)
            idle_ns = wall // 2
        else:
            wall, e, idle = starts[r["rep"]]
            r.update(launches=100, wall_ns=wall, user_ns=wall // 2, sys_ns=wall // 10)
            idle_ns = wall
        if energy:
            r.update(pkg_uj=e - 100000, dram_uj=100000, idle_ns=idle_ns,
                     idle_pkg_uj=idle - 50000 if r["kind"] == "sort" else idle - 100000,
                     idle_dram_uj=50000 if r["kind"] == "sort" else 100000)
        else:
            r.update(idle_ns=idle_ns)


def quirks(rows):
    """A timeout, a short loop, a throttled run: what the data checks count."""
    for r in rows:
        key = (r["kind"], r["language"], r["order"], r["size"], r["rep"])
        if key == ("sort", "python", "sorted", 200, 2):
            r.update(status="timeout", user_ns="", sys_ns="", max_rss_kib="", loop_ns="",
                     comparisons="", writes="", input_hash="", energy=r["energy"],
                     message='worker ran past timeout_s 60 & was killed <SIGKILL> "hard"')
            for k in ("pkg_uj", "dram_uj", "idle_ns", "idle_pkg_uj", "idle_dram_uj"):
                r[k] = ""
            r["energy"] = "unavailable" if r["energy"] == "ok" else r["energy"]
        if key == ("sort", "node", "random", 100, 1):
            r["loop_ns"] = 195000000
        if key == ("sort", "c", "sorted", 200, 0):
            r["freq_end_khz"] = 2500000


def build_rows(energy):
    rows = []
    for lang in LANGS:
        for order in ORDERS:
            for size in SIZES:
                a = make_input(order, size)
                counts, h = quick_counts(a), input_hash(a)
                for rep in range(RUNS):
                    r = sort_row(lang, order, size, rep, counts, h, energy)
                    r["rep"] = rep
                    rows.append(r)
                    s = startup_row(lang, order, size, rep, h, energy)
                    s["rep"] = rep
                    rows.append(s)
    hand_picked(rows, energy)
    quirks(rows)
    random.Random(123).shuffle(rows)
    return rows


def format_row(i, r, t0):
    vals = [i, r["kind"], r["language"], "quick", r["order"], r["size"], SEED, r["sorts"],
            r["launches"], r["status"], r["wall_ns"], r["user_ns"], r["sys_ns"],
            r["max_rss_kib"], r["loop_ns"], r["comparisons"], r["writes"], r["input_hash"],
            r["energy"], r["pkg_uj"], r["dram_uj"], r["idle_ns"], r["idle_pkg_uj"],
            r["idle_dram_uj"], r["freq_start_khz"], r["freq_end_khz"], r["temp_start_mc"],
            r["temp_end_mc"], t0 + i * 600000000]
    msg = r["message"]
    vals.append('"%s"' % msg.replace('"', '""') if msg else "")
    return ",".join(str(v) for v in vals)


NOISY = ("c", "sorted", 100)  # sorts once per process in report-noisy
EXTENDED = ("node", "random", 200)  # 4 warm-ups in report-noisy


def noisy(rows):
    """NOISY sorts once per process and its processes are shorter than the
    startup trial's cost per process (2.0 ms): per-sort figures below 0."""
    walls = [1700000, 1950000, 2010000]
    for r in rows:
        if (r["kind"], r["language"], r["order"], r["size"]) != ("sort",) + NOISY:
            continue
        wall = walls[r["rep"]]
        r.update(sorts=1, wall_ns=wall, user_ns=int(wall * 0.9), sys_ns=int(wall * 0.05),
                 loop_ns=9000)
        r.update(energy_cols(wall, 9000, WATTS["c"], wall + 1000, True))


def warmup_rows(energy, plateau_miss, extended=None):
    out = []
    t0 = 1796281200000000000  # warm-ups start with the campaign (started_at)
    n = 0
    for lang in LANGS:
        for order in ORDERS:
            for size in SIZES:
                a = make_input(order, size)
                counts, h = quick_counts(a), input_hash(a)
                ps = per_sort_ns(lang, order, size)
                cold = 2.0 if (lang, order, size) == plateau_miss else 1.04
                sorts = max(1, round(TARGET_MS * 1.2e6 / ps))
                steps = [(max(1, sorts // 4), cold), (sorts, 1.0)]
                if (lang, order, size) == extended:
                    steps = [(max(1, sorts // 4), 3.0), (sorts, 1.5), (sorts, 1.2), (sorts, 1.0)]
                for rep, (k, f) in enumerate(steps):
                    loop = int(k * ps * f)
                    r = Row(kind="sort", language=lang, order=order, size=size, sorts=k,
                            launches=1, status="ok", wall_ns=loop + int(STARTUP[lang]),
                            user_ns=loop, sys_ns=100000, max_rss_kib=1800, loop_ns=loop,
                            comparisons=counts[0], writes=counts[1], input_hash=h,
                            freq_start_khz=3000000, freq_end_khz=3000000,
                            temp_start_mc=44000, temp_end_mc=45000, message="")
                    r.update(energy_cols(r["wall_ns"], loop, WATTS[lang], r["wall_ns"], energy))
                    vals = format_row(rep, r, t0).split(",")
                    vals[-2] = str(t0 + n * 500000000)
                    out.append(",".join(vals))
                    n += 1
    return out


def meta(energy, completed, runs_done, n_rows, label="bench-01", once=None):
    zones = [{"name": "package-0", "path": "intel-rapl:0", "kind": "package", "socket": 0,
              "max_energy_range_uj": 262143328850},
             {"name": "dram", "path": "intel-rapl:0:0", "kind": "dram", "socket": 0,
              "max_energy_range_uj": 65712999613}] if energy else []
    calib = []
    for lang in LANGS:
        for order in ORDERS:
            for size in SIZES:
                ps = per_sort_ns(lang, order, size)
                sorts = max(1, round(TARGET_MS * 1.2e6 / ps))
                if (lang, order, size) == ("c", "random", 100):
                    sorts = 100000
                if (lang, order, size) == once:
                    sorts = 1
                calib.append({"language": lang, "algorithm": "quick", "order": order,
                              "size": size, "sorts": sorts,
                              "warmup_loop_ns": [int(ps * max(1, sorts // 4)), int(ps * sorts)]})
    startup = [{"language": l, "order": o, "size": s,
                "launches": 100 if (l, o, s) == ("c", "random", 100)
                else max(1, round(240e6 / STARTUP[l]))}
               for l in LANGS for o in ORDERS for s in SIZES]
    configs = len(LANGS) * len(ORDERS) * len(SIZES)
    return {
        "format": "greenbench-records-1",
        "tool_version": "0.1.0",
        "command": ["greenbench", "run", "--profile", "custom", "--languages", "c,python,node",
                    "--algorithms", "quick", "--orders", "random,sorted", "--sizes", "100,200",
                    "--runs", "3", "--warmups", "2",
                    "--energy", "on" if energy else "off", "--out", "results/fixture"],
        "profile": "custom",
        "settings": {"languages": LANGS, "algorithms": ["quick"], "orders": ORDERS,
                     "sizes": SIZES, "runs": RUNS, "warmups": WARMUPS, "target_ms": TARGET_MS,
                     "energy": "on" if energy else "off", "seed": SEED, "order_seed": 123,
                     "python": "/usr/bin/python3", "node": "/usr/bin/node", "timeout_s": 60},
        "plan": {"configurations": configs, "sort_runs": configs * RUNS,
                 "startup_runs": configs * RUNS, "measured_runs": 2 * configs * RUNS},
        "calibration": calib,
        "startup": startup,
        "energy": {"status": "ok" if energy else "off",
                   "reason": "" if energy else "energy off (--energy off)", "zones": zones},
        "machine": dict(({"label": label} if label else {}),
                        cpu_model="Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz",
                        kernel="6.1.0-18-amd64", governor="performance", turbo=None,
                        cpus_online=12),
        "pinning": {"cpus": "2,4", "rule_held": True,
                    "reason": "two physical cores of package 0, not CPU 0 or its sibling",
                    "numa_node": 0, "memory_bound": True},
        "runtimes": {"c": "gcc 12.2.0", "python": "CPython 3.11.2", "node": "v20.19.2"},
        "git_commit": "c017cd9e0c1f5a2b4d6e8f0a1b3c5d7e9f1a2b3c",
        "started_at": "2026-12-03T07:00:00Z",
        "finished_at": "2026-12-03T07:05:00Z" if completed else None,
        "completed": completed,
        "runs_done": runs_done,
    }


def write(folder, rows, m, warmups):
    d = os.path.join(DATA, folder)
    os.makedirs(d, exist_ok=True)
    t0 = 1796281200000000000
    with open(os.path.join(d, "runs.csv"), "w") as f:
        f.write(HEADER + "\n")
        for i, r in enumerate(rows):
            f.write(format_row(i, r, t0) + "\n")
    with open(os.path.join(d, "meta.json"), "w") as f:
        json.dump(m, f, indent=2)
        f.write("\n")
    path = os.path.join(d, "warmups.csv")
    if warmups is None:
        if os.path.exists(path):
            os.remove(path)
        return
    with open(path, "w") as f:
        f.write(HEADER + "\n")
        for line in warmups:
            f.write(line + "\n")


def main():
    miss = ("node", "random", 200)
    rows = build_rows(True)
    write("report-energy", rows, meta(True, True, len(rows), len(rows)),
          warmup_rows(True, miss))
    off = build_rows(False)
    write("report-off", off, meta(False, True, len(off), len(off), label=None), None)
    cut = [r for r in rows if (r["language"], r["order"], r["size"], r["kind"]) !=
           ("node", "sorted", 200, "sort")][:50]
    write("report-partial", cut, meta(True, False, len(cut), len(cut)),
          warmup_rows(True, miss))
    zero = build_rows(True)
    for r in zero:
        for k in ("pkg_uj", "dram_uj", "idle_pkg_uj", "idle_dram_uj"):
            if r[k] != "":
                r[k] = 0
    write("report-zero", zero, meta(True, True, len(zero), len(zero)), None)
    loud = build_rows(True)
    noisy(loud)
    write("report-noisy", loud, meta(True, True, len(loud), len(loud), once=NOISY),
          warmup_rows(True, miss, extended=EXTENDED))


if __name__ == "__main__":
    main()
