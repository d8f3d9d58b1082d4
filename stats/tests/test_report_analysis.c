/* Known answers of the analysis on the hand-built fixtures
 * (stats/tests/data/report-gen/make_fixtures.py). c/quick/random/100 and
 * its startup trial carry hand-picked numbers:
 *   startup batches of 100 launches: wall 200, 210, 190 ms, so the median
 *   cost per process is 2.0 ms; CPU 0.6 x wall, median 1.2 ms; net energy
 *   (3.0, 3.1, 2.9 J minus 0.8 J idle over the same length) / 100, median
 *   22000 uJ;
 *   runs of 100000 sorts: wall 252, 262, 257 ms; CPU wall - 3 ms; energy
 *   5.5, 5.7, 5.6 J with 0.5 J of idle over half the run's length, which
 *   scaled to the run is 1.0 J, so net 4.5, 4.7, 4.6 J. */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_internal.h"
#include "boot_internal.h"
#include "greenbench/analysis.h"
#include "greenbench/bootstrap.h"
#include "greenbench/records_read.h"
#include "helper_report.h"

/* The ok runs of c's rows as the bootstrap takes them (at most max), read
 * from the rows here rather than by gbi_analysis_run_of_row, so that the
 * tests check the analysis's conversion instead of repeating it. */
static size_t ok_runs(const gb_records *r, const gb_an_config *c, gb_run *runs, size_t max) {
  const gb_rec_group *g =
      gb_rec_table_find_sort(&r->runs, c->language, c->algorithm, c->order, c->size);
  cr_assert_not_null(g);
  size_t n = 0;
  for (size_t k = 0; k < g->n_rows && n < max; k++) {
    const gb_run_row *w = g->rows[k];
    if (w->status != GB_REC_STATUS_OK) {
      continue;
    }
    double e = w->pkg_uj.value + (w->dram_uj.present ? (double)w->dram_uj.value : 0.0);
    double ie =
        w->idle_pkg_uj.value + (w->idle_dram_uj.present ? (double)w->idle_dram_uj.value : 0.0);
    runs[n++] = (gb_run){.wall_ns = (double)w->wall_ns.value,
                         .cpu_ns = (double)w->user_ns.value + (double)w->sys_ns.value,
                         .energy_uj = e,
                         .idle_ns = (double)w->idle_ns.value,
                         .idle_energy_uj = ie,
                         .sorts = w->sorts};
  }
  return n;
}

static const gb_an_config *find(const gb_analysis *a, gb_language l, gb_order o,
                                uint64_t size) {
  const gb_an_config *c = gb_analysis_find(a, l, GB_QUICK, o, size);
  cr_assert_not_null(c);
  return c;
}

static void assert_near(double got, double want, const char *what) {
  cr_assert(fabs(got - want) <= 1e-9 * fabs(want), "%s: %.17g, expected %.17g", what, got,
            want);
}

Test(report_analysis, startup_cost_is_the_median_per_process) {
  gb_records *r = gbt_load("report-energy");
  gb_analysis *a = gbt_analyse(r);
  const gb_an_config *c = find(a, GB_C, GB_RANDOM, 100);
  cr_assert_not_null(c->startup);
  cr_assert_eq(c->startup->n_ok, 3);
  cr_assert_eq(c->startup->launches, 100);
  cr_assert_eq(c->startup->cost.time_ns, 2.0e6);
  cr_assert_eq(c->startup->cost.cpu_ns, 1.2e6);
  cr_assert_eq(c->startup->cost.energy_uj, 22000.0);
  gb_analysis_free(a);
  gb_records_free(r);
}

