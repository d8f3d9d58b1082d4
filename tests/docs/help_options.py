"""The long options of greenbench's commands, as their --help lists them, and
of the man pages, as their option lists define them: shared by man_help.py
and completion_check.py, so both tests compare against the same sets."""
import re
import subprocess

# A long option: two dashes, a letter, then letters, digits and inner dashes.
OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*")

# Each command: its name in messages, its argv after the build folder's
# binary, and where its options are defined in the man pages (page, section).
COMMANDS = {
    "greenbench": (["greenbench", "--help"], ("greenbench.1", "OPTIONS")),
    "greenbench check": (["greenbench", "check", "--help"], ("greenbench.1", "greenbench check")),
    "greenbench run": (["greenbench", "run", "--help"], ("greenbench.1", "greenbench run")),
    "greenbench report": (["greenbench", "report", "--help"], ("greenbench.1", "greenbench report")),
    "greenbench pack": (["greenbench", "pack", "--help"], ("greenbench.1", "greenbench pack")),
    "greenbench compare": (["greenbench", "compare", "--help"], ("greenbench.1", "greenbench compare")),
    "greenbench suite check": (["greenbench", "suite", "check", "--help"],
                               ("greenbench.1", "greenbench suite check")),
    # Only stdout: the suite's own options. Criterion's follow on stderr.
    "greenbench-suite": (["greenbench-suite", "--help"], ("greenbench-suite.1", "OPTIONS")),
}


def run_help(build, argv, both=False):
    """The text `build/argv[0] argv[1:]` prints (stdout; with both, stdout
    and stderr). Raises RuntimeError when it exits other than 0."""
    r = subprocess.run([f"{build}/{argv[0]}", *argv[1:]], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} exited {r.returncode}: {r.stderr.strip()}")
    return r.stdout + (r.stderr if both else "")


def help_options(build, command):
    """Every long option the command's --help mentions."""
    return set(OPTION.findall(run_help(build, COMMANDS[command][0])))


def help_line(build, command, option):
    """The --help line that defines option (it starts with the option), or ''."""
    for line in run_help(build, COMMANDS[command][0]).splitlines():
        if line.strip().startswith(option + " ") or line.strip() == option:
            return line
    return ""


def roff_text(line):
    """A roff line as text: \\- and \\(en as '-', font changes and \\& gone."""
    line = line.replace("\\-", "-").replace("\\(en", "-").replace("\\&", "").replace("\\e", "\\")
    return re.sub(r"\\f(?:\[[^]]*\]|\(..|.)", "", line)


def man_sections(path):
    """{section title: [lines]} of a man page, for every .SH and .SS."""
    sections, title = {}, ""
    with open(path, encoding="utf-8") as f:
        for line in f.read().splitlines():
            m = re.match(r'\.S[HS]\s+"?([^"]*)"?\s*$', line)
            if m:
                title = m.group(1)
                sections.setdefault(title, [])
            elif title and not line.startswith('.\\"'):
                sections[title].append(line)
    return sections


def man_options(lines):
    """The options a section defines: the first option on each .TP tag line."""
    found = set()
    for tag, line in zip(lines, lines[1:]):
        if tag.strip() == ".TP":
            m = OPTION.search(roff_text(line))
            if m:
                found.add(m.group(0))
    return found


def man_mentions(path):
    """Every long option anywhere in a man page (comments left out)."""
    with open(path, encoding="utf-8") as f:
        text = "\n".join(l for l in f.read().splitlines() if not l.startswith('.\\"'))
    return set(OPTION.findall(roff_text(text)))
