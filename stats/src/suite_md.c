/* results.md of a suite campaign (suite_analysis.h): what was measured,
 * one table per case with every language against the suite's first, rank
 * agreement of time and energy, carbon, and the runs that were not ok. The
 * cells and number formats are the study's (report_md_internal.h,
 * textbuf.h); every sentence that states a result is built from the
 * analysis. */
#include "greenbench/suite_analysis.h"

#include "greenbench/timefmt.h"
#include "report_md_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct {
  gbi_textbuf *b;
  const gb_suite_analysis *a;
  const gb_suite_md_opts *o;
  const gb_srec_meta *m;
  const gb_suite *s;
  char level[24]; /* "95%" */
} smd;

static const char *title_of(const smd *d, size_t l) {
  return d->s->languages[l].title;
}

/* ---- What was measured ------------------------------------------------------ */

static void time_text(gbi_textbuf *b, uint64_t unix_ns) {
  char iso[32];
  if (gb_utc_iso8601((int64_t)(unix_ns / UINT64_C(1000000000)), iso, sizeof iso) < 0) {
    snprintf(iso, sizeof iso, "%" PRIu64 " ns", unix_ns);
  }
  gbi_tb_puts(b, iso);
}

static void languages_row(smd *d) {
  gbi_tb_puts(d->b, "| Languages | ");
  for (size_t l = 0; l < d->s->n_languages; l++) {
    gbi_tb_puts(d->b, l ? "; " : "");
    md_text(d->b, title_of(d, l));
    gbi_tb_puts(d->b, " (");
    md_code(d->b, d->s->languages[l].name);
    gbi_tb_puts(d->b, "): ");
    const char *version = "";
    for (size_t i = 0; i < d->m->n_languages; i++) {
      if (strcmp(d->m->languages[i].name, d->s->languages[l].name) == 0) {
        version = d->m->languages[i].version;
      }
    }
    md_text(d->b, version[0] ? version : "version not recorded");
  }
  gbi_tb_puts(d->b, " |\n");
}

static void energy_text(smd *d) {
  gbi_tb_puts(d->b, gb_rec_energy_name(d->m->energy_status));
  if (d->m->energy_reason[0]) {
    gbi_tb_puts(d->b, ": ");
    md_text(d->b, d->m->energy_reason);
  }
  gbi_tb_printf(d->b, " (mode %s)", gb_energy_mode_name(d->m->settings.energy));
}

static void section_measured(smd *d) {
  gbi_textbuf *b = d->b;
  const gb_settings *st = &d->m->settings;
  gbi_tb_puts(b, "## What was measured\n\n| | |\n|---|---|\n| Suite | ");
  md_code(b, d->m->suite_name);
  gbi_tb_puts(b, ", hash ");
  md_code(b, d->m->suite_hash);
  gbi_tb_printf(b, "; %zu languages × %zu cases (%zu configurations) |\n", d->s->n_languages,
                d->a->n_cases, d->a->n_configs);
  languages_row(d);
  gbi_tb_printf(b,
                "| Settings | profile %s; %" PRIu64 " measured runs and %" PRIu64
                " startup batches per configuration, %" PRIu64
                " warm-ups; loops aimed at %" PRIu64 " ms or more; timeout %" PRIu64 " s |\n",
                gb_profile_name(st->profile), st->runs, st->runs, st->warmups, st->target_ms,
                st->timeout_s);
  gbi_tb_printf(b, "| Seeds | input %" PRIu64 ", order of measured runs %" PRIu64 " |\n",
                st->seed, st->order_seed);
  gbi_tb_puts(b, "| Campaign | ");
  time_text(b, d->m->started_unix_ns);
  if (d->m->finished_unix_ns) {
    gbi_tb_puts(b, " to ");
    time_text(b, d->m->finished_unix_ns);
  }
  gbi_tb_printf(b, "; %s; %zu processes recorded in runs.csv |\n",
                d->m->complete ? "completed" : "NOT completed", d->a->records->n_runs);
  gbi_tb_puts(b, "| Energy | ");
  energy_text(d);
  gbi_tb_printf(b, " |\n| Machine | %" PRIu64 " CPUs online; pinning: ", d->m->cpus_online);
  md_text(b, d->m->pinning[0] ? d->m->pinning : "not recorded");
  gbi_tb_puts(b, " |\n| greenbench | ");
  md_text(b, d->m->greenbench_version[0] ? d->m->greenbench_version : "not recorded");
  const gb_analysis_opts *o = &d->a->opts;
  gbi_tb_printf(b,
                " |\n| This report | `greenbench report --resamples %zu --seed %" PRIu64
                " --equivalence-margin %.6g --power-estimator %s%s`; %s percentile-bootstrap "
                "intervals |\n\n",
                o->resamples, o->seed, o->margin, gb_power_estimator_name(o->power_estimator),
                o->startup_fixed ? " --startup-fixed" : "", d->level);
}

