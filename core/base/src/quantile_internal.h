/* Private to quantile.c and its tests: the checked p-quantile of an
 * unsorted sample, which gb_median is with p = 0.5. */
#ifndef GREENBENCH_QUANTILE_INTERNAL_H
#define GREENBENCH_QUANTILE_INTERNAL_H

#include <stddef.h>

#include "greenbench/error.h"
#include "greenbench/quantile.h"

/* Type 7 p-quantile of x, which is left unchanged (a copy is selected on).
 * Errors: -EINVAL when n == 0, p is outside [0, 1] or NaN, or x holds a NaN;
 * -ENOMEM. *out is set only on success. */
GB_MUST_USE int gb_quantile(const double *x, size_t n, double p, double *out, gb_err *err);

#endif
