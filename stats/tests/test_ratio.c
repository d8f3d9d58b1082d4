/* Ratio readings, with interval edges placed exactly on each boundary. */
#include "greenbench/ratio.h"

#include "boot_internal.h"
#include "stats_internal.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define M GB_RATIO_MARGIN_DEFAULT

/* A configuration with chosen replicates of time and energy per sort (the
 * other estimates are unused by ratios and left at zero). */
static gb_boot fake(size_t n, const double *t, const double *e, double t_point,
                    double e_point) {
  gb_boot b = {.n_runs = 30,
               .n_replicates = n,
               .n_held = n,
               .n_held_estimates = GB_EST_COUNT,
               .has_energy = e != NULL};
  b.replicates = calloc(GB_EST_COUNT * n, sizeof(double));
  cr_assert_not_null(b.replicates);
  double *rt = b.replicates + GB_EST_TIME_PER_SORT * n;
  double *re = b.replicates + GB_EST_ENERGY_PER_SORT * n;
  for (size_t r = 0; r < n; r++) {
    rt[r] = t[r];
    re[r] = e ? e[r] : NAN;
    b.est[GB_EST_TIME_PER_SORT].n_nonpositive += !(rt[r] > 0.0);
    b.est[GB_EST_ENERGY_PER_SORT].n_nonpositive += !(re[r] > 0.0);
  }
  b.est[GB_EST_TIME_PER_SORT].point = t_point;
  b.est[GB_EST_ENERGY_PER_SORT].point = e ? e_point : NAN;
  return b;
}

static void fill(double *v, size_t n, double x) {
  for (size_t i = 0; i < n; i++) {
    v[i] = x;
  }
}

/* 41 replicates put the 95% interval exactly on order statistics 1 and 39
 * (h = 40 x 0.025 = 1, 40 x 0.975 = 39). B has time and energy 1 in every
 * replicate and A time 1, so replicate r's power ratio is A's energy r
 * exactly; A's energies are lo / 2, lo, 37 values in between, hi, 2 hi. */
static gb_ratio ratio_with_interval(double lo, double hi) {
  enum { B = 41 };
  double ones[B], ea[B];
  fill(ones, B, 1.0);
  fill(ea, B, (lo + hi) / 2.0);
  ea[0] = hi; /* order must not matter */
  ea[1] = lo / 2.0;
  ea[2] = 2.0 * hi;
  ea[40] = lo;
  gb_boot a = fake(B, ones, ea, 1.0, (lo + hi) / 2.0);
  gb_boot b = fake(B, ones, ones, 1.0, 1.0);
  gb_ratio r;
  gb_err err = {{0}};
  cr_assert_eq(gbi_ratio_of(&a, &b, M, 0.95, &r, &err), 0, "%s", err.msg);
  cr_assert_eq(r.power.lo, lo);
  cr_assert_eq(r.power.hi, hi);
  gb_boot_free(&a);
  gb_boot_free(&b);
  return r;
}

#define READS(lo, hi, want)                                                                    \
  do {                                                                                         \
    gb_ratio r_ = ratio_with_interval((lo), (hi));                                             \
    cr_assert_eq(r_.reading, (want), "[%.17g, %.17g] reads %s", (double)(lo), (double)(hi),    \
                 gb_reading_name(r_.reading));                                                 \
  } while (0)

Test(ratio, same_with_edges_exactly_on_the_margin) {
  READS(1.0 / (1.0 + M), 1.0 + M, GB_READING_SAME);
}

Test(ratio, just_past_the_lower_margin_is_inconclusive) {
  READS(nextafter(1.0 / (1.0 + M), 0.0), 1.0 + M, GB_READING_INCONCLUSIVE);
}

Test(ratio, just_past_the_upper_margin_is_inconclusive) {
  READS(1.0 / (1.0 + M), nextafter(1.0 + M, 2.0), GB_READING_INCONCLUSIVE);
}

