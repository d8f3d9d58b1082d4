/* What the source files of gb_cli share with each other and with their
 * tests, and no other library sees. Their names carry the cli_ prefix,
 * which no public header uses (the public API keeps gb_). */
#ifndef GB_CLI_INTERNAL_H
#define GB_CLI_INTERNAL_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "greenbench/cli.h"
#include "greenbench/error.h"
#include "greenbench/findings.h"
#include "greenbench/options.h"
#include "greenbench/report.h"
#include "greenbench/settings.h"
#include "greenbench/suitefile.h"
#include "greenbench/text.h"

/* ---- cli_args.c ---- */
/* What the subcommands share of their command lines (cli_run.c, cli_check.c,
 * cli_report.c, cli_compare.c, cli_pack.c): the walk over the arguments with
 * its one wording of a bad option, the one way --help and --version end, the
 * one error line, the one reading of a whole number and of a path, and the
 * values of --equivalence-margin, --resamples and --seed. */

/* A user's text quoted in a message: escaped and cut (gb_excerpt). */
#define SHOWN(s) gb_excerpt(&(gb_excerpt_buf){{0}}, (s))

/* What cli_parse answers for --help (or -h) and --version, which every
 * subcommand takes: its table holds only its own options. */
enum { CLI_HELP = 1000, CLI_VERSION };

/* One subcommand's command line. */
typedef struct {
  const char *name;      /* "report", as in "(see greenbench report --help)" */
  const char *usage;     /* what --help prints */
  const gb_opt *options; /* its own options (greenbench/options.h), ids below CLI_HELP */
  /* One option, with its value (NULL for a flag): 0, or -errno with err set. */
  int (*option)(void *ctx, int id, const char *value, gb_err *err);
  /* One positional argument: 0, or -errno with err set. NULL: the
   * subcommand takes none, and one is refused as unexpected. */
  int (*operand)(void *ctx, const char *arg, gb_err *err);
} cli_command;

/* The one error rule of every subcommand: one line on err,
 * "greenbench: error: <name>: <msg>", control bytes escaped (gb_str_put_line).
 * The subcommand's name is put here and nowhere else; a message that already
 * begins with "<name>: " (a library's own, as gb_records_pack's "pack: ...")
 * keeps that one. Returns status, the exit status the caller gives. */
int cli_fail(const cli_command *cmd, FILE *err, int status, const char *msg);

/* The start of every subcommand: walks argv[1..argc) with gb_opt_next,
 * handing each option and positional argument to cmd's callbacks with ctx,
 * in order. A refused argument (a callback's message, or what gb_opt_next
 * refuses or a positional argument cmd takes none of, as "<why> (see
 * greenbench <name> --help)") is cli_fail's line with exit status 2. When
 * every argument is taken, --help prints cmd's usage and --version
 * greenbench's version line on out, the one way both end: exit status 0,
 * or 1 with cli_fail's line when out cannot be written. Returns that exit
 * status, or -1 when the subcommand is to go on. */
int cli_start(const cli_command *cmd, void *ctx, int argc, char **argv, FILE *out, FILE *err);

/* A whole number, as every subcommand reads one: s, plain decimal digits
 * (gb_parse_u64), in min..max into *out. Returns 0, or -EINVAL with the one
 * wording "<opt> must be an integer from <min> to <max>, got '<s>'" in err,
 * *out untouched. */
int cli_parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max, uint64_t *out,
                  gb_err *err);

/* The longest folder a subcommand writes into or reads (--out, --resume,
 * report's DIR, compare's campaigns): PATH_MAX less room for the names of
 * the files in it ("/environment.txt.tmp", "/compare.json.tmp-XXXXXX"). */
#define CLI_FOLDER_MAX (PATH_MAX - 32)

/* The one path limit: s, the value of opt, is not empty and fits
 * CLI_FOLDER_MAX bytes when it names a folder (folder true), PATH_MAX - 1
 * when it names a file. Returns 0, or -EINVAL with "<opt>: empty path" or
 * "<opt>: path longer than N bytes (PATH_MAX 4096[ less room for the names
 * of the files in it])" in err. */
int cli_check_path(const char *opt, const char *s, bool folder, gb_err *err);

/* --equivalence-margin's value, as report and compare read it: a plain
 * decimal (gb_parse_decimal: no sign, exponent or spaces, read in the "C"
 * locale whatever the process locale) above 0 and at most 10. Returns 0, or
 * -EINVAL with a message that quotes s. */
int cli_parse_margin(const char *s, double *out, gb_err *err);

