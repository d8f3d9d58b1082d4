#include "greenbench/quantile.h"

#include "base_internal.h"
#include "greenbench/quantile_rule.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

double gb_quantile_sorted(const double *sorted, size_t n, double p) {
  size_t lo;
  double frac;
  q7_position(n, p, &lo, &frac);
  return frac == 0.0 ? sorted[lo] : q7_lerp(sorted[lo], sorted[lo + 1], frac);
}

static void swap_d(double *a, double *b) {
  double t = *a;
  *a = *b;
  *b = t;
}

static void insertion_sort(double *x, ptrdiff_t lo, ptrdiff_t hi) {
  for (ptrdiff_t i = lo + 1; i <= hi; i++) {
    double v = x[i];
    ptrdiff_t j = i - 1;
    for (; j >= lo && x[j] > v; j--) {
      x[j + 1] = x[j];
    }
    x[j + 1] = v;
  }
}

static double median_of_three(double a, double b, double c) {
  if (a > b) {
    swap_d(&a, &b);
  }
  return c < a ? a : (c > b ? b : c);
}

/* Hoare's FIND: afterwards x[k] is the k-th smallest (0-based), nothing
 * before it is larger and nothing after it is smaller. Median-of-three
 * pivots keep sorted and reversed inputs linear; small ranges are finished
 * by insertion sort, which is faster there. */
static void select_kth(double *x, size_t n, size_t k) {
  ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;
  while (hi - lo >= 16) {
    double pivot = median_of_three(x[lo], x[lo + (hi - lo) / 2], x[hi]);
    ptrdiff_t i = lo, j = hi;
    while (i <= j) {
      while (x[i] < pivot) {
        i++;
      }
      while (x[j] > pivot) {
        j--;
      }
      if (i <= j) {
        swap_d(&x[i++], &x[j--]);
      }
    }
    if (kk <= j) {
      hi = j;
    } else if (kk >= i) {
      lo = i;
    } else {
      return; /* j < k < i: x[k] equals the pivot and is in place */
    }
  }
  insertion_sort(x, lo, hi);
}

double gb_quantile_select(double *scratch, size_t n, double p) {
  size_t lo;
  double frac;
  q7_position(n, p, &lo, &frac);
  return q7_select_at(scratch, n, lo, frac);
}

double q7_select_at(double *scratch, size_t n, size_t lo, double frac) {
  select_kth(scratch, n, lo);
  if (frac == 0.0) {
    return scratch[lo];
  }
  /* The next order statistic is the smallest of what select left above. */
  double next = scratch[lo + 1];
  for (size_t i = lo + 2; i < n; i++) {
    next = scratch[i] < next ? scratch[i] : next;
  }
  return q7_lerp(scratch[lo], next, frac);
}

static int check_sample(const double *x, size_t n, gb_err *err) {
  if (n == 0) {
    return gb_err_set(err, EINVAL, "quantile of an empty sample");
  }
  for (size_t i = 0; i < n; i++) {
    if (isnan(x[i])) {
      return gb_err_set(err, EINVAL, "quantile: value %zu is NaN", i);
    }
  }
  return 0;
}

/* A checked (check_sample) copy of x, malloc'd; `what` names the caller in
 * the out-of-memory message. */
static int checked_copy(const double *x, size_t n, const char *what, double **out,
                        gb_err *err) {
  int rc = check_sample(x, n, err);
  if (rc < 0) {
    return rc;
  }
  double *copy = malloc(n * sizeof *copy);
  if (!copy) {
    return gb_err_set(err, ENOMEM, "%s: out of memory for %zu values", what, n);
  }
  memcpy(copy, x, n * sizeof *copy);
  *out = copy;
  return 0;
}

int gbi_quantile(const double *x, size_t n, double p, double *out, gb_err *err) {
  if (!(p >= 0.0 && p <= 1.0)) {
    return gb_err_set(err, EINVAL, "quantile: p = %g is outside [0, 1]", p);
  }
  double *copy = NULL;
  int rc = checked_copy(x, n, "quantile", &copy, err);
  if (rc < 0) {
    return rc;
  }
  *out = gb_quantile_select(copy, n, p);
  free(copy);
  return 0;
}

int gb_median(const double *x, size_t n, double *out, gb_err *err) {
  return gbi_quantile(x, n, 0.5, out, err);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int gb_summarize(const double *x, size_t n, gb_summary *out, gb_err *err) {
  double *s = NULL;
  int rc = checked_copy(x, n, "summary", &s, err);
  if (rc < 0) {
    return rc;
  }
  qsort(s, n, sizeof *s, cmp_double);
  gb_summary r = {.n = n, .min = s[0], .max = s[n - 1]};
  r.q1 = gb_quantile_sorted(s, n, 0.25);
  r.median = gb_quantile_sorted(s, n, 0.5);
  r.q3 = gb_quantile_sorted(s, n, 0.75);
  r.p95 = gb_quantile_sorted(s, n, 0.95);
  double iqr = r.q3 - r.q1;
  double low = r.q1 - 1.5 * iqr, high = r.q3 + 1.5 * iqr;
  for (size_t i = 0; i < n; i++) {
    r.low_outliers += s[i] < low;
    r.high_outliers += s[i] > high;
  }
  free(s);
  *out = r;
  return 0;
}