Test(report_analysis, per_sort_values_subtract_startup_and_idle) {
  gb_records *r = gbt_load("report-energy");
  gb_analysis *a = gbt_analyse(r);
  const gb_an_config *c = find(a, GB_C, GB_RANDOM, 100);
  cr_assert(c->measured);
  cr_assert_eq(c->n_ok, 3);
  cr_assert_eq(c->sorts_min, 100000);
  cr_assert_eq(c->sorts_max, 100000);
  /* (257 ms - 2.0 ms) / 100000 and (254 ms - 1.2 ms) / 100000, exactly. */
  cr_assert_eq(c->boot.est[GB_EST_TIME_PER_SORT].point, 2550.0);
  cr_assert_eq(c->boot.est[GB_EST_CPU_PER_SORT].point, 2528.0);
  /* (4.6e6 - 22000) / 100000: the idle energy counted twice, as its window
   * was half the run. */
  assert_near(c->boot.est[GB_EST_ENERGY_PER_SORT].point, 45.78, "energy per sort");
  assert_near(c->boot.est[GB_EST_NET_POWER].point, 45.78 / 2550.0 * 1e3, "net power");
  /* With idle: plus the idle power (0.5 J over 128.5 ms) for 2550 ns. */
  assert_near(c->boot.est[GB_EST_GROSS_ENERGY_PER_SORT].point, 45.78 + 0.5e6 / 128.5e6 * 2550.0,
              "energy with idle");
  gb_analysis_free(a);
  gb_records_free(r);
}

Test(report_analysis, process_tail_and_counts) {
  gb_records *r = gbt_load("report-energy");
  gb_analysis *a = gbt_analyse(r);
  const gb_an_config *c = find(a, GB_C, GB_RANDOM, 100);
  cr_assert_eq(c->process.median, 257e6);
  cr_assert_eq(c->process.min, 252e6);
  cr_assert_eq(c->process.max, 262e6);
  /* Type 7 with n = 3: h = 1.9, so 257 + 0.9 x (262 - 257) ms. */
  assert_near(c->process.p95, 261.5e6, "p95");
  cr_assert_eq(c->process.low_outliers + c->process.high_outliers, 0);
  cr_assert(c->has_counts);
  cr_assert_eq(c->comparisons, 690);
  cr_assert_eq(c->writes, 532);
  cr_assert(c->coupling.defined);
  cr_assert_eq(c->coupling.rho, 1.0);
  gb_analysis_free(a);
  gb_records_free(r);
}

Test(report_analysis, only_ok_runs_enter) {
  gb_records *r = gbt_load("report-energy");
  gb_analysis *a = gbt_analyse(r);
  const gb_an_config *c = find(a, GB_PYTHON, GB_SORTED, 200);
  cr_assert_eq(c->n_rows, 3);
  cr_assert_eq(c->n_ok, 2);
  cr_assert_eq(c->by_status[GB_REC_STATUS_TIMEOUT], 1);
  cr_assert_eq(c->boot.n_runs, 2);
  cr_assert_eq(a->checks.rows, 72);
  cr_assert_eq(a->checks.by_status[GB_REC_STATUS_OK], 71);
  gb_analysis_free(a);
  gb_records_free(r);
}

Test(report_analysis, data_checks) {
  gb_records *r = gbt_load("report-energy");
  gb_analysis *a = gbt_analyse(r);
  cr_assert_eq(a->checks.loops, 35);
  cr_assert_eq(a->checks.loops_short, 1);
  cr_assert_eq(a->checks.shortest_loop_ns, 195000000);
  cr_assert_eq(a->checks.throttled, 1);
  cr_assert_eq(a->checks.freq_runs, 35);
  cr_assert_eq(a->checks.plateau[GB_AN_PLATEAU_YES], 11);
  cr_assert_eq(a->checks.plateau[GB_AN_PLATEAU_NO], 1);
  cr_assert_eq(find(a, GB_NODE, GB_RANDOM, 200)->plateau, GB_AN_PLATEAU_NO);
  cr_assert(a->checks.has_temp);
  cr_assert_eq(a->checks.temp_min_mc, 45000);
  cr_assert_eq(a->checks.temp_max_mc, 47000);
  cr_assert_not(a->checks.all_energy_zero);
  cr_assert_eq(a->checks.configs_measured, 12);
  gb_analysis_free(a);
  gb_records_free(r);
}