Test(ratio, an_edge_exactly_at_one_includes_one) {
  READS(1.0, 1.5, GB_READING_INCONCLUSIVE);
  READS(0.5, 1.0, GB_READING_INCONCLUSIVE);
}

Test(ratio, an_edge_just_past_one_differs) {
  gb_ratio up = ratio_with_interval(nextafter(1.0, 2.0), 1.5);
  cr_assert_eq(up.reading, GB_READING_DIFFERS);
  cr_assert(up.excludes_one);
  READS(0.5, nextafter(1.0, 0.0), GB_READING_DIFFERS);
}

Test(ratio, inside_the_margin_but_excluding_one_reads_same) {
  gb_ratio r = ratio_with_interval(1.02, 1.08);
  cr_assert_eq(r.reading, GB_READING_SAME);
  cr_assert(r.excludes_one, "still counted among intervals that exclude 1");
}

Test(ratio, read_boundaries_with_another_margin) {
  /* m = 0.25: 1 / 1.25 = 0.8 and 1.25 are exact in binary. */
  cr_assert_eq(gbi_ratio_read(0.8, 1.25, 0.25, false), GB_READING_SAME);
  cr_assert_eq(gbi_ratio_read(nextafter(0.8, 0), 1.25, 0.25, false), GB_READING_INCONCLUSIVE);
  cr_assert_eq(gbi_ratio_read(0.8, nextafter(1.25, 2), 0.25, false), GB_READING_INCONCLUSIVE);
  cr_assert_eq(gbi_ratio_read(1.3, 1.4, 0.25, false), GB_READING_DIFFERS);
  cr_assert_eq(gbi_ratio_read(0.9, 1.0, 0.25, false), GB_READING_SAME);
  cr_assert_eq(gbi_ratio_read(0.9, 1.0, 0.25, true), GB_READING_UNDEFINED);
  cr_assert_eq(gbi_ratio_read(NAN, 1.0, 0.25, false), GB_READING_UNDEFINED);
}

/* B = 200: 5 replicates not > 0 is exactly 2.5% (defined), 6 is more. */
static gb_reading reading_with_nonpositive(int side, bool energy, int count) {
  enum { B = 200 };
  double ta[B], ea[B], tb[B], eb[B];
  fill(ta, B, 2.0);
  fill(ea, B, 2.0);
  fill(tb, B, 1.0);
  fill(eb, B, 1.0);
  double *v = side == 0 ? (energy ? ea : ta) : (energy ? eb : tb);
  for (int i = 0; i < count; i++) {
    v[i * 37 % B] = i % 2 ? 0.0 : -1.0; /* zero counts as well as below */
  }
  gb_boot a = fake(B, ta, ea, 2.0, 2.0), b = fake(B, tb, eb, 1.0, 1.0);
  gb_ratio r;
  cr_assert_eq(gbi_ratio_of(&a, &b, M, 0.95, &r, NULL), 0);
  if (r.reading != GB_READING_UNDEFINED) {
    cr_assert_eq(r.power.n_used, B - (size_t)count, "those replicates are left out");
  } else {
    /* Issue 32, B: an undefined reading carries no point and no interval. */
    cr_assert_not(r.power.available);
    cr_assert(isnan(r.power.point) && isnan(r.power.lo) && isnan(r.power.hi));
    cr_assert_eq(r.power.n_used, 0);
    cr_assert(r.power.n_nonpositive >= (size_t)count);
  }
  gb_boot_free(&a);
  gb_boot_free(&b);
  return r.reading;
}

Test(ratio, undefined_threshold_is_more_than_two_and_a_half_percent) {
  for (int side = 0; side < 2; side++) {
    for (int energy = 0; energy < 2; energy++) {
      cr_assert_eq(reading_with_nonpositive(side, energy, 5), GB_READING_SAME,
                   "side %d energy %d at 2.5%%", side, energy);
      cr_assert_eq(reading_with_nonpositive(side, energy, 6), GB_READING_UNDEFINED,
                   "side %d energy %d above 2.5%%", side, energy);
    }
  }
}

