/* The percentile bootstrap on fixed data with fixed seeds. */
#include "greenbench/bootstrap.h"
#include "greenbench/quantile.h"
#include "greenbench/rng.h"

#include "boot_internal.h"
#include "greenbench/quantile_rule.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const gb_startup NO_STARTUP = {.time_ns = 0, .cpu_ns = 0, .energy_uj = 0};

/* 30 plausible runs: about 1.2 s each, 25 W above a 5 W idle, 10 sorts,
 * with deterministic scatter of a few percent. */
static void plausible_runs(gb_run *runs, size_t n, unsigned salt) {
  unsigned s = 2463534242u ^ salt;
  for (size_t i = 0; i < n; i++) {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    double jitter = (double)(s % 1000) / 1000.0 - 0.5; /* [-0.5, 0.5) */
    double wall = 1.2e9 * (1.0 + 0.04 * jitter);
    runs[i] = (gb_run){.wall_ns = wall,
                       .cpu_ns = wall * 0.98,
                       .energy_uj = wall * 0.030 * (1.0 + 0.03 * jitter * jitter),
                       .idle_ns = wall,
                       .idle_energy_uj = wall * 0.005,
                       .sorts = 10};
  }
}

static gb_boot boot(const gb_run *runs, size_t n, const gb_startup *st, uint64_t seed,
                    uint64_t stream, size_t replicates) {
  gb_boot_opts o = GB_BOOT_OPTS_DEFAULT;
  o.seed = seed;
  o.stream = stream;
  o.replicates = replicates;
  gb_boot b;
  gb_err err = {{0}};
  cr_assert_eq(gbi_boot_run(runs, n, st, &o, &b, &err), 0, "%s", err.msg);
  return b;
}

/* A run worked by hand: 1.2 s wall, 0.2 s startup, 10 sorts -> 0.1 s per
 * sort. 30 J measured; idle 4 J over 0.8 s is 5 W, scaled to the 1.2 s run
 * 6 J, so 24 J net; startup 4 J net -> (24 - 4) / 10 = 2 J per sort, and
 * 2 J / 0.1 s = 20 W. Including idle: 2 J + 5 W x 0.1 s = 2.5 J. CPU:
 * (2.4 s - 0.4 s) / 10 = 0.2 s. Every value is exact in binary. */
Test(bootstrap, hand_computed_run) {
  gb_run run = {.wall_ns = 1.2e9,
                .cpu_ns = 2.4e9,
                .energy_uj = 30e6,
                .idle_ns = 0.8e9,
                .idle_energy_uj = 4e6,
                .sorts = 10};
  gb_startup st = {.time_ns = 0.2e9, .cpu_ns = 0.4e9, .energy_uj = 4e6};
  cr_assert_eq(gb_net_energy_uj(30e6, 4e6, 1.2e9, 0.8e9), 24e6);
  gb_run_values v;
  cr_assert_eq(gbi_run_values_of(&run, &st, &v, NULL), 0);
  cr_assert_eq(v.time_per_sort_ns, 1e8);
  cr_assert_eq(v.energy_per_sort_uj, 2e6);
  cr_assert_eq(v.process_ns, 1.2e9);
  cr_assert_eq(v.cpu_per_sort_ns, 2e8);
  cr_assert_eq(v.gross_energy_per_sort_uj, 2.5e6);

  gb_boot b = boot(&run, 1, &st, 1, 0, 100);
  cr_assert(b.has_energy);
  cr_assert_eq(b.est[GB_EST_TIME_PER_SORT].point, 1e8);
  cr_assert_eq(b.est[GB_EST_ENERGY_PER_SORT].point, 2e6);
  cr_assert_float_eq(b.est[GB_EST_NET_POWER].point, 20.0, 1e-12);
  cr_assert_float_eq(b.est[GB_EST_NET_POWER].lo, 20.0, 1e-12);
  gb_boot_free(&b);
}

