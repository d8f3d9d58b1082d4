#!/usr/bin/python3
"""Runs every ctest command that README.md and docs/*.md show, literally, the
way a user runs it: from the root of a clone (a scratch folder with the
source tree's CMakePresets.json and build/ naming the build tree), and checks
that the campaign measured exactly the cases the command selects (ADR 0016).

    doc_commands.py BUILD SOURCE

A command is a line of a code block, or an inline code span, that starts with
`ctest` or `sudo ctest` and names --test-dir or --preset (sudo is left out;
a comment after '#' too). For each:
- its `--show-only=json-v1` listing must hold at least one test;
- with -N, or when it selects no case test of a profile, that is all (the
  parity, unit and docs tests run in the full suite); a command that selects
  case tests and others beside its profile's (`ctest --preset default`) is
  only listed, since it runs the full suite;
- a smoke selection of at most 24 cases is run: runs.csv must hold exactly
  the selected configurations, and the project JUnit file every selected
  case, passed (a larger one is only listed, to keep the test short);
- a study selection is run without energy: it must fail at once, and the
  project JUnit file must list exactly the selected cases, failed.
Skipped, saying why: commands on the benchmarks' own build tree
(build-bench) and those selecting the sorting suite's cases (suite=sorting),
which the build registers only with -DGB_SORTING_SUITE_CASES=ON.
Then every file name the docs give in build/results (the README's paragraph
"The fixture's files are in `build/results/`", and every `build/results/...`)
must be one those runs made, placeholders such as <profile>, <UTC> and <pid>
standing for any profile, UTC time and process id.
The README must show the selection `ctest --test-dir build -L smoke -L
language=c -L algorithm=quick -L order=sorted` and its --preset form.
Exit 0 when every command passed, 1 otherwise.
"""
import csv
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

REQUIRED = [
    "ctest --test-dir build -L smoke -L language=c -L algorithm=quick -L order=sorted",
    "ctest --preset default -L smoke -L language=c -L algorithm=quick -L order=sorted",
]
# A smoke selection of more cases is listed, not measured (72 cases take a
# minute or more on a busy 2-CPU machine).
MEASURED_MAX = 24
CASE = re.compile(r"^(smoke|study)/(c|python|node)/[a-z]+/[a-z]+/[0-9]+$")
# Tests that a profile's label selects beside its cases and fixture.
COMPANIONS = re.compile(r"^(smoke|study)/campaign$|^smoke_junit_")


def commands(source):
    files = [os.path.join(source, "README.md")] + sorted(glob.glob(os.path.join(source, "docs", "*.md")))
    found = {}
    for path in files:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        spans = re.findall(r"`((?:sudo )?ctest [^`]*)`", text)
        lines = [l.strip() for l in text.split("\n") if re.match(r"^(    |\s*)(sudo )?ctest ", l)]
        for c in spans + lines:
            c = re.sub(r"\s+", " ", re.sub(r"\s+#.*$", "", c)).strip()
            c = re.sub(r"^sudo ", "", c)
            if "--test-dir" in c or "--preset" in c:
                found.setdefault(c, os.path.relpath(path, source))
    return found


STAMP = r"[0-9]{8}T[0-9]{6}Z"


def documented_paths(source):
    """(file, name) of each name the docs give in build/results."""
    out = []
    for path in [os.path.join(source, "README.md")] + sorted(glob.glob(os.path.join(source, "docs", "*.md"))):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        where = os.path.relpath(path, source)
        names = re.findall(r"build/results/([^\s`)]*)", text)
        m = re.search(r"The fixture's files are in `build/results/`:(.*?)\n\n", text, re.S)
        if m:
            names += re.findall(r"`([^`]+)`", m.group(1))
        for name in names:
            looks = name.endswith("/") or re.search(r"\.(txt|xml|log|state|md|csv|json)$", name)
            if name and looks and "/" not in name.rstrip("/") and not name.startswith("<machine>"):
                out.append((where, name))
    return out


def name_pattern(name):
    p = re.escape(name)
    for placeholder in (r"<UTC\ time>", r"<UTC>", "UTCTIME"):
        p = p.replace(placeholder, STAMP)
    p = re.sub(r"[0-9]{8}T[0-9]{6}Z", STAMP, p)
    p = re.sub(r"(?<=Z)\\-[0-9]+", r"-[0-9]+", p).replace(r"<pid>", "[0-9]+")
    p = re.sub(r"<profile>|smoke|study", "(smoke|study)", p)
    return re.compile(p + "$")


def produced_names(results):
    names = set()
    for res in results:
        for entry in os.listdir(res):
            full = os.path.join(res, entry)
            names.add(entry + "/" if os.path.isdir(full) else entry)
            if os.path.isdir(full):
                names.update(os.listdir(full))
    return names


def run(cmd, cwd, env, timeout=900):
    return subprocess.run(["bash", "-c", cmd], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)


