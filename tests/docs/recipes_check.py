#!/usr/bin/python3
"""Checks the scheduler recipes of docs/recipes (docs/many-machines.md).

usage: recipes_check.py shellcheck RECIPES      shellcheck -x passes on every *.sh
       recipes_check.py yamllint RECIPES        yamllint, with RECIPES/.yamllint,
                                                passes on every *.yml
       recipes_check.py structure RECIPES       the workflow and the Slurm scripts
                                                are what issue 18 asks for
       recipes_check.py commands RECIPES GREENBENCH
                                                every `greenbench CMD --option` the
                                                recipes run is a command whose
                                                `greenbench CMD --help` lists it
       recipes_check.py slurm-dry-run RECIPES   slurm-submit.sh, one task of
                                                slurm-study.sh and slurm-compare.sh
                                                run against stand-ins of sbatch,
                                                scontrol and greenbench

Exit 0 when all holds, 1 with one line per problem. Nothing here reaches the
network or a real scheduler."""
import glob
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile

WORKFLOW = "github-actions-study.yml"
GITLAB = "gitlab-ci-study.yml"
STUDY, COMPARE, SUBMIT = "slurm-study.sh", "slurm-compare.sh", "slurm-submit.sh"


def files(recipes, pattern):
    found = sorted(glob.glob(os.path.join(recipes, pattern)))
    if not found:
        sys.exit(f"recipes_check: error: no {pattern} in {recipes}")
    return found


def tool(name):
    path = shutil.which(name)
    if path is None:
        sys.exit(f"recipes_check: error: {name} is not installed (Debian package {name}; ci/setup installs it)")
    return path


def lint(argv):
    """Runs a linter; its own output is the list of problems."""
    done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        return [line for line in done.stdout.splitlines() if line.strip()] or [f"{argv[0]} exited {done.returncode}"]
    return []


def shellcheck(recipes):
    return lint([tool("shellcheck"), "-x", *files(recipes, "*.sh")])


def yamllint(recipes):
    config = os.path.join(recipes, ".yamllint")
    if not os.path.isfile(config):
        return [f"{config}: missing"]
    return lint([tool("yamllint"), "-f", "parsable", "-s", "-c", config, *files(recipes, "*.yml")])


def load_yaml(path):
    try:
        import yaml
    except ImportError:
        sys.exit("recipes_check: error: /usr/bin/python3 cannot import yaml (Debian package python3-yaml)")
    with open(path, encoding="utf-8") as f:
        return yaml.safe_load(f)


def uses(step, action):
    return isinstance(step, dict) and str(step.get("uses", "")).startswith(action + "@")


