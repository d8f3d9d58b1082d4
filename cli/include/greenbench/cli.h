/* The greenbench command's subcommands, as library functions (gb_cli) so that
 * tests can run them: each takes its arguments with argv[0] the subcommand's
 * name, writes only to the streams of its gb_cli_env, and returns the exit
 * status (0 success, 1 failure, 2 bad arguments; `run` returns 130 when
 * interrupted). The commands layer: gb_cli links the harness and the
 * statistics, which link neither it nor each other (docs/design.md, Layers;
 * ADR 0013). */
#ifndef GREENBENCH_CLI_H
#define GREENBENCH_CLI_H

#include <signal.h>
#include <stdio.h>

#include "greenbench/error.h"
#include "greenbench/measure.h"

/* What a subcommand may use of the process: where the workers are (the
 * command finds them at run time: greenbench/paths.h), the stop flag its
 * signal handlers set, and the two streams every line goes to. */
typedef struct {
  gb_workers workers;
  const char *source_dir;      /* for the git commit; NULL: not recorded */
  const char *workers_missing; /* why a worker was not found; NULL: all were */
  volatile sig_atomic_t *stop;
  FILE *out; /* results, --help and --version */
  FILE *err; /* errors, warnings and progress */
} gb_cli_env;

/* `greenbench run [options]`: measures a campaign into a records folder, or
 * prints its plan (--dry-run). 0 done, 1 the campaign failed (records
 * kept), 2 bad arguments, 130 interrupted through env->stop. */
GB_MUST_USE int gb_cli_run(int argc, char **argv, const gb_cli_env *env);

/* `greenbench check [--cpus LIST] [--python PATH] [--node PATH]`: whether
 * this machine can measure energy for the study, one finding per line on
 * env->out, the verdict last. 0 it can, 1 it cannot, 2 bad arguments. */
GB_MUST_USE int gb_cli_check(int argc, char **argv, const gb_cli_env *env);

/* `greenbench report DIR [options]`: the command line over gb_report_write
 * (greenbench/report.h):
 *   DIR [--out FILE] [--junit FILE] [--chart FILE] [--summary FILE]
 *   [--no-datapackage] [--resamples N] [--seed S]
 *   [--equivalence-margin M] [--allow-partial] [--carbon REGION,...]
 *   [--carbon-intensity NAME=G]... [--help] [--version]
 * (an option's value also as --out=FILE). --carbon replaces the default
 * regions (a name, an ISO 3166-1 alpha-3 code, or UAE / UK);
 * --carbon-intensity adds a custom intensity in g CO2e/kWh. DIR may be a
 * packed records folder. Warnings go to env->err. 0 done (or --help), 1 bad
 * records, a refusal or an I/O error, 2 bad arguments; every error is one
 * line "greenbench: error: ..." on env->err. */
GB_MUST_USE int gb_cli_report(int argc, char **argv, const gb_cli_env *env);

/* `greenbench compare [options] PATH PATH...`:
 *   [--out DIR] [--resamples N] [--seed S] [--equivalence-margin M]
 *   [--allow-partial] [--help] [--version] PATH PATH...
 * (at least two records folders or packed ones). Reads and analyses each
 * campaign, builds the comparison (greenbench/compare.h) and writes
 * DIR/compare.md, DIR/compare.svg and DIR/compare.json (DIR default
 * "compare", made when missing) as a set. Warnings go to env->err. 0 done,
 * 1 bad records, a refusal or an I/O error, 2 bad arguments; every error is
 * one line "greenbench: error: ..." on env->err. */
GB_MUST_USE int gb_cli_compare(int argc, char **argv, const gb_cli_env *env);

/* `greenbench pack DIR [--out FILE]`: gb_records_pack
 * (greenbench/records_pack.h) of DIR into FILE, default DIR (without
 * trailing slashes) with ".tar.gz" appended. 0 done, 1 refused or failed,
 * 2 bad arguments; every error is one "greenbench: error: ..." line on
 * env->err. */
GB_MUST_USE int gb_cli_pack(int argc, char **argv, const gb_cli_env *env);

/* `greenbench suite check FILE [--builddir DIR] [--timeout SECONDS]
 * [--seed S]`: reads a suite file (greenbench/suitefile.h) and runs each of
 * its processes once, checking the contract line of each and the parity of
 * the languages (ADR 0022). 0 all ran and agreed, 1 a process failed or
 * disagreed, 2 bad arguments or a suite that breaks a rule; every error is
 * one line "greenbench: error: ..." on env->err. */
GB_MUST_USE int gb_cli_suite(int argc, char **argv, const gb_cli_env *env);

#endif
