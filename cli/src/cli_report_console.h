/* What `greenbench report` prints when it is done (cli_report.c): the
 * files it wrote and a short table read back from the summary.json it
 * wrote. */
#ifndef GB_CLI_REPORT_CONSOLE_H
#define GB_CLI_REPORT_CONSOLE_H

#include <stdio.h>

#include "greenbench/error.h"
#include "greenbench/report.h"

#ifndef GB_MUST_USE
#define GB_MUST_USE __attribute__((warn_unused_result))
#endif

/* Writes to out, after gb_report_write(o) succeeded: "wrote:" and each file
 * written, one a line; then, per language and algorithm, the median time
 * per sort on random input at the largest size measured, with its 95%
 * interval, and energy per sort where it was measured. Returns 0, -errno
 * with err set when summary.json cannot be read back or out fails. */
GB_MUST_USE int cli_report_console(const gb_report_opts *o, FILE *out, gb_err *err);

#endif