def workflow_structure(path):
    """A workflow_dispatch workflow; a matrix job on self-hosted runners that
    runs the study with the matrix's machine label, packs and uploads with
    actions/upload-artifact, in a concurrency group per machine; a job that
    needs it, on an ordinary runner, downloads the artifacts and runs
    `greenbench compare`; every action pinned to a major version."""
    name = os.path.basename(path)
    doc = load_yaml(path)
    problems = []
    if not isinstance(doc, dict) or not isinstance(doc.get("jobs"), dict):
        return [f"{name}: no jobs"]
    triggers = doc.get("on", doc.get(True))  # PyYAML reads the key `on` as true
    if not isinstance(triggers, dict) or "workflow_dispatch" not in triggers:
        problems.append(f"{name}: not started by workflow_dispatch")
    jobs = doc["jobs"]

    def runs(job):
        return "\n".join(str(s.get("run", "")) for s in job.get("steps", []) if isinstance(s, dict))

    matrix_jobs = [j for j, job in jobs.items()
                   if isinstance(job, dict) and isinstance(job.get("strategy"), dict) and "matrix" in job["strategy"]]
    if len(matrix_jobs) != 1:
        return problems + [f"{name}: want one matrix job, found {len(matrix_jobs)}"]
    mid = matrix_jobs[0]
    mjob = jobs[mid]
    runs_on = mjob.get("runs-on")
    runs_on = runs_on if isinstance(runs_on, list) else [runs_on]
    if "self-hosted" not in runs_on:
        problems.append(f"{name}: job {mid}: runs-on {runs_on} is not self-hosted")
    if not any("matrix." in str(label) for label in runs_on):
        problems.append(f"{name}: job {mid}: runs-on names no matrix label (each machine its own runner)")
    group = str((mjob.get("concurrency") or {}).get("group", "")) if isinstance(mjob.get("concurrency"), dict) else ""
    if "matrix." not in group:
        problems.append(f"{name}: job {mid}: no concurrency group per machine (two studies could share one)")
    if isinstance(mjob.get("concurrency"), dict) and mjob["concurrency"].get("cancel-in-progress"):
        problems.append(f"{name}: job {mid}: cancel-in-progress would kill a study that is measuring")
    script = runs(mjob) + "\n" + "\n".join(f"{k}={v}" for k, v in (mjob.get("env") or {}).items())
    for want, why in ((r"greenbench\S*\s+check", "greenbench check"),
                      (r"greenbench\S*\s+run\b", "greenbench run"),
                      (r"--machine-label", "--machine-label"),
                      (r"greenbench\S*\s+report\b", "greenbench report"),
                      (r"greenbench\S*\s+pack\b", "greenbench pack")):
        if not re.search(want, script):
            problems.append(f"{name}: job {mid} does not run {why}")
    if "matrix." not in script:
        problems.append(f"{name}: job {mid}: the machine label does not come from the matrix")
    if not any(uses(s, "actions/upload-artifact") for s in mjob.get("steps", [])):
        problems.append(f"{name}: job {mid} does not upload with actions/upload-artifact")
    compare = [j for j, job in jobs.items() if isinstance(job, dict) and re.search(r"greenbench\S*\s+compare\b", runs(job))]
    if len(compare) != 1:
        problems.append(f"{name}: want one job that runs greenbench compare, found {len(compare)}")
    else:
        cjob = jobs[compare[0]]
        needs = cjob.get("needs")
        needs = needs if isinstance(needs, list) else [needs]
        if mid not in needs:
            problems.append(f"{name}: job {compare[0]} does not need {mid}")
        cruns = cjob.get("runs-on")
        if "self-hosted" in (cruns if isinstance(cruns, list) else [cruns]):
            problems.append(f"{name}: job {compare[0]} takes a measuring machine (runs-on self-hosted)")
        if not any(uses(s, "actions/download-artifact") for s in cjob.get("steps", [])):
            problems.append(f"{name}: job {compare[0]} does not download with actions/download-artifact")
    for j, job in jobs.items():
        for s in job.get("steps", []) if isinstance(job, dict) else []:
            if isinstance(s, dict) and "uses" in s and not re.fullmatch(r"[\w.-]+/[\w.-]+@v\d+", str(s["uses"])):
                problems.append(f"{name}: job {j}: {s['uses']} is not pinned to a major version (@vN)")
    return problems


def gitlab_structure(path):
    """A parallel:matrix job on tagged runners that runs the study, packs it
    and keeps the archive as an artifact; a job that needs it and runs
    `greenbench compare`."""
    name = os.path.basename(path)
    doc = load_yaml(path)
    problems = []
    jobs = {k: v for k, v in (doc or {}).items() if isinstance(v, dict) and "script" in v}

    def script(job):
        return "\n".join(str(x) for key in ("before_script", "script") for x in job.get(key, []) or [])

    matrix = [j for j, job in jobs.items() if isinstance(job.get("parallel"), dict) and "matrix" in job["parallel"]]
    if len(matrix) != 1:
        return [f"{name}: want one parallel:matrix job, found {len(matrix)}"]
    mid, mjob = matrix[0], jobs[matrix[0]]
    if not mjob.get("tags"):
        problems.append(f"{name}: job {mid} has no runner tags")
    if not mjob.get("resource_group"):
        problems.append(f"{name}: job {mid} has no resource_group (two studies could share a machine)")
    for want in ("check", "run", "report", "pack"):
        if not re.search(rf"greenbench\S*\s+{want}\b", script(mjob)):
            problems.append(f"{name}: job {mid} does not run greenbench {want}")
    if not (mjob.get("artifacts") or {}).get("paths"):
        problems.append(f"{name}: job {mid} keeps no artifacts")
    compare = [j for j, job in jobs.items() if re.search(r"greenbench\S*\s+compare\b", script(job))]
    if len(compare) != 1:
        problems.append(f"{name}: want one job that runs greenbench compare, found {len(compare)}")
    elif mid not in [n if isinstance(n, str) else n.get("job") for n in jobs[compare[0]].get("needs", [])]:
        problems.append(f"{name}: job {compare[0]} does not need {mid}")
    return problems


def sbatch_options(path):
    options = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"#SBATCH\s+(.*)", line)
            if m:
                options += shlex.split(m.group(1))
    return options