/* The bootstrap's options as report and compare read them (cli_parse_u64):
 * --seed (any 64-bit number) into *seed when is_seed, else --resamples
 * (1..GB_REPORT_MAX_RESAMPLES) into *resamples. Returns 0, or
 * cli_parse_u64's -EINVAL, the target untouched. */
int cli_parse_bootstrap(bool is_seed, const char *value, size_t *resamples, uint64_t *seed,
                        gb_err *err);

/* ---- cli_check_json.c ---- */
/* `greenbench check --json` (cli_check.c): the check's findings as one JSON
 * object, described by share/greenbench/schema/check.schema.json. */

/* Writes to out the JSON form of f, the findings the check made (each with
 * its details; the one with topic "verdict" is the object's "verdict"), with
 * the two answers and the exit status. Each text has its control bytes
 * written as \xHH, as the lines show them. Returns exit_status, or 1 when
 * the JSON could not be built or written (f lost a finding, or has no
 * verdict), with one error line on err. */
int cli_check_json(const gb_findings *f, bool energy, bool workers, int exit_status, FILE *out,
                   FILE *err);

/* ---- cli_report_console.c ---- */
/* What `greenbench report` prints when it is done (cli_report.c): the
 * files it wrote and a short table read back from the summary.json it
 * wrote. */

/* Writes to out, after gb_report_write(o) succeeded: "wrote:" and each file
 * written, one a line; then, per language and algorithm, the median time
 * per sort on random input at the largest size measured, with its 95%
 * interval, and energy per sort where it was measured. Returns 0, -errno
 * with err set when summary.json cannot be read back or out fails. */
GB_MUST_USE int cli_report_console(const gb_report_opts *o, FILE *out, gb_err *err);

/* ---- cli_compare_suite.c ---- */
/* `greenbench compare` of suite records folders, once cli_compare.c has
 * parsed the arguments, checked the outputs and found every PATH a suite
 * folder: reads and analyses each (refusing an unfinished one unless
 * allow_partial), builds the comparison and writes compare.md and
 * compare.json into out. 0 or -errno with the message. */
typedef struct {
  const char *out;
  const char *const *paths;
  const int *same_as; /* per path: an earlier path with the same files, or -1 */
  size_t n;
  const char *const *labels; /* --campaign-label per path, or NULL */
  const gb_analysis_opts *ao;
  bool allow_partial;
} cli_compare_args;
GB_MUST_USE int cli_compare_suites(const cli_compare_args *a, gb_err *err);

/* ---- cli_run_suite.c ---- */
/* `greenbench run --suite FILE`, once cli_run.c has read and checked the
 * options it shares with the study's run. */
typedef struct {
  const cli_command *cmd;    /* run's, for its error lines */
  const char *file;          /* the suite file; NULL: --resume's suite.json */
  gb_settings settings;      /* profile, numbers, energy, order seed */
  bool settings_given;       /* --resume: the command line set settings of its own */
  const char *resume;        /* --resume DIR, or NULL */
  const char *out;           /* the records folder (DIR on --resume) */
  const char *cpus;          /* --cpus, or NULL */
  const char *machine_label; /* --machine-label, or NULL: the default label */
  bool dry_run, quiet;
  int argc;
  char **argv;
} cli_run_suite_args;

/* Reads the suite (2 and the reader's line when it cannot: missing,
 * unreadable, invalid), then prints its plan (--dry-run) or runs its
 * campaign: 0 done, 1 failed (records kept) or refused, 130 interrupted.
 * With resume, the suite is the folder's suite.json (gb_suite_resume_load:
 * 1 and its line when refused) and the campaign goes on. */
int cli_run_suite(const cli_run_suite_args *a, const gb_cli_env *env);
/* Whether DIR holds a suite campaign's records (gb_srec_is_suite_folder),
 * read as the caller: under sudo with the user's file-system identity. */
bool cli_is_suite_folder(const char *dir);

/* ---- cli_suite_check.c ---- */
/* What `greenbench suite check` runs a suite with. */
typedef struct {
  const char *builddir; /* {builddir}, an existing folder */
  const char *workers;  /* {workers}, greenbench's own workers' folder (NULL: unused) */
  uint64_t timeout_ns;  /* per process */
  uint64_t seed;        /* {seed} */
  volatile sig_atomic_t *stop;
} cli_suite_opts;

/* Runs every build step, version command, measured run ({reps} 1) and
 * startup run of s once (greenbench suite check --help), one table row per
 * process on out and one line "greenbench: error: suite check: <language>
 * <workload> <parameters>: ..." per failure on err. Returns the number of
 * failures (0: every process ran and agreed), or -ENOMEM. */
int cli_suite_check(const gb_suite *s, const cli_suite_opts *o, FILE *out, FILE *err);

#endif
