/* Quantiles, medians and the tail summary of one sample.
 *
 * One rule everywhere (docs/adr/0005-quantile-rule.md): Hyndman & Fan (1996)
 * type 7, numpy's default "linear" method. For sorted x[0..n-1] and
 * 0 <= p <= 1, with h = (n - 1) p, the p-quantile is
 * x[floor(h)] + (h - floor(h)) (x[floor(h) + 1] - x[floor(h)]).
 * The median is the 0.5-quantile (the mean of the two middle values when n
 * is even). Values are dimensionless here: the result has the unit of x. */
#ifndef GREENBENCH_QUANTILE_H
#define GREENBENCH_QUANTILE_H

#include "greenbench/error.h"

#include <stddef.h>

/* Type 7 p-quantile of sorted (ascending) values. No checks, for hot loops:
 * the caller guarantees n >= 1, 0 <= p <= 1 and no NaN. */
double gb_quantile_sorted(const double *sorted, size_t n, double p);

/* Type 7 p-quantile of scratch[0..n-1] by quickselect, in expected O(n)
 * and without allocating; reorders scratch. Same preconditions as
 * gb_quantile_sorted (the input need not be sorted). Calling it again on the
 * same scratch with another p is correct. */
double gb_quantile_select(double *scratch, size_t n, double p);

/* Type 7 median (the 0.5-quantile) of x, which is left unchanged (a copy is
 * selected on). Errors: -EINVAL when n == 0 or x holds a NaN; -ENOMEM.
 * *out is set only on success. */
GB_MUST_USE int gb_median(const double *x, size_t n, double *out, gb_err *err);

/* The tail of a sample (docs/methods.md #4): order statistics and Tukey's
 * outlier count. Outliers are counted, never removed: low_outliers counts
 * values strictly below q1 - 1.5 IQR, high_outliers values strictly above
 * q3 + 1.5 IQR, with IQR = q3 - q1 and every quartile by type 7. */
typedef struct {
  size_t n;
  double min, q1, median, q3, p95, max;
  size_t low_outliers, high_outliers;
} gb_summary;

/* Fills *out from x[0..n-1] (unchanged). Errors as gb_median. */
GB_MUST_USE int gb_summarize(const double *x, size_t n, gb_summary *out, gb_err *err);

#endif