def slurm_structure(recipes):
    problems = []
    study = sbatch_options(os.path.join(recipes, STUDY))
    for want in ("--exclusive", "--array", "--nodes=1"):
        if not any(o == want or o.startswith(want + "=") for o in study):
            problems.append(f"{STUDY}: no #SBATCH {want}")
    with open(os.path.join(recipes, SUBMIT), encoding="utf-8") as f:
        submit = f.read()
    if not re.search(r"--dependency=\"?afterok:", submit):
        problems.append(f"{SUBMIT}: does not submit {COMPARE} with --dependency=afterok")
    if COMPARE not in submit or STUDY not in submit:
        problems.append(f"{SUBMIT}: does not submit both {STUDY} and {COMPARE}")
    with open(os.path.join(recipes, COMPARE), encoding="utf-8") as f:
        if not re.search(r"^\s*greenbench compare\b", f.read(), re.M):
            problems.append(f"{COMPARE}: does not run greenbench compare")
    for script in files(recipes, "*.sh"):
        with open(script, encoding="utf-8") as f:
            if not re.search(r"^set -euo pipefail$", f.read(), re.M):
                problems.append(f"{os.path.basename(script)}: no `set -euo pipefail`")
    return problems


def structure(recipes):
    problems = workflow_structure(os.path.join(recipes, WORKFLOW))
    if os.path.exists(os.path.join(recipes, GITLAB)):
        problems += gitlab_structure(os.path.join(recipes, GITLAB))
    return problems + slurm_structure(recipes)


def shell_texts(recipes):
    """(file, shell text) of everything the recipes run: the *.sh files and
    the run: / script: blocks of the *.yml files, without comments and
    without the lines that only print a message (echo, printf)."""
    texts = []
    for path in files(recipes, "*.sh"):
        with open(path, encoding="utf-8") as f:
            texts.append((path, f.read()))
    for path in files(recipes, "*.yml"):
        doc = load_yaml(path)
        blocks = []

        def walk(node):
            if isinstance(node, dict):
                for k, v in node.items():
                    if k == "run" and isinstance(v, str):
                        blocks.append(v)
                    elif k in ("script", "before_script", "after_script") and isinstance(v, list):
                        blocks.extend(str(x) for x in v)
                    else:
                        walk(v)
            elif isinstance(node, list):
                for v in node:
                    walk(v)
        walk(doc)
        texts.append((path, "\n".join(blocks)))
    result = []
    for path, text in texts:
        text = re.sub(r"\\\n", " ", text)  # continuation lines
        lines = [re.sub(r"(^|\s)#.*", "", line) for line in text.splitlines()]  # comments
        lines = [line for line in lines if not re.match(r"\s*(echo|printf)\s", line)]  # messages
        result.append((path, "\n".join(lines)))
    return result


def used_commands(recipes):
    """{(command, option): [file]} for every `greenbench CMD ...` the recipes
    run (`greenbench`, `"$(command -v greenbench)"` or `"$gb"` as the program);
    option None for the command itself."""
    used = {}
    program = r"""(?:(?<![\w/-])greenbench(?![\w.-])\)?"?|"\$gb"|"\$\{gb\}")"""
    for path, text in shell_texts(recipes):
        for m in re.finditer(program + r"[ \t]+([a-z][a-z-]*)([^\n|;&>]*)", text):
            cmd, rest = m.group(1), m.group(2)
            used.setdefault((cmd, None), []).append(os.path.basename(path))
            for opt in re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", rest):
                used.setdefault((cmd, opt), []).append(os.path.basename(path))
    return used


