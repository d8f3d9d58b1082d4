#!/usr/bin/python3
"""Keeps the man pages in step with --help, and checks that they render.

usage: man_help.py options BUILD_DIR MAN_DIR   every option of each command's
                                               --help is in its man page
                                               section and back, by name,
                                               and its GREENBENCH_ variables
                                               in ENVIRONMENT
       man_help.py render MAN_DIR             groff and man render each page
                                               without a warning
       man_help.py self-test BUILD_DIR MAN_DIR  `options` fails, naming the
                                               option, on a page missing one

Exit 0 when all holds, 1 with one line per problem."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import help_options as ho  # noqa: E402

PAGES = ("greenbench.1", "greenbench-suite.1")
# CTest's own options that greenbench-suite(1) names where it explains the
# selection; any other stray option in that page is still a problem.
CTEST_OPTIONS = {"--test-dir", "--preset", "--label-regex", "--label-exclude",
                 "--tests-regex", "--exclude-regex", "--show-only"}


def compare(build, man_dir):
    """One line per option in one of --help and the man page but not the
    other, per command; then the other checks of the pages' contents."""
    problems = []
    for command, (argv, (page, section)) in ho.COMMANDS.items():
        sections = ho.man_sections(os.path.join(man_dir, page))
        if section not in sections:
            problems.append(f"{page}: no section '{section}' for `{command}`")
            continue
        in_help = ho.help_options(build, command)
        in_man = ho.man_options(sections[section])
        for o in sorted(in_help - in_man):
            problems.append(f"{o}: in `{' '.join(argv)}` but not in {page} ({section})")
        for o in sorted(in_man - in_help):
            problems.append(f"{o}: in {page} ({section}) but not in `{' '.join(argv)}`")
    problems += stray_mentions(build, man_dir)
    problems += environment(build, man_dir)
    problems += commands_and_version(build, man_dir)
    return problems


def environment(build, man_dir):
    """Every GREENBENCH_ variable a command's --help names is in its page's
    ENVIRONMENT section."""
    problems = []
    for command, (argv, (page, _)) in ho.COMMANDS.items():
        section = "\n".join(ho.man_sections(os.path.join(man_dir, page)).get("ENVIRONMENT", []))
        for v in sorted(set(re.findall(r"GREENBENCH_[A-Z_]+", ho.run_help(build, argv)))):
            if f".B {v}" not in section:
                problems.append(f"{v}: named by `{' '.join(argv)}` but not in {page} (ENVIRONMENT)")
    return problems


def stray_mentions(build, man_dir):
    """An option a page mentions anywhere that no --help of its commands
    lists (Criterion's count for the suite: its --help prints them)."""
    known = {"greenbench.1": set(), "greenbench-suite.1": set()}
    for command, (argv, (page, _)) in ho.COMMANDS.items():
        known[page] |= set(ho.OPTION.findall(ho.run_help(build, argv, both=True)))
    # The suite's page also tells how ctest selects its cases and how
    # greenbench run resumes a campaign it began.
    known["greenbench-suite.1"] |= known["greenbench.1"] | CTEST_OPTIONS
    return [
        f"{o}: mentioned in {page} but no --help of its commands lists it"
        for page in PAGES
        for o in sorted(ho.man_mentions(os.path.join(man_dir, page)) - known[page])
    ]


def commands_and_version(build, man_dir):
    """greenbench --help's commands are greenbench.1's subsections (by their
    second word: "greenbench suite check" is suite), and each
    page's .TH carries the version --version prints."""
    problems = []
    text = ho.run_help(build, ["greenbench", "--help"])
    block = text.split("commands:\n", 1)[-1]
    commands = set(re.findall(r"^  ([a-z]+)  ", block, re.M))
    pages = {t.split()[1] for t in ho.man_sections(os.path.join(man_dir, "greenbench.1"))
             if t.startswith("greenbench ")}
    for c in sorted(commands ^ pages):
        where = "greenbench --help" if c in commands else "greenbench.1"
        problems.append(f"command {c}: only in {where}")
    version = ho.run_help(build, ["greenbench", "--version"]).split()[1]
    for page in PAGES:
        with open(os.path.join(man_dir, page), encoding="utf-8") as f:
            th = next((l for l in f if l.startswith(".TH ")), "")
        if f'"greenbench {version}"' not in th:
            problems.append(f"{page}: .TH does not say \"greenbench {version}\": {th.strip()}")
    return problems


def render(man_dir):
    """groff -man -Tutf8 -ww and man -l --warnings: no warning, status 0."""
    problems = []
    if not shutil.which("groff") or not shutil.which("man"):
        return ["groff or man is missing (Debian: groff-base, man-db; ci/setup installs them)"]
    env = dict(os.environ, LC_ALL="C.UTF-8", MANWIDTH="80", MAN_KEEP_FORMATTING="")
    for page in PAGES:
        path = os.path.join(man_dir, page)
        for argv in (["groff", "-man", "-Tutf8", "-ww", "-z", path],
                     ["man", "--warnings=w", "-l", path]):
            r = subprocess.run(argv, capture_output=True, text=True, env=env,
                               stdin=subprocess.DEVNULL)
            if r.returncode != 0 or r.stderr.strip():
                problems.append(f"{' '.join(argv)}: exit {r.returncode}: {r.stderr.strip()}")
            elif argv[0] == "man" and "NAME" not in r.stdout:
                problems.append(f"{' '.join(argv)}: rendered no NAME section")
    return problems


def self_test(build, man_dir):
    """A copy of greenbench.1 without --quiet's entry must fail, naming it."""
    with tempfile.TemporaryDirectory() as tmp:
        for page in PAGES:
            shutil.copy(os.path.join(man_dir, page), tmp)
        path = os.path.join(tmp, "greenbench.1")
        with open(path, encoding="utf-8") as f:
            text = f.read()
        cut = text.replace(".TP\n.B \\-\\-quiet\nNo progress output.\n", "")
        if cut == text:
            return ["self-test: greenbench.1 no longer has the --quiet entry it removes"]
        with open(path, "w", encoding="utf-8") as f:
            f.write(cut)
        problems = compare(build, tmp)
    want = "--quiet: in `greenbench run --help` but not in greenbench.1 (greenbench run)"
    return [] if problems == [want] else [f"self-test: want [{want!r}], got {problems!r}"]


def main(argv):
    try:
        if len(argv) == 4 and argv[1] == "options":
            problems = compare(argv[2], argv[3])
        elif len(argv) == 3 and argv[1] == "render":
            problems = render(argv[2])
        elif len(argv) == 4 and argv[1] == "self-test":
            problems = self_test(argv[2], argv[3])
        else:
            sys.stderr.write(__doc__)
            return 2
    except (OSError, RuntimeError) as e:
        problems = [str(e)]
    for p in problems:
        print(f"man_help: {p}")
    if not problems:
        print(f"man_help: {argv[1]}: ok")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
