#!/usr/bin/python3
"""Validates the suite path's files against the JSON Schemas greenbench ships
for them (stats/schema/suite*.schema.json, installed under
share/greenbench/schema) with Debian's python3-jsonschema (draft 2020-12); the
schema is the one the file's "format" names. The study's files:
schema_check.py.

usage:
  suite_schema_check.py SCHEMA_DIR files FILE...
      each FILE valid; FILE=invalid:PATH must be refused instead
  suite_schema_check.py SCHEMA_DIR suites GREENBENCH SUITE...
      each suite file read by greenbench's reader (run --suite --dry-run) and
      the schema: both accept SUITE; both refuse invalid:SUITE; the reader
      alone refuses reader-only:SUITE (a rule the schema cannot say)
  suite_schema_check.py SCHEMA_DIR campaign GREENBENCH SUITE [XSD]
      a tiny time-only campaign of SUITE, its report and a compare of it with
      itself, each JSON output validated (and junit.xml against XSD by xmllint)
  suite_schema_check.py SCHEMA_DIR plant GREENBENCH SUITE META SUMMARY COMPARE
      faults planted in each: every suite fault the reader and the schema
      refuse, every reader-only one the reader alone; one fault per output
      schema refused
exit 0 when every file is as expected; 1 with a FAIL line per file that is
not; 2 on bad arguments or a command that failed.
"""
import copy
import json
import os
import subprocess
import sys
import tempfile

import jsonschema

import schema_check

SCHEMAS = {"greenbench-suite-1": "suite", "greenbench-suite-records-1": "suite-meta",
           "greenbench-suite-summary-1": "suite-summary",
           "greenbench-suite-compare-1": "suite-compare"}


