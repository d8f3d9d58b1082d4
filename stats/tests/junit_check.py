#!/usr/bin/python3
"""Reads a greenbench JUnit file the way a dashboard does, with junitparser
(Debian's python3-junitparser), and checks what it finds there.

Counted from the elements, not taken from the attributes: the number of
testcases, failures and skips; each testsuite's tests/failures/skipped/errors
attributes and the document's tests/failures/errors must agree with those
counts; every case is named <order>.<size> (with --suite-cases, a suite
campaign's parameter set, name=value;name=value), its classname is its suite's name,
and no (classname, name) pair appears twice. With --tests, --failures and
--skipped the counts must also be the ones expected.

usage: junit_check.py FILE [--tests N] [--failures N] [--skipped N] [--suite-cases]
exit 0 when every check holds; 1 with one line per problem otherwise; 2 on
bad arguments or a file that cannot be parsed.
"""
import argparse
import re
import sys

try:
    from junitparser import Failure, JUnitXml, Skipped
except ImportError:
    sys.exit("junit_check: error: junitparser is missing "
             "(Debian package python3-junitparser; bash ci/setup installs it)")

CASE_NAME = re.compile(r"(random|sorted|reversed|nearly)\.[1-9][0-9]*\Z")
SUITE_CASE_NAME = re.compile(r"[a-z][a-z0-9_-]*=(0|[1-9][0-9]*)(;[a-z][a-z0-9_-]*=(0|[1-9][0-9]*))*\Z")


def count(case, kind):
    return sum(isinstance(r, kind) for r in case.result)


def check(path, want, case_name=CASE_NAME):
    try:
        xml = JUnitXml.fromfile(path)
    except Exception as e:  # junitparser raises lxml's or ElementTree's errors
        print(f"junit_check: error: {path}: cannot parse: {e}", file=sys.stderr)
        sys.exit(2)
    problems = []
    totals = {"tests": 0, "failures": 0, "skipped": 0}
    seen = set()
    suites = list(xml) if isinstance(xml, JUnitXml) else [xml]
    for suite in suites:
        cases = list(suite)
        got = {
            "tests": len(cases),
            "failures": sum(count(c, Failure) for c in cases),
            "skipped": sum(count(c, Skipped) for c in cases),
            "errors": 0,
        }
        for key, value in got.items():
            attr = suite._elem.get(key)
            if attr is None or int(attr) != value:
                problems.append(f"suite {suite.name}: {key}={attr} but {value} counted")
        for c in cases:
            if not case_name.match(c.name or ""):
                shape = "a parameter set" if case_name is SUITE_CASE_NAME else "<order>.<size>"
                problems.append(f"suite {suite.name}: case name {c.name!r} is not {shape}")
            if c.classname != suite.name:
                problems.append(f"case {c.name}: classname {c.classname!r} is not its suite's")
            if count(c, Failure) + count(c, Skipped) > 1:
                problems.append(f"case {c.classname}.{c.name}: more than one verdict")
            key = (c.classname, c.name)
            if key in seen:
                problems.append(f"case {c.classname}.{c.name} appears twice")
            seen.add(key)
        for key in totals:
            totals[key] += got[key]
    root = xml._elem
    for key in ("tests", "failures"):
        attr = root.get(key)
        if attr is None or int(attr) != totals[key]:
            problems.append(f"testsuites: {key}={attr} but {totals[key]} counted")
    for key, value in want.items():
        if value is not None and totals[key] != value:
            problems.append(f"{key}: {totals[key]} counted, {value} expected")
    return totals, problems


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("file")
    for key in ("tests", "failures", "skipped"):
        p.add_argument(f"--{key}", type=int)
    p.add_argument("--suite-cases", action="store_true")
    args = p.parse_args()
    want = {k: getattr(args, k) for k in ("tests", "failures", "skipped")}
    totals, problems = check(args.file, want, SUITE_CASE_NAME if args.suite_cases else CASE_NAME)
    for line in problems:
        print(f"junit_check: {args.file}: {line}")
    if problems:
        sys.exit(1)
    print(f"junit_check: {args.file}: {totals['tests']} tests, {totals['failures']} failures, "
          f"{totals['skipped']} skipped")


if __name__ == "__main__":
    main()