/* ---- The cases -------------------------------------------------------------------- */

static void est_cell(smd *d, const gb_sa_config *c, gb_estimate e, double scale) {
  gbi_textbuf *b = d->b;
  if (!c->measured) {
    gbi_tb_puts(b, c->n_ok == 0 ? "no ok run" : "no ok startup batch");
    return;
  }
  const gb_interval *iv = &c->boot.est[e];
  if (!iv->available) {
    gbi_tb_puts(b, "missing");
  } else if (isnan(iv->point)) {
    gbi_tb_puts(b, "undefined");
  } else {
    gbi_tb_interval(b, iv->point * scale, iv->lo * scale, iv->hi * scale, SIG);
  }
  if ((e == GB_EST_TIME_PER_SORT && c->nonpositive_time) ||
      (e == GB_EST_ENERGY_PER_SORT && c->nonpositive_energy)) {
    gbi_tb_puts(b, " " FLAG_NONPOSITIVE);
  }
}

static void ratio_cell(smd *d, const gb_sa_ratio *r, const gb_interval *iv) {
  gbi_textbuf *b = d->b;
  if (!r->computed) {
    gbi_tb_puts(b, "not measured");
  } else if (isnan(iv->point)) {
    gbi_tb_puts(b, "undefined");
  } else {
    gbi_tb_ratio_interval(b, iv->point, iv->lo, iv->hi, SIG);
    if (gb_an_point_outside(iv)) {
      gbi_tb_printf(b, " " FLAG_OUTSIDE " %zu of %zu", iv->n_used, d->a->opts.resamples);
    }
  }
}

static const char *power_reading(const gb_sa_ratio *r) {
  return r->ratio.reading == GB_READING_SAME ? "same power" : gb_reading_name(r->ratio.reading);
}

static void reps_cell(gbi_textbuf *b, const gb_sa_config *c) {
  if (c->n_ok == 0) {
    gbi_tb_puts(b, "n/a");
  } else if (c->reps_min == c->reps_max) {
    gbi_tb_printf(b, "%" PRIu64, c->reps_min);
  } else {
    gbi_tb_printf(b, "%" PRIu64 " to %" PRIu64, c->reps_min, c->reps_max);
  }
}

static void case_row(smd *d, const gb_sa_case *k, size_t l) {
  gbi_textbuf *b = d->b;
  const gb_sa_config *c = &d->a->configs[k->first_config + l];
  size_t nl = d->s->n_languages;
  gbi_tb_puts(b, "| ");
  md_text(b, title_of(d, l));
  gbi_tb_printf(b, " | %zu of %zu | ", c->n_ok, c->n_rows);
  reps_cell(b, c);
  gbi_tb_puts(b, " | ");
  est_cell(d, c, GB_EST_TIME_PER_SORT, 1e-3);
  if (d->a->energy) {
    gbi_tb_puts(b, " | ");
    est_cell(d, c, GB_EST_ENERGY_PER_SORT, 1.0);
    gbi_tb_puts(b, " | ");
    est_cell(d, c, GB_EST_NET_POWER, 1.0);
  }
  if (nl < 2) {
    gbi_tb_puts(b, " |\n");
    return;
  }
  if (l == 0) {
    gbi_tb_puts(b, d->a->energy ? " | reference | reference | reference |\n"
                                : " | reference | reference |\n");
    return;
  }
  const gb_sa_ratio *r = &d->a->ratios[k->first_config / nl * (nl - 1) + l - 1];
  gbi_tb_puts(b, " | ");
  ratio_cell(d, r, &r->ratio.time);
  if (d->a->energy) {
    gbi_tb_puts(b, " | ");
    ratio_cell(d, r, &r->ratio.energy);
  }
  gbi_tb_printf(b, " | %s", gb_sa_time_reading_name(r->time_reading));
  if (d->a->energy && r->computed) {
    gbi_tb_printf(b, "; %s", power_reading(r));
  }
  gbi_tb_puts(b, " |\n");
}