Test(report_analysis, warnings_for_few_runs) {
  gb_records *r = gbt_load("report-energy");
  gb_analysis *a = gbt_analyse(r);
  cr_assert_eq(a->n_warnings, 2);
  cr_assert(strstr(a->warnings[0].text, "planned 3 runs per configuration, fewer than the 30"));
  cr_assert_str_eq(a->warnings[1].text, "python/quick/sorted/200: 2 of 3 planned runs ok (1 "
                                        "timeout)");
  gb_analysis_free(a);
  gb_records_free(r);
}

Test(report_analysis, ratios_and_tally) {
  gb_records *r = gbt_load("report-energy");
  gb_analysis *a = gbt_analyse(r);
  /* 3 language pairs x 2 orders x 2 sizes, and sorted / random x 3 x 2. */
  cr_assert_eq(a->n_language_ratios, 12);
  cr_assert_eq(a->n_ratios, 18);
  const gb_an_ratio *first = &a->ratios[0];
  const gb_an_config *py = &a->configs[first->a], *c = &a->configs[first->b];
  cr_assert_eq(py->language, GB_PYTHON);
  cr_assert_eq(c->language, GB_C);
  cr_assert_eq(first->ratio.time.point, py->boot.est[GB_EST_TIME_PER_SORT].point /
                                            c->boot.est[GB_EST_TIME_PER_SORT].point);
  const gb_an_ratio *ord = &a->ratios[12];
  cr_assert_eq(a->configs[ord->a].order, GB_SORTED);
  cr_assert_eq(a->configs[ord->b].order, GB_RANDOM);
  cr_assert_eq(a->tally_all.tally.total, 18);
  cr_assert_eq(a->tally_all.tally.defined, 18);
  cr_assert_eq(a->tally_all.plain_bound, 3); /* test_chance.c: the calibrated one */
  gb_analysis_free(a);
  gb_records_free(r);
}

Test(report_analysis, chance_bound_is_binomial) {
  /* Checked against the exact binomial sums (Python's math.comb). */
  cr_assert_eq(gbi_analysis_chance_bound(0, 0.05), 0);
  cr_assert_eq(gbi_analysis_chance_bound(1, 0.05), 1);
  cr_assert_eq(gbi_analysis_chance_bound(18, 0.05), 3);
  cr_assert_eq(gbi_analysis_chance_bound(108, 0.05), 9);
  cr_assert_eq(gbi_analysis_chance_bound(144, 0.05), 12);
  cr_assert_eq(gbi_analysis_chance_bound(252, 0.05), 19);
}

Test(report_analysis, ranks_by_scope) {
  gb_records *r = gbt_load("report-energy");
  gb_analysis *a = gbt_analyse(r);
  /* overall, 2 sizes, 3 languages, 3 language x algorithm */
  cr_assert_eq(a->n_ranks, 9);
  cr_assert_eq(a->ranks[0].scope, GB_AN_RANK_OVERALL);
  cr_assert_eq(a->ranks[0].k, 12);
  cr_assert(a->ranks[0].computed);
  cr_assert(a->ranks[0].rho.point.defined);
  cr_assert_eq(a->ranks[0].rho.n_used, 2000);
  cr_assert_eq(a->n_couplings, 3);
  cr_assert_eq(a->couplings[0].n_defined, 4);
  gb_analysis_free(a);
  gb_records_free(r);
}

Test(report_analysis, energy_off_leaves_time_standing) {
  gb_records *r = gbt_load("report-off");
  gb_analysis *a = gbt_analyse(r);
  cr_assert_not(a->energy);
  const gb_an_config *c = find(a, GB_C, GB_RANDOM, 100);
  cr_assert(c->measured);
  cr_assert_not(c->boot.has_energy);
  cr_assert_not(c->boot.est[GB_EST_ENERGY_PER_SORT].available);
  cr_assert_not(c->boot.est[GB_EST_NET_POWER].available);
  cr_assert_eq(c->boot.est[GB_EST_TIME_PER_SORT].point, 2550.0);
  cr_assert(isnan(c->startup->cost.energy_uj));
  for (size_t i = 0; i < a->n_ratios; i++) {
    const gb_ratio *x = &a->ratios[i].ratio;
    cr_assert_eq(x->reading, GB_READING_UNDEFINED);
    cr_assert(x->time.lo > 0.0 && x->time.lo <= x->time.point && x->time.point <= x->time.hi);
    cr_assert(isnan(x->power.point));
  }
  cr_assert_eq(a->tally_all.tally.defined, 0);
  cr_assert_not(a->ranks[0].computed);
  cr_assert_eq(a->couplings[0].n_defined, 0);
  gb_analysis_free(a);
  gb_records_free(r);
}

