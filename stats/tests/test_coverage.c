/* The coverage study's fast version (docs/methods.md, "Coverage of the
 * intervals"): the small design (6 configurations, 9 ratios) drawn 300
 * times, every interval the report prints checked against the known truth.
 * Each interval must cover within its band: 93% to 97% for a 95% interval
 * that holds its claim, or the band of the coverage measured and stated
 * beside it in docs/methods.md. The environment variable
 * GB_COVERAGE_NARROW (test-only, default 1) checks every interval as if
 * narrowed about its point by that factor: at 0.9 the study fails
 * (docs/methods.md shows the command). */
#include "coverage.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define REPLICATES 300
#define RESAMPLES 1000
#define SEED 1

/* The band each interval's coverage must fall in, in percent. */
static const double band[GB_COV_COUNT][2] = {
    [GB_COV_PROCESS] = {93, 97},
    [GB_COV_TIME] = {93, 97},
    [GB_COV_CPU] = {93, 97},
    [GB_COV_ENERGY] = {93, 97},
    [GB_COV_GROSS] = {93, 97},
    [GB_COV_RATIO_TIME] = {93, 97},
    [GB_COV_RATIO_ENERGY] = {93, 97},
    [GB_COV_RATIO_PAIRED] = {93, 97},
    /* The paired net power holds (94.8%) now that each replicate's runs
     * subtract that replicate's resampled startup; with the startup held
     * fixed it fell short (91.9%). */
    [GB_COV_POWER_PAIRED] = {93, 97},
    /* Stated beside the figures in docs/methods.md: the study's net power
     * over-covers (the time noise of two medians enters it); rank
     * intervals over configurations this far apart are nearly always a
     * single value that holds the truth. */
    [GB_COV_POWER_STUDY] = {99, 100},
    [GB_COV_RATIO_STUDY] = {99, 100},
    [GB_COV_SPEARMAN] = {99, 100},
};

static gbi_synth_truth small_truth(void) {
  gbi_synth_design d = gbi_synth_design_small();
  gbi_synth_truth t;
  gb_err err;
  cr_assert_eq(gbi_synth_truth_of(&d, &t, &err), 0, "%s", err.msg);
  return t;
}

static gbi_cov_result study(const gbi_synth_truth *t, size_t replicates, double narrow) {
  gbi_cov_opts o = {.replicates = replicates,
                    .seed = SEED,
                    .resamples = RESAMPLES,
                    .level = 0.95,
                    .margin = 0.10,
                    .threads = 1,
                    .narrow = narrow};
  gbi_cov_result r;
  gb_err err;
  cr_assert_eq(gbi_cov_run(t, &o, &r, &err), 0, "%s", err.msg);
  return r;
}

/* How many intervals leave their band; each is named on stderr. */
static int outside_bands(const gbi_cov_result *r) {
  int bad = 0;
  for (int k = 0; k < GB_COV_COUNT; k++) {
    const gbi_cov_cell *c = &r->cell[k];
    double p = 100.0 * gbi_cov_rate(c);
    bool in = c->trials > 0 && p >= band[k][0] && p <= band[k][1];
    fprintf(stderr, "coverage: %-26s %5.1f%% (s.e. %.1f) of %zu, band %g-%g%%%s\n",
            gbi_cov_kind_name(k), p, 100.0 * gbi_cov_se(c), c->trials, band[k][0], band[k][1],
            in ? "" : "  OUTSIDE");
    bad += !in;
  }
  return bad;
}

Test(coverage, every_interval_covers_within_its_band, .timeout = 120) {
  const char *knob = getenv("GB_COVERAGE_NARROW");
  gbi_synth_truth t = small_truth();
  gbi_cov_result r = study(&t, REPLICATES, knob ? strtod(knob, NULL) : 1.0);
  cr_expect_eq(outside_bands(&r), 0, "some interval left its band (stderr names it)");
  /* Readings: under a true ratio of 1 the paired intervals exclude 1 about
   * 5% of the time; "differs" and "same power" under 1.2 never happen
   * (1.2 lies beyond the margin). */
  const gbi_cov_readings *d = &r.readings;
  cr_expect_eq(d->null_ratios, (size_t)REPLICATES * 5);
  cr_expect_eq(d->alt_ratios, (size_t)REPLICATES * 4);
  cr_expect_eq(d->alt_same[0] + d->alt_same[1], 0u);
  gbi_cov_result_free(&r);
  gbi_synth_truth_free(&t);
}

