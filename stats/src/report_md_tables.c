/* results.md's tables: per configuration, startup costs, ratios, rank
 * agreement and coupling, carbon. */
#include "report_md_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Tables -------------------------------------------------------------------- */

static void config_keys(gbi_textbuf *b, const gb_an_config *c) {
  gbi_tb_printf(b, "| %s | %s | %s | %" PRIu64 " |", gb_language_name(c->language),
                gb_algorithm_name(c->algorithm), gb_order_name(c->order), c->size);
}

static void sorts_cell(gbi_textbuf *b, const gb_an_config *c) {
  if (c->n_ok == 0) {
    gbi_tb_puts(b, " n/a |");
  } else if (c->sorts_min == c->sorts_max) {
    gbi_tb_printf(b, " %" PRIu64 " |", c->sorts_min);
  } else {
    gbi_tb_printf(b, " %" PRIu64 " to %" PRIu64 " |", c->sorts_min, c->sorts_max);
  }
}

static void process_cells(gbi_textbuf *b, const gb_an_config *c) {
  const gb_summary *p = &c->process;
  if (!c->measured) {
    gbi_tb_puts(b, " n/a | n/a | n/a | n/a |");
    return;
  }
  const double v[3] = {p->median, p->p95, p->min};
  for (int i = 0; i < 3; i++) {
    gbi_tb_puts(b, " ");
    gbi_tb_sig(b, v[i] * 1e-6, SIG);
    gbi_tb_puts(b, i == 2 ? " to " : " |");
  }
  gbi_tb_sig(b, p->max * 1e-6, SIG);
  gbi_tb_printf(b, " | %zu low, %zu high |", p->low_outliers, p->high_outliers);
}

static void config_row(md *d, const gb_an_config *c) {
  gbi_textbuf *b = d->b;
  config_keys(b, c);
  gbi_tb_printf(b, " %zu of %zu |", c->n_ok, c->n_rows);
  sorts_cell(b, c);
  const gb_estimate es[4] = {GB_EST_TIME_PER_SORT, GB_EST_CPU_PER_SORT, GB_EST_ENERGY_PER_SORT,
                             GB_EST_NET_POWER};
  const double scale[4] = {1e-3, 1e-3, 1.0, 1.0};
  for (int i = 0; i < 4; i++) {
    gbi_tb_puts(b, " ");
    md_est(d, c, es[i], scale[i]);
    gbi_tb_puts(b, " |");
  }
  if (d->a->energy) {
    gbi_tb_puts(b, " ");
    if (c->coupling.defined) {
      gbi_tb_sig(b, c->coupling.rho, 3);
    } else {
      gbi_tb_puts(b, "n/a");
    }
    gbi_tb_puts(b, " |");
  }
  process_cells(b, c);
  gbi_tb_puts(b, "\n");
}

static void startup_row(md *d, const gb_an_startup *s) {
  gbi_textbuf *b = d->b;
  gbi_tb_printf(b, "| %s | %s | %" PRIu64 " | %zu of %zu | ", gb_language_name(s->language),
                gb_order_name(s->order), s->size, s->n_ok, s->n_rows);
  if (!s->measured) {
    gbi_tb_puts(b, "n/a | not measured | not measured | not measured |\n");
    return;
  }
  gbi_tb_printf(b, "%" PRIu64 " | ", s->launches);
  gbi_tb_sig(b, s->cost.time_ns * 1e-6, SIG);
  gbi_tb_puts(b, " | ");
  gbi_tb_sig(b, s->cost.cpu_ns * 1e-6, SIG);
  gbi_tb_puts(b, " | ");
  if (isnan(s->cost.energy_uj)) {
    gbi_tb_puts(b, md_missing_word(d->a));
  } else {
    gbi_tb_sig(b, s->cost.energy_uj * 1e-3, SIG);
  }
  gbi_tb_puts(b, " |\n");
}

/* The startup costs subtracted, so a reader can see how much of a process
 * they are. */