/* A configuration's intervals come from its own stream, keyed by the
 * configuration: bootstrapping its runs alone gives the same numbers. */
Test(report_analysis, intervals_do_not_depend_on_other_configurations) {
  gb_records *r = gbt_load("report-energy");
  gb_analysis *a = gbt_analyse(r);
  const gb_an_config *c = find(a, GB_NODE, GB_SORTED, 200);
  const gb_rec_group *g =
      gb_rec_table_find_sort(&r->runs, c->language, c->algorithm, c->order, c->size);
  gb_run runs[8];
  size_t n = 0;
  for (size_t i = 0; i < g->n_rows; i++) {
    const gb_run_row *x = g->rows[i];
    runs[n++] =
        (gb_run){.wall_ns = (double)x->wall_ns.value,
                 .cpu_ns = (double)(x->user_ns.value + x->sys_ns.value),
                 .energy_uj = (double)(x->pkg_uj.value + x->dram_uj.value),
                 .idle_ns = (double)x->idle_ns.value,
                 .idle_energy_uj = (double)(x->idle_pkg_uj.value + x->idle_dram_uj.value),
                 .sorts = x->sorts};
  }
  gb_boot_opts o = {.seed = GB_ANALYSIS_SEED_DEFAULT,
                    .stream = gbi_analysis_stream(GB_NODE, GB_QUICK, GB_SORTED, 200),
                    .replicates = 10000,
                    .level = 0.95,
                    .startup_batches = c->startup->batches,
                    .n_startup_batches = c->startup->n_ok,
                    .startup_stream = gbi_analysis_startup_stream(GB_NODE, GB_SORTED, 200)};
  gb_boot alone;
  gb_err err;
  cr_assert_eq(gbi_boot_run(runs, n, &c->startup->cost, &o, &alone, &err), 0, "%s", err.msg);
  for (int e = 0; e < GB_EST_COUNT; e++) {
    if (e == GB_EST_NET_POWER) {
      continue; /* the paired estimator's, below */
    }
    cr_assert_eq(alone.est[e].lo, c->boot.est[e].lo, "estimate %d", e);
    cr_assert_eq(alone.est[e].hi, c->boot.est[e].hi, "estimate %d", e);
  }
  double rep[10000];
  gb_interval paired;
  cr_assert_eq(gbi_paired_power(runs, n, &c->startup->cost, &o, rep, &paired, &err), 0, "%s",
               err.msg);
  cr_assert_eq(paired.lo, c->boot.est[GB_EST_NET_POWER].lo);
  cr_assert_eq(paired.hi, c->boot.est[GB_EST_NET_POWER].hi);
  gb_boot_free(&alone);
  gb_analysis_free(a);
  gb_records_free(r);
}

Test(report_analysis, streams_are_distinct_per_key) {
  uint64_t seen[3 * 3 * 4 * 4];
  size_t n = 0;
  static const uint64_t sizes[] = {250, 500, 1000, 2000};
  for (int l = 0; l < 3; l++) {
    for (int g = 0; g < 3; g++) {
      for (int o = 0; o < 4; o++) {
        for (int z = 0; z < 4; z++) {
          uint64_t s = gbi_analysis_stream(l, g, o, sizes[z]);
          for (size_t i = 0; i < n; i++) {
            cr_assert_neq(seen[i], s);
          }
          seen[n++] = s;
        }
      }
    }
  }
  cr_assert_eq(gbi_analysis_stream(GB_C, GB_BUBBLE, GB_RANDOM, 250), 250);
}

