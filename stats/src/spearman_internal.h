/* Private to spearman.c and its tests: the average ranks, and rho of
 * samples that must hold no NaN, held to worked answers. */
#ifndef GREENBENCH_SPEARMAN_INTERNAL_H
#define GREENBENCH_SPEARMAN_INTERNAL_H

#include <stddef.h>

#include "greenbench/error.h"
#include "greenbench/spearman.h"

/* Ranks 1..n of x[0..n-1] into ranks, ties averaged (1, 2.5, 2.5, 4).
 * Errors: -EINVAL on a NaN, -ENOMEM. */
GB_MUST_USE int gb_rank_average(const double *x, size_t n, double *ranks, gb_err *err);

/* gb_spearman_nan (spearman.h) for samples without a NaN: the same results,
 * and -EINVAL on a NaN. */
GB_MUST_USE int gb_spearman(const double *x, const double *y, size_t n, gb_rho *out,
                            gb_err *err);

#endif
