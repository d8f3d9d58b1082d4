/* `greenbench check --json` (cli_check.c): the check's lines as one JSON
 * object, described by share/greenbench/schema/check.schema.json. */
#ifndef GB_CLI_CHECK_JSON_H
#define GB_CLI_CHECK_JSON_H

#include <stdbool.h>
#include <stdio.h>

/* Writes to out the JSON form of text, the lines the check printed
 * ("topic: text", indented lines the details of the finding above them,
 * the last "verdict: ..."), with the two answers and the exit status.
 * Returns exit_status, or 1 when the JSON could not be built or written
 * (with one error line on err). */
int cli_check_json(const char *text, bool energy, bool workers, int exit_status, FILE *out,
                   FILE *err);

#endif