def commands(recipes, greenbench):
    used = used_commands(recipes)
    if not used:
        return ["no greenbench command found in the recipes"]
    problems = []
    helps = {}
    for cmd in sorted({c for c, _ in used}):
        done = subprocess.run([greenbench, cmd, "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        helps[cmd] = done.stdout if done.returncode == 0 else None
        if done.returncode != 0:
            where = ", ".join(sorted(set(used[(cmd, None)])))
            first = (done.stdout.strip().splitlines() or [""])[0]
            problems.append(f"greenbench {cmd} (used by {where}): `greenbench {cmd} --help` exits "
                            f"{done.returncode}: {first}")
    for (cmd, opt), where in sorted(used.items(), key=lambda kv: (kv[0][0], kv[0][1] or "")):
        if opt is None or helps.get(cmd) is None:
            continue
        if not re.search(rf"(?<![\w-]){re.escape(opt)}(?![\w-])", helps[cmd]):
            problems.append(f"greenbench {cmd} {opt} (used by {', '.join(sorted(set(where)))}): "
                            f"not in `greenbench {cmd} --help`")
    return problems


STUB_GREENBENCH = r"""#!/bin/bash
echo "greenbench $*" >> "$STUB_LOG"
case $1 in
  check) if [ -n "${STUB_CHECK_FAILS:-}" ]; then
           echo "energy: unavailable: no RAPL package zone (stand-in)"
           echo "verdict: this machine cannot measure energy for the study: no RAPL (stand-in)"
           exit 1
         fi
         echo "verdict: energy can be measured (stand-in)" ;;
  run) while [ $# -gt 0 ]; do
         if [ "$1" = --out ]; then mkdir "$2" && echo "stand-in" > "$2/runs.csv"; fi; shift
       done ;;
  pack) out=$2.tar.gz; [ "${3:-}" = --out ] && out=$4
        tar -czf "$out" -C "$(dirname "$2")" "$(basename "$2")" ;;
  compare) out=compare; [ "$2" = --out ] && out=$3; mkdir -p "$out" && touch "$out/compare.md" ;;
esac
"""
STUB_SBATCH = r"""#!/bin/bash
echo "sbatch $* GREENBENCH_STUDY=$GREENBENCH_STUDY GREENBENCH_NODES=$GREENBENCH_NODES" >> "$STUB_LOG"
echo "4242;cluster"
"""
STUB_PLAIN = "#!/bin/bash\necho \"{name} $*\" >> \"$STUB_LOG\"\n"
STUB_SUDO = "#!/bin/bash\necho \"sudo $*\" >> \"$STUB_LOG\"\necho 'sudo: a password is required' >&2\nexit 1\n"


def slurm_dry_run(recipes):
    """The submit script holds the array, places task i on node i, releases
    it and queues the comparison after it; one task measures into its
    folder on the shared storage and packs it there; a second task on the same
    folder is refused; a task on the wrong node is refused; the comparison
    reads the packed archive."""
    problems = []
    recipes = os.path.abspath(recipes)
    host = socket.gethostname().split(".")[0]
    with tempfile.TemporaryDirectory() as tmp:
        bindir = os.path.join(tmp, "bin")
        os.mkdir(bindir)
        stubs = {"greenbench": STUB_GREENBENCH, "sbatch": STUB_SBATCH,
                 "scontrol": STUB_PLAIN.format(name="scontrol"), "scancel": STUB_PLAIN.format(name="scancel"),
                 "sudo": STUB_SUDO}
        for name, text in stubs.items():
            with open(os.path.join(bindir, name), "w", encoding="utf-8") as f:
                f.write(text)
            os.chmod(os.path.join(bindir, name), 0o755)
        log = os.path.join(tmp, "log")
        shared = os.path.join(tmp, "shared")
        env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"], STUB_LOG=log, HOME=tmp,
                   GREENBENCH_SHARED=shared, TMPDIR=tmp)
        for k in [k for k in env if k.startswith(("SLURM_", "SBATCH_", "GREENBENCH_")) and k != "GREENBENCH_SHARED"]:
            del env[k]

        def bash(script, status, **extra):
            done = subprocess.run(["bash", os.path.join(recipes, script)], env=dict(env, **extra), cwd=tmp,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if done.returncode != status:
                problems.append(f"{script} {extra}: exit {done.returncode}, want {status}: {done.stdout.strip()}")
            return done.stdout

        def logged():
            if not os.path.exists(log):
                return ""
            with open(log, encoding="utf-8") as f:
                text = f.read()
            os.remove(log)
            return text

        bash(SUBMIT, 0, GREENBENCH_NODES="n1 n2 n3", GREENBENCH_STUDY="s1")
        want = ["sbatch --parsable --hold --array=0-2 ", "scontrol update JobId=4242_0 ReqNodeList=n1",
                "scontrol update JobId=4242_2 ReqNodeList=n3", "scontrol release 4242",
                "sbatch --parsable --kill-on-invalid-dep=yes --dependency=afterok:4242 "]
        text = logged()
        for w in want:
            if w not in text:
                problems.append(f"{SUBMIT}: did not run `{w.strip()}`; it ran:\n{text}")
        if "GREENBENCH_STUDY=s1 GREENBENCH_NODES=n1 n2 n3" not in text:
            problems.append(f"{SUBMIT}: the jobs do not get GREENBENCH_STUDY and GREENBENCH_NODES")
        bash(SUBMIT, 2, GREENBENCH_NODES="n1 n2 n1")
        # One node: no comparison to queue; the task's report is the answer.
        out = bash(SUBMIT, 0, GREENBENCH_NODES="n1", GREENBENCH_STUDY="s0")
        text = logged()
        if "slurm-compare.sh" in text or "no comparison" not in out:
            problems.append(f"{SUBMIT}: one node still queues a comparison: {out}{text}")

        task = dict(SLURM_ARRAY_TASK_ID="1", SLURM_ARRAY_JOB_ID="4242", GREENBENCH_NODES=f"n0 {host}",
                    GREENBENCH_STUDY="s1", GREENBENCH_LABEL="node-one")
        bash(STUDY, 0, **task)
        text = logged()
        for w in ["greenbench check", "--profile study --energy on --machine-label node-one",
                  f"greenbench pack {tmp}/greenbench.", f"--out {shared}/s1/node-one.tar.gz"]:
            if w not in text:
                problems.append(f"{STUDY}: did not run `{w}`; it ran:\n{text}")
        for f in ("node-one.tar.gz", "node-one/runs.csv", "check-node-one.txt"):
            if not os.path.exists(os.path.join(shared, "s1", f)):
                problems.append(f"{STUDY}: did not leave {f} in the shared study folder")
        if glob.glob(os.path.join(tmp, "greenbench.*")):
            problems.append(f"{STUDY}: left its node-local scratch folder behind")
        out = bash(STUDY, 1, **task)
        if "there already" not in out:
            problems.append(f"{STUDY}: a second study into the same folder was not refused as such: {out}")
        out = bash(STUDY, 1, **dict(task, SLURM_ARRAY_TASK_ID="0"))
        if "meant for 'n0'" not in out:
            problems.append(f"{STUDY}: a task on the wrong node was not refused as such: {out}")
        if "greenbench run" in logged():
            problems.append(f"{STUDY}: measured although it was refused")

        # A node that cannot measure: the check's own reason, then sudo's,
        # and nothing left in the shared folder or the scratch space.
        failing = dict(task, GREENBENCH_STUDY="s2", STUB_CHECK_FAILS="1")
        out = bash(STUDY, 1, **failing)
        for w in ("energy: unavailable: no RAPL package zone (stand-in)",
                  "cannot measure energy: this machine cannot measure energy for the study: no RAPL "
                  "(stand-in) (greenbench check above; sudo -n greenbench check: sudo: a password is "
                  "required)"):
            if w not in out:
                problems.append(f"{STUDY}: a failed check does not say `{w}`: {out}")
        if os.path.exists(os.path.join(shared, "s2")) or glob.glob(os.path.join(tmp, "greenbench.*")):
            problems.append(f"{STUDY}: a failed check left a folder behind")
        if "greenbench run" in logged():
            problems.append(f"{STUDY}: measured although the check failed")
        # Without --energy on, a failed check only warns.
        out = bash(STUDY, 0, **dict(failing, GREENBENCH_RUN_OPTIONS="--profile smoke --energy off"))
        if "measuring anyway" not in out or "--profile smoke --energy off --machine-label" not in logged():
            problems.append(f"{STUDY}: GREENBENCH_RUN_OPTIONS without --energy on was not run: {out}")

        out = bash(COMPARE, 0, GREENBENCH_STUDY="s1")
        if "nothing to compare" not in out or "greenbench compare" in logged():
            problems.append(f"{COMPARE}: one packed campaign was compared: {out}")
        bash(STUDY, 0, **dict(task, GREENBENCH_LABEL="node-two"))
        logged()
        bash(COMPARE, 0, GREENBENCH_STUDY="s1")
        text = logged()
        if (f"greenbench compare --out {shared}/s1/compare {shared}/s1/node-one.tar.gz "
                f"{shared}/s1/node-two.tar.gz") not in text:
            problems.append(f"{COMPARE}: did not compare the packed archives; it ran:\n{text}")
        bash(COMPARE, 1, GREENBENCH_STUDY="empty")
    return problems


def main(argv):
    if len(argv) < 3 or argv[1] not in ("shellcheck", "yamllint", "structure", "commands", "slurm-dry-run"):
        sys.exit(__doc__)
    mode, recipes = argv[1], argv[2]
    if mode == "commands":
        if len(argv) != 4:
            sys.exit(__doc__)
        problems = commands(recipes, argv[3])
    else:
        problems = {"shellcheck": shellcheck, "yamllint": yamllint, "structure": structure,
                    "slurm-dry-run": slurm_dry_run}[mode](recipes)
    for p in problems:
        print(f"recipes_check {mode}: {p}")
    if problems:
        return 1
    print(f"recipes_check {mode}: ok ({recipes})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