def junit_cases(path):
    root = ET.parse(path).getroot()
    got = {}
    for tc in root.iter("testcase"):
        _, profile, lang, alg = tc.get("classname").rsplit(".", 3)
        order, size = tc.get("name").split(".")
        failed = tc.find("failure") is not None or tc.find("error") is not None
        got[f"{profile}/{lang}/{alg}/{order}/{int(size)}"] = failed
    return got


def check(cmd, clone, base_env, tmp, results):
    env = dict(base_env)
    listing = run(cmd + " --show-only=json-v1", clone, env)
    if listing.returncode != 0:
        return f"its listing failed: {listing.stderr.strip()[-300:]}"
    names = [t["name"] for t in json.loads(listing.stdout)["tests"]]
    if not names:
        return "it selects no test"
    cases = {n for n in names if CASE.match(n)}
    others = [n for n in names if not CASE.match(n) and not COMPANIONS.search(n)]
    if re.search(r"(^| )(-N|--show-only)( |=|$)", cmd) or not cases:
        return f"ok: lists {len(names)} tests"
    if others:
        return f"ok: lists {len(names)} tests, {len(cases)} of them cases (not run here: it runs the full suite)"
    if len(cases) > MEASURED_MAX and not all(c.startswith("study/") for c in cases):
        return (f"ok: lists {len(cases)} cases (not measured here, to keep the test short: the "
                f"fixture reads it as it reads the smaller ones)")
    profiles = {c.split("/")[0] for c in cases}
    if len(profiles) != 1:
        return f"it selects cases of {sorted(profiles)}"
    profile = profiles.pop()
    res = tempfile.mkdtemp(dir=tmp)
    results.append(res)
    env["GREENBENCH_SUITE_RESULTS"] = res
    if profile == "study":
        env["GREENBENCH_POWERCAP_ROOT"] = os.path.join(tmp, "no-powercap")
    p = run(cmd, clone, env)
    junit = os.path.join(res, f"{profile}-junit.xml")
    if not os.path.exists(junit):
        return f"no project JUnit file; ctest said: {p.stdout[-500:]}"
    listed = junit_cases(junit)
    if set(listed) != cases:
        return (f"the JUnit file lists {len(listed)} cases, the command selects {len(cases)}: "
                f"{sorted(set(listed) ^ cases)[:6]}")
    if profile == "study":
        if p.returncode == 0 or not all(listed.values()):
            return "the study passed without energy"
        return f"ok: {len(cases)} study cases, failed at once without energy, each listed"
    if any(listed.values()):
        return f"cases failed: {[c for c, f in listed.items() if f][:6]}; ctest said: {p.stdout[-800:]}"
    with open(os.path.join(res, f"{profile}-campaign.state"), encoding="utf-8") as f:
        records = re.search(r"^records: (.*)$", f.read(), re.M).group(1)
    with open(os.path.join(records, "runs.csv"), encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    measured = {f"{profile}/{r['language']}/{r['algorithm']}/{r['order']}/{int(r['size'])}"
                for r in rows if r["kind"] == "sort"}
    if measured != cases:
        return f"runs.csv measured other cases: {sorted(measured ^ cases)[:6]}"
    return f"ok: runs.csv holds exactly its {len(cases)} cases"


def main(argv):
    if len(argv) != 3:
        print(__doc__.split("\n\n")[1].strip(), file=sys.stderr)
        return 2
    build, source = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    found = commands(source)
    with open(os.path.join(source, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    failed = 0
    for want in REQUIRED:
        if want not in readme:
            print(f"FAIL README.md does not show `{want}`")
            failed += 1
    tmp = tempfile.mkdtemp(prefix="gb-doc-commands-")
    try:
        clone = os.path.join(tmp, "clone")
        os.mkdir(clone)
        shutil.copy(os.path.join(source, "CMakePresets.json"), clone)
        os.symlink(build, os.path.join(clone, "build"))
        env = {k: v for k, v in os.environ.items() if not k.startswith("GREENBENCH_")}
        env["PWD"] = clone
        results = []
        for cmd, where in found.items():
            if "build-bench" in cmd:
                print(f"skip {where}: {cmd}: the benchmarks' own build tree (docs/performance.md)")
                continue
            if "suite=sorting" in cmd:
                print(f"skip {where}: {cmd}: the sorting suite's cases are registered only "
                      "with -DGB_SORTING_SUITE_CASES=ON (ADR 0024)")
                continue
            verdict = check(cmd, clone, env, tmp, results)
            ok = verdict.startswith("ok")
            failed += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {where}: {cmd}: {verdict}")
        made = produced_names(results)
        for where, name in documented_paths(source):
            ok = any(name_pattern(name).match(n) for n in made)
            failed += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {where}: build/results/{name}: "
                  f"{'made by the runs above' if ok else 'no run made it'}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"doc_commands.py: {len(found)} documented ctest commands, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
