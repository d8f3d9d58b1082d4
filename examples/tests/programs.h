/* Test-only: the example suite's programs (examples/nbody/) in each language,
 * as the tests start them. Paths come from the build (examples/CMakeLists.txt). */
#ifndef EXAMPLES_PROGRAMS_H
#define EXAMPLES_PROGRAMS_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "spawn.h"

typedef enum { EX_C, EX_PYTHON, EX_NODE, EX_LUA, EX_LANGUAGE_COUNT } ex_language;
typedef enum { EX_NBODY, EX_SPECTRAL, EX_WORKLOAD_COUNT } ex_workload;

extern const char *const ex_language_names[EX_LANGUAGE_COUNT];
extern const char *const ex_workload_names[EX_WORKLOAD_COUNT];

/* Ends the calling test as skipped, with the reason, when l's runtime is not
 * installed (only Lua may be missing: the build requires the others). */
void ex_skip_if_missing(ex_language l);

/* Puts l's program for workload w (its interpreter and script) at the head of
 * r's argv. */
void ex_program(parity_run *r, ex_language l, ex_workload w);

/* Runs l's w with n and reps (0: --startup-only), asserts it exited 0 with
 * nothing on stderr and printed a contract line (strictly checked), and
 * returns the line (the caller deletes it). */
cJSON *ex_run_line(ex_language l, ex_workload w, long n, long reps);

/* What the benchmarks game's programs print for w at n, the figures
 * published with them (n-body n=1000, spectral-norm n=100); NULL at other n. */
const char *ex_reference_text(ex_workload w, long n);

/* The counters the contract promises for w at n: names and values, count. */
int ex_formula(ex_workload w, long n, const char *names[2], double values[2]);

#endif