def fail_usage(msg):
    print(f"suite_schema_check: error: {msg}", file=sys.stderr)
    sys.exit(2)


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def schema_of(schema_dir, doc, path):
    name = SCHEMAS.get(doc.get("format") if isinstance(doc, dict) else None)
    if not name:
        fail_usage(f"{path}: no suite schema for its format (want one of {', '.join(SCHEMAS)})")
    schema = load(os.path.join(schema_dir, f"{name}.schema.json"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return name, jsonschema.Draft202012Validator(schema)


def errors(schema_dir, doc, path, name=None):
    """The schema's complaints about doc (the schema its format names, or name's)."""
    if name:
        v = jsonschema.Draft202012Validator(load(os.path.join(schema_dir, f"{name}.schema.json")))
    else:
        v = schema_of(schema_dir, doc, path)[1]
    return [f"{'/'.join(str(p) for p in e.absolute_path) or '(top)'}: {e.message[:160]}"
            for e in sorted(v.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))]


def check_files(schema_dir, args):
    return schema_check.check_files(schema_dir, args,
                                    lambda schema_dir, path: errors(schema_dir, load(path), path))


def run(cmd, ok=(0,)):
    p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if p.returncode not in ok:
        fail_usage(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()[-500:]}")
    return p


def reader(exe, path, work):
    """None when greenbench's reader accepts the suite file, else its message."""
    out = tempfile.mkdtemp(dir=work)
    os.rmdir(out)
    p = run([exe, "run", "--suite", path, "--dry-run", "--energy", "off", "--profile", "smoke",
             "--quiet", "--out", out], ok=(0, 2))
    return None if p.returncode == 0 else (p.stderr.strip().splitlines() or ["?"])[-1]


def judge(schema_dir, exe, path, want, work, what=None):
    """1 when the reader's and the schema's verdicts on path are not want's:
    'valid' (both accept), 'invalid' (both refuse), 'reader-only'."""
    refused = reader(exe, path, work)
    errs = errors(schema_dir, load(path), path, "suite")
    schema_ok = not errs
    expect = {"valid": (None, True), "invalid": (True, False), "reader-only": (True, True)}[want]
    got_reader = None if refused is None else True
    what = what or path
    if (got_reader, schema_ok) == expect:
        print(f"ok {what}: reader {'refuses: ' + refused if refused else 'accepts'}; schema "
              + ("accepts" if schema_ok else f"refuses: {errs[0]}"))
        return 0
    print(f"FAIL {what} ({want}): reader {'refuses: ' + refused if refused else 'accepts'}; "
          f"schema {'accepts' if schema_ok else 'refuses: ' + errs[0]}")
    return 1


def check_suites(schema_dir, exe, args, work):
    bad = 0
    for arg in args:
        want, _, path = arg.rpartition(":") if ":" in arg else ("valid", "", arg)
        if want not in ("invalid", "reader-only"):
            want, path = "valid", arg
        bad += judge(schema_dir, exe, path, want, work)
    return bad


def check_campaign(schema_dir, exe, suite, xsd, work):
    rec, cmp_out = os.path.join(work, "rec"), os.path.join(work, "compare")
    run([exe, "run", "--suite", suite, "--profile", "smoke", "--runs", "3", "--warmups", "1",
         "--energy", "off", "--quiet", "--out", rec])
    run([exe, "report", "--resamples", "200", rec])
    run([exe, "compare", "--resamples", "200", rec, rec, "--out", cmp_out])
    bad = check_files(schema_dir, [os.path.join(rec, "suite.json"), os.path.join(rec, "meta.json"),
                                   os.path.join(rec, "summary.json"),
                                   os.path.join(cmp_out, "compare.json")])
    if xsd:
        p = run(["xmllint", "--noout", "--schema", xsd, os.path.join(rec, "junit.xml")], ok=(0, 3))
        bad += p.returncode != 0
        lines = p.stderr.strip().splitlines()
        print(("ok " if p.returncode == 0 else "FAIL ") + "; ".join(lines[:3] + lines[-1:]))
    return bad


def lang(doc, key):
    return doc["languages"][0][key]


# Faults in a suite file that the reader and the schema must both refuse.
SUITE_FAULTS = [
    ("a name with a capital letter", lambda d: d.update(name="Named")),
    ("a format of another version", lambda d: d.update(format="greenbench-suite-2")),
    ("an unknown key in a language", lambda d: d["languages"][0].update(comand=["x"])),
    ("a title with a tab", lambda d: d["languages"][0].update(title="C\tC")),
    ("a version command with a parameter's placeholder",
     lambda d: lang(d, "version").append("{n}")),
    ("a build step with {reps}", lambda d: d["languages"][0].update(build=["make", "{reps}"])),
    ("a command without {reps}",
     lambda d: lang(d, "command").__setitem__(-1, "{{reps}}")),
    ("a lone { in an argument", lambda d: lang(d, "startup").append("{n")),
    ("an empty program", lambda d: lang(d, "command").__setitem__(0, "")),
    ("a program that is a number", lambda d: lang(d, "startup").__setitem__(0, 7)),
    ("a parameter named after the placeholder {seed}",
     lambda d: d["workloads"][0]["parameters"][1].update(name="seed")),
    ("values of both kinds",
     lambda d: d["workloads"][0]["parameters"][0].update(values=["up", 2])),
    ("a value twice", lambda d: d["workloads"][0]["parameters"][1].update(values=[2, 2])),
    ("a value above 2^53-1",
     lambda d: d["workloads"][0]["parameters"][1].update(values=[2 ** 53])),
    ("an expect entry with neither hash nor counters",
     lambda d: d["workloads"][0]["expect"][0].pop("output_hash")
     and d["workloads"][0]["expect"][0].pop("counters")),
    ("an output hash in capitals",
     lambda d: d["workloads"][0]["expect"][0].update(output_hash="000000000000009A")),
    ("a negative counter",
     lambda d: d["workloads"][0]["expect"][0]["counters"].update(advances=-1)),
    ("no languages", lambda d: d.update(languages=[])),
]

# Faults only the reader can see (docs/suites.md, "What the schema cannot say").
READER_ONLY = [
    ("a placeholder that is no parameter", lambda d: lang(d, "startup").append("{size}")),
    ("two languages of one name",
     lambda d: d["languages"][1].update(name=d["languages"][0]["name"])),
    ("two parameters of one name",
     lambda d: d["workloads"][0]["parameters"][1].update(name="order")),
    ("an expect value that is not a value of its parameter",
     lambda d: d["workloads"][0]["expect"][0].update(n=3)),
    ("an expect entry without one of the parameters",
     lambda d: d["workloads"][0]["expect"][0].pop("n")),
    ("a parameter the startup does not use",
     lambda d: lang(d, "startup").remove("{n}")),
    ("the same expect entry twice",
     lambda d: d["workloads"][0]["expect"].append(
         dict(d["workloads"][0]["expect"][0], output_hash="0000000000000001"))),
]

# One fault per output schema.
OUTPUT_FAULTS = {
    "suite-meta": ("settings.runs as a string",
                   lambda d: d["settings"].update(runs=str(d["settings"]["runs"]))),
    "suite-summary": ("configurations/0 without time_per_rep_ns",
                      lambda d: d["configurations"][0].pop("time_per_rep_ns")),
    "suite-compare": ("a campaign's suite hash of 31 digits",
                      lambda d: d["campaigns"][0].update(
                          suite_hash=d["campaigns"][0]["suite_hash"][1:])),
}


def check_planted(schema_dir, exe, suite, outputs, work):
    base = load(suite)
    bad = judge(schema_dir, exe, suite, "valid", work)
    as_expected = {}
    for want, faults in (("invalid", SUITE_FAULTS), ("reader-only", READER_ONLY)):
        as_expected[want] = 0
        for what, plant in faults:
            doc = copy.deepcopy(base)
            plant(doc)
            path = os.path.join(work, "planted.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(doc, f)
            miss = judge(schema_dir, exe, path, want, work, f"{want} fault, {what}")
            bad += miss
            as_expected[want] += not miss
    print(f"suite faults: {as_expected['invalid']} refused by the reader and suite.schema.json, "
          f"{as_expected['reader-only']} by the reader alone")
    for path in outputs:
        doc = load(path)
        name = schema_of(schema_dir, doc, path)[0]
        if errors(schema_dir, doc, path):
            fail_usage(f"{path} is not valid to begin with")
        what, plant = OUTPUT_FAULTS[name]
        doc = copy.deepcopy(doc)
        plant(doc)
        errs = errors(schema_dir, doc, path)
        bad += not errs
        print(f"caught: {name}.schema.json refuses {what}: {errs[0]}" if errs
              else f"FAIL {name}.schema.json accepts {what}")
    return bad


def main(argv):
    if len(argv) < 4:
        fail_usage("usage: suite_schema_check.py SCHEMA_DIR files|suites|campaign|plant ARGS...")
    schema_dir, mode, rest = argv[1], argv[2], argv[3:]
    with tempfile.TemporaryDirectory(prefix="greenbench-suite-schema.") as work:
        if mode == "files":
            bad = check_files(schema_dir, rest)
        elif mode == "suites" and len(rest) >= 2:
            bad = check_suites(schema_dir, rest[0], rest[1:], work)
        elif mode == "campaign" and len(rest) in (2, 3):
            bad = check_campaign(schema_dir, rest[0], rest[1], rest[2] if len(rest) == 3 else None,
                                 work)
        elif mode == "plant" and len(rest) == 5:
            bad = check_planted(schema_dir, rest[0], rest[1], rest[2:], work)
        else:
            fail_usage(f"bad arguments for mode '{mode}' (see the docstring)")
    print(f"{'FAIL' if bad else 'PASS'}: {bad} file(s) not as expected")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
