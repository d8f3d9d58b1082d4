/* Test-only: the generic contract line (`--contract generic`, docs/suites.md
 * "The contract line") as the harness reads it, as Criterion assertions. */
#ifndef PARITY_CONTRACT_H
#define PARITY_CONTRACT_H

#include <stdbool.h>
#include <stddef.h>

#include "greenbench/contractline.h"
#include "spawn.h"

/* Asserts r succeeded (parity_expect_success) and printed one line of the
 * given kind that the harness's parser accepts (gb_contractline_parse), in
 * the workers' key order exactly (parity_contract_render), with the
 * counters comparisons and writes for a measured line. Fills *out. */
void parity_expect_contract_line(const parity_run *r, gb_contract_kind kind,
                                 gb_contract_line *out);

/* l as the workers print it, keys in docs/suites.md's order, with its
 * newline; with own false, loop_ns is 0 and runtime empty, so that two
 * languages' lines compare on everything else. */
void parity_contract_render(const gb_contract_line *l, bool own, char *buf, size_t len);

/* The XXH64 of 0..n-1 as the C workload library hashes an input
 * (gb_input_hash), as 16 hex digits: the output_hash of every sort of n. */
void parity_identity_hash(size_t n, char hex[17]);

#endif