Test(report_analysis, deterministic) {
  gb_records *r = gbt_load("report-energy");
  gb_analysis *a = gbt_analyse(r), *b = gbt_analyse(r);
  for (size_t i = 0; i < a->n_configs; i++) {
    const gb_boot *x = &a->configs[i].boot, *y = &b->configs[i].boot;
    cr_assert_eq(memcmp(x->est, y->est, sizeof x->est), 0);
    cr_assert_eq(x->n_held, y->n_held);
    cr_assert_eq(memcmp(x->replicates, y->replicates,
                        x->n_held_estimates * x->n_held * sizeof *x->replicates),
                 0);
  }
  gb_analysis_free(a);
  gb_analysis_free(b);
  gb_records_free(r);
}

/* Field by field (memcmp would read the padding after a bool): doubles by
 * their bits. */
static bool same_double(double x, double y) {
  return memcmp(&x, &y, sizeof x) == 0;
}

static bool same_interval(const gb_interval *x, const gb_interval *y) {
  return x->available == y->available && same_double(x->point, y->point) &&
         same_double(x->lo, y->lo) && same_double(x->hi, y->hi) && x->n_used == y->n_used &&
         x->n_nonpositive == y->n_nonpositive;
}

static bool same_ratio(const gb_ratio *x, const gb_ratio *y) {
  return same_interval(&x->time, &y->time) && same_interval(&x->energy, &y->energy) &&
         same_interval(&x->power, &y->power) && x->reading == y->reading &&
         x->excludes_one == y->excludes_one;
}

static bool same_rho(const gb_rho_interval *x, const gb_rho_interval *y) {
  return x->point.defined == y->point.defined && same_double(x->point.rho, y->point.rho) &&
         same_double(x->lo, y->lo) && same_double(x->hi, y->hi) && x->n_used == y->n_used;
}

static bool same_estimates(const gb_boot *x, const gb_boot *y) {
  for (int e = 0; e < GB_EST_COUNT; e++) {
    if (!same_interval(&x->est[e], &y->est[e])) {
      return false;
    }
  }
  return true;
}

static gb_analysis *analyse_on(const gb_records *r, size_t threads) {
  gb_analysis_opts o = GB_ANALYSIS_OPTS_DEFAULT;
  o.resamples = 3000;
  o.threads = threads;
  return gbt_analyse_with(r, &o);
}

/* The bootstraps, ratios and rank intervals run on several threads, a
 * group of configurations at a time: every estimate, ratio, rank interval
 * and replicate kept is the same, bit for bit, on 1, 2 and 5 threads, and
 * each configuration's estimates are those of its own bootstrap drawn
 * alone. */
