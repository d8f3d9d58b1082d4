/* Test-only: the three workers as the parity tests start them. The paths come
 * from the build (parity/CMakeLists.txt). */
#ifndef PARITY_WORKERS_H
#define PARITY_WORKERS_H

#include <stddef.h>
#include <stdint.h>

#include "greenbench/workload.h"
#include "spawn.h"

/* One sort configuration of the worker contract. */
typedef struct {
  gb_algorithm alg;
  gb_order order;
  size_t size;
  uint32_t seed;
  uint64_t sorts;
} parity_config;

/* Puts the worker of language l (its interpreter and script) at the head of
 * r's argv. */
void parity_worker(parity_run *r, gb_language l);
/* The same for a worker script elsewhere (a patched copy), run by l's
 * interpreter. */
void parity_worker_script(parity_run *r, gb_language l, const char *script);
/* Appends the contract's arguments for c; --seed only when it is not the
 * default, so the default is exercised too; --startup-only when asked. */
void parity_config_args(parity_run *r, const parity_config *c, bool startup);

/* The number of runs to keep going at once: the machine has two CPUs. */
enum { PARITY_PARALLEL = 2 };

#endif
