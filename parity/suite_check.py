#!/usr/bin/python3
"""The three workers' --contract generic lines through `greenbench suite
check` (docs/suites.md, "Checking a suite"): a scratch suite file, written
here with the build's paths, runs every algorithm at three sizes in C,
Python and Node.js; every process must pass the harness's checks of the
contract line, agree with the other languages, and print the expected
output_hash (the hash of 0..n-1, written out). The same suite without
--contract (the study's line) must be refused.

    suite_check.py GREENBENCH WORKER_C PYTHON WORKER_PY NODE WORKER_JS
"""
import json
import os
import subprocess
import sys
import tempfile

# XXH64 of 0..n-1 as little-endian int32 (gb_input_hash), written out.
OUTPUT_HASHES = {1: "3aefa6fd5cf2deb4", 250: "32657137a2c7b01b", 1000: "2de9ee8a6b21ec1f"}
ALGORITHMS = ("bubble", "insertion", "quick")


def language(name, program, contract):
    args = list(contract) + ["--algorithm", "{workload}", "--order", "random",
                             "--size", "{size}", "--seed", "{seed}"]
    return {
        "name": name,
        "command": program + args + ["--sorts", "{reps}"],
        "startup": program + args + ["--sorts", "1", "--startup-only"],
        "version": program + ["--version"],
    }


def suite(programs, contract):
    expect = [{"size": n, "output_hash": h} for n, h in OUTPUT_HASHES.items()]
    return {
        "format": "greenbench-suite-1",
        "name": "sorting-generic",
        "languages": [language(n, p, contract) for n, p in programs],
        "workloads": [
            {"name": a, "parameters": [{"name": "size", "values": sorted(OUTPUT_HASHES)}],
             "expect": expect}
            for a in ALGORITHMS
        ],
    }


def check(greenbench, folder, name, doc):
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
    return subprocess.run([greenbench, "suite", "check", path], cwd=folder,
                          capture_output=True, text=True, timeout=300)


def fail(msg, r):
    print(f"suite_check: {msg}\nstdout:\n{r.stdout}\nstderr:\n{r.stderr}", file=sys.stderr)
    sys.exit(1)


def main(argv):
    if len(argv) != 7:
        print(__doc__, file=sys.stderr)
        return 2
    greenbench, worker_c, python, worker_py, node, worker_js = argv[1:]
    programs = [("c", [worker_c]), ("python", [python, worker_py]), ("node", [node, worker_js])]
    with tempfile.TemporaryDirectory() as folder:
        r = check(greenbench, folder, "generic.json", suite(programs, ["--contract", "generic"]))
        rows = [line.split() for line in r.stdout.splitlines()[1:]]
        runs = [row for row in rows if row[3] in ("run", "startup")]
        if r.returncode != 0 or r.stderr or any(row[4] != "ok" for row in rows):
            fail(f"suite check of the generic lines exited {r.returncode}", r)
        want = len(programs) * len(ALGORITHMS) * len(OUTPUT_HASHES) * 2
        if len(runs) != want:
            fail(f"{len(runs)} run and startup rows, expected {want}", r)
        for row in runs:
            size = int(row[2].removeprefix("size="))
            if row[3] == "run" and row[8:10] != ["output", OUTPUT_HASHES[size]]:
                fail(f"no output {OUTPUT_HASHES[size]} for size {size}: {' '.join(row)}", r)
        print(r.stdout, end="")
        r = check(greenbench, folder, "study.json", suite(programs[:1], []))
        if r.returncode != 1 or "run: worker output:" not in r.stderr:
            fail(f"suite check of the study's line exited {r.returncode}, expected 1", r)
        print(r.stderr, end="")
    print("suite_check: the generic lines pass greenbench suite check; the study's do not")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