Test(ratio, missing_energy_is_undefined_but_keeps_the_time_ratio) {
  enum { B = 41 };
  double t2[B], t1[B];
  fill(t2, B, 2.0);
  fill(t1, B, 1.0);
  gb_boot a = fake(B, t2, NULL, 2.0, NAN), b = fake(B, t1, t1, 1.0, 1.0);
  gb_ratio r;
  cr_assert_eq(gbi_ratio_of(&a, &b, M, 0.95, &r, NULL), 0);
  cr_assert_eq(r.reading, GB_READING_UNDEFINED);
  cr_assert_not(r.excludes_one);
  cr_assert(r.time.available);
  cr_assert_eq(r.time.point, 2.0);
  cr_assert_eq(r.time.lo, 2.0);
  cr_assert_not(r.energy.available);
  cr_assert_not(r.power.available);
  cr_assert(isnan(r.power.point));
  gb_boot_free(&a);
  gb_boot_free(&b);
}

Test(ratio, nonpositive_median_is_undefined) {
  enum { B = 41 };
  double t1[B];
  fill(t1, B, 1.0);
  gb_boot a = fake(B, t1, t1, 1.0, 0.0), b = fake(B, t1, t1, 1.0, 1.0);
  gb_ratio r;
  cr_assert_eq(gbi_ratio_of(&a, &b, M, 0.95, &r, NULL), 0);
  cr_assert_eq(r.reading, GB_READING_UNDEFINED);
  cr_assert(isnan(r.power.point) && isnan(r.power.lo) && isnan(r.power.hi));
  gb_boot_free(&a);
  gb_boot_free(&b);
}

Test(ratio, point_estimates_are_ratios_of_medians) {
  enum { B = 41 };
  double ta[B], ea[B], tb[B], eb[B];
  fill(ta, B, 3.0);
  fill(ea, B, 12.0);
  fill(tb, B, 1.5);
  fill(eb, B, 4.0);
  gb_boot a = fake(B, ta, ea, 3.0, 12.0), b = fake(B, tb, eb, 1.5, 4.0);
  gb_ratio r;
  cr_assert_eq(gbi_ratio_of(&a, &b, M, 0.95, &r, NULL), 0);
  cr_assert_eq(r.time.point, 2.0);   /* 3 / 1.5 */
  cr_assert_eq(r.energy.point, 3.0); /* 12 / 4 */
  cr_assert_eq(r.power.point, 1.5);  /* 3 / 2: A draws 50% more power */
  cr_assert_eq(r.power.lo, 1.5);
  cr_assert_eq(r.reading, GB_READING_DIFFERS);
  gb_boot_free(&a);
  gb_boot_free(&b);
}

/* End to end: B runs twice as long as A at the same power, C at 30% more. */
static void runs_at(gb_run *runs, double wall, double watts, unsigned salt) {
  unsigned s = 2463534242u ^ salt;
  for (int i = 0; i < 30; i++) {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    double w = wall * (1.0 + 0.02 * ((double)(s % 1000) / 1000.0 - 0.5));
    double p = watts * (1.0 + 0.01 * ((double)(s / 1000 % 1000) / 1000.0 - 0.5));
    runs[i] = (gb_run){.wall_ns = w,
                       .cpu_ns = w,
                       .energy_uj = w * p * 1e-3,
                       .idle_ns = w,
                       .idle_energy_uj = 0,
                       .sorts = 20};
  }
}

