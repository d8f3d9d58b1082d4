/* The worker contract's arguments (docs/design.md), parsed strictly. The Python and
 * Node.js workers implement the same rules and the same messages. */
#ifndef GB_WORKER_ARGS_H
#define GB_WORKER_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "greenbench/workload.h"

typedef enum {
  GB_MODE_SORT,
  GB_MODE_STARTUP,
  GB_MODE_DUMP_INPUT,
  GB_MODE_DUMP_XORSHIFT
} gb_mode;

/* Which line a sorting or startup run prints (--contract): the study's
 * (docs/design.md) or a suite's generic contract line (docs/suites.md). */
typedef enum { GB_WORKER_CONTRACT_STUDY, GB_WORKER_CONTRACT_GENERIC } gb_worker_contract;

typedef struct {
  gb_mode mode;
  gb_worker_contract contract;
  gb_algorithm algorithm;
  gb_order order;
  size_t size;
  uint64_t sorts;
  uint32_t seed;
  uint64_t dump_count; /* --dump-xorshift COUNT */
} gb_worker_args;

/* Parses argv. Returns 0, 1 when --help was asked for, 2 when --version
 * was, or -EINVAL with a one-line message (no newline) in msg. */
GB_MUST_USE int gb_worker_args_parse(int argc, char **argv, gb_worker_args *out, char *msg,
                                     size_t msglen);

#endif
