/* Private to estimate.c and its tests: adding one item to a remaining-time
 * estimate, which gb_eta_start (greenbench/estimate.h) does for a plan. */
#ifndef GREENBENCH_ESTIMATE_INTERNAL_H
#define GREENBENCH_ESTIMATE_INTERNAL_H

#include <stdint.h>

#include "greenbench/estimate.h"

/* Adds one item of kind k, model_ns long, to the items ahead. */
void gb_eta_add(gb_eta *e, gb_eta_kind k, uint64_t model_ns);

#endif
