#include "workers.h"

#include <inttypes.h>

void parity_worker_script(parity_run *r, gb_language l, const char *script) {
  parity_arg(r, l == GB_PYTHON ? PARITY_PYTHON_EXE : PARITY_NODE_EXE);
  parity_arg(r, script);
}

void parity_worker(parity_run *r, gb_language l) {
  if (l == GB_C)
    parity_arg(r, PARITY_WORKER_C);
  else
    parity_worker_script(r, l, l == GB_PYTHON ? PARITY_WORKER_PY : PARITY_WORKER_JS);
}

void parity_config_args(parity_run *r, const parity_config *c, bool startup) {
  parity_args(r, "--algorithm", gb_algorithm_name(c->alg), "--order", gb_order_name(c->order),
              NULL);
  parity_arg(r, "--size");
  parity_argf(r, "%zu", c->size);
  parity_arg(r, "--sorts");
  parity_argf(r, "%" PRIu64, c->sorts);
  if (c->seed != GB_DEFAULT_SEED) {
    parity_arg(r, "--seed");
    parity_argf(r, "%" PRIu32, c->seed);
  }
  if (startup)
    parity_arg(r, "--startup-only");
}
