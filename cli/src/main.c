/* greenbench: the study's command line. Subcommands: check, run, report,
 * compare, pack (gb_cli, greenbench/cli.h); this file gives them the
 * process's streams, the workers it finds and the signal policy, all through
 * the one entry into a campaign that the suite shares (greenbench/entry.h). */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "greenbench/cli.h"
#include "greenbench/entry.h"
#include "greenbench/paths.h"
#include "greenbench/text.h"
#include "greenbench/version.h"

static volatile sig_atomic_t stop_requested;

static const char usage[] =
    "usage: greenbench <command> [options]\n"
    "commands:\n"
    "  check    can this machine measure energy for the study, and why not\n"
    "  run      measure a campaign (profiles smoke and study) into a records folder\n"
    "  report   turn a records folder into results.md, a chart and JUnit XML\n"
    "  pack     pack a records folder into one checked .tar.gz\n"
    "  compare  compare campaigns of several machines: compare.md, .svg and .json\n"
    "options:\n"
    "  --help     show this help\n"
    "  --version  print greenbench's version and git commit\n"
    "Run greenbench <command> --help for its options.\n";

static const struct {
  const char *name;
  int (*fn)(int argc, char **argv, const gb_cli_env *env);
} commands[] = {{"run", gb_cli_run},
                {"check", gb_cli_check},
                {"report", gb_cli_report},
                {"pack", gb_cli_pack},
                {"compare", gb_cli_compare}};

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
  gb_entry_signals(&stop_requested, "greenbench");
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
    if (!strcmp(argv[1], commands[i].name))
      return commands[i].fn(argc - 1, argv + 1, &env);
  }
  gb_excerpt_buf shown;
  fprintf(stderr,
          "greenbench: error: unknown command '%s' (expected check, run, report, compare or "
          "pack)\n",
          gb_excerpt(&shown, argv[1]));
  return 2;
}
