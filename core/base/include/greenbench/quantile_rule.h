/* The project's one quantile rule, shared by every module that reads a
 * quantile (quantile.c, bootstrap.c): Hyndman & Fan (1996) type 7, numpy's
 * default "linear" method. See docs/adr/0005-quantile-rule.md. */
#ifndef GREENBENCH_QUANTILE_RULE_H
#define GREENBENCH_QUANTILE_RULE_H

#include <math.h>
#include <stddef.h>

/* Position h = (n - 1) p on 0-based order statistics, split into the lower
 * index and the fraction towards the next one. n >= 1, 0 <= p <= 1. */
static inline void q7_position(size_t n, double p, size_t *lo, double *frac) {
  double h = (double)(n - 1) * p;
  double f = floor(h);
  if (f >= (double)(n - 1)) {
    *lo = n - 1;
    *frac = 0.0;
    return;
  }
  *lo = (size_t)f;
  *frac = h - f;
}

/* Interpolates from whichever end is nearer, as numpy does, so that frac = 0
 * gives a and frac = 1 gives b exactly, and a == b always gives a. */
static inline double q7_lerp(double a, double b, double frac) {
  if (frac == 0.0) {
    return a;
  }
  double d = b - a;
  return frac < 0.5 ? a + d * frac : b - d * (1.0 - frac);
}

/* The type 7 quantile at position (lo, frac), as q7_position gives it, of
 * scratch[0..n-1] by quickselect (quantile.c; reorders scratch): order
 * statistic lo, interpolated towards lo + 1 when frac != 0. Needs lo < n,
 * and lo + 1 < n when frac != 0; no NaN. */
double q7_select_at(double *scratch, size_t n, size_t lo, double frac);

#endif