static void case_table(smd *d, const gb_sa_case *k) {
  gbi_textbuf *b = d->b;
  char params[GB_SREC_PARAMS_MAX];
  gb_sa_case_params(d->a, k, params, sizeof params);
  gbi_tb_puts(b, "### ");
  md_text(b, d->s->workloads[k->workload].name);
  gbi_tb_puts(b, ", ");
  md_text(b, params);
  gbi_tb_puts(b, "\n\n| Language | Ok runs | Reps | Time per rep (µs) |");
  gbi_tb_puts(b, d->a->energy ? " Energy per rep (µJ) | Mean power (W) |" : "");
  if (d->s->n_languages >= 2) {
    gbi_tb_puts(b, " Time ratio to ");
    md_text(b, title_of(d, 0));
    gbi_tb_puts(b, " |");
    if (d->a->energy) {
      gbi_tb_puts(b, " Energy ratio to ");
      md_text(b, title_of(d, 0));
      gbi_tb_puts(b, " |");
    }
    gbi_tb_puts(b, " Reading |");
  }
  gbi_tb_puts(b, "\n|---|---|---|---|");
  gbi_tb_puts(b, d->a->energy ? "---|---|" : "");
  gbi_tb_puts(b, d->s->n_languages >= 2 ? (d->a->energy ? "---|---|---|" : "---|---|") : "");
  gbi_tb_puts(b, "\n");
  for (size_t l = 0; l < d->s->n_languages; l++) {
    case_row(d, k, l);
  }
  gbi_tb_puts(b, "\n");
}

static void section_cases(smd *d) {
  gbi_textbuf *b = d->b;
  gbi_tb_printf(b,
                "## Cases\n\nOne table per case (workload and parameter set), one row per "
                "language: the ok runs of those measured, the repetitions per process, and "
                "the medians with their %s intervals. Time per repetition is (wall time - "
                "launches × startup per launch) / repetitions, the startup estimated from "
                "the configuration's own startup batches and resampled with the runs "
                "(docs/adr/0014-startup-in-the-intervals.md); energy per repetition "
                "likewise, from package plus DRAM energy net of the idle baseline. ",
                d->level);
  if (d->a->energy) {
    gbi_tb_puts(b, "Mean power is net power above idle, by the paired estimator (each run's "
                   "own energy over its own time) unless the report says otherwise. ");
  } else {
    gbi_tb_puts(b, "Energy was not measured (energy ");
    energy_text(d);
    gbi_tb_puts(b, "), so the tables give time alone. ");
  }
  if (d->s->n_languages >= 2) {
    gbi_tb_puts(b, "Ratios are each language's over ");
    md_text(b, title_of(d, 0));
    gbi_tb_puts(b, ", the suite's first language. The reading says *slower* when the time "
                   "ratio's interval lies wholly above 1, *faster* when wholly below, and *no "
                   "clear difference* when it holds 1");
    if (d->a->energy) {
      gbi_tb_puts(b, "; then the power ratio's reading as the study words it: *same power* "
                     "within ");
      gbi_tb_printf(b, "%.6g%%", d->a->opts.margin * 100.0);
      gbi_tb_puts(b, ", *differs* (its interval excludes 1), *inconclusive* or *undefined*");
    }
    gbi_tb_puts(b, ".");
  }
  gbi_tb_printf(b,
                " Figures carry two significant digits of their interval's half-width, and a "
                "ratio's interval the decimals that show on which side of 1 each end lies; "
                "\"" FLAG_NONPOSITIVE "\" marks an estimate the startup swallows, "
                "\"" FLAG_OUTSIDE " N of R\" a ratio whose point lies outside its "
                "interval.\n\n");
  for (size_t k = 0; k < d->a->n_cases; k++) {
    case_table(d, &d->a->cases[k]);
  }
}

/* ---- Rank agreement, carbon, runs -------------------------------------------------- */

static void section_rank(smd *d) {
  gbi_textbuf *b = d->b;
  const gb_suite_analysis *a = d->a;
  gbi_tb_puts(b, "## Rank agreement\n\n");
  if (!a->energy) {
    gbi_tb_puts(b, "Spearman's rho between time and energy per repetition cannot be computed: "
                   "energy was not measured.\n\n");
    return;
  }
  if (!a->rank_computed) {
    gbi_tb_printf(b,
                  "Spearman's rho between time and energy per repetition cannot be computed: "
                  "%zu configurations were measured with energy, and it needs two.\n\n",
                  a->rank_k);
    return;
  }
  gbi_tb_printf(b,
                "Spearman's rho between median time and median energy per repetition over "
                "the %zu measured configurations is ",
                a->rank_k);
  if (a->rank.point.defined) {
    gbi_tb_interval(b, a->rank.point.rho, a->rank.lo, a->rank.hi, 3);
  } else {
    gbi_tb_puts(b, "undefined (no spread on one side)");
  }
  gbi_tb_printf(b,
                " (%s interval from %zu resamples). Configurations of different workloads "
                "differ in scale, so a rho near 1 says little about power; the ratios above "
                "say more.\n\n",
                d->level,
                a->opts.rank_resamples < a->opts.resamples ? a->opts.rank_resamples
                                                           : a->opts.resamples);
}

