/* Spearman's rho with average ranks, worked by hand. */
#include "greenbench/spearman.h"

#include "stats_internal.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

static gb_rho rho(const double *x, const double *y, size_t n) {
  gb_rho r = {.defined = true, .rho = 42.0};
  gb_err err = {{0}};
  cr_assert_eq(gbi_spearman(x, y, n, &r, &err), 0, "%s", err.msg);
  return r;
}

Test(spearman, average_ranks) {
  double x[] = {10, 20, 20, 5, 20}, ranks[5];
  cr_assert_eq(gbi_rank_average(x, 5, ranks, NULL), 0);
  /* 5 -> 1, 10 -> 2, the three 20s share (3 + 4 + 5) / 3 = 4. */
  double want[] = {2, 4, 4, 1, 4};
  for (int i = 0; i < 5; i++) {
    cr_assert_eq(ranks[i], want[i], "rank %d", i);
  }
}

/* x = 1 2 2 3 ranks 1 2.5 2.5 4; y = 1 3 2 4 ranks 1 3 2 4. Both means are
 * 2.5; deviations (-1.5 0 0 1.5) and (-1.5 0.5 -0.5 1.5): sxy = 4.5,
 * sxx = 4.5, syy = 5, rho = 4.5 / sqrt(22.5) = sqrt(0.9). */
Test(spearman, ties_hand_computed) {
  double x[] = {1, 2, 2, 3}, y[] = {1, 3, 2, 4};
  gb_rho r = rho(x, y, 4);
  cr_assert(r.defined);
  cr_assert_float_eq(r.rho, sqrt(0.9), 1e-15);
}

/* No ties: 1 - 6 sum d^2 / (n (n^2 - 1)). x ranks 1..5, y = 2 1 4 3 5:
 * d = -1 1 -1 1 0, sum d^2 = 4, rho = 1 - 24 / 120 = 0.8. */
Test(spearman, no_ties_matches_textbook_formula) {
  double x[] = {1, 2, 3, 4, 5}, y[] = {20, 10, 40, 30, 50};
  cr_assert_float_eq(rho(x, y, 5).rho, 0.8, 1e-15);
}

Test(spearman, monotone_gives_plus_and_minus_one) {
  double x[] = {1, 2, 3, 4, 5, 6}, up[] = {1, 8, 27, 64, 125, 216};
  double down[] = {0.6, 0.5, 0.4, 0.3, 0.2, 0.1};
  cr_assert_eq(rho(x, up, 6).rho, 1.0);
  cr_assert_eq(rho(x, down, 6).rho, -1.0);
}

Test(spearman, undefined_cases) {
  double x[] = {1, 2, 3}, flat[] = {4, 4, 4};
  gb_rho r = rho(x, flat, 3);
  cr_assert_not(r.defined);
  cr_assert(isnan(r.rho));
  r = rho(flat, x, 3);
  cr_assert_not(r.defined);
  r = rho(x, x, 1);
  cr_assert_not(r.defined);
  cr_assert(isnan(r.rho));
  r = rho(x, x, 0);
  cr_assert_not(r.defined);
}

Test(spearman, nan_is_an_error) {
  double x[] = {1, NAN, 3}, y[] = {1, 2, 3};
  gb_rho r = {.defined = true, .rho = 0.5};
  gb_err err = {{0}};
  cr_assert_eq(gbi_spearman(x, y, 3, &r, &err), -EINVAL);
  cr_assert_eq(gbi_spearman(y, x, 3, &r, &err), -EINVAL);
  cr_assert_eq(r.rho, 0.5, "out-param set on failure");
}

/* Configurations with chosen replicates of time and energy per sort. */
static gb_boot fake(size_t n, double t_point, double e_point, const double *t,
                    const double *e) {
  gb_boot b = {.n_runs = 30,
               .n_replicates = n,
               .n_held = n,
               .n_held_estimates = GB_EST_COUNT,
               .has_energy = true};
  b.replicates = calloc(GB_EST_COUNT * n, sizeof(double));
  cr_assert_not_null(b.replicates);
  for (size_t r = 0; r < n; r++) {
    b.replicates[GB_EST_TIME_PER_SORT * n + r] = t[r];
    b.replicates[GB_EST_ENERGY_PER_SORT * n + r] = e[r];
  }
  for (int k = 0; k < GB_EST_COUNT; k++) {
    b.est[k].available = true;
  }
  b.est[GB_EST_TIME_PER_SORT].point = t_point;
  b.est[GB_EST_ENERGY_PER_SORT].point = e_point;
  return b;
}

/* Three configurations, 4 replicates each. Times rank 1 2 3 in every
 * replicate. Energies rank 1 2 3 in replicates 0 and 2 (rho 1), 1 3 2 in
 * replicate 1 (rho 0.5: d = 0 -1 1), and are all equal in replicate 3
 * (undefined, left out). Point: energies 1 3 2 -> rho 0.5. */