static void section_startups(md *d) {
  gbi_textbuf *b = d->b;
  gbi_tb_puts(b, "### Startup cost per process\n\nMedian over each trial's ok batches of the "
                 "batch's cost divided by its launches (energy net of idle), subtracted from "
                 "every run of the trial's language, order and size; ");
  gbi_tb_puts(b, d->a->opts.startup_fixed ? "held fixed (--startup-fixed).\n\n"
                                          : "its uncertainty enters the intervals (Method "
                                            "notes).\n\n");
  md_fold_open(b, d->a->n_startups, "Startup cost per process");
  gbi_tb_puts(b,
              "| Language | Order | Size | Ok batches | Launches per batch | Wall (ms) | CPU "
              "(ms) | Energy (mJ) |\n|---|---|---|---|---|---|---|---|\n");
  for (size_t i = 0; i < d->a->n_startups; i++) {
    startup_row(d, &d->a->startups[i]);
  }
  md_fold_close(b, d->a->n_startups);
}

void md_section_configs(md *d) {
  gbi_textbuf *b = d->b;
  gbi_tb_printf(b,
                "## Per-configuration results\n\n"
                "Medians of the ok runs with %s percentile-bootstrap intervals. ",
                d->level);
  gbi_tb_puts(b,
              "Time and CPU "
              "time per sort are the process's wall and user + system CPU time minus the "
              "median startup cost per process, divided by the sorts per process; energy per "
              "sort is also net of the idle baseline scaled to the run's length; net power is "
              "the power drawn above idle, ");
  gbi_tb_puts(b, d->a->opts.power_estimator == GB_POWER_PAIRED
                     ? "by the paired estimator (the default, ADR 0015): the median over runs "
                       "of each run's own net energy over its own net time, the startup and "
                       "idle subtracted per run, on the same resamples; power ratios are "
                       "ratios of these. "
                     : "by the study's estimator (--power-estimator study): median energy "
                       "per sort over median time per sort; power ratios are the energy ratio "
                       "over the time ratio. ");
  gbi_tb_puts(b, "Process time is the whole process, startup included; outliers are counted by "
                 "Tukey's rule (beyond 1.5 IQR from the quartiles), never dropped.\n\n");
  md_fold_open(b, d->a->n_configs, "Per-configuration results");
  gbi_tb_puts(b,
              "| Language | Algorithm | Order | Size | Ok runs | Sorts per process | Time per "
              "sort (µs) | CPU per sort (µs) | Energy per sort (µJ) | Net power (W) |");
  gbi_tb_puts(b, d->a->energy ? " Run-to-run rho |" : "");
  gbi_tb_puts(b, " Process time, median (ms) | p95 (ms) | Min to max (ms) | Outliers |\n"
                 "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  gbi_tb_puts(b, d->a->energy ? "---|\n" : "\n");
  for (size_t i = 0; i < d->a->n_configs; i++) {
    config_row(d, &d->a->configs[i]);
  }
  md_fold_close(b, d->a->n_configs);
  if (d->a->checks.nonpositive > 0) {
    gbi_tb_printf(b,
                  "%s: the median time or energy per sort is zero or below, because the "
                  "startup cost subtracted is as large as the whole sort (%zu "
                  "configuration%s; see Data checks). Such a figure says only that the sort is "
                  "lost in the startup's noise, and its net power is undefined; the chart "
                  "cannot draw it.\n\n",
                  FLAG_NONPOSITIVE, d->a->checks.nonpositive,
                  d->a->checks.nonpositive == 1 ? "" : "s");
  }
  if (d->a->checks.loop_disagrees > 0 || d->a->checks.cpu_above_wall > 0) {
    gbi_tb_printf(
        b,
        "%s: the time per sort (process time minus the startup median) disagrees "
        "with the worker's own loop time per sort, given after the mark in µs: it "
        "lies outside the interval, or more than %.6g%% away (%zu configuration%s). "
        "%s: the CPU time per sort exceeds the time per sort times the %" PRIu64
        " CPU%s the workers could use, which no process can do (%zu configuration%s). "
        "Both say that the startup subtraction failed there; see Data checks.\n\n",
        FLAG_LOOP, 100.0 * GB_ANALYSIS_LOOP_TOLERANCE, d->a->checks.loop_disagrees,
        d->a->checks.loop_disagrees == 1 ? "" : "s", FLAG_CPU, d->a->checks.worker_cpus,
        d->a->checks.worker_cpus == 1 ? "" : "s", d->a->checks.cpu_above_wall,
        d->a->checks.cpu_above_wall == 1 ? "" : "s");
  }
  section_startups(d);
}

static void ratio_row(md *d, const gb_an_ratio *r) {
  gbi_textbuf *b = d->b;
  const gb_an_config *x = &d->a->configs[r->a], *y = &d->a->configs[r->b];
  if (r->family == GB_AN_LANGUAGES) {
    gbi_tb_printf(b, "| %s / %s | %s | %s | %" PRIu64 " | ", gb_language_title(x->language),
                  gb_language_title(y->language), gb_algorithm_name(x->algorithm),
                  gb_order_name(x->order), x->size);
  } else {
    gbi_tb_printf(b, "| %s | %s | %s / random | %" PRIu64 " | ", gb_language_title(x->language),
                  gb_algorithm_name(x->algorithm), gb_order_name(x->order), x->size);
  }
  md_ratio_cell(d, r, &r->ratio.time, false);
  gbi_tb_puts(b, " | ");
  md_ratio_cell(d, r, &r->ratio.energy, true);
  gbi_tb_puts(b, " | ");
  md_ratio_cell(d, r, &r->ratio.power, true);
  gbi_tb_printf(b, " | %s |\n", md_reading_text(d->a, r));
}

static void ratio_table(md *d, gb_an_family f, size_t from, size_t to) {
  gbi_textbuf *b = d->b;
  bool lang = f == GB_AN_LANGUAGES;
  md_fold_open(b, to - from, lang ? "Ratios between languages" : "Ratios between input orders");
  gbi_tb_printf(b,
                "| %s | %s | %s | Size | Time ratio | Energy ratio | Power ratio | Reading |\n"
                "|---|---|---|---|---|---|---|---|\n",
                lang ? "Languages" : "Language", "Algorithm", lang ? "Order" : "Orders");
  size_t outside = 0;
  for (size_t i = from; i < to; i++) {
    const gb_ratio *r = &d->a->ratios[i].ratio;
    ratio_row(d, &d->a->ratios[i]);
    outside +=
        gb_an_point_outside(&r->time) ||
        (d->a->energy && (gb_an_point_outside(&r->energy) || gb_an_point_outside(&r->power)));
  }
  md_fold_close(b, to - from);
  size_t loop = 0;
  for (size_t i = from; i < to; i++) {
    loop += d->a->ratios[i].computed && md_ratio_loop_flagged(d->a, &d->a->ratios[i]);
  }
  if (loop > 0) {
    gbi_tb_printf(b,
                  "‡ after a time ratio: a side's time per sort disagrees with its worker's "
                  "loop time (%zu row%s; Data checks), and every ratio of the row stands on "
                  "it.\n\n",
                  loop, loop == 1 ? "" : "s");
  }
  if (outside > 0) {
    gbi_tb_printf(b,
                  "%s N of %zu: in %zu rows a ratio's point estimate (from the original "
                  "runs) lies outside its interval, which comes only from the N resamples in "
                  "which the ratio is defined.\n\n",
                  FLAG_OUTSIDE, d->a->opts.resamples, outside);
  }
}

void md_section_ratios(md *d) {
  gbi_textbuf *b = d->b;
  const gb_analysis *a = d->a;
  gbi_tb_printf(b, "## Ratios\n\nEach ratio is A / B of the medians, with a %s interval from ",
                d->level);
  gbi_tb_puts(b, "resampling both configurations independently (replicate r of A against "
                 "replicate r of B). ");
  gbi_tb_puts(b, a->opts.power_estimator == GB_POWER_PAIRED
                     ? "The power ratio is the ratio of the two net powers of the paired "
                       "estimator (each the median of its runs' own energy over time). "
                     : "The power ratio is the energy ratio over the time ratio (the study's "
                       "estimator). ");
  gbi_tb_puts(b, "Its reading, against a margin of ");
  md_margin_text(d);
  gbi_tb_puts(b,
              " fixed before measuring (from 1/(1 + m) to 1 + m): *same power* when the whole "
              "interval lies inside the margin; otherwise *differs* when the interval excludes "
              "1, which is all that *differs* says: part of such an interval may lie inside "
              "the margin; *inconclusive* when it includes 1 but reaches beyond the "
              "margin, which is never read as the same power; *undefined*, with no power "
              "ratio, when energy or time "
              "per sort is lost in the noise (a median, or more than ");
  gbi_tb_printf(b,
                "%.6g%% of the replicates, at zero or below) or missing. The intervals are "
                "separate %s intervals, not adjusted for being many.\n\n",
                100.0 / GB_RATIO_NOISE_SHARE_DEN, d->level);
  if (a->energy) {
    gbi_tb_printf(b, "In all, %zu of the %zu defined power intervals exclude 1, against about ",
                  a->tally_all.tally.excluding_one, a->tally_all.tally.defined);
    gbi_tb_sig(b, a->tally_all.tally.expected_by_chance, 3);
    gbi_tb_printf(b,
                  " that chance alone would give (%s; more than %zu would happen by chance "
                  "only one time in 20, by the binomial distribution).",
                  d->chance, a->tally_all.plain_bound);
    if (a->tally_all.calibrated) {
      gbi_tb_printf(b,
                    " That plain figure holds only if each interval excluded 1 with "
                    "probability %s, independently; intervals of ratios that share a "
                    "configuration are dependent, and an interval can cover more or less than "
                    "it claims (docs/methods.md, Coverage of the intervals). So the count is "
                    "calibrated for this campaign's design: its records simulated %zu times "
                    "under equal power (its own times kept, every run's net energy one "
                    "power over its wall time, scattered as its own runs' power scatters, "
                    "less the startup's energy at that power; the startup held at its median, "
                    "which errs towards a higher bound). ",
                    d->chance, a->tally_all.null_campaigns);
      md_calibrated_sentence(d, &a->tally_all);
      gbi_tb_puts(b, "The bound is the larger of the binomial bound at the simulated rate and "
                     "the count that one simulated campaign in 20 exceeded.");
    }
    gbi_tb_puts(b, "\n\n");
    gbi_tb_puts(b, "The answer to question 1 follows from these counts by a rule fixed before "
                   "measuring. An interval that excludes 1 counts as differing, whatever its "
                   "position against the margin. *Yes* when more than half of all power ratios "
                   "read same power and no more intervals exclude 1 than the bound above; "
                   "*within the margin, yes, but power differs measurably* when more than half "
                   "read same power but more exclude 1 than the bound; *too noisy to decide* "
                   "when more than half of the defined readings are inconclusive; *no* "
                   "otherwise. Whenever ");
    gbi_tb_printf(b,
                  "one in %d or more of the defined readings is inconclusive, the answer also "
                  "says that the measurements were too noisy to decide those "
                  "comparisons.\n\n",
                  GB_ANALYSIS_NOISY_SHARE_DEN / GB_ANALYSIS_NOISY_SHARE_NUM);
  } else {
    gbi_tb_puts(b, "Energy is pending, so the energy and power ratios and their readings are "
                   "too; the time ratios stand on their own. With energy, the count of power "
                   "intervals excluding 1 would be set against a bound calibrated for this "
                   "campaign's design, by simulating it under equal power, with the plain "
                   "binomial 5% figure printed beside it (docs/study.md, Counting against "
                   "chance).\n\n");
  }
  gbi_tb_printf(b, "### Between languages (%zu)\n\n", a->n_language_ratios);
  ratio_table(d, GB_AN_LANGUAGES, 0, a->n_language_ratios);
  gbi_tb_printf(b, "### Between input orders (%zu)\n\n", a->n_ratios - a->n_language_ratios);
  ratio_table(d, GB_AN_ORDERS, a->n_language_ratios, a->n_ratios);
}

static void rank_scope(gbi_textbuf *b, const gb_an_rank *k) {
  switch (k->scope) {
  case GB_AN_RANK_OVERALL:
    gbi_tb_puts(b, "all configurations");
    break;
  case GB_AN_RANK_SIZE:
    gbi_tb_printf(b, "size %" PRIu64, k->size);
    break;
  case GB_AN_RANK_LANGUAGE:
    gbi_tb_puts(b, gb_language_title(k->language));
    break;
  default:
    gbi_tb_printf(b, "%s, %s", gb_language_title(k->language), gb_algorithm_name(k->algorithm));
  }
}

static void rank_row(md *d, const gb_an_rank *k) {
  gbi_textbuf *b = d->b;
  gbi_tb_puts(b, "| ");
  rank_scope(b, k);
  gbi_tb_printf(b, " | %zu | ", k->k);
  if (!d->a->energy) {
    gbi_tb_puts(b, "pending");
  } else if (!k->computed || !k->rho.point.defined) {
    gbi_tb_puts(b, "undefined");
  } else {
    gbi_tb_interval(b, k->rho.point.rho, k->rho.lo, k->rho.hi, 3);
  }
  gbi_tb_puts(b, " |\n");
}

static void coupling_row(md *d, const gb_an_coupling *c) {
  gbi_textbuf *b = d->b;
  gbi_tb_printf(b, "| %s | %s | ", gb_language_title(c->language),
                gb_algorithm_name(c->algorithm));
  if (!d->a->energy) {
    gbi_tb_puts(b, "pending | pending |\n");
    return;
  }
  gbi_tb_printf(b, "%zu | ", c->n_defined);
  double r[3] = {c->median, c->min, c->max};
  md_range_cell(b, r);
  gbi_tb_puts(b, " |\n");
}

void md_section_ranks(md *d) {
  gbi_textbuf *b = d->b;
  const gb_analysis *a = d->a;
  gbi_tb_printf(b,
                "## Rank agreement\n\nSpearman's rho (ties averaged) between median time per "
                "sort and median energy per sort across the measured configurations of each "
                "scope, with a %s interval from the first %zu bootstrap replicates of every "
                "configuration. ",
                d->level, a->opts.rank_resamples);
  /* The Spearman row of the coverage table in docs/methods.md (the coverage
   * study, issue 32); test_report_md holds the two figures to that row. */
  gbi_tb_puts(b, "Their coverage is not the 95% they claim. In the coverage study "
                 "(docs/methods.md, Coverage of the intervals), 95% intervals built this way "
                 "held the true rho in " GB_MD_RANK_COVERAGE_STUDY
                 " of scopes on campaigns drawn like the committed study (144 configurations, "
                 "many close together in time), and in " GB_MD_RANK_COVERAGE_SMALL
                 " on a small design of well-separated configurations.\n\n");
  md_fold_open(b, a->n_ranks, "Rank agreement by scope");
  gbi_tb_printf(b, "| Scope | Configurations | rho [%s CI] |\n|---|---|---|\n", d->level);
  for (size_t i = 0; i < a->n_ranks; i++) {
    rank_row(d, &a->ranks[i]);
  }
  md_fold_close(b, a->n_ranks);
  gbi_tb_puts(
      b, "Run-to-run coupling: within each configuration, Spearman's rho between the "
         "process time and the process energy of its runs; the median (and range) over "
         "the configurations of each language and algorithm. With steady power it is "
         "positive almost by construction: a check on measurement noise, not an answer.\n\n"
         "| Language | Algorithm | Configurations | rho, median (range) |\n"
         "|---|---|---|---|\n");
  for (size_t i = 0; i < a->n_couplings; i++) {
    coupling_row(d, &a->couplings[i]);
  }
  gbi_tb_puts(b, "\n");
}

/* ---- Carbon ---------------------------------------------------------------------- */

/* Micrograms CO2e of an energy estimate, with its interval. */
static void carbon_cell(md *d, const gb_an_config *c, gb_estimate e, double g_per_kwh) {
  gbi_textbuf *b = d->b;
  const gb_interval *iv = &c->boot.est[e];
  if (!c->measured || !iv->available) {
    gbi_tb_puts(b, c->measured ? md_missing_word(d->a) : "not measured");
    return;
  }
  md_carbon_interval(b, iv, g_per_kwh);
}

void md_carbon_interval(gbi_textbuf *b, const gb_interval *iv, double g_per_kwh) {
  gbi_tb_interval(b, gb_carbon_grams(iv->point, g_per_kwh) * 1e6,
                  gb_carbon_grams(iv->lo, g_per_kwh) * 1e6,
                  gb_carbon_grams(iv->hi, g_per_kwh) * 1e6, SIG);
}

void md_carbon_head(gbi_textbuf *b, const char *const *keys, size_t n_keys,
                    const gb_intensity *all, size_t n) {
  gbi_tb_puts(b, "|");
  for (size_t i = 0; i < n_keys; i++) {
    gbi_tb_printf(b, " %s |", keys[i]);
  }
  for (size_t i = 0; i < n; i++) {
    gbi_tb_puts(b, " ");
    md_text(b, all[i].region);
    gbi_tb_puts(b, ", net (µg) | ");
    md_text(b, all[i].region);
    gbi_tb_puts(b, ", with idle (µg) |");
  }
  gbi_tb_puts(b, "\n|");
  for (size_t i = 0; i < n_keys + 2 * n; i++) {
    gbi_tb_puts(b, "---|");
  }
  gbi_tb_puts(b, "\n");
}

void md_carbon_intensities(gbi_textbuf *b, const gb_intensity *all, size_t n) {
  gbi_tb_puts(b, "| Region | Code | Year | g CO2e per kWh |\n|---|---|---|---|\n");
  for (size_t i = 0; i < n; i++) {
    const gb_intensity *x = &all[i];
    gbi_tb_puts(b, "| ");
    md_text(b, x->region);
    gbi_tb_puts(b, " | ");
    md_text(b, x->code[0] ? x->code : "custom");
    gbi_tb_puts(b, " | ");
    if (x->year) {
      gbi_tb_printf(b, "%d", x->year);
    } else {
      gbi_tb_puts(b, "given");
    }
    gbi_tb_printf(b, " | %.6g |\n", x->g_per_kwh);
  }
  gbi_tb_puts(b, "\n");
}

static void carbon_table(md *d) {
  gbi_textbuf *b = d->b;
  md_fold_open(b, d->a->n_configs, "Carbon per sort");
  static const char *const keys[] = {"Language", "Algorithm", "Order", "Size"};
  md_carbon_head(b, keys, 4, d->o->intensities, d->o->n_intensities);
  for (size_t i = 0; i < d->a->n_configs; i++) {
    const gb_an_config *c = &d->a->configs[i];
    config_keys(b, c);
    for (size_t j = 0; j < d->o->n_intensities; j++) {
      double g = d->o->intensities[j].g_per_kwh;
      gbi_tb_puts(b, " ");
      carbon_cell(d, c, GB_EST_ENERGY_PER_SORT, g);
      gbi_tb_puts(b, " | ");
      carbon_cell(d, c, GB_EST_GROSS_ENERGY_PER_SORT, g);
      gbi_tb_puts(b, " |");
    }
    gbi_tb_puts(b, "\n");
  }
  md_fold_close(b, d->a->n_configs);
}

void md_carbon_intro(gbi_textbuf *b, const char *unit) {
  gbi_tb_printf(b,
                "## Carbon\n\nMicrograms of CO2-equivalent per %s, from annual, "
                "location-based, lifecycle grid intensities: *net* counts only the energy the "
                "%s adds above idle; *with idle* also counts the idle power drawn while it "
                "runs. Neither includes the rest of the machine, so both understate the "
                "electricity used. Intensities: Ember - Yearly Electricity Data (2026) and "
                "Ember - Yearly Electricity Data Europe (2026), with major processing by Our "
                "World in Data (CC BY 4.0); see stats/data/README.md.\n\n",
                unit, unit);
}

void md_section_carbon(md *d) {
  gbi_textbuf *b = d->b;
  md_carbon_intro(b, "sort");
  if (d->o->n_intensities == 0) {
    gbi_tb_puts(b, "No region was asked for.\n\n");
    return;
  }
  md_carbon_intensities(b, d->o->intensities, d->o->n_intensities);
  if (!d->a->energy) {
    gbi_tb_puts(b, "Every carbon figure is *pending*: energy was not measured.\n\n");
    return;
  }
  carbon_table(d);
}