/* The band check can fail: intervals 10% narrower than printed leave the
 * 93% floor. */
Test(coverage, narrower_intervals_leave_the_band, .timeout = 120) {
  gbi_synth_truth t = small_truth();
  gbi_cov_result r = study(&t, REPLICATES, 0.9);
  cr_expect_gt(outside_bands(&r), 0);
  cr_expect_lt(gbi_cov_rate(&r.cell[GB_COV_TIME]), 0.93);
  /* 94.8% at full width, 93.0% at 0.9 of it. */
  cr_expect_lt(gbi_cov_rate(&r.cell[GB_COV_POWER_PAIRED]), 0.935);
  gbi_cov_result_free(&r);
  gbi_synth_truth_free(&t);
}

/* The truth is the model's: net power is P, Python's 1.2 times C's; the
 * medians lie near the model's per-sort time (lognormal noise has median
 * 1, the startup subtracted is its population median). */
Test(coverage, truth_follows_the_model) {
  gbi_synth_truth t = small_truth();
  cr_assert_eq(t.n_configs, 6u);
  const gbi_synth_config *c = gbi_synth_find(&t, GB_C, GB_QUICK, GB_RANDOM, 1000);
  const gbi_synth_config *p = gbi_synth_find(&t, GB_PYTHON, GB_QUICK, GB_RANDOM, 1000);
  cr_assert(c && p);
  cr_expect_eq(p->power_w / c->power_w, 1.2);
  for (size_t i = 0; i < t.n_configs; i++) {
    const gbi_synth_config *x = &t.configs[i];
    cr_expect_lt(fabs(x->time_per_sort_ns / x->per_sort_ns - 1.0), 0.10, "config %zu", i);
    double power = x->energy_per_sort_uj / x->time_per_sort_ns * 1e3;
    cr_expect_lt(fabs(power / x->power_w - 1.0), 0.05, "config %zu", i);
  }
  cr_expect_null(gbi_synth_find(&t, GB_C, GB_BUBBLE, GB_RANDOM, 1000));
  gbi_synth_truth_free(&t);
}

/* The same seed draws the same records; the reader takes them. */
Test(coverage, records_are_reproducible) {
  gbi_synth_truth t = small_truth();
  gb_records *a, *b;
  gb_err err;
  cr_assert_eq(gbi_synth_records(&t, 7, &a, &err), 0, "%s", err.msg);
  cr_assert_eq(gbi_synth_records(&t, 7, &b, &err), 0, "%s", err.msg);
  cr_assert_eq(a->runs.n_rows, (6u + 6u) * 30u);
  for (size_t i = 0; i < a->runs.n_rows; i++) {
    cr_assert_eq(a->runs.rows[i].wall_ns.value, b->runs.rows[i].wall_ns.value);
    cr_assert_eq(a->runs.rows[i].pkg_uj.value, b->runs.rows[i].pkg_uj.value);
  }
  gb_records_free(a);
  gb_records_free(b);
  gbi_synth_truth_free(&t);
}

Test(coverage, refuses_bad_designs_and_options) {
  gbi_synth_design d = gbi_synth_design_small();
  gbi_synth_truth t;
  gb_err err;
  d.power_w[GB_NODE] = 0.0;
  cr_expect_eq(gbi_synth_truth_of(&d, &t, &err), -EINVAL);
  cr_expect_str_eq(err.msg, "synth: the power of node is not > 0");
  d = gbi_synth_design_small();
  d.settings.runs = 1;
  cr_expect_eq(gbi_synth_truth_of(&d, &t, &err), -EINVAL);
  t = small_truth();
  gbi_cov_result r;
  gbi_cov_opts o = {
      .replicates = 1, .seed = 1, .resamples = 10, .level = 0.95, .margin = 0.1, .narrow = 1.0};
  cr_expect_eq(gbi_cov_run(&t, &o, &r, &err), -EINVAL);
  cr_expect_str_eq(err.msg, "coverage: bad options (replicates 1, resamples 10)");
  gbi_synth_truth_free(&t);
}
