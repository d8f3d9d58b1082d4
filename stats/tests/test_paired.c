/* The paired estimator of net power (paired.c, ADR 0015): each run's own
 * net energy over its own net time, the median of those, and ratios of
 * two such estimates, worked by hand. */
#include "alloc_fail.h"
#include "analysis_internal.h"
#include "greenbench/analysis.h"
#include "helper_report.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>

/* A run of `sorts` sorts whose process lasts wall_ns and draws watts above
 * an idle of 0 W (idle window as long, no idle energy). */
static gb_run run(double wall_ns, double watts, uint64_t sorts) {
  return (gb_run){.wall_ns = wall_ns,
                  .cpu_ns = wall_ns,
                  .energy_uj = watts * wall_ns * 1e-3,
                  .idle_ns = wall_ns,
                  .idle_energy_uj = 0.0,
                  .sorts = sorts};
}

static const gb_startup no_startup = {.time_ns = 0.0, .cpu_ns = 0.0, .energy_uj = 0.0};

Test(paired, median_of_per_run_powers) {
  /* Powers 10, 30 and 20 W over times that differ tenfold: the median of
   * the per-run powers is 20 W, whatever the times. (The study's estimator
   * would divide the median energy, 1e4 uJ of the first run, by the median
   * time, 1e6 ns, also the first run's: 10 W.) */
  gb_run runs[3] = {run(1e6, 10.0, 1), run(1e7, 30.0, 1), run(1e5, 20.0, 1)};
  gb_boot_opts o = {.seed = 1, .stream = 2, .replicates = 200, .level = 0.95};
  double rep[200];
  gb_interval iv;
  gb_err err;
  cr_assert_eq(gbi_paired_power(runs, 3, &no_startup, &o, rep, &iv, &err), 0, "%s", err.msg);
  cr_assert(iv.available);
  cr_assert_float_eq(iv.point, 20.0, 1e-9);
  cr_assert(iv.lo >= 10.0 - 1e-9 && iv.hi <= 30.0 + 1e-9);
  cr_assert_eq(iv.n_used, 200u);
  for (size_t r = 0; r < 200; r++) {
    cr_assert(rep[r] >= 10.0 - 1e-9 && rep[r] <= 30.0 + 1e-9, "replicate %zu", r);
  }
}

/* Equal power in every run: a point interval at that power, whatever the
 * times scatter. */
Test(paired, equal_power_gives_a_point_interval) {
  gb_run runs[5] = {run(1e6, 15.0, 10), run(3e6, 15.0, 10), run(2e6, 15.0, 10),
                    run(9e6, 15.0, 10), run(4e6, 15.0, 10)};
  gb_boot_opts o = {.seed = 1, .stream = 2, .replicates = 100, .level = 0.95};
  double rep[100];
  gb_interval iv;
  gb_err err;
  cr_assert_eq(gbi_paired_power(runs, 5, &no_startup, &o, rep, &iv, &err), 0, "%s", err.msg);
  cr_assert_float_eq(iv.point, 15.0, 1e-9);
  cr_assert_float_eq(iv.lo, 15.0, 1e-9);
  cr_assert_float_eq(iv.hi, 15.0, 1e-9);
}

/* A run whose time per sort is not above 0 has no power and is left out;
 * a run without energy makes the estimate unavailable. */
Test(paired, undefined_runs_and_missing_energy) {
  gb_startup st = {.time_ns = 2e6, .cpu_ns = 0.0, .energy_uj = 0.0};
  gb_run runs[3] = {run(1e6, 10.0, 1), run(4e6, 20.0, 1), run(6e6, 20.0, 1)};
  gb_boot_opts o = {.seed = 1, .stream = 2, .replicates = 50, .level = 0.95};
  double rep[50];
  gb_interval iv;
  gb_err err;
  cr_assert_eq(gbi_paired_power(runs, 3, &st, &o, rep, &iv, &err), 0, "%s", err.msg);
  /* Runs 2 and 3: (80 - 0) uJ / 2e6 ns = 40 W, (120) / 4e6 = 30 W; median 35. */
  cr_assert_float_eq(iv.point, 35.0, 1e-9);
  runs[1].energy_uj = NAN;
  cr_assert_eq(gbi_paired_power(runs, 3, &st, &o, rep, &iv, &err), 0, "%s", err.msg);
  cr_assert_not(iv.available);
  cr_assert(isnan(iv.point) && isnan(rep[0]));
  runs[1].sorts = 0;
  cr_assert_eq(gbi_paired_power(runs, 3, &st, &o, rep, &iv, &err), -EINVAL);
}

/* The ratio of two paired estimates, read against the margin: 2 W / 1 W
 * differs; 1.05 / 1 is the same power within 10%; an undefined reading
 * stays undefined. */
Test(paired, ratios_are_read_against_the_margin) {
  double ra[4] = {2.0, 2.0, 2.0, 2.0}, rb[4] = {1.0, 1.0, 1.0, 1.0}, scratch[8];
  gb_interval pa = {.available = true, .point = 2.0}, pb = {.available = true, .point = 1.0};
  gb_ratio r = {.reading = GB_READING_SAME};
  gbi_paired_power_ratio(&pa, ra, &pb, rb, 4, 0.95, 0.10, scratch, &r);
  cr_assert_float_eq(r.power.point, 2.0, 1e-12);
  cr_assert_eq(r.reading, GB_READING_DIFFERS);
  cr_assert(r.excludes_one);
  double rc[4] = {1.05, 1.05, 1.04, 1.06};
  pa.point = 1.05;
  gbi_paired_power_ratio(&pa, rc, &pb, rb, 4, 0.95, 0.10, scratch, &r);
  cr_assert_eq(r.reading, GB_READING_SAME);
  cr_assert(r.excludes_one);
  r.reading = GB_READING_UNDEFINED;
  gbi_paired_power_ratio(&pa, ra, &pb, rb, 4, 0.95, 0.10, scratch, &r);
  cr_assert_eq(r.reading, GB_READING_UNDEFINED);
  cr_assert_not(r.excludes_one);
}