Test(report_analysis, same_on_any_number_of_threads) {
  gb_records *r = gbt_load("report-energy");
  gb_analysis *one = analyse_on(r, 1);
  size_t threads[] = {2, 5};
  for (size_t t = 0; t < 2; t++) {
    gb_analysis *many = analyse_on(r, threads[t]);
    cr_assert_eq(many->n_configs, one->n_configs);
    for (size_t i = 0; i < one->n_configs; i++) {
      const gb_boot *x = &one->configs[i].boot, *y = &many->configs[i].boot;
      cr_assert(same_estimates(x, y), "config %zu", i);
      cr_assert_eq(x->n_held, y->n_held);
      cr_assert_eq(x->n_held_estimates, y->n_held_estimates);
      cr_assert_eq(memcmp(x->replicates, y->replicates,
                          x->n_held_estimates * x->n_held * sizeof *x->replicates),
                   0);
    }
    cr_assert_eq(many->n_ratios, one->n_ratios);
    for (size_t i = 0; i < one->n_ratios; i++) {
      cr_assert(same_ratio(&many->ratios[i].ratio, &one->ratios[i].ratio), "ratio %zu", i);
    }
    cr_assert_eq(many->n_ranks, one->n_ranks);
    for (size_t i = 0; i < one->n_ranks; i++) {
      cr_assert(same_rho(&many->ranks[i].rho, &one->ranks[i].rho), "rank %zu", i);
    }
    gb_analysis_free(many);
  }
  size_t measured = 0;
  for (size_t i = 0; i < one->n_configs; i++) {
    const gb_an_config *c = &one->configs[i];
    if (!c->measured) {
      continue;
    }
    gb_run runs[64];
    size_t n = ok_runs(r, c, runs, 64);
    cr_assert_eq(n, c->n_ok);
    gb_boot_opts bo = {.seed = one->opts.seed,
                       .stream = c->stream,
                       .replicates = one->opts.resamples,
                       .level = one->opts.level,
                       .startup_batches = c->startup->batches,
                       .n_startup_batches = c->startup->n_ok,
                       .startup_stream = c->startup->stream};
    gb_boot alone;
    gb_err err;
    cr_assert_eq(gbi_boot_run(runs, n, &c->startup->cost, &bo, &alone, &err), 0, "%s", err.msg);
    /* Net power is the paired estimator's (ADR 0015), on the same draws. */
    double *rep = malloc(bo.replicates * sizeof *rep);
    cr_assert_not_null(rep);
    cr_assert_eq(gbi_paired_power(runs, n, &c->startup->cost, &bo, rep,
                                  &alone.est[GB_EST_NET_POWER], &err),
                 0, "%s", err.msg);
    free(rep);
    cr_assert(same_estimates(&alone, &c->boot), "config %zu", i);
    cr_assert_eq(
        memcmp(alone.replicates, c->boot.replicates, c->boot.n_held * sizeof *alone.replicates),
        0, "time per sort's first replicates, config %zu", i);
    gb_boot_free(&alone);
    measured++;
  }
  cr_assert_gt(measured, 0);
  gb_analysis_free(one);
  gb_records_free(r);
}

/* The reader refuses ok readings of 0 uJ (report-zero), so the analysis's
 * own check is reached only by records built in memory: every energy
 * reading of a good fixture set to 0 after reading. */
Test(report_analysis, all_zero_energy_is_flagged) {
  gb_records *r = gbt_load("report-energy");
  for (size_t i = 0; i < r->runs.n_rows; i++) {
    gb_run_row *x = &r->runs.rows[i];
    if (x->energy == GB_REC_ENERGY_OK) {
      x->pkg_uj.value = x->dram_uj.value = x->idle_pkg_uj.value = x->idle_dram_uj.value = 0;
    }
  }
  gb_analysis *a = gbt_analyse(r);
  cr_assert(a->checks.all_energy_zero);
  gb_analysis_free(a);
  gb_records_free(r);
}

Test(report_analysis, bad_options) {
  gb_records *r = gbt_load("report-energy");
  gb_analysis_opts o = GB_ANALYSIS_OPTS_DEFAULT;
  gb_analysis *a = NULL;
  gb_err err;
  o.resamples = 0;
  cr_assert_eq(gb_analysis_run(r, &o, &a, &err), -EINVAL);
  o = (gb_analysis_opts)GB_ANALYSIS_OPTS_DEFAULT;
  o.margin = 0.0;
  cr_assert_eq(gb_analysis_run(r, &o, &a, &err), -EINVAL);
  cr_assert_null(a);
  gb_records_free(r);
}

/* A tally of `total` ratios: same, differ, inconclusive readings (the rest
 * undefined), `excluding` intervals excluding 1, and a chance bound. */
static gb_an_tally tally_of(size_t total, size_t same, size_t differ, size_t inconclusive,
                            size_t excluding, size_t bound) {
  gb_an_tally t = {.chance_bound = bound};
  t.tally.total = total;
  t.tally.readings[GB_READING_SAME] = same;
  t.tally.readings[GB_READING_DIFFERS] = differ;
  t.tally.readings[GB_READING_INCONCLUSIVE] = inconclusive;
  t.tally.readings[GB_READING_UNDEFINED] = total - same - differ - inconclusive;
  t.tally.defined = same + differ + inconclusive;
  t.tally.excluding_one = excluding;
  return t;
}

