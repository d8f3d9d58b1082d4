/* The generic worker contract of a suite (ADR 0022, docs/suites.md): the
 * one line of JSON a suite's program prints on stdout, parsed as strictly
 * as the sorts' line (greenbench/workerline.h), and compared across
 * languages and against a suite's expect entries. */
#ifndef GREENBENCH_CONTRACTLINE_H
#define GREENBENCH_CONTRACTLINE_H

#include <stddef.h>
#include <stdint.h>

#include "greenbench/error.h"
#include "greenbench/suitefile.h"
#include "greenbench/workerline.h"

typedef enum {
  GB_CONTRACT_MEASURED, /* the command form: loop_ns, counters, input_hash, output_hash, runtime
                         */
  GB_CONTRACT_STARTUP,  /* the startup form: startup_only, input_hash, runtime */
} gb_contract_kind;

typedef struct {
  gb_contract_kind kind;
  uint64_t loop_ns; /* 0 for a startup line */
  size_t n_counters;
  gb_suite_counter counters[GB_SUITE_COUNTERS_MAX]; /* in the order printed; none for startup */
  uint64_t input_hash;
  char input_hash_hex[17];
  uint64_t output_hash; /* 0 and "" for a startup line */
  char output_hash_hex[17];
  char runtime[GB_WORKERLINE_RUNTIME_MAX + 1];
} gb_contract_line;

/* Parses buf[0..len) (not NUL-terminated; may hold anything) as one line
 * of the given kind: a JSON object and a final "\n", nothing before or
 * after; exactly that kind's keys, each once; loop_ns and every counter a
 * plain decimal integer from 0 to 2^53-1; 0 to 8 counters, each named as a
 * suite name and once; hashes 16 lowercase hex digits; runtime 1 to 127
 * printable ASCII characters; startup_only true. Returns 0 and fills *out,
 * or -EPROTO "worker output: ..." naming the field. */
GB_MUST_USE int gb_contractline_parse(const char *buf, size_t len, gb_contract_kind kind,
                                      gb_contract_line *out, gb_err *err);

/* The value of counter name in l, or NULL. */
const gb_suite_counter *gb_contractline_counter(const gb_contract_line *l, const char *name);

/* Compares the work two measured lines report for the same parameters:
 * the same counters (names and values, in any order), input_hash and
 * output_hash. Returns 0, or -EPROTO with the first thing that differs,
 * "output_hash 0123... differs from <other_name>'s fedc...", "counter pairs
 * 10 differs from <other_name>'s 12", "counter pairs is missing; <other>'s
 * is 12" or "counter extra 3 is not in <other>'s" (other_name: the process
 * b came from). */
GB_MUST_USE int gb_contractline_compare(const gb_contract_line *a, const gb_contract_line *b,
                                        const char *other_name, gb_err *err);

/* Checks a measured line against an expect entry: its output_hash and its
 * counters (exactly those named, when it gives counters). Returns 0 or
 * -EPROTO "output_hash 0123... differs from expect fedc...". */
GB_MUST_USE int gb_contractline_expect(const gb_contract_line *l, const gb_suite_expect *e,
                                       gb_err *err);

#endif
