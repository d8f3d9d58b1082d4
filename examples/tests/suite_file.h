/* Test-only: examples/nbody.json as the tests read it: its expect entries and
 * its languages' templates, filled in by hand (the suite reader of the
 * harness is not used, so that the file is checked by a second reader). */
#ifndef EXAMPLES_SUITE_FILE_H
#define EXAMPLES_SUITE_FILE_H

#include <cjson/cJSON.h>

#include "spawn.h"

/* The parsed suite file; asserts it reads. The caller deletes it. */
cJSON *ex_suite_load(void);

/* The workload named name, or NULL. */
const cJSON *ex_suite_workload(const cJSON *suite, const char *name);

/* The language named name, or NULL. */
const cJSON *ex_suite_language(const cJSON *suite, const char *name);

/* Appends the template tmpl (an array of strings) to r's argv with
 * {suitedir}, {builddir}, {workload}, {n} and {reps} filled in (reps < 0:
 * {reps} is refused); a first word without a slash is looked up on PATH, as
 * a shell would. Asserts every placeholder is one of those. */
void ex_suite_argv(parity_run *r, const cJSON *tmpl, const char *builddir, const char *workload,
                   long n, long reps);

#endif
