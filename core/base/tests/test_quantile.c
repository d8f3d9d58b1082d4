/* Known answers for the type 7 rule. Each expected value is worked by hand
 * from h = (n - 1) p on the sorted data, and agrees with numpy 1.24's
 * np.quantile(data, p) (method "linear", the default). */
#include "base_internal.h"
#include "greenbench/quantile.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EPS 1e-12

static double q(const double *x, size_t n, double p) {
  double out = NAN;
  gb_err err = {{0}};
  cr_assert_eq(gbi_quantile(x, n, p, &out, &err), 0, "%s", err.msg);
  return out;
}

Test(quantile, odd_count) {
  double x[] = {3, 1, 2}; /* sorted 1 2 3 */
  cr_assert_float_eq(q(x, 3, 0.5), 2.0, EPS);
  cr_assert_float_eq(q(x, 3, 0.25), 1.5, EPS); /* h = 0.5: 1 + 0.5 (2 - 1) */
  cr_assert_float_eq(q(x, 3, 0.95), 2.9, EPS); /* h = 1.9: 2 + 0.9 (3 - 2) */
  cr_assert_eq(q(x, 3, 0.0), 1.0);
  cr_assert_eq(q(x, 3, 1.0), 3.0);
}

Test(quantile, even_count_median_is_mean_of_middle_pair) {
  double x[] = {4, 1, 3, 2}; /* sorted 1 2 3 4 */
  double m = NAN;
  cr_assert_eq(gb_median(x, 4, &m, NULL), 0);
  cr_assert_eq(m, 2.5);
  cr_assert_float_eq(q(x, 4, 0.25), 1.75, EPS); /* h = 0.75 */
  cr_assert_float_eq(q(x, 4, 0.75), 3.25, EPS); /* h = 2.25 */
  cr_assert_float_eq(q(x, 4, 0.95), 3.85, EPS); /* h = 2.85 */
}

Test(quantile, ties) {
  double x[] = {2, 5, 2, 1, 2}; /* sorted 1 2 2 2 5 */
  cr_assert_eq(q(x, 5, 0.25), 2.0);
  cr_assert_eq(q(x, 5, 0.5), 2.0);
  cr_assert_eq(q(x, 5, 0.75), 2.0);
  cr_assert_float_eq(q(x, 5, 0.95), 4.4, EPS); /* h = 3.8: 2 + 0.8 (5 - 2) */
}

Test(quantile, one_element) {
  double x[] = {7};
  for (double p = 0.0; p <= 1.0; p += 0.125) {
    cr_assert_eq(q(x, 1, p), 7.0);
  }
}

Test(quantile, input_left_unchanged) {
  double x[] = {4, 1, 3, 2}, copy[4];
  memcpy(copy, x, sizeof x);
  (void)q(x, 4, 0.3);
  cr_assert_arr_eq(x, copy, sizeof x);
}

Test(quantile, errors) {
  double x[] = {1, NAN, 3}, out = 42.0;
  gb_err err = {{0}};
  cr_assert_eq(gbi_quantile(x, 0, 0.5, &out, &err), -EINVAL);
  cr_assert_eq(gbi_quantile(x, 3, 0.5, &out, &err), -EINVAL);
  cr_assert(strstr(err.msg, "NaN"), "%s", err.msg);
  cr_assert_eq(gbi_quantile(x, 1, 1.5, &out, &err), -EINVAL);
  cr_assert_eq(gbi_quantile(x, 1, NAN, &out, &err), -EINVAL);
  cr_assert_eq(out, 42.0, "out-param set on failure");
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Quickselect must give exactly the values a full sort gives, including on
 * the orders that break naive pivots and on heavy ties. */
Test(quantile, select_matches_sorted_on_many_shapes) {
  enum { N = 257 };
  double x[N], sorted[N], scratch[N];
  unsigned s = 12345;
  for (int shape = 0; shape < 5; shape++) {
    for (size_t n = 1; n <= N; n += (n < 40 ? 1 : 37)) {
      for (size_t i = 0; i < n; i++) {
        s = s * 1103515245u + 12345u;
        double r = (double)(s >> 8);
        double v[] = {r, (double)i, (double)(n - i), (double)(s >> 29), 5.0};
        x[i] = v[shape];
      }
      memcpy(sorted, x, n * sizeof *x);
      qsort(sorted, n, sizeof *sorted, cmp);
      for (double p = 0.0; p <= 1.0; p += 0.0625) {
        memcpy(scratch, x, n * sizeof *x);
        cr_assert_eq(gb_quantile_select(scratch, n, p), gb_quantile_sorted(sorted, n, p),
                     "shape %d n %zu p %g", shape, n, p);
      }
    }
  }
}

Test(quantile, select_twice_on_same_scratch) {
  double x[40];
  for (int i = 0; i < 40; i++) {
    x[i] = (double)((i * 17) % 40); /* a permutation of 0..39 */
  }
  /* h = 39 x 0.025 = 0.975 and 39 x 0.975 = 38.025 */
  cr_assert_float_eq(gb_quantile_select(x, 40, 0.025), 0.975, EPS);
  cr_assert_float_eq(gb_quantile_select(x, 40, 0.975), 38.025, EPS);
  cr_assert_float_eq(gb_quantile_select(x, 40, 0.5), 19.5, EPS);
}

Test(quantile, summary_and_tukey_outliers) {
  /* sorted 1..9, 100: q1 (h = 2.25) 3.25, q3 (h = 6.75) 7.75, IQR 4.5,
   * fences -3.5 and 14.5: only 100 is outside. p95 (h = 8.55) 59.05. */
  double x[] = {100, 9, 8, 7, 6, 5, 4, 3, 2, 1};
  gb_summary s;
  cr_assert_eq(gb_summarize(x, 10, &s, NULL), 0);
  cr_assert_eq(s.n, 10);
  cr_assert_eq(s.min, 1.0);
  cr_assert_eq(s.max, 100.0);
  cr_assert_float_eq(s.q1, 3.25, EPS);
  cr_assert_float_eq(s.median, 5.5, EPS);
  cr_assert_float_eq(s.q3, 7.75, EPS);
  cr_assert_float_eq(s.p95, 59.05, 1e-9);
  cr_assert_eq(s.low_outliers, 0);
  cr_assert_eq(s.high_outliers, 1);
}

Test(quantile, tukey_fences_are_exclusive) {
  /* q1 = 4 and q3 = 8, so IQR = 4 and the fences are -2 and 14; values
   * equal to a fence are not outliers. */
  double x[] = {-2, 4, 4, 4, 8, 8, 8, 14, 4, 8, -2.5, 14.5};
  /* sorted: -2.5 -2 4 4 4 4 8 8 8 8 14 14.5; n = 12, h(0.25) = 2.75 -> 4,
   * h(0.75) = 8.25 -> 8 + 0.25 (8 - 8) = 8. */
  gb_summary s;
  cr_assert_eq(gb_summarize(x, 12, &s, NULL), 0);
  cr_assert_eq(s.q1, 4.0);
  cr_assert_eq(s.q3, 8.0);
  cr_assert_eq(s.low_outliers, 1, "only -2.5 is below -2");
  cr_assert_eq(s.high_outliers, 1, "only 14.5 is above 14");
}

Test(quantile, zero_iqr_flags_every_other_value) {
  double x[] = {1, 2, 2, 2, 5}; /* q1 = q3 = 2: both ends are outliers */
  gb_summary s;
  cr_assert_eq(gb_summarize(x, 5, &s, NULL), 0);
  cr_assert_eq(s.low_outliers, 1);
  cr_assert_eq(s.high_outliers, 1);
}
