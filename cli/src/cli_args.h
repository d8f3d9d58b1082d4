/* What the subcommands share of their command lines (cli_run.c, cli_check.c,
 * cli_report.c, cli_compare.c, cli_pack.c): the walk over the arguments with
 * its one wording of a bad option, --help and --version, and the values of
 * --equivalence-margin, --resamples and --seed. */
#ifndef GB_CLI_ARGS_H
#define GB_CLI_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "greenbench/error.h"
#include "greenbench/options.h"
#include "greenbench/text.h"

/* A user's text quoted in a message: escaped and cut (gb_excerpt). */
#define SHOWN(s) gb_excerpt(&(gb_excerpt_buf){{0}}, (s))

/* What cli_parse answers for --help (or -h) and --version, which every
 * subcommand takes: its table holds only its own options. */
enum { CLI_HELP = 1000, CLI_VERSION };

/* One subcommand's command line. */
typedef struct {
  const char *name;      /* "report", as in "(see greenbench report --help)" */
  const char *prefix;    /* before each of cli_parse's own messages: "report: ", or "" */
  const char *usage;     /* what --help prints */
  const gb_opt *options; /* its own options (greenbench/options.h), ids below CLI_HELP */
  /* One option, with its value (NULL for a flag): 0, or -errno with err set. */
  int (*option)(void *ctx, int id, const char *value, gb_err *err);
  /* One positional argument: 0, or -errno with err set. NULL: the
   * subcommand takes none, and one is refused as unexpected. */
  int (*operand)(void *ctx, const char *arg, gb_err *err);
} cli_command;

/* Walks argv[1..argc) with gb_opt_next, handing each option and positional
 * argument to cmd's callbacks with ctx, in order. Returns CLI_HELP when
 * --help was given, else CLI_VERSION when --version was, else 0; the first
 * callback's -errno (its message in err); or -EINVAL for what gb_opt_next
 * refuses, or a positional argument cmd takes none of, with
 * "<prefix><why> (see greenbench <name> --help)" in err. */
int cli_parse(const cli_command *cmd, void *ctx, int argc, char **argv, gb_err *err);

/* cli_parse's CLI_HELP or CLI_VERSION answered on out: cmd's usage, or
 * greenbench's version line. Returns the exit status: 0, or 1 when the
 * version line could not be written. */
int cli_answer(const cli_command *cmd, int asked, FILE *out);

/* The start of a subcommand that prints as it goes (run, check): cli_parse,
 * then a refused argument as the one line "greenbench: error: ..." on err
 * (exit status 2), or cli_answer on out. Returns that exit status, or -1
 * when the subcommand is to go on. */
int cli_start(const cli_command *cmd, void *ctx, int argc, char **argv, FILE *out, FILE *err);

/* --equivalence-margin's value, as report and compare read it: a plain
 * decimal (gb_parse_decimal: no sign, exponent or spaces, read in the "C"
 * locale whatever the process locale) above 0 and at most 10. Returns 0, or
 * -EINVAL with a message that quotes s. */
int cli_parse_margin(const char *s, double *out, gb_err *err);

/* A subcommand's reading of a whole number: s in min..max into *out, or
 * -EINVAL with the refusal in its own words, naming opt. */
typedef int (*cli_u64_parser)(const char *opt, const char *s, uint64_t min, uint64_t max,
                              uint64_t *out, gb_err *err);

/* The bootstrap's options as report and compare read them, through parse:
 * --seed (any 64-bit number) into *seed when is_seed, else --resamples
 * (1..GB_REPORT_MAX_RESAMPLES) into *resamples. Returns 0, or parse's
 * -EINVAL, the target untouched. */
int cli_parse_bootstrap(bool is_seed, const char *value, cli_u64_parser parse,
                        size_t *resamples, uint64_t *seed, gb_err *err);

#endif