/* The two estimators differ only in net power and the power ratios. */
Test(paired, only_power_depends_on_the_estimator) {
  gb_records *rec = gbt_load("report-verdict-differs");
  gb_analysis_opts o = GB_ANALYSIS_OPTS_DEFAULT;
  o.chance_campaigns = 0;
  gb_analysis *p = gbt_analyse_with(rec, &o);
  o.power_estimator = GB_POWER_STUDY;
  gb_analysis *s = gbt_analyse_with(rec, &o);
  for (size_t i = 0; i < p->n_configs; i++) {
    const gb_interval *x = p->configs[i].boot.est, *y = s->configs[i].boot.est;
    cr_assert_eq(x[GB_EST_TIME_PER_SORT].lo, y[GB_EST_TIME_PER_SORT].lo);
    cr_assert_eq(x[GB_EST_ENERGY_PER_SORT].hi, y[GB_EST_ENERGY_PER_SORT].hi);
    /* The paired interval is the narrower here (0.5% power scatter). */
    cr_assert_lt(x[GB_EST_NET_POWER].hi - x[GB_EST_NET_POWER].lo,
                 y[GB_EST_NET_POWER].hi - y[GB_EST_NET_POWER].lo, "config %zu", i);
  }
  for (size_t i = 0; i < p->n_ratios; i++) {
    cr_assert_eq(p->ratios[i].ratio.time.lo, s->ratios[i].ratio.time.lo);
  }
  cr_assert_str_eq(gb_power_estimator_name(GB_POWER_STUDY), "study");
  gb_power_estimator e;
  cr_assert_eq(gb_power_estimator_parse("paired", &e), 0);
  cr_assert_eq(e, GB_POWER_PAIRED);
  cr_assert_eq(gb_power_estimator_parse("Paired", &e), -EINVAL);
  gb_analysis_free(p);
  gb_analysis_free(s);
  gb_records_free(rec);
}

/* With the startup resampled, every run of replicate r subtracts replicate
 * r's startup (docs/adr/0014): replicates given one startup st2 each are
 * those of a bootstrap that subtracts st2 throughout (same indices), while
 * the point still subtracts the fixed startup. */
Test(paired, each_replicate_subtracts_its_startup) {
  gb_run runs[4] = {run(2e6, 10.0, 4), run(3e6, 30.0, 5), run(4e6, 20.0, 6), run(5e6, 25.0, 7)};
  const gb_startup fixed = {.time_ns = 1e5, .cpu_ns = 1e5, .energy_uj = 1.0};
  gb_startup moved[300];
  for (size_t r = 0; r < 300; r++) {
    moved[r] = (gb_startup){.time_ns = 5e5, .cpu_ns = 5e5, .energy_uj = 40.0};
  }
  gb_boot_opts o = {.seed = 3, .stream = 4, .replicates = 300, .level = 0.95};
  gb_boot_opts shifted = o;
  shifted.startup_replicates = moved;
  double a[300], b[300];
  gb_interval ia, ib;
  gb_err err;
  cr_assert_eq(gbi_paired_power(runs, 4, &moved[0], &o, a, &ia, &err), 0, "%s", err.msg);
  cr_assert_eq(gbi_paired_power(runs, 4, &fixed, &shifted, b, &ib, &err), 0, "%s", err.msg);
  for (size_t r = 0; r < 300; r++) {
    cr_assert_float_eq(b[r], a[r], 1e-9 * a[r], "replicate %zu", r);
  }
  gb_interval held;
  cr_assert_eq(gbi_paired_power(runs, 4, &fixed, &o, a, &held, &err), 0, "%s", err.msg);
  cr_assert_eq(ib.point, held.point);
  cr_assert_neq(ib.lo, held.lo);
}

/* Every allocation of gbi_paired_power, its own and those of the startup
 * replicates it draws, can fail: the call says "out of memory" and returns
 * -ENOMEM (alloc_fail.h; under ASan, nothing leaks). */
typedef struct {
  gb_run runs[4];
  gb_startup batches[3];
  double rep[200];
} paired_call;

static int paired_once(void *arg, gb_err *err) {
  paired_call *x = arg;
  gb_boot_opts o = {.seed = 3,
                    .stream = 4,
                    .replicates = 200,
                    .level = 0.95,
                    .startup_batches = x->batches,
                    .n_startup_batches = 3,
                    .startup_stream = 5};
  gb_interval iv;
  return gbi_paired_power(x->runs, 4, &x->batches[0], &o, x->rep, &iv, err);
}

Test(paired, every_allocation_failure_is_reported) {
  paired_call x = {
      .runs = {run(2e6, 10.0, 4), run(3e6, 30.0, 5), run(4e6, 20.0, 6), run(5e6, 25.0, 7)}};
  for (size_t b = 0; b < 3; b++) {
    x.batches[b] =
        (gb_startup){.time_ns = 1e5 * (double)(b + 1), .cpu_ns = 1e5, .energy_uj = 1};
  }
  /* Its two blocks, the startup replicates' block and the four of
   * gb_boot_startup_replicates. */
  cr_expect_eq(gbt_each_allocation_fails(paired_once, &x), 7);
}
