/* Test-only: strict checks of what a worker printed, as Criterion assertions
 * (a failed check ends the calling test with a message naming the command). */
#ifndef PARITY_OUTPUT_H
#define PARITY_OUTPUT_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "greenbench/workload.h"
#include "spawn.h"
#include "workers.h"

/* The command line of r, for messages (static buffer, overwritten by the
 * next call). */
const char *parity_cmdline(const parity_run *r);

/* Asserts r exited 0, wrote nothing on stderr and no NUL byte on stdout. */
void parity_expect_success(const parity_run *r);

/* Asserts r exited 0, wrote nothing on stderr, and wrote exactly one line
 * holding one JSON object with exactly the keys of the sort line (or of the
 * startup line), each of its JSON type. Returns the parsed object. */
cJSON *parity_expect_line(const parity_run *r, bool startup);

/* Asserts the line j of language l reports configuration c with the input
 * hash and counts of e (the counts only for a sort line). */
void parity_expect_result(const parity_run *r, const cJSON *j, gb_language l,
                          const parity_config *c, const gb_expected *e);

/* Asserts two workers' lines agree on every key but language, loop_ns and
 * runtime. */
void parity_expect_same(const parity_run *ra, const cJSON *a, const parity_run *rb,
                        const cJSON *b);

/* Asserts r exited 0 with nothing on stderr and printed exactly count lines,
 * each a decimal integer from 0 to UINT32_MAX without sign or leading zero.
 * Returns them in a malloc'd array. */
uint32_t *parity_expect_numbers(const parity_run *r, size_t count);

/* Asserts r exited with code, printed nothing on stdout and exactly one line
 * on stderr. Returns that line, without its newline, in a static buffer. */
const char *parity_expect_failure(const parity_run *r, int code);

/* The value of an integer key of a line checked by parity_expect_line. */
uint64_t parity_json_u64(const cJSON *j, const char *key);

#endif