Test(report_analysis, verdict_follows_the_study_rule_branch_by_branch) {
  gb_an_tally t = tally_of(252, 0, 0, 0, 0, 0);
  cr_assert_eq(gb_analysis_verdict(&t), GB_AN_VERDICT_CANNOT);
  /* Most same, and as many exclude 1 as the bound allows. */
  t = tally_of(252, 200, 19, 33, 19, 19);
  cr_assert_eq(gb_analysis_verdict(&t), GB_AN_VERDICT_YES);
  /* The case: most read same power, yet 96 intervals exclude 1
   * (same-power intervals that exclude 1 count as differing too). */
  t = tally_of(252, 150, 10, 92, 96, 19);
  cr_assert_eq(gb_analysis_verdict(&t), GB_AN_VERDICT_YES_BUT_DIFFERS);
  t = tally_of(252, 200, 0, 52, 20, 19);
  cr_assert_eq(gb_analysis_verdict(&t), GB_AN_VERDICT_YES_BUT_DIFFERS);
  /* Exactly half same is not most. */
  t = tally_of(252, 126, 126, 0, 126, 19);
  cr_assert_eq(gb_analysis_verdict(&t), GB_AN_VERDICT_NO);
  /* Most of the defined ratios inconclusive (undefined ones do not count). */
  t = tally_of(252, 50, 0, 51, 0, 19);
  cr_assert_eq(gb_analysis_verdict(&t), GB_AN_VERDICT_TOO_NOISY);
  t = tally_of(252, 50, 1, 50, 1, 19);
  cr_assert_eq(gb_analysis_verdict(&t), GB_AN_VERDICT_NO);
}

Test(report_analysis, many_inconclusive_is_one_in_five_of_the_defined) {
  gb_an_tally t = tally_of(252, 0, 0, 0, 0, 0);
  cr_assert_not(gb_analysis_noisy(&t));
  /* 54 of 252 (21%), the case. */
  t = tally_of(252, 100, 98, 54, 98, 19);
  cr_assert(gb_analysis_noisy(&t));
  t = tally_of(100, 50, 30, 20, 30, 9);
  cr_assert(gb_analysis_noisy(&t));
  t = tally_of(100, 50, 31, 19, 31, 9);
  cr_assert_not(gb_analysis_noisy(&t));
  /* Against the defined readings: 19 of 95 defined is one in five. */
  t = tally_of(100, 50, 26, 19, 26, 9);
  cr_assert(gb_analysis_noisy(&t));
}

/* Issue 32, item 2, on the committed study: every configuration whose loop
 * time per sort lies outside its per-sort interval, or more than 10% from
 * it, is flagged, node/insertion/reversed/1000 among them; and none shows
 * CPU per sort above time per sort x the workers' CPUs unflagged. */
Test(report_analysis, study_loop_time_and_cpu_checks_flag_every_one) {
  gb_records *r = gbt_load_dir(GB_TEST_DATA_DIR "/../../../results/study-vm-2026-12-03");
  gb_analysis *a = gbt_analyse(r);
  cr_assert_eq(a->checks.worker_cpus, 1, "the study pinned its workers to CPU 1");
  size_t disagree = 0, above = 0;
  for (size_t i = 0; i < a->n_configs; i++) {
    const gb_an_config *c = &a->configs[i];
    if (!c->measured) {
      continue;
    }
    const gb_interval *t = &c->boot.est[GB_EST_TIME_PER_SORT];
    double loop = c->loop_per_sort_ns, cpu = c->boot.est[GB_EST_CPU_PER_SORT].point;
    cr_assert(!isnan(loop));
    bool off = loop < t->lo || loop > t->hi || fabs(t->point - loop) > 0.10 * loop;
    cr_expect_eq(c->loop_disagrees, off, "configuration %zu", i);
    cr_expect_eq(c->cpu_above_wall, cpu > t->point, "configuration %zu", i);
    disagree += off;
    above += cpu > t->point;
  }
  cr_expect_eq(a->checks.loop_disagrees, disagree);
  cr_expect_eq(a->checks.cpu_above_wall, above);
  const gb_an_config *c = gb_analysis_find(a, GB_NODE, GB_INSERTION, GB_REVERSED, 1000);
  cr_assert_not_null(c);
  cr_expect(c->loop_disagrees);
  cr_expect(c->cpu_above_wall);
  cr_expect(fabs(c->loop_per_sort_ns - 1167e3) < 1e3, "%g", c->loop_per_sort_ns);
  gb_analysis_free(a);
  gb_records_free(r);
}