Test(bootstrap, missing_energy_stays_missing) {
  gb_run run = {.wall_ns = 1e9,
                .cpu_ns = 1e9,
                .energy_uj = NAN,
                .idle_ns = 1e9,
                .idle_energy_uj = NAN,
                .sorts = 4};
  gb_run_values v;
  cr_assert_eq(gbi_run_values_of(&run, &NO_STARTUP, &v, NULL), 0);
  cr_assert(isnan(v.energy_per_sort_uj));
  cr_assert(isnan(v.gross_energy_per_sort_uj));
  cr_assert_eq(v.time_per_sort_ns, 2.5e8);

  gb_run runs[30];
  plausible_runs(runs, 30, 1);
  runs[17].energy_uj = NAN; /* one run without energy: the configuration has none */
  gb_boot b = boot(runs, 30, &NO_STARTUP, 1, 0, 200);
  cr_assert_not(b.has_energy);
  cr_assert(b.est[GB_EST_TIME_PER_SORT].available);
  cr_assert_gt(b.est[GB_EST_TIME_PER_SORT].lo, 0.0);
  gb_estimate energy[] = {GB_EST_ENERGY_PER_SORT, GB_EST_GROSS_ENERGY_PER_SORT,
                          GB_EST_NET_POWER};
  for (int i = 0; i < 3; i++) {
    const gb_interval *iv = &b.est[energy[i]];
    cr_assert_not(iv->available);
    cr_assert(isnan(iv->point) && isnan(iv->lo) && isnan(iv->hi));
    cr_assert_eq(iv->n_used, 0);
    cr_assert(isnan(gb_boot_replicates(&b, energy[i])[123]));
  }
  gb_boot_free(&b);
}

Test(bootstrap, constant_data_gives_zero_width_intervals) {
  gb_run runs[30];
  for (int i = 0; i < 30; i++) {
    runs[i] = (gb_run){.wall_ns = 5e8,
                       .cpu_ns = 5e8,
                       .energy_uj = 1e7,
                       .idle_ns = 5e8,
                       .idle_energy_uj = 2e6,
                       .sorts = 8};
  }
  gb_boot b = boot(runs, 30, &NO_STARTUP, 99, 3, 1000);
  for (int e = 0; e < GB_EST_COUNT; e++) {
    const gb_interval *iv = &b.est[e];
    cr_assert(iv->available, "estimate %d", e);
    cr_assert_eq(iv->lo, iv->point, "estimate %d", e);
    cr_assert_eq(iv->hi, iv->point, "estimate %d", e);
    cr_assert_eq(iv->n_used, 1000);
    cr_assert_eq(iv->n_nonpositive, 0);
  }
  cr_assert_eq(b.est[GB_EST_ENERGY_PER_SORT].point, 1e6); /* (1e7 - 2e6) / 8 */
  gb_boot_free(&b);
}

Test(bootstrap, interval_contains_point_for_plausible_data) {
  gb_run runs[30];
  plausible_runs(runs, 30, 7);
  gb_boot b = boot(runs, 30, &NO_STARTUP, 2463534242u, 11, 10000);
  for (int e = 0; e < GB_EST_COUNT; e++) {
    const gb_interval *iv = &b.est[e];
    cr_assert(iv->lo < iv->hi, "estimate %d: [%g, %g]", e, iv->lo, iv->hi);
    cr_assert(iv->lo <= iv->point && iv->point <= iv->hi, "estimate %d: %g not in [%g, %g]", e,
              iv->point, iv->lo, iv->hi);
    cr_assert_eq(iv->n_nonpositive, 0);
  }
  /* 25 W above idle by construction, give or take the few-percent scatter. */
  cr_assert(b.est[GB_EST_NET_POWER].lo > 24.0 && b.est[GB_EST_NET_POWER].hi < 26.5);
  gb_boot_free(&b);
}

Test(bootstrap, same_input_bit_identical) {
  gb_run runs[30];
  plausible_runs(runs, 30, 3);
  gb_boot a = boot(runs, 30, &NO_STARTUP, 5, 2, 2000);
  gb_boot b = boot(runs, 30, &NO_STARTUP, 5, 2, 2000);
  cr_assert_eq(memcmp(a.replicates, b.replicates, GB_EST_COUNT * 2000 * sizeof(double)), 0);
  cr_assert_eq(memcmp(a.est, b.est, sizeof a.est), 0);
  gb_boot c = boot(runs, 30, &NO_STARTUP, 5, 3, 2000);
  cr_assert_neq(memcmp(a.replicates, c.replicates, 2000 * sizeof(double)), 0,
                "another stream resamples differently");
  gb_boot d = boot(runs, 30, &NO_STARTUP, 6, 2, 2000);
  cr_assert_neq(memcmp(a.replicates, d.replicates, 2000 * sizeof(double)), 0,
                "another seed resamples differently");
  gb_boot_free(&a);
  gb_boot_free(&b);
  gb_boot_free(&c);
  gb_boot_free(&d);
}

/* Processing configurations in reverse order, with other work in between,
 * gives each the same replicates: its stream depends on its index only. */