static void carbon_cell(smd *d, const gb_sa_config *c, gb_estimate e, double g) {
  const gb_interval *iv = &c->boot.est[e];
  if (!c->measured || !iv->available || isnan(iv->point)) {
    gbi_tb_puts(d->b, c->measured ? "missing" : "not measured");
    return;
  }
  md_carbon_interval(d->b, iv, g);
}

static void section_carbon(smd *d) {
  gbi_textbuf *b = d->b;
  md_carbon_intro(b, "repetition");
  if (d->o->n_intensities == 0) {
    gbi_tb_puts(b, "No region was asked for.\n\n");
    return;
  }
  md_carbon_intensities(b, d->o->intensities, d->o->n_intensities);
  if (!d->a->energy) {
    gbi_tb_puts(b, "Carbon cannot be computed: energy was not measured.\n\n");
    return;
  }
  md_fold_open(b, d->a->n_configs, "Carbon per repetition");
  static const char *const keys[] = {"Language", "Workload", "Parameters"};
  md_carbon_head(b, keys, 3, d->o->intensities, d->o->n_intensities);
  for (size_t i = 0; i < d->a->n_configs; i++) {
    const gb_sa_config *c = &d->a->configs[i];
    char params[GB_SREC_PARAMS_MAX];
    gb_sa_case_params(d->a, &d->a->cases[c->case_index], params, sizeof params);
    gbi_tb_puts(b, "| ");
    md_text(b, title_of(d, c->language));
    gbi_tb_puts(b, " | ");
    md_text(b, d->s->workloads[c->workload].name);
    gbi_tb_puts(b, " | ");
    md_text(b, params);
    gbi_tb_puts(b, " |");
    for (size_t j = 0; j < d->o->n_intensities; j++) {
      gbi_tb_puts(b, " ");
      carbon_cell(d, c, GB_EST_ENERGY_PER_SORT, d->o->intensities[j].g_per_kwh);
      gbi_tb_puts(b, " | ");
      carbon_cell(d, c, GB_EST_GROSS_ENERGY_PER_SORT, d->o->intensities[j].g_per_kwh);
      gbi_tb_puts(b, " |");
    }
    gbi_tb_puts(b, "\n");
  }
  md_fold_close(b, d->a->n_configs);
}

static void section_runs(smd *d) {
  gbi_textbuf *b = d->b;
  const size_t *n = d->a->rows_by_status;
  gbi_tb_printf(b, "## Runs\n\n%zu processes in runs.csv (work and startup): %zu ok",
                d->a->records->n_runs, n[GB_REC_STATUS_OK]);
  for (size_t s = 1; s < GB_REC_STATUS_COUNT; s++) {
    if (n[s] > 0) {
      gbi_tb_printf(b, ", %zu %s", n[s], gb_rec_status_name((gb_rec_status)s));
    }
  }
  gbi_tb_puts(b, ". Only ok runs enter the figures; runs.csv's message column says why each "
                 "other run failed.\n");
}

static void header(smd *d) {
  gbi_textbuf *b = d->b;
  gbi_tb_puts(b, "# greenbench results: suite ");
  md_text(b, d->m->suite_name);
  gbi_tb_puts(b, "\n\n");
  if (d->s->description && d->s->description[0]) {
    md_text(b, d->s->description);
    gbi_tb_puts(b, "\n\n");
  }
  gbi_tb_puts(b,
              "Generated by `greenbench report` from a suite campaign's records (suite.json, "
              "meta.json, runs.csv, warmups.csv); the same records and options always give "
              "these same bytes.\n\n");
  if (!d->m->complete) {
    gbi_tb_puts(b, "> **Partial campaign.** The campaign did not complete; this report covers "
                   "the runs it recorded.\n\n");
  }
}

int gb_suite_report_md(const gb_suite_analysis *a, const gb_suite_md_opts *o, char **out,
                       size_t *len, gb_err *err) {
  gbi_textbuf b;
  gbi_tb_init(&b);
  gbi_tb_numeric loc;
  gbi_tb_c_numeric(&loc);
  smd d = {.b = &b, .a = a, .o = o, .m = &a->records->meta, .s = &a->records->suite};
  snprintf(d.level, sizeof d.level, "%.6g%%", a->opts.level * 100.0);
  header(&d);
  section_measured(&d);
  section_cases(&d);
  section_rank(&d);
  section_carbon(&d);
  section_runs(&d);
  gbi_tb_restore_numeric(&loc);
  return gbi_tb_take(&b, out, len, "results.md", err);
}
