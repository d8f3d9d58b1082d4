/* greenbench: the study's command line. Subcommands: check, run, report,
 * compare, pack, suite (gb_cli, greenbench/cli.h); this file gives them the
 * process's streams, the workers it finds and one of the two signal policies
 * of greenbench/entry.h: a campaign's for run and check, stop-at-once for
 * report, pack, compare and suite. */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "greenbench/cli.h"
#include "greenbench/energy_ways.h"
#include "greenbench/entry.h"
#include "greenbench/paths.h"
#include "greenbench/privilege.h"
#include "greenbench/text.h"
#include "greenbench/version.h"

static volatile sig_atomic_t stop_requested;

/* report, pack and compare need nothing of root: under sudo they become
 * the user who typed the command, wholly and for good, before an argument
 * is read, so that every path they open, read or write is opened with that
 * user's identity (docs/security.md). 0, or the exit status after one
 * line. */
static int become_the_caller(void) {
  gb_privilege p;
  gb_err err;
  if (gb_privilege_detect(&p, &err) < 0) {
    gb_str_put_line(stderr, "greenbench: error: ", err.msg);
    return 2;
  }
  int rc = gb_privilege_apply(&p);
  if (rc < 0) {
    fprintf(stderr, "greenbench: error: cannot become uid %u gid %u: %s\n", (unsigned)p.uid,
            (unsigned)p.gid, strerror(-rc));
    return 1;
  }
  return 0;
}

/* Under sudo (euid 0, SUDO_UID set) a test hook would let the user choose
 * which files root reads and reports: refused with one line, exit 2,
 * unless this build enables the hooks for its tests. */
static int refuse_test_hooks(void) {
  if (GB_TEST_HOOKS_UNDER_SUDO || geteuid() != 0 || !getenv("SUDO_UID"))
    return 0;
  for (const char *const *hook = gb_test_hooks; *hook; hook++) {
    if (getenv(*hook)) {
      fprintf(stderr,
              "greenbench: error: %s is a test hook and is refused under sudo (it would let "
              "the user choose the files root reads); unset it\n",
              *hook);
      return 2;
    }
  }
  return 0;
}

static const char usage[] =
    "usage: greenbench <command> [options]\n"
    "commands:\n"
    "  check    can this machine measure energy for the study, and why not\n"
    "  run      measure a campaign (profiles smoke and study) into a records folder\n"
    "  report   turn a records folder into results.md, a chart and JUnit XML\n"
    "  pack     pack a records folder into one checked .tar.gz\n"
    "  compare  compare campaigns of several machines: compare.md, .svg and .json\n"
    "  suite    check a suite file of your own programs: suite check FILE\n"
    "options:\n"
    "  --help     show this help\n"
    "  --version  print greenbench's version and git commit\n"
    "Run greenbench <command> --help for its options.\n";

/* measures: the command reads the energy counters and starts workers
 * (root stays for the counters and the privilege drop); the others read
 * and write files only. */
static const struct {
  const char *name;
  int (*fn)(int argc, char **argv, const gb_cli_env *env);
  bool measures;
} commands[] = {{"run", gb_cli_run, true},          {"check", gb_cli_check, true},
                {"report", gb_cli_report, false},   {"pack", gb_cli_pack, false},
                {"compare", gb_cli_compare, false}, {"suite", gb_cli_suite, false}};

int main(int argc, char **argv) {
  /* The workers, found relative to this executable (greenbench/paths.h);
   * run and check report a missing one, report needs none. */
  static gb_entry_workers found;
  if (gb_entry_find_workers(&found) < 0) {
    /* found.missing says why; run and check report it, report needs none. */
  }
  gb_cli_env env = {.workers = found.workers,
                    .source_dir = found.source_dir,
                    .workers_missing = found.missing,
                    .stop = &stop_requested,
                    .out = stdout,
                    .err = stderr};
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
      !strcmp(argv[1], "help")) {
    fputs(usage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  if (!strcmp(argv[1], "--version")) {
    return gb_version_print(stdout) < 0 ? 1 : 0;
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
    if (strcmp(argv[1], commands[i].name))
      continue;
    int refused = refuse_test_hooks();
    if (refused)
      return refused;
    if (commands[i].measures) {
      gb_entry_signals(&stop_requested, "greenbench");
    } else {
      gb_entry_signals_now("greenbench");
      int rc = become_the_caller();
      if (rc)
        return rc;
    }
    return commands[i].fn(argc - 1, argv + 1, &env);
  }
  gb_excerpt_buf shown;
  fprintf(stderr,
          "greenbench: error: unknown command '%s' (expected check, run, report, compare, "
          "pack or suite)\n",
          gb_excerpt(&shown, argv[1]));
  return 2;
}
