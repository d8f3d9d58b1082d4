#!/usr/bin/python3
"""The bash completions complete, and offer only what --help lists.

usage: completion_check.py BUILD_DIR COMPLETION_DIR

Sources completion/greenbench.bash and greenbench-suite.bash in bash (without
the bash-completion package), sets COMP_WORDS and COMP_CWORD as bash would,
calls the completion function and reads COMPREPLY. Checks a few completions,
that the options each command's completion offers are exactly the long
options its --help lists (help_options.py, as the man page test), and that
each value offered for --profile, --languages, --algorithms, --orders and
--energy is on that option's --help line. Exit 0, or 1 with one line per
problem."""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import help_options as ho  # noqa: E402

# (words as bash splits them, the last one being completed; what COMPREPLY
# must hold, in any order).
CASES = [
    (["greenbench", ""], ["check", "run", "report", "compare", "pack", "suite", "--help",
                          "--version"]),
    (["greenbench", "suite", ""], ["check", "--help"]),
    (["greenbench", "suite", "check", "--b"], ["--builddir"]),
    (["greenbench", "suite", "check", "--timeout", ""], []),
    (["greenbench", "r"], ["run", "report"]),
    (["greenbench", "run", "--pro"], ["--profile"]),
    (["greenbench", "run", "--profile", "s"], ["smoke", "study"]),
    (["greenbench", "run", "--languages", "c,p"], ["c,python"]),
    (["greenbench", "run", "--languages", "=", "c,"], ["c,python", "c,node"]),
    (["greenbench", "run", "--energy", "=", ""], ["auto", "on", "off"]),
    (["greenbench", "run", "--energy", "o"], ["on", "off"]),
    (["greenbench", "run", "--orders", "r"], ["random", "reversed"]),
    (["greenbench", "run", "--algorithms", "quick,"], ["quick,bubble", "quick,insertion"]),
    (["greenbench", "run", "--runs", ""], []),
    (["greenbench", "run", "--su"], ["--suite"]),
    (["greenbench", "report", "--no"], ["--no-datapackage"]),
    (["greenbench", "pack", "--o"], ["--out"]),
    (["greenbench", "check", "--n"], ["--node"]),
    (["greenbench-suite", "--pro"], ["--profile", "--progress-log"]),
    (["greenbench-suite", "--profile", ""], ["smoke", "study"]),
    (["greenbench-suite", "--select", "lang"], ["language="]),
    (["greenbench-suite", "--select", "language", "=", "python,"], ["python,c", "python,node"]),
]

# What `<words> --` offers: the options of each command.
OPTION_WORDS = {
    "greenbench": ["greenbench", "--"],
    "greenbench check": ["greenbench", "check", "--"],
    "greenbench run": ["greenbench", "run", "--"],
    "greenbench report": ["greenbench", "report", "--"],
    "greenbench pack": ["greenbench", "pack", "--"],
    "greenbench compare": ["greenbench", "compare", "--"],
    "greenbench suite check": ["greenbench", "suite", "check", "--"],
    "greenbench-suite": ["greenbench-suite", "--"],
}

VALUES = {  # option: (command whose --help defines it, words before the value)
    "--profile": ("greenbench run", ["greenbench", "run", "--profile", ""]),
    "--languages": ("greenbench run", ["greenbench", "run", "--languages", ""]),
    "--algorithms": ("greenbench run", ["greenbench", "run", "--algorithms", ""]),
    "--orders": ("greenbench run", ["greenbench", "run", "--orders", ""]),
    "--energy": ("greenbench run", ["greenbench", "run", "--energy", ""]),
}


def bash_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


def complete(completion_dir, words):
    """COMPREPLY for words, the last being the word under the cursor."""
    func = "_greenbench_suite" if words[0] == "greenbench-suite" else "_greenbench"
    script = (
        f". {bash_quote(completion_dir)}/greenbench-suite.bash\n"
        f"COMP_WORDS=({' '.join(bash_quote(w) for w in words)})\n"
        f"COMP_CWORD={len(words) - 1}\n"
        f"COMP_LINE={bash_quote(' '.join(words))}\n"
        "COMP_POINT=${#COMP_LINE}\n"
        f"{func}\n"
        "printf '%s\\n' \"${COMPREPLY[@]}\"\n"
    )
    r = subprocess.run(["bash", "--norc", "--noprofile", "-c", script], capture_output=True,
                       text=True, cwd=completion_dir)
    if r.returncode != 0 or r.stderr:
        raise RuntimeError(f"completing {words!r}: exit {r.returncode}: {r.stderr.strip()}")
    return [w for w in r.stdout.split("\n") if w]


def check_cases(completion_dir):
    problems = []
    for words, want in CASES:
        got = complete(completion_dir, words)
        if sorted(got) != sorted(want):
            problems.append(f"completing {' '.join(words)!r}: got {got}, want {want}")
    return problems


def check_options(build, completion_dir):
    problems = []
    for command, words in OPTION_WORDS.items():
        offered = set(complete(completion_dir, words))
        listed = ho.help_options(build, command)
        for o in sorted(offered - listed):
            problems.append(f"{o}: offered for `{command}` but not in its --help")
        for o in sorted(listed - offered):
            problems.append(f"{o}: in `{command} --help` but not offered by the completion")
    return problems


def check_values(build, completion_dir):
    problems = []
    for option, (command, words) in VALUES.items():
        line = ho.help_line(build, command, option)
        values = set(re.findall(r"[a-z]+", line.split(option, 1)[-1]))
        for v in complete(completion_dir, words):
            if v not in values:
                problems.append(f"{option} {v}: offered but not on its --help line: {line!r}")
    return problems


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    build, completion_dir = argv[1], os.path.abspath(argv[2])
    try:
        problems = (check_cases(completion_dir) + check_options(build, completion_dir)
                    + check_values(build, completion_dir))
    except (OSError, RuntimeError) as e:
        problems = [str(e)]
    for p in problems:
        print(f"completion: {p}")
    if not problems:
        print(f"completion: {len(CASES)} completions, the options of {len(OPTION_WORDS)} "
              f"commands and the values of {len(VALUES)} options agree with --help")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