Test(bootstrap, independent_of_processing_order) {
  enum { K = 4, B = 500 };
  gb_run runs[K][30];
  gb_boot fwd[K], rev[K];
  for (unsigned c = 0; c < K; c++) {
    plausible_runs(runs[c], 30, 100 + c);
  }
  for (unsigned c = 0; c < K; c++) {
    fwd[c] = boot(runs[c], 30, &NO_STARTUP, 77, c, B);
  }
  for (unsigned c = K; c-- > 0;) {
    gb_boot noise = boot(runs[0], 30, &NO_STARTUP, 78, c, B);
    rev[c] = boot(runs[c], 30, &NO_STARTUP, 77, c, B);
    gb_boot_free(&noise);
  }
  for (unsigned c = 0; c < K; c++) {
    cr_assert_eq(
        memcmp(fwd[c].replicates, rev[c].replicates, GB_EST_COUNT * B * sizeof(double)), 0,
        "configuration %u", c);
    gb_boot_free(&fwd[c]);
    gb_boot_free(&rev[c]);
  }
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The documented resampling, done the slow way: draw the index vector,
 * gather each estimate's values, sort, take the type 7 median. The library's
 * count-and-walk medians must match it bit for bit, and every estimate must
 * come from the same index vector. */
Test(bootstrap, matches_naive_resampling) {
  enum { N = 30, B = 300 };
  gb_run runs[N];
  gb_startup st = {.time_ns = 3e7, .cpu_ns = 2e7, .energy_uj = 5e5};
  plausible_runs(runs, N, 42);
  runs[4] = runs[9]; /* ties */
  gb_run_values v[N];
  for (int i = 0; i < N; i++) {
    cr_assert_eq(gbi_run_values_of(&runs[i], &st, &v[i], NULL), 0);
  }
  gb_boot b = boot(runs, N, &st, 2024, 5, B);
  gb_rng rng;
  gb_rng_seed_stream(&rng, 2024, 5);
  for (int r = 0; r < B; r++) {
    double col[5][N];
    for (int i = 0; i < N; i++) {
      const gb_run_values *x = &v[gb_rng_below(&rng, N)];
      double vals[5] = {x->time_per_sort_ns, x->energy_per_sort_uj, x->process_ns,
                        x->cpu_per_sort_ns, x->gross_energy_per_sort_uj};
      for (int e = 0; e < 5; e++) {
        col[e][i] = vals[e];
      }
    }
    double med[5];
    for (int e = 0; e < 5; e++) {
      qsort(col[e], N, sizeof(double), cmp);
      med[e] = gb_quantile_sorted(col[e], N, 0.5);
      cr_assert_eq(gb_boot_replicates(&b, (gb_estimate)e)[r], med[e], "rep %d est %d", r, e);
    }
    cr_assert_eq(gb_boot_replicates(&b, GB_EST_NET_POWER)[r], med[1] / med[0] * 1e3);
  }
  gb_boot_free(&b);
}

/* Issue 32, item 1: with the startup resampled, replicate r subtracts the
 * medians of its own resample of the startup batches (drawn from the
 * startup's stream), checked against a naive resampling: the runs' draws
 * as before, each run's values from that startup, then medians. With equal
 * sorts (values that shift in step) and with unequal ones (gathered). */
static void check_startup_resampled(bool equal_sorts) {
  enum { N = 30, NB = 12, B = 300 };
  gb_run runs[N];
  plausible_runs(runs, N, 7);
  for (int i = 0; equal_sorts == false && i < N; i++) {
    runs[i].sorts = 8 + (uint64_t)(i % 5);
  }
  gb_startup batches[NB];
  for (int i = 0; i < NB; i++) {
    batches[i] = (gb_startup){.time_ns = 2e7 + 1e6 * ((i * 7) % NB),
                              .cpu_ns = 1e7 + 5e5 * ((i * 5) % NB),
                              .energy_uj = 3e5 + 2e4 * ((i * 11) % NB)};
  }
  gb_startup st = {.time_ns = 0, .cpu_ns = 0, .energy_uj = 0};
  double col[3][NB];
  for (int f = 0; f < 3; f++) {
    for (int i = 0; i < NB; i++) {
      col[f][i] = f == 0   ? batches[i].time_ns
                  : f == 1 ? batches[i].cpu_ns
                           : batches[i].energy_uj;
    }
  }
  st.time_ns = gb_quantile_select(col[0], NB, 0.5);
  st.cpu_ns = gb_quantile_select(col[1], NB, 0.5);
  st.energy_uj = gb_quantile_select(col[2], NB, 0.5);
  gb_boot_opts o = GB_BOOT_OPTS_DEFAULT;
  o.seed = 2024;
  o.stream = 5;
  o.replicates = B;
  o.startup_batches = batches;
  o.n_startup_batches = NB;
  o.startup_stream = UINT64_C(1) << 63 | 77;
  gb_boot b;
  gb_err err = {{0}};
  cr_assert_eq(gbi_boot_run(runs, N, &st, &o, &b, &err), 0, "%s", err.msg);
  gb_startup reps[B];
  cr_assert_eq(gb_boot_startup_replicates(batches, NB, 2024, o.startup_stream, B, reps, &err),
               0);
  gb_rng rng, srng;
  gb_rng_seed_stream(&rng, 2024, 5);
  gb_rng_seed_stream(&srng, 2024, o.startup_stream);
  for (int r = 0; r < B; r++) {
    double sc[3][NB];
    for (int i = 0; i < NB; i++) {
      const gb_startup *x = &batches[gb_rng_below(&srng, NB)];
      sc[0][i] = x->time_ns;
      sc[1][i] = x->cpu_ns;
      sc[2][i] = x->energy_uj;
    }
    gb_startup sr = {.time_ns = gb_quantile_select(sc[0], NB, 0.5),
                     .cpu_ns = gb_quantile_select(sc[1], NB, 0.5),
                     .energy_uj = gb_quantile_select(sc[2], NB, 0.5)};
    cr_assert_eq(reps[r].time_ns, sr.time_ns);
    cr_assert_eq(reps[r].cpu_ns, sr.cpu_ns);
    cr_assert_eq(reps[r].energy_uj, sr.energy_uj);
    double v[5][N];
    for (int i = 0; i < N; i++) {
      gb_run_values x;
      cr_assert_eq(gbi_run_values_of(&runs[gb_rng_below(&rng, N)], &sr, &x, NULL), 0);
      double vals[5] = {x.time_per_sort_ns, x.energy_per_sort_uj, x.process_ns,
                        x.cpu_per_sort_ns, x.gross_energy_per_sort_uj};
      for (int e = 0; e < 5; e++) {
        v[e][i] = vals[e];
      }
    }
    for (int e = 0; e < 5; e++) {
      double want = gb_quantile_select(v[e], N, 0.5);
      double got = gb_boot_replicates(&b, (gb_estimate)e)[r];
      cr_assert(fabs(got - want) <= 1e-9 * fabs(want), "rep %d est %d: %.17g, expected %.17g",
                r, e, got, want);
    }
  }
  gb_boot_free(&b);
}

Test(bootstrap, startup_resampled_with_equal_sorts_matches_naive) {
  check_startup_resampled(true);
}

Test(bootstrap, startup_resampled_with_unequal_sorts_matches_naive) {
  check_startup_resampled(false);
}

/* Batches that all cost the fixed startup give the intervals of a fixed
 * startup, bit for bit; noisy batches widen the interval of time per sort
 * and leave process time alone. */
Test(bootstrap, startup_resampled_widens_only_what_it_should) {
  enum { N = 30, NB = 10, B = 2000 };
  gb_run runs[N];
  plausible_runs(runs, N, 3);
  gb_startup st = {.time_ns = 3e8, .cpu_ns = 2e8, .energy_uj = 4e6};
  gb_startup same[NB], noisy[NB];
  for (int i = 0; i < NB; i++) {
    same[i] = st;
    noisy[i] = (gb_startup){.time_ns = 3e8 * (0.7 + 0.06 * i), .cpu_ns = 2e8, .energy_uj = 4e6};
  }
  gb_boot fixed = boot(runs, N, &st, 9, 2, B);
  gb_boot_opts o = GB_BOOT_OPTS_DEFAULT;
  o.seed = 9;
  o.stream = 2;
  o.replicates = B;
  o.startup_batches = same;
  o.n_startup_batches = NB;
  o.startup_stream = 11;
  gb_boot b;
  cr_assert_eq(gbi_boot_run(runs, N, &st, &o, &b, NULL), 0);
  for (int e = 0; e < GB_EST_COUNT; e++) {
    cr_assert_eq(memcmp(gb_boot_replicates(&b, (gb_estimate)e),
                        gb_boot_replicates(&fixed, (gb_estimate)e), B * sizeof(double)),
                 0, "estimate %d", e);
  }
  gb_boot_free(&b);
  noisy[NB / 2].time_ns = st.time_ns;
  o.startup_batches = noisy;
  cr_assert_eq(gbi_boot_run(runs, N, &st, &o, &b, NULL), 0);
  const gb_interval *t = &b.est[GB_EST_TIME_PER_SORT], *t0 = &fixed.est[GB_EST_TIME_PER_SORT];
  cr_assert_gt(t->hi - t->lo, 1.5 * (t0->hi - t0->lo));
  cr_assert_eq(t->point, t0->point, "the point subtracts the fixed startup");
  cr_assert_eq(b.est[GB_EST_PROCESS_TIME].lo, fixed.est[GB_EST_PROCESS_TIME].lo);
  cr_assert_eq(b.est[GB_EST_PROCESS_TIME].hi, fixed.est[GB_EST_PROCESS_TIME].hi);
  gb_boot_free(&b);
  gb_boot_free(&fixed);
  gb_startup none[1];
  cr_assert_eq(gb_boot_startup_replicates(none, 0, 1, 1, 1, none, NULL), -EINVAL);
}

/* Two runs with energy per sort -1 and 3 uJ: a resample's median is -1
 * (both draws run 0), 3 (both run 1) or 1 (one of each), so the replicates
 * at or below zero are exactly those that drew run 0 twice. */
Test(bootstrap, counts_replicates_at_or_below_zero) {
  gb_run runs[2] = {
      {.wall_ns = 1e9,
       .cpu_ns = 1e9,
       .energy_uj = 0,
       .idle_ns = 1e9,
       .idle_energy_uj = 0,
       .sorts = 1},
      {.wall_ns = 1e9,
       .cpu_ns = 1e9,
       .energy_uj = 4,
       .idle_ns = 1e9,
       .idle_energy_uj = 0,
       .sorts = 1},
  };
  gb_startup st = {.time_ns = 0, .cpu_ns = 0, .energy_uj = 1}; /* -1 and 3 per sort */
  enum { B = 4000 };
  gb_boot b = boot(runs, 2, &st, 8, 1, B);
  gb_rng rng;
  gb_rng_seed_stream(&rng, 8, 1);
  size_t twice_run0 = 0;
  for (int r = 0; r < B; r++) {
    uint64_t i = gb_rng_below(&rng, 2), j = gb_rng_below(&rng, 2);
    twice_run0 += i == 0 && j == 0;
  }
  const gb_interval *e = &b.est[GB_EST_ENERGY_PER_SORT];
  cr_assert_eq(e->n_nonpositive, twice_run0);
  cr_assert(twice_run0 > B / 4 - 150 && twice_run0 < B / 4 + 150, "%zu", twice_run0);
  cr_assert_eq(e->point, 1.0);
  cr_assert_eq(e->lo, -1.0);
  cr_assert_eq(e->hi, 3.0);
  cr_assert_eq(b.est[GB_EST_NET_POWER].n_nonpositive, twice_run0);
  cr_assert_eq(b.est[GB_EST_TIME_PER_SORT].n_nonpositive, 0);
  gb_boot_free(&b);
}

/* Issue 32, A: a median energy per sort at or below 0 leaves net power
 * undefined, with neither a point nor an interval, so that no writer can
 * print it or count it in a range. */
Test(bootstrap, net_power_undefined_when_energy_not_above_zero) {
  gb_run runs[3];
  for (int i = 0; i < 3; i++) {
    runs[i] = (gb_run){.wall_ns = 1e9,
                       .cpu_ns = 1e9,
                       .energy_uj = 2.0 + i,
                       .idle_ns = 1e9,
                       .idle_energy_uj = 0,
                       .sorts = 1};
  }
  gb_startup st = {.time_ns = 0, .cpu_ns = 0, .energy_uj = 3}; /* -1, 0, 1 per sort */
  gb_boot b = boot(runs, 3, &st, 8, 1, 500);
  const gb_interval *p = &b.est[GB_EST_NET_POWER];
  cr_assert_eq(b.est[GB_EST_ENERGY_PER_SORT].point, 0.0);
  cr_assert(p->available);
  cr_assert(isnan(p->point) && isnan(p->lo) && isnan(p->hi));
  cr_assert_eq(p->n_used, 0);
  gb_boot_free(&b);
  st.energy_uj = 2.5; /* -0.5, 0.5, 1.5: median 0.5 > 0, power defined */
  b = boot(runs, 3, &st, 8, 1, 500);
  cr_assert_float_eq(b.est[GB_EST_NET_POWER].point, 0.5 / 1e9 * 1e3, 1e-18);
  cr_assert(!isnan(b.est[GB_EST_NET_POWER].lo));
  gb_boot_free(&b);
}

Test(bootstrap, percentile_interval_rule) {
  /* 41 values 0..40: h = 40 x 0.025 = 1 and 40 x 0.975 = 39 exactly. */
  double v[43], scratch[43], lo, hi;
  for (int i = 0; i < 41; i++) {
    v[i] = (double)((i * 7) % 41);
  }
  v[41] = NAN; /* left out */
  cr_assert_eq(gb_percentile_interval(v, 42, 0.95, scratch, &lo, &hi), 41);
  cr_assert_eq(lo, 1.0);
  cr_assert_eq(hi, 39.0);
  /* 11 values 0..10 at 90%: h = 0.5 and 9.5. */
  cr_assert_eq(gb_percentile_interval(v, 0, 0.9, scratch, &lo, &hi), 0);
  cr_assert(isnan(lo) && isnan(hi));
  for (int i = 0; i < 11; i++) {
    v[i] = (double)(10 - i);
  }
  cr_assert_eq(gb_percentile_interval(v, 11, 0.9, scratch, &lo, &hi), 11);
  cr_assert_float_eq(lo, 0.5, 1e-12);
  cr_assert_float_eq(hi, 9.5, 1e-12);
}

Test(bootstrap, rejects_bad_input) {
  gb_run runs[3];
  plausible_runs(runs, 3, 9);
  gb_boot_opts o = GB_BOOT_OPTS_DEFAULT;
  gb_boot b = {.n_runs = 12345};
  gb_err err = {{0}};
  cr_assert_eq(gbi_boot_run(runs, 0, &NO_STARTUP, &o, &b, &err), -EINVAL);
  runs[2].sorts = 0;
  cr_assert_eq(gbi_boot_run(runs, 3, &NO_STARTUP, &o, &b, &err), -EINVAL);
  cr_assert(strstr(err.msg, "run 2") && strstr(err.msg, "sorts"), "%s", err.msg);
  runs[2].sorts = 10;
  runs[1].wall_ns = -1;
  cr_assert_eq(gbi_boot_run(runs, 3, &NO_STARTUP, &o, &b, &err), -EINVAL);
  cr_assert(strstr(err.msg, "run 1") && strstr(err.msg, "wall_ns"), "%s", err.msg);
  plausible_runs(runs, 3, 9);
  runs[0].idle_ns = 0;
  cr_assert_eq(gbi_boot_run(runs, 3, &NO_STARTUP, &o, &b, &err), -EINVAL);
  cr_assert(strstr(err.msg, "idle_ns"), "%s", err.msg);
  runs[0].energy_uj = NAN; /* without energy the idle window is not needed */
  o.replicates = 10;
  cr_assert_eq(gbi_boot_run(runs, 3, &NO_STARTUP, &o, &b, &err), 0, "%s", err.msg);
  gb_boot_free(&b);
  b.n_runs = 12345;
  o.level = 1.0;
  cr_assert_eq(gbi_boot_run(runs, 3, &NO_STARTUP, &o, &b, &err), -EINVAL);
  o.level = 0.95;
  o.replicates = 0;
  cr_assert_eq(gbi_boot_run(runs, 3, &NO_STARTUP, &o, &b, &err), -EINVAL);
  cr_assert_eq(b.n_runs, 12345, "out-param set on failure");
}

/* ---- The exact shortcuts against the rule done the slow way ------------- */

/* A small generator for test data (xorshift64), independent of gb_rng. */
static uint64_t test_next(uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

/* A resample's type 7 quantile read off counts per run over the runs'
 * values sorted once (boot_internal.h) equals the quantile of the resample
 * written out and selected on, bit for bit: n from 1 to 60, values with
 * many ties (a handful of levels), several levels of p, counts from draws
 * as the bootstrap makes them, and counts with few distinct runs. */
Test(bootstrap, counted_quantile_equals_sorted_resample) {
  enum { MAX_N = 60 };
  const double ps[] = {0.0, 0.025, 0.1, 0.25, 0.5, 0.75, 0.9, 0.975, 1.0, 1.0 / 3.0};
  uint64_t x = 88172645463325252u;
  size_t checked = 0, interpolated = 0;
  for (size_t n = 1; n <= MAX_N; n++) {
    for (int trial = 0; trial < 40; trial++) {
      double value[MAX_N], sorted[MAX_N], resample[MAX_N];
      uint32_t order[MAX_N], counts[MAX_N] = {0};
      size_t levels = 1 + test_next(&x) % (trial % 2 ? 4 : n); /* ties when few */
      for (size_t i = 0; i < n; i++) {
        value[i] = (double)(test_next(&x) % levels) * 0.37 - 1.0;
      }
      /* The order of runs by (value, run), as bootstrap.c sorts them. */
      for (size_t i = 0; i < n; i++) {
        order[i] = (uint32_t)i;
      }
      for (size_t i = 1; i < n; i++) {
        for (size_t j = i; j > 0 && value[order[j]] < value[order[j - 1]]; j--) {
          uint32_t t = order[j];
          order[j] = order[j - 1];
          order[j - 1] = t;
        }
      }
      for (size_t i = 0; i < n; i++) {
        sorted[i] = value[order[i]];
      }
      /* n draws with replacement; every third trial from only two runs. */
      for (size_t i = 0; i < n; i++) {
        size_t run = trial % 3 == 0 ? test_next(&x) % (n < 2 ? n : 2) : test_next(&x) % n;
        counts[run]++;
        resample[i] = value[run];
      }
      for (size_t k = 0; k < sizeof ps / sizeof *ps; k++) {
        size_t lo;
        double frac;
        q7_position(n, ps[k], &lo, &frac);
        double scratch[MAX_N];
        memcpy(scratch, resample, n * sizeof *scratch);
        double want = gb_quantile_select(scratch, n, ps[k]);
        double got = gbi_counted_quantile(sorted, order, counts, lo, frac);
        cr_assert_eq(memcmp(&got, &want, sizeof got), 0, "n %zu trial %d p %g: %.17g != %.17g",
                     n, trial, ps[k], got, want);
        checked++;
        interpolated += frac != 0.0;
      }
    }
  }
  cr_assert_eq(checked, 60 * 40 * 10);
  cr_assert_gt(interpolated, checked / 2, "most positions fall between order statistics");
}

/* The interval by sorting every value: the reference. */
static void sorted_interval(const double *v, size_t n, double level, double *lo, double *hi,
                            size_t *m) {
  double *s = malloc((n ? n : 1) * sizeof *s);
  cr_assert_not_null(s);
  *m = 0;
  for (size_t i = 0; i < n; i++) {
    if (!isnan(v[i])) {
      s[(*m)++] = v[i];
    }
  }
  qsort(s, *m, sizeof *s, cmp);
  double tail = round((1.0 - level) / 2.0 * 1e12) / 1e12;
  *lo = *m ? gb_quantile_sorted(s, *m, tail) : NAN;
  *hi = *m ? gb_quantile_sorted(s, *m, 1.0 - tail) : NAN;
  free(s);
}

static void check_interval(const double *v, size_t n, double level, const char *what) {
  double *scratch = malloc(n * sizeof *scratch), lo, hi, want_lo, want_hi;
  cr_assert_not_null(scratch);
  size_t m, want_m;
  m = gb_percentile_interval(v, n, level, scratch, &lo, &hi);
  sorted_interval(v, n, level, &want_lo, &want_hi, &want_m);
  cr_assert_eq(m, want_m, "%s", what);
  cr_assert(memcmp(&lo, &want_lo, sizeof lo) == 0 && memcmp(&hi, &want_hi, sizeof hi) == 0,
            "%s, n %zu, level %g: [%.17g, %.17g] != [%.17g, %.17g]", what, n, level, lo, hi,
            want_lo, want_hi);
  free(scratch);
}

/* gb_percentile_interval finds narrow tails of many values through a
 * sample's thresholds: the same interval as sorting every value, for
 * shapes that help and hinder the sample (random, sorted, reversed, few
 * levels, NaN, and samples that mislead: one that sees only the smallest
 * values or a single value, or mostly NaN, where the full selection takes
 * over), on both sides of the sizes and levels where the sample is used. */
Test(bootstrap, percentile_interval_equals_sorted_reference) {
  const size_t sizes[] = {1, 2, 41, 2047, 2048, 2049, 5000, 10000, 10001};
  const double levels[] = {0.95, 0.9, 0.99, 0.999, 0.89, 0.5};
  uint64_t x = 2463534242u;
  for (size_t a = 0; a < sizeof sizes / sizeof *sizes; a++) {
    size_t n = sizes[a];
    double *v = malloc(n * sizeof *v);
    cr_assert_not_null(v);
    for (int shape = 0; shape < 8; shape++) {
      for (size_t i = 0; i < n; i++) {
        double u = (double)(test_next(&x) >> 11) * 0x1p-53;
        switch (shape) {
        case 0: /* random */
          v[i] = u;
          break;
        case 1: /* ascending */
          v[i] = (double)i;
          break;
        case 2: /* descending */
          v[i] = -(double)i;
          break;
        case 3: /* few levels: ties at every quantile */
          v[i] = (double)(test_next(&x) % 7);
          break;
        case 4: /* a fifth NaN */
          v[i] = test_next(&x) % 5 == 0 ? NAN : u;
          break;
        case 5: /* the sample's stride sees only the smallest values */
          v[i] = n >= 512 && i % (n / 512) == 0 ? u - 1e9 : u;
          break;
        case 6: /* ... or one value only */
          v[i] = n >= 512 && i % (n / 512) == 0 ? 0.5 : u;
          break;
        default: /* all NaN but a few */
          v[i] = i % 97 == 3 ? u : NAN;
          break;
        }
      }
      for (size_t l = 0; l < sizeof levels / sizeof *levels; l++) {
        char what[64];
        snprintf(what, sizeof what, "shape %d", shape);
        check_interval(v, n, levels[l], what);
      }
    }
    free(v);
  }
}

/* gb_boot_trim keeps the first replicates of time and energy per sort,
 * bit for bit, and nothing else; ratios then refuse the trimmed bootstrap
 * and rank intervals refuse to reach past what it holds. */
Test(bootstrap, trim_keeps_the_paired_estimates) {
  enum { N = 30, B = 500, KEEP = 120 };
  gb_run runs[N];
  plausible_runs(runs, N, 7);
  gb_boot b = boot(runs, N, &NO_STARTUP, 3, 4, B), full = boot(runs, N, &NO_STARTUP, 3, 4, B);
  cr_assert_eq(b.n_held, B);
  cr_assert_eq(b.n_held_estimates, GB_EST_COUNT);
  gb_boot_trim(&b, KEEP);
  cr_assert_eq(b.n_held, KEEP);
  cr_assert_eq(b.n_held_estimates, GB_BOOT_TRIM_ESTIMATES);
  cr_assert_eq(b.n_replicates, B, "the intervals' basis is unchanged");
  cr_assert_eq(memcmp(b.est, full.est, sizeof b.est), 0);
  for (int e = 0; e < GB_EST_COUNT; e++) {
    const double *kept = gb_boot_replicates(&b, (gb_estimate)e);
    if (e == GB_EST_TIME_PER_SORT || e == GB_EST_ENERGY_PER_SORT) {
      cr_assert_not_null(kept);
      cr_assert_eq(memcmp(kept, gb_boot_replicates(&full, (gb_estimate)e), KEEP * sizeof *kept),
                   0, "estimate %d", e);
    } else {
      cr_assert_null(kept, "estimate %d released", e);
    }
  }
  gb_boot_trim(&b, B); /* never grows */
  cr_assert_eq(b.n_held, KEEP);
  gb_boot_free(&b);
  gb_boot_free(&full);
}

/* gb_boot_check refuses what gbi_boot_run refuses, with the same message,
 * and accepts what it accepts. */
Test(bootstrap, check_agrees_with_run) {
  gb_run runs[3];
  plausible_runs(runs, 3, 9);
  gb_boot_opts o = GB_BOOT_OPTS_DEFAULT;
  o.replicates = 50;
  gb_err e1 = {{0}}, e2 = {{0}};
  gb_boot b;
  cr_assert_eq(gb_boot_check(runs, 3, &NO_STARTUP, &o, &e1), 0, "%s", e1.msg);
  runs[1].wall_ns = -1;
  runs[2].sorts = 0;
  cr_assert_eq(gb_boot_check(runs, 3, &NO_STARTUP, &o, &e1), -EINVAL);
  cr_assert_eq(gbi_boot_run(runs, 3, &NO_STARTUP, &o, &b, &e2), -EINVAL);
  cr_assert_str_eq(e1.msg, e2.msg);
  cr_assert(strstr(e1.msg, "run 1"), "the first bad run: %s", e1.msg);
  o.level = 2.0;
  cr_assert_eq(gb_boot_check(runs, 3, &NO_STARTUP, &o, &e1), -EINVAL);
  cr_assert_eq(gbi_boot_run(runs, 3, &NO_STARTUP, &o, &b, &e2), -EINVAL);
  cr_assert_str_eq(e1.msg, e2.msg);
}