/* CPU per sort above time per sort x CPUs is flagged at any excess: the
 * clocks' resolution cannot make it (docs/methods.md, "No tolerance for CPU
 * above wall"), so equal is not flagged and the next double above is. */
Test(report_analysis, cpu_above_wall_has_no_tolerance) {
  double t = 84200.0;
  cr_expect_not(gbi_an_cpu_above_wall(t, t, 1));
  cr_expect(gbi_an_cpu_above_wall(nextafter(t, INFINITY), t, 1));
  cr_expect_not(gbi_an_cpu_above_wall(2.0 * t, t, 2));
  cr_expect(gbi_an_cpu_above_wall(nextafter(2.0 * t, INFINITY), t, 2));
  cr_expect(gbi_an_cpu_above_wall(1.0002 * t, t, 1), "python/quick/nearly/250's 0.02%%");
  cr_expect_not(gbi_an_cpu_above_wall(2.0 * t, t, 0), "CPUs unknown");
  cr_expect_not(gbi_an_cpu_above_wall(NAN, t, 1));
  cr_expect_not(gbi_an_cpu_above_wall(t, NAN, 1));
}

/* Issue 32, item 1: --startup-fixed reproduces the study's first intervals
 * (a bootstrap with the startup held fixed), the default resamples the
 * startup and gives wider ones here; the points are the same. */
Test(report_analysis, startup_fixed_reproduces_the_held_startup) {
  gb_records *r = gbt_load("report-noisy");
  gb_analysis_opts o = GB_ANALYSIS_OPTS_DEFAULT;
  o.resamples = 2000;
  gb_analysis *def = gbt_analyse_with(r, &o);
  o.startup_fixed = true;
  gb_analysis *fixed = gbt_analyse_with(r, &o);
  gb_err err;
  size_t wider = 0;
  for (size_t i = 0; i < fixed->n_configs; i++) {
    const gb_an_config *c = &fixed->configs[i], *d = &def->configs[i];
    if (!c->measured) {
      continue;
    }
    gb_run runs[64];
    size_t n = ok_runs(r, c, runs, 64);
    gb_boot_opts bo = {
        .seed = o.seed, .stream = c->stream, .replicates = o.resamples, .level = o.level};
    gb_boot alone;
    cr_assert_eq(gbi_boot_run(runs, n, &c->startup->cost, &bo, &alone, &err), 0, "%s", err.msg);
    for (int e = 0; e < GB_EST_COUNT; e++) {
      cr_assert(alone.est[e].lo == c->boot.est[e].lo || isnan(alone.est[e].lo), "%zu %d", i, e);
      cr_assert(alone.est[e].hi == c->boot.est[e].hi || isnan(alone.est[e].hi), "%zu %d", i, e);
    }
    gb_boot_free(&alone);
    const gb_interval *tf = &c->boot.est[GB_EST_TIME_PER_SORT];
    const gb_interval *td = &d->boot.est[GB_EST_TIME_PER_SORT];
    cr_assert_eq(tf->point, td->point);
    wider += td->hi - td->lo > tf->hi - tf->lo;
  }
  cr_assert_gt(wider, 0, "the startup's noise widens some interval");
  gb_analysis_free(def);
  gb_analysis_free(fixed);
  gb_records_free(r);
}