Test(ratio, end_to_end_readings) {
  gb_run ra[30], rb[30], rc[30];
  runs_at(ra, 1e9, 20.0, 1);
  runs_at(rb, 2e9, 20.0, 2);
  runs_at(rc, 1e9, 26.0, 3);
  gb_startup st = {0};
  gb_boot_opts o = GB_BOOT_OPTS_DEFAULT;
  gb_boot a, b, c;
  cr_assert_eq(
      gbi_boot_run(ra, 30, &st,
                   &(gb_boot_opts){.seed = 1, .stream = 0, .replicates = 10000, .level = 0.95},
                   &a, NULL),
      0);
  o.seed = 1;
  o.stream = 1;
  cr_assert_eq(gbi_boot_run(rb, 30, &st, &o, &b, NULL), 0);
  o.stream = 2;
  cr_assert_eq(gbi_boot_run(rc, 30, &st, &o, &c, NULL), 0);
  gb_ratio ba, ca;
  cr_assert_eq(gbi_ratio_of(&b, &a, M, 0.95, &ba, NULL), 0);
  cr_assert_eq(gbi_ratio_of(&c, &a, M, 0.95, &ca, NULL), 0);
  cr_assert(ba.time.lo > 1.9 && ba.time.hi < 2.1, "[%g, %g]", ba.time.lo, ba.time.hi);
  cr_assert_eq(ba.reading, GB_READING_SAME, "%s", gb_reading_name(ba.reading));
  cr_assert(ca.power.lo > 1.25 && ca.power.hi < 1.35, "[%g, %g]", ca.power.lo, ca.power.hi);
  cr_assert_eq(ca.reading, GB_READING_DIFFERS, "%s", gb_reading_name(ca.reading));
  gb_boot_free(&a);
  gb_boot_free(&b);
  gb_boot_free(&c);
}

Test(ratio, rejects_bad_arguments) {
  double t[2] = {1, 1};
  gb_boot a = fake(2, t, t, 1, 1), b = fake(1, t, t, 1, 1);
  gb_ratio r = {.reading = GB_READING_SAME};
  gb_err err = {{0}};
  cr_assert_eq(gbi_ratio_of(&a, &b, M, 0.95, &r, &err), -EINVAL);
  cr_assert(strstr(err.msg, "replicates"), "%s", err.msg);
  cr_assert_eq(gbi_ratio_of(&a, &a, 0.0, 0.95, &r, &err), -EINVAL);
  cr_assert_eq(gbi_ratio_of(&a, &a, NAN, 0.95, &r, &err), -EINVAL);
  cr_assert_eq(gbi_ratio_of(&a, &a, M, 0.0, &r, &err), -EINVAL);
  cr_assert_eq(r.reading, GB_READING_SAME, "out-param set on failure");
  gb_boot c = fake(2, t, t, 1, 1);
  gb_boot_trim(&c, 2); /* time and energy kept whole: still a ratio */
  cr_assert_eq(gbi_ratio_of(&a, &c, M, 0.95, &r, &err), 0, "%s", err.msg);
  gb_boot_trim(&c, 1); /* a replicate released */
  cr_assert_eq(gbi_ratio_of(&a, &c, M, 0.95, &r, &err), -EINVAL);
  cr_assert(strstr(err.msg, "released"), "%s", err.msg);
  gb_boot_free(&a);
  gb_boot_free(&b);
  gb_boot_free(&c);
}

Test(ratio, tally_counts_intervals_excluding_one) {
  gb_ratio r[5] = {
      {.reading = GB_READING_DIFFERS, .excludes_one = true},
      {.reading = GB_READING_SAME, .excludes_one = true},
      {.reading = GB_READING_SAME},
      {.reading = GB_READING_INCONCLUSIVE},
      {.reading = GB_READING_UNDEFINED},
  };
  gb_ratio_tally t;
  gb_ratio_tally_of(r, 5, 0.95, &t);
  cr_assert_eq(t.total, 5);
  cr_assert_eq(t.defined, 4);
  cr_assert_eq(t.excluding_one, 2);
  cr_assert_float_eq(t.expected_by_chance, 0.2, 1e-12); /* 5% of 4 */
  cr_assert_eq(t.readings[GB_READING_SAME], 2);
  cr_assert_eq(t.readings[GB_READING_UNDEFINED], 1);
  cr_assert_str_eq(gb_reading_name(GB_READING_INCONCLUSIVE), "inconclusive");
}
