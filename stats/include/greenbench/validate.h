/* Whether one configuration's records make a valid measurement: the test
 * verdict of a study case. The suite's per-case Criterion tests and the
 * JUnit writer both ask this one function, so they cannot disagree. */
#ifndef GREENBENCH_VALIDATE_H
#define GREENBENCH_VALIDATE_H

#include "greenbench/error.h"
#include "greenbench/records_read.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Checks the configuration (language, algorithm, order, size) of r, in this
 * order, and stops at the first failure:
 *   1. it is in the campaign's settings;
 *   2. its measured runs are all there: exactly settings.runs rows of kind
 *      sort in runs.csv;
 *   3. every one has status ok (a parity_mismatch is named as such);
 *   4. parity held: input_hash, comparisons and writes are present and
 *      identical across its rows, and equal to those of every other
 *      language's ok rows for the same algorithm, order, size and seed;
 *      its startup rows report the same input_hash;
 *   5. its startup trial (language, order, size) has settings.runs batches,
 *      every one ok;
 *   6. with energy_required, every one of those rows has an energy reading.
 * Returns 0 when valid (msg is then ""), or 1 with a one-line reason in msg
 * (cut to len - 1 bytes, NUL-terminated; msg may be NULL when len is 0)
 * naming the configuration and, where a row is at fault, its runs.csv line.
 * Pure: reads only r. */
GB_MUST_USE int gb_validate_case(const gb_records *r, gb_language language,
                                 gb_algorithm algorithm, gb_order order, uint64_t size,
                                 bool energy_required, char *msg, size_t len);

#endif
