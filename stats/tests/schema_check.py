#!/usr/bin/python3
"""Validates greenbench's JSON outputs against the JSON Schemas it ships
(stats/schema/*.schema.json, installed under share/greenbench/schema) with
Debian's python3-jsonschema (draft 2020-12).

usage:
  schema_check.py SCHEMA_DIR files FILE...
      each FILE against the schema its name picks (summary.json, compare.json,
      meta.json, check.json); FILE=invalid:PATH must be refused instead
  schema_check.py SCHEMA_DIR outputs GREENBENCH RECORDS_DIR...
      greenbench report of a copy of each RECORDS_DIR (--allow-partial), and
      compare of the first two, each output validated
  schema_check.py SCHEMA_DIR smoke GREENBENCH
      a one-configuration time-only campaign, its report, a compare of it
      with itself and `greenbench check --json`, each output validated
  schema_check.py SCHEMA_DIR plant FILE...
      each FILE with a fault planted that its schema must catch: exit 0 only
      when every schema refuses its faulty file
exit 0 when every file is as expected; 1 with a FAIL line per file that is
not; 2 on bad arguments or a command that failed.
"""
import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile

import jsonschema

NAMES = {"summary.json": "summary", "compare.json": "compare", "meta.json": "meta",
         "check.json": "check"}


def fail_usage(msg):
    print(f"schema_check: error: {msg}", file=sys.stderr)
    sys.exit(2)


def validator(schema_dir, path):
    name = NAMES.get(os.path.basename(path))
    if not name:
        fail_usage(f"{path}: no schema for this name (want one of {', '.join(NAMES)})")
    with open(os.path.join(schema_dir, f"{name}.schema.json"), encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema), name


def errors(schema_dir, path, doc=None):
    v, _ = validator(schema_dir, path)
    if doc is None:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    return [f"{'/'.join(str(p) for p in e.absolute_path) or '(top)'}: {e.message[:200]}"
            for e in sorted(v.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))]


def check_files(schema_dir, files, errors_of=None):
    """Each file valid, or refused when named invalid:PATH; errors_of(schema_dir,
    path) lists a file's faults (by default, by the schema its name picks)."""
    bad = 0
    for arg in files:
        want_valid = not arg.startswith("invalid:")
        path = arg if want_valid else arg[len("invalid:"):]
        errs = (errors_of or errors)(schema_dir, path)
        if want_valid and errs:
            bad += 1
            print(f"FAIL {path}: " + "; ".join(errs[:5]))
        elif not want_valid and not errs:
            bad += 1
            print(f"FAIL {path}: its schema accepts it, but it must be refused")
        else:
            print(f"ok {path}" + (f" (refused: {errs[0]})" if errs else ""))
    return bad


def run(cmd, ok=(0,), **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode not in ok:
        fail_usage(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()[-500:]}")
    return p


def check_outputs(schema_dir, exe, dirs, work):
    files = []
    for i, d in enumerate(dirs):
        copy_dir = os.path.join(work, f"r{i}-{os.path.basename(d.rstrip('/'))}")
        os.mkdir(copy_dir)
        for name in ("meta.json", "runs.csv", "warmups.csv"):
            if os.path.exists(os.path.join(d, name)):
                shutil.copy(os.path.join(d, name), copy_dir)
        run([exe, "report", "--allow-partial", copy_dir])
        files += [os.path.join(copy_dir, "meta.json"), os.path.join(copy_dir, "summary.json")]
    if len(dirs) >= 2:
        out = os.path.join(work, "compare")
        run([exe, "compare", "--allow-partial", "--resamples", "200", dirs[0], dirs[1], "--out", out])
        files.append(os.path.join(out, "compare.json"))
    return check_files(schema_dir, files)


def check_smoke(schema_dir, exe, work):
    rec = os.path.join(work, "smoke")
    run([exe, "run", "--profile", "smoke", "--languages", "c,python", "--algorithms", "quick",
         "--orders", "random", "--sizes", "100", "--runs", "3", "--warmups", "1",
         "--energy", "off", "--quiet", "--machine-label", "schema-smoke", "--out", rec])
    run([exe, "report", "--resamples", "200", rec])
    out = os.path.join(work, "compare")
    run([exe, "compare", "--resamples", "200", rec, rec, "--out", out])
    check = run([exe, "check", "--json"], ok=(0, 1))
    check_json = os.path.join(work, "check.json")
    with open(check_json, "w", encoding="utf-8") as f:
        f.write(check.stdout)
    return check_files(schema_dir, [os.path.join(rec, "meta.json"), os.path.join(rec, "summary.json"),
                                    os.path.join(out, "compare.json"), check_json])


def plant(name, doc):
    """A fault each schema must catch: what it is, and the faulty document."""
    doc = copy.deepcopy(doc)
    if name == "summary":
        del doc["configurations"][0]["time_per_sort_ns"]
        return "configurations/0 without time_per_sort_ns", doc
    if name == "compare":
        doc["machines"][0]["question_1"]["verdict"] = "probably"
        return "a verdict that is not one of the six", doc
    if name == "meta":
        doc["settings"]["runs"] = str(doc["settings"]["runs"])
        return "settings.runs as a string", doc
    doc["exit_status"] = 1 - doc["exit_status"]
    return "an exit status that contradicts the answers", doc


def check_planted(schema_dir, files):
    bad = 0
    for path in files:
        _, name = validator(schema_dir, path)
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        if errors(schema_dir, path, doc):
            fail_usage(f"{path} is not valid to begin with")
        what, faulty = plant(name, doc)
        errs = errors(schema_dir, path, faulty)
        if errs:
            print(f"caught: {name}.schema.json refuses {what}: {errs[0]}")
        else:
            bad += 1
            print(f"FAIL {name}.schema.json accepts {what}")
    return bad


def main(argv):
    if len(argv) < 3:
        fail_usage("usage: schema_check.py SCHEMA_DIR files|outputs|smoke|plant ARGS...")
    schema_dir, mode, rest = argv[1], argv[2], argv[3:]
    with tempfile.TemporaryDirectory(prefix="greenbench-schema.") as work:
        if mode == "files" and rest:
            bad = check_files(schema_dir, rest)
        elif mode == "outputs" and len(rest) >= 2:
            bad = check_outputs(schema_dir, rest[0], rest[1:], work)
        elif mode == "smoke" and len(rest) == 1:
            bad = check_smoke(schema_dir, rest[0], work)
        elif mode == "plant" and rest:
            bad = check_planted(schema_dir, rest)
        else:
            fail_usage(f"bad arguments for mode '{mode}' (see the docstring)")
    print(f"{'FAIL' if bad else 'PASS'}: {bad} file(s) not as expected")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
