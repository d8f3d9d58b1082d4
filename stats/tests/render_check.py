#!/usr/bin/python3
"""Renders a greenbench results.md the way its readers do and checks that
every table and every <details> block came out as HTML, not as raw text.

Two renderers: cmark-gfm with GitHub's extensions (table, strikethrough,
autolink, tagfilter, tasklist; raw HTML kept, as GitHub and GitLab keep
<details> and <summary>), and python-markdown (Debian's python3-markdown)
with its 'tables' and 'md_in_html' extensions, as MkDocs and similar sites
render Markdown.

A PATH is a Markdown file, or a records folder: then `greenbench report
--allow-partial` (--greenbench) writes its results.md into a temporary
folder first.

Checked in each renderer's HTML, outside <pre> and <code>:
  - no line starts with '|' (a table left as raw pipes);
  - as many <table> elements as the Markdown has tables (delimiter rows
    outside fenced code);
  - as many <details> as the Markdown has, each with a <summary>, and no
    body holding raw Markdown (a line starting with '|', '- ', '* ' or '#',
    or a '**' left unrendered);
  - no escaped <details> or <summary> tag (shown as text).

usage: render_check.py [--greenbench BIN] PATH...
exit 0 when every check holds; 1 with one line per problem otherwise; 2 on
bad arguments or a renderer that is missing or fails.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

try:
    import markdown
except ImportError:
    sys.exit("render_check: error: python-markdown is missing "
             "(Debian package python3-markdown; bash ci/setup installs it)")

GFM_EXTENSIONS = ["table", "strikethrough", "autolink", "tagfilter", "tasklist"]
DELIMITER_ROW = re.compile(r"^ {0,3}\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)+\|?\s*$"
                           r"|^ {0,3}\|\s*:?-{3,}:?\s*\|\s*$")
FENCE = re.compile(r"^ {0,3}(```|~~~)")
VERBATIM = re.compile(r"<(pre|code)\b[^>]*>.*?</\1>", re.S)
DETAILS = re.compile(r"<details\b[^>]*>(.*?)</details>", re.S)
RAW_MARKDOWN = re.compile(r"^[ \t]*(\||- |\* |#)|\*\*", re.M)


def source_counts(text):
    """Tables and <details> openings of the Markdown, outside fenced code."""
    tables = details = 0
    fenced = False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        tables += bool(DELIMITER_ROW.match(line))
        details += len(re.findall(r"<details\b", line))
    return tables, details


def render_gfm(text):
    args = ["cmark-gfm", "--unsafe"]
    for e in GFM_EXTENSIONS:
        args += ["-e", e]
    try:
        done = subprocess.run(args, input=text, capture_output=True, text=True, check=True)
    except FileNotFoundError:
        sys.exit("render_check: error: cmark-gfm is missing "
                 "(Debian package cmark-gfm; bash ci/setup installs it)")
    except subprocess.CalledProcessError as e:
        sys.exit(f"render_check: error: cmark-gfm failed: {e.stderr.strip()}")
    return done.stdout


def render_python(text):
    return markdown.markdown(text, extensions=["tables", "md_in_html"])


def check_html(html, want_tables, want_details):
    """The problems of one rendering, as lines."""
    problems = []
    plain = VERBATIM.sub("", html)
    raw_rows = [line.strip() for line in plain.splitlines() if line.lstrip().startswith("|")]
    if raw_rows:
        problems.append(f"{len(raw_rows)} lines of raw pipes, the first {raw_rows[0][:60]!r}")
    tables = len(re.findall(r"<table\b", plain))
    if tables != want_tables:
        problems.append(f"{tables} tables rendered of {want_tables}")
    bodies = DETAILS.findall(plain)
    if len(bodies) != want_details:
        problems.append(f"{len(bodies)} <details> rendered of {want_details}")
    for i, body in enumerate(bodies, 1):
        summary = re.search(r"<summary\b[^>]*>(.*?)</summary>", body, re.S)
        if not summary:
            problems.append(f"<details> {i} has no <summary>")
            continue
        rest = body[summary.end():]
        raw = RAW_MARKDOWN.search(rest)
        if raw:
            line = rest[rest.rfind("\n", 0, raw.start()) + 1:].split("\n", 1)[0]
            problems.append(f"<details> {i} ({summary.group(1).strip()[:40]!r}) "
                            f"holds raw Markdown: {line.strip()[:60]!r}")
    if re.search(r"&lt;/?(details|summary)\b", plain):
        problems.append("a <details> or <summary> tag is shown as text")
    return problems


def report_of(greenbench, records, work):
    out = os.path.join(work, "results.md")
    args = [greenbench, "report", records, "--allow-partial", "--out", out, "--chart",
            os.path.join(work, "chart.svg"), "--junit", os.path.join(work, "junit.xml"),
            "--summary", os.path.join(work, "summary.json"), "--no-datapackage"]
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"render_check: error: {' '.join(args)}: {done.stderr.strip()}")
    return out


def check_file(path, shown):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    want_tables, want_details = source_counts(text)
    failed = False
    for name, render in (("cmark-gfm", render_gfm), ("python-markdown", render_python)):
        problems = check_html(render(text), want_tables, want_details)
        for p in problems:
            print(f"FAIL {shown} [{name}]: {p}")
        if not problems:
            print(f"ok {shown} [{name}]: {want_tables} tables, {want_details} <details>")
        failed |= bool(problems)
    return not failed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", metavar="PATH")
    parser.add_argument("--greenbench", help="the greenbench binary, for records folders")
    args = parser.parse_args()
    good = True
    with tempfile.TemporaryDirectory(prefix="gb-render-") as tmp:
        for i, path in enumerate(args.paths):
            if os.path.isdir(path):
                if not args.greenbench:
                    parser.error(f"{path} is a folder: --greenbench is needed to report it")
                work = os.path.join(tmp, str(i))
                os.mkdir(work)
                good &= check_file(report_of(args.greenbench, path, work),
                                   f"{os.path.basename(path.rstrip('/'))}/results.md")
            elif os.path.isfile(path):
                good &= check_file(path, path)
            else:
                parser.error(f"{path}: no such file or folder")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