Test(spearman, interval_across_configurations) {
  double t[3][4] = {{1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}};
  double e[3][4] = {{1, 1, 1, 7}, {2, 3, 2, 7}, {3, 2, 3, 7}};
  gb_boot c[3];
  double ep[3] = {1, 3, 2};
  for (int i = 0; i < 3; i++) {
    c[i] = fake(4, t[i][0], ep[i], t[i], e[i]);
  }
  const gb_boot *cs[3] = {&c[0], &c[1], &c[2]};
  gb_rho_interval iv;
  gb_err err = {{0}};
  cr_assert_eq(
      gb_spearman_boot(cs, 3, GB_EST_TIME_PER_SORT, GB_EST_ENERGY_PER_SORT, 4, 0.5, &iv, &err),
      0, "%s", err.msg);
  cr_assert(iv.point.defined);
  cr_assert_float_eq(iv.point.rho, 0.5, 1e-15);
  cr_assert_eq(iv.n_used, 3);
  /* rhos 1, 0.5, 1 at level 0.5: type 7 at 0.25 and 0.75 of 0.5 1 1:
   * h = 0.5 -> 0.75, h = 1.5 -> 1. */
  cr_assert_float_eq(iv.lo, 0.75, 1e-15);
  cr_assert_float_eq(iv.hi, 1.0, 1e-15);
  /* Only the first 2 replicates: rhos 1 and 0.5. */
  cr_assert_eq(
      gb_spearman_boot(cs, 3, GB_EST_TIME_PER_SORT, GB_EST_ENERGY_PER_SORT, 2, 0.5, &iv, &err),
      0);
  cr_assert_eq(iv.n_used, 2);
  cr_assert_float_eq(iv.lo, 0.625, 1e-15); /* h = 0.25 */
  cr_assert_eq(
      gb_spearman_boot(cs, 3, GB_EST_TIME_PER_SORT, GB_EST_ENERGY_PER_SORT, 5, 0.5, &iv, &err),
      -EINVAL, "more replicates than configurations hold");
  c[1].est[GB_EST_ENERGY_PER_SORT].available = false;
  cr_assert_eq(
      gb_spearman_boot(cs, 3, GB_EST_TIME_PER_SORT, GB_EST_ENERGY_PER_SORT, 4, 0.5, &iv, &err),
      0);
  cr_assert_not(iv.point.defined);
  cr_assert(isnan(iv.lo) && isnan(iv.hi));
  c[1].est[GB_EST_ENERGY_PER_SORT].available = true;
  gb_boot_trim(&c[2], 3); /* what a report keeps: time and energy, fewer replicates */
  cr_assert_eq(
      gb_spearman_boot(cs, 3, GB_EST_TIME_PER_SORT, GB_EST_ENERGY_PER_SORT, 3, 0.5, &iv, &err),
      0, "%s", err.msg);
  cr_assert_eq(
      gb_spearman_boot(cs, 3, GB_EST_TIME_PER_SORT, GB_EST_ENERGY_PER_SORT, 4, 0.5, &iv, &err),
      -EINVAL, "more replicates than a trimmed configuration holds");
  cr_assert_eq(
      gb_spearman_boot(cs, 3, GB_EST_TIME_PER_SORT, GB_EST_CPU_PER_SORT, 3, 0.5, &iv, &err),
      -EINVAL, "an estimate the trim released");
  for (int i = 0; i < 3; i++) {
    gb_boot_free(&c[i]);
  }
}

/* Average ranks by counting, O(n^2): rank = 1 + (values below) + (ties
 * other than itself) / 2. */
static double naive_rank(const double *x, size_t n, size_t i) {
  double below = 0, tied = 0;
  for (size_t j = 0; j < n; j++) {
    below += x[j] < x[i];
    tied += j != i && x[j] == x[i];
  }
  return 1.0 + below + tied / 2.0;
}

/* The ranks behind every rho come from a sort of (value, index): the
 * average ranks by counting, for lengths across the sort's insertion
 * cutoff and its partitions, with many ties, sorted and reversed input. */
Test(spearman, average_ranks_match_counting) {
  enum { MAX = 300 };
  double x[MAX], ranks[MAX];
  uint64_t s = 12345;
  for (size_t n = 1; n <= MAX; n += n < 40 ? 1 : 37) {
    for (int shape = 0; shape < 4; shape++) {
      for (size_t i = 0; i < n; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        x[i] = shape == 0   ? (double)(s % 1000)
               : shape == 1 ? (double)(s % 3) /* mostly ties */
               : shape == 2 ? (double)i
                            : (double)(n - i) / 4.0;
      }
      gb_err err = {{0}};
      cr_assert_eq(gbi_rank_average(x, n, ranks, &err), 0, "%s", err.msg);
      for (size_t i = 0; i < n; i++) {
        cr_assert_eq(ranks[i], naive_rank(x, n, i), "n %zu shape %d value %zu", n, shape, i);
      }
    }
  }
}
