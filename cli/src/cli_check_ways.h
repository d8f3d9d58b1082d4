/* `greenbench check`'s lines on the two ways of reading the counters,
 * powercap and perf_event (greenbench/energy_ways.h), apart from the rest of
 * cli_check.c. */
#ifndef GB_CLI_CHECK_WAYS_H
#define GB_CLI_CHECK_WAYS_H

#include <stdio.h>

#include "greenbench/energy_ways.h"

/* Opens both ways into *w (close with gb_energy_ways_close) and prints one
 * line for each, whether it works and why not, and which the study would
 * read and cross-check with. */
void cli_check_ways(FILE *out, gb_energy_ways *w);

#endif
