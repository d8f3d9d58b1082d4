#!/usr/bin/python3
"""sorting_agrees.py BUILD SOURCE [SIZE]: the built-in sorting suite
(suites/sorting.json) measured by the suite engine agrees with the study's
own path on every deterministic value (docs/suites.md, "The study as a
suite").

One suite campaign (`greenbench run --suite`) on the suite file with its
`size` values cut to SIZE (default 250; every language, workload and order,
the file's templates unchanged), and one study campaign (`greenbench run`)
on the same sizes, both with the same seed, energy off and the smallest
numbers. Then, configuration by configuration:
  - the same configurations: (language, workload, order, size) of the
    suite's work rows are the study's (language, algorithm, order, size);
  - the suite's counters `comparisons=C;writes=W` are the study's
    comparisons and writes columns, and what worker-c's study line prints;
  - input_hash equal, in work rows and in startup rows (the study's startup
    group of that language, order and size);
  - the suite's output_hash is the expect entry's (the hash of 0..n-1);
  - every row ok, the seed column the seed given;
  - each language's version (meta.json) is the study's runtime.
Prints one line per check and the time each campaign took; exits 1 with the
first difference."""
import csv
import json
import os
import subprocess
import sys
import tempfile
import time

SEED = 12345


def fail(msg):
    print(f"sorting_agrees.py: {msg}", file=sys.stderr)
    sys.exit(1)


def rows(folder):
    with open(os.path.join(folder, "runs.csv"), newline="") as f:
        return list(csv.DictReader(f))


def run(argv, what):
    start = time.monotonic()
    p = subprocess.run(argv, capture_output=True, text=True)
    took = time.monotonic() - start
    if p.returncode != 0:
        fail(f"{what} failed ({p.returncode}): {p.stderr.strip()}")
    print(f"{what}: {took:.1f} s")


def main():
    build, source = sys.argv[1], sys.argv[2]
    size = int(sys.argv[3]) if len(sys.argv) > 3 else 250
    greenbench = os.path.join(build, "greenbench")
    with open(os.path.join(source, "suites", "sorting.json")) as f:
        suite = json.load(f)
    for w in suite["workloads"]:
        for p in w["parameters"]:
            if p["name"] == "size":
                if size not in p["values"]:
                    fail(f"{size} is not a size of the suite")
                p["values"] = [size]
        w["expect"] = [e for e in w["expect"] if e["size"] == size]
    expect = {(w["name"], e["order"]): e["output_hash"] for w in suite["workloads"]
              for e in w["expect"]}
    numbers = ["--profile", "smoke", "--runs", "1", "--warmups", "1", "--target-ms", "1",
               "--energy", "off", "--seed", str(SEED), "--order-seed", "1", "--quiet"]
    with tempfile.TemporaryDirectory() as tmp:
        cut = os.path.join(tmp, "sorting.json")
        with open(cut, "w") as f:
            json.dump(suite, f, indent=1)
        run([greenbench, "run", "--suite", cut, *numbers, "--out", f"{tmp}/suite"],
            "suite campaign (greenbench run --suite)")
        run([greenbench, "run", "--sizes", str(size), *numbers, "--out", f"{tmp}/study"],
            "study campaign (greenbench run)")
        with open(f"{tmp}/suite/meta.json") as f:
            meta = json.load(f)
        with open(f"{tmp}/study/meta.json") as f:
            study_meta = json.load(f)
        suite_rows, study_rows = rows(f"{tmp}/suite"), rows(f"{tmp}/study")

    for r in suite_rows + study_rows:
        if r["status"] != "ok" or r["seed"] != str(SEED):
            fail(f"a row is not ok with seed {SEED}: {r}")
    print(f"every row ok, seed {SEED}: {len(suite_rows)} suite rows, "
          f"{len(study_rows)} study rows")

    def params(r):
        p = dict(kv.split("=", 1) for kv in r["params"].split(";"))
        if list(p) != ["order", "size"]:
            fail(f"params {r['params']}: expected order and size")
        return p["order"], p["size"]

    suite_work = {}
    suite_startup = {}
    for r in suite_rows:
        order, sz = params(r)
        key = (r["language"], r["workload"], order, sz)
        if r["kind"] == "work":
            suite_work.setdefault(key, []).append(r)
        else:
            suite_startup.setdefault(key, []).append(r)
    study_sort = {}
    study_startup = {}
    for r in study_rows:
        if r["kind"] == "sort":
            key = (r["language"], r["algorithm"], r["order"], r["size"])
            study_sort.setdefault(key, []).append(r)
        else:
            study_startup.setdefault((r["language"], r["order"], r["size"]), []).append(r)

    if sorted(suite_work) != sorted(study_sort) or len(suite_work) != 36:
        fail(f"configurations differ: suite {sorted(suite_work)}, study {sorted(study_sort)}")
    if sorted(suite_startup) != sorted(suite_work):
        fail("the suite's startup rows are not one group per configuration")
    print(f"the same {len(suite_work)} configurations")

    for key in sorted(suite_work):
        lang, alg, order, sz = key
        want = None
        for r in study_sort[key]:
            v = (f"comparisons={r['comparisons']};writes={r['writes']}", r["input_hash"])
            want = want or v
            if v != want:
                fail(f"{key}: the study's rows disagree: {v} and {want}")
        line = json.loads(subprocess.run(
            [os.path.join(build, "workers", "worker-c"), "--algorithm", alg, "--order", order,
             "--size", sz, "--sorts", "1", "--seed", str(SEED)],
            capture_output=True, text=True, check=True).stdout)
        c_line = (f"comparisons={line['comparisons']};writes={line['writes']}",
                  line["input_hash"])
        if c_line != want:
            fail(f"{key}: worker-c's study line {c_line}, the study's records {want}")
        for r in suite_work[key]:
            got = (r["counters"], r["input_hash"])
            if got != want:
                fail(f"{key}: the suite recorded {got}, the study {want}")
            if r["output_hash"] != expect[(alg, order)]:
                fail(f"{key}: output_hash {r['output_hash']}, expect {expect[(alg, order)]}")
        for r in suite_startup[key]:
            for s in study_startup[(lang, order, sz)]:
                if r["input_hash"] != s["input_hash"]:
                    fail(f"{key}: startup input_hash {r['input_hash']}, the study's "
                         f"{s['input_hash']}")
    print("counters (comparisons, writes), input_hash and output_hash agree in every "
          "configuration, with the study's records and with worker-c's study line")
    versions = {l["name"]: l["version"] for l in meta["languages"]}
    if versions != study_meta["runtimes"]:
        fail(f"the suite's versions {versions}, the study's runtimes {study_meta['runtimes']}")
    print(f"the suite's versions are the study's runtimes: {versions}")


if __name__ == "__main__":
    main()
