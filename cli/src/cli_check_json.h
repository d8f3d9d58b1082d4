/* `greenbench check --json` (cli_check.c): the check's findings as one JSON
 * object, described by share/greenbench/schema/check.schema.json. */
#ifndef GB_CLI_CHECK_JSON_H
#define GB_CLI_CHECK_JSON_H

#include <stdbool.h>
#include <stdio.h>

#include "greenbench/findings.h"

/* Writes to out the JSON form of f, the findings the check made (each with
 * its details; the one with topic "verdict" is the object's "verdict"), with
 * the two answers and the exit status. Each text has its control bytes
 * written as \xHH, as the lines show them. Returns exit_status, or 1 when
 * the JSON could not be built or written (f lost a finding, or has no
 * verdict), with one error line on err. */
int cli_check_json(const gb_findings *f, bool energy, bool workers, int exit_status, FILE *out,
                   FILE *err);

#endif
