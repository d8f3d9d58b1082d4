#include "coverage.h"

#include "analysis_internal.h"
#include "boot_internal.h"
#include "greenbench/quantile.h"
#include "greenbench/rng.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *gbi_cov_kind_name(gbi_cov_kind k) {
  static const char *const names[GB_COV_COUNT] = {"process time (median)",
                                                  "time per sort",
                                                  "CPU per sort",
                                                  "energy per sort",
                                                  "energy per sort with idle",
                                                  "net power, study's",
                                                  "net power, paired",
                                                  "time ratio",
                                                  "energy ratio",
                                                  "power ratio, study's",
                                                  "power ratio, paired",
                                                  "Spearman rho"};
  return (size_t)k < GB_COV_COUNT ? names[k] : "?";
}

double gbi_cov_rate(const gbi_cov_cell *c) {
  return c->trials ? (double)c->covered / (double)c->trials : NAN;
}

double gbi_cov_se(const gbi_cov_cell *c) {
  if (!c->trials) {
    return NAN;
  }
  double p = gbi_cov_rate(c), n = (double)c->trials;
  double ss = c->hh - 2.0 * p * c->hn + p * p * c->nn;
  return sqrt(ss > 0.0 ? ss : 0.0) / n;
}

double gbi_cov_mean_width(const gbi_cov_cell *c) {
  return c->trials ? c->width_sum / (double)c->trials : NAN;
}

void gbi_cov_result_free(gbi_cov_result *r) {
  if (r) {
    free(r->readings.null_excluding[0]);
    free(r->readings.null_excluding[1]);
    *r = (gbi_cov_result){0};
  }
}

/* ---- One campaign's tally ------------------------------------------------- */

typedef struct {
  size_t h[GB_COV_COUNT], n[GB_COV_COUNT];
} campaign_tally;

/* Whether [lo, hi], narrowed about point by o->narrow, holds truth; an
 * interval with a missing end is counted undefined, not tried. */
static void check(gbi_cov_result *res, campaign_tally *ct, gbi_cov_kind k, double point,
                  double lo, double hi, double truth) {
  gbi_cov_cell *c = &res->cell[k];
  if (isnan(lo) || isnan(hi) || isnan(truth)) {
    c->undefined++;
    return;
  }
  double f = res->opts.narrow;
  if (f != 1.0 && !isnan(point)) {
    lo = point - f * (point - lo);
    hi = point + f * (hi - point);
  }
  bool in = lo <= truth && truth <= hi;
  c->trials++;
  c->covered += in;
  c->width_sum += (hi - lo) / fabs(truth);
  ct->h[k] += in;
  ct->n[k]++;
}

static void check_iv(gbi_cov_result *res, campaign_tally *ct, gbi_cov_kind k,
                     const gb_interval *iv, double truth) {
  if (!iv->available) {
    res->cell[k].undefined++;
    return;
  }
  check(res, ct, k, iv->point, iv->lo, iv->hi, truth);
}

static void close_campaign(gbi_cov_result *res, const campaign_tally *ct) {
  for (int k = 0; k < GB_COV_COUNT; k++) {
    double h = (double)ct->h[k], n = (double)ct->n[k];
    res->cell[k].hh += h * h;
    res->cell[k].hn += h * n;
    res->cell[k].nn += n * n;
  }
}

/* ---- The paired estimator --------------------------------------------------- */

int gbi_cov_paired_power(const gb_analysis *a, const gb_an_config *c, double *rep,
                         double *point, double *scratch, gb_err *err) {
  gb_run *runs = (gb_run *)(void *)scratch;
  size_t n = gbi_analysis_ok_runs(a, c, runs);
  /* The startup resampled in every replicate as the analysis resamples it
   * (unless startup_fixed): each run subtracts its replicate's startup. */
  gb_boot_opts o = gbi_analysis_boot_opts(a, c);
  gb_interval iv;
  int rc = gbi_paired_power(runs, n, &c->startup->cost, &o, rep, &iv, err);
  *point = iv.point;
  return rc;
}

/* ---- Checks of one analysis against the truth -------------------------------- */

typedef struct {
  double *rep;   /* per configuration: resamples paired-power replicates */
  double *point; /* per configuration */
  double *scratch;
} paired_work;

static void check_configs(gbi_cov_result *res, campaign_tally *ct, const gb_analysis *a,
                          const gbi_synth_truth *t, const paired_work *pw) {
  size_t B = a->opts.resamples;
  for (size_t i = 0; i < a->n_configs; i++) {
    const gb_an_config *c = &a->configs[i];
    const gbi_synth_config *s = &t->configs[i];
    const gb_interval *e = c->boot.est;
    check_iv(res, ct, GB_COV_PROCESS, &e[GB_EST_PROCESS_TIME], s->process_ns);
    check_iv(res, ct, GB_COV_TIME, &e[GB_EST_TIME_PER_SORT], s->time_per_sort_ns);
    check_iv(res, ct, GB_COV_CPU, &e[GB_EST_CPU_PER_SORT], s->cpu_per_sort_ns);
    check_iv(res, ct, GB_COV_ENERGY, &e[GB_EST_ENERGY_PER_SORT], s->energy_per_sort_uj);
    check_iv(res, ct, GB_COV_GROSS, &e[GB_EST_GROSS_ENERGY_PER_SORT],
             s->gross_energy_per_sort_uj);
    check_iv(res, ct, GB_COV_POWER_STUDY, &e[GB_EST_NET_POWER], s->power_w);
    double lo, hi;
    gb_percentile_interval(pw->rep + i * B, B, a->opts.level, pw->scratch, &lo, &hi);
    check(res, ct, GB_COV_POWER_PAIRED, pw->point[i], lo, hi, s->power_w);
  }
}

/* The paired power ratio of r, read as the analysis reads it. */
static gb_ratio paired_ratio(const gb_analysis *a, const gb_an_ratio *r, const paired_work *pw,
                             double *tmp) {
  size_t B = a->opts.resamples;
  gb_interval x = {.point = pw->point[r->a]}, y = {.point = pw->point[r->b]};
  gb_ratio out = {.reading = r->ratio.reading};
  gbi_paired_power_ratio(&x, pw->rep + r->a * B, &y, pw->rep + r->b * B, B, a->opts.level,
                         a->opts.margin, tmp, &out);
  return out;
}

static void check_ratios(gbi_cov_result *res, campaign_tally *ct, const gb_analysis *a,
                         const gbi_synth_truth *t, const paired_work *pw, double *tmp,
                         size_t replicate) {
  gbi_cov_readings *rd = &res->readings;
  for (size_t i = 0; i < a->n_ratios; i++) {
    const gb_an_ratio *r = &a->ratios[i];
    const gbi_synth_config *x = &t->configs[r->a], *y = &t->configs[r->b];
    if (!r->computed || r->ratio.reading == GB_READING_UNDEFINED) {
      res->cell[GB_COV_RATIO_STUDY].undefined++;
      res->cell[GB_COV_RATIO_PAIRED].undefined++;
      continue;
    }
    check_iv(res, ct, GB_COV_RATIO_TIME, &r->ratio.time,
             x->time_per_sort_ns / y->time_per_sort_ns);
    check_iv(res, ct, GB_COV_RATIO_ENERGY, &r->ratio.energy,
             x->energy_per_sort_uj / y->energy_per_sort_uj);
    double truth = x->power_w / y->power_w;
    check_iv(res, ct, GB_COV_RATIO_STUDY, &r->ratio.power, truth);
    gb_ratio p = paired_ratio(a, r, pw, tmp);
    check(res, ct, GB_COV_RATIO_PAIRED, p.power.point, p.power.lo, p.power.hi, truth);
    gb_reading read[2] = {r->ratio.reading, p.reading};
    bool null = fabs(truth - 1.0) < 1e-12;
    rd->changed += read[0] != read[1];
    rd->null_ratios += null;
    rd->alt_ratios += !null;
    for (int e = 0; e < 2; e++) {
      rd->null_differs[e] += null && read[e] == GB_READING_DIFFERS;
      rd->alt_same[e] += !null && read[e] == GB_READING_SAME;
      rd->alt_differs[e] += !null && read[e] == GB_READING_DIFFERS;
    }
    bool excl[2] = {r->ratio.excludes_one, p.excludes_one};
    for (int e = 0; e < 2; e++) {
      rd->null_excluding[e][replicate] += null && excl[e];
    }
  }
}

static int check_ranks(gbi_cov_result *res, campaign_tally *ct, const gb_analysis *a,
                       const gbi_synth_truth *t, double *tmp, gb_err *err) {
  double *x = tmp, *y = tmp + t->n_configs;
  for (size_t i = 0; i < a->n_ranks; i++) {
    const gb_an_rank *k = &a->ranks[i];
    size_t n = 0;
    for (size_t j = 0; j < t->n_configs; j++) {
      const gbi_synth_config *c = &t->configs[j];
      if (gbi_an_rank_holds(k, c->language, c->algorithm, c->size)) {
        x[n] = t->configs[j].time_per_sort_ns;
        y[n++] = t->configs[j].energy_per_sort_uj;
      }
    }
    gb_rho truth;
    int rc = gb_spearman_nan(x, y, n, &truth, err);
    if (rc < 0) {
      return rc;
    }
    if (!k->computed || !truth.defined) {
      res->cell[GB_COV_SPEARMAN].undefined++;
      continue;
    }
    check(res, ct, GB_COV_SPEARMAN, k->rho.point.rho, k->rho.lo, k->rho.hi, truth.rho);
  }
  return 0;
}

/* ---- The study ------------------------------------------------------------ */

static int check_opts(const gbi_cov_opts *o, gb_err *err) {
  if (o->replicates == 0 || o->resamples < 100 || !(o->level > 0.0 && o->level < 1.0) ||
      !(o->margin > 0.0) || !(o->narrow > 0.0)) {
    return gb_err_set(err, EINVAL, "coverage: bad options (replicates %zu, resamples %zu)",
                      o->replicates, o->resamples);
  }
  return 0;
}

static int one_campaign(const gbi_synth_truth *t, gbi_cov_result *res, size_t replicate,
                        paired_work *pw, double *tmp, gb_err *err) {
  const gbi_cov_opts *o = &res->opts;
  gb_records *rec = NULL;
  gb_analysis *a = NULL;
  gb_analysis_opts ao = GB_ANALYSIS_OPTS_DEFAULT;
  ao.resamples = o->resamples;
  ao.rank_resamples = o->resamples;
  ao.level = o->level;
  ao.margin = o->margin;
  ao.threads = o->threads;
  ao.chance_campaigns = 0;             /* the coverage study counts its own null */
  ao.power_estimator = GB_POWER_STUDY; /* the paired one is drawn beside it */
  int rc = gbi_synth_records(t, o->seed + replicate, &rec, err);
  if (rc == 0) {
    rc = gb_analysis_run(rec, &ao, &a, err);
  }
  if (rc == 0 && a->n_configs != t->n_configs) {
    rc = gb_err_set(err, EINVAL, "coverage: %zu configurations analysed, %zu drawn",
                    a->n_configs, t->n_configs);
  }
  for (size_t i = 0; rc == 0 && i < a->n_configs; i++) {
    rc = gbi_cov_paired_power(a, &a->configs[i], pw->rep + i * o->resamples, &pw->point[i],
                              pw->scratch, err);
  }
  campaign_tally ct = {0};
  if (rc == 0) {
    check_configs(res, &ct, a, t, pw);
    check_ratios(res, &ct, a, t, pw, tmp, replicate);
    rc = check_ranks(res, &ct, a, t, tmp, err);
    close_campaign(res, &ct);
  }
  gb_analysis_free(a);
  gb_records_free(rec);
  return rc;
}

int gbi_cov_run(const gbi_synth_truth *t, const gbi_cov_opts *opts, gbi_cov_result *out,
                gb_err *err) {
  int rc = check_opts(opts, err);
  if (rc < 0) {
    return rc;
  }
  size_t B = opts->resamples, n = t->n_configs;
  size_t runs = (size_t)t->design.settings.runs;
  gbi_cov_result res = {.opts = *opts};
  paired_work pw = {malloc(n * B * sizeof(double)), malloc(n * sizeof(double)),
                    malloc((8 * runs + 2 * B) * sizeof(double))};
  double *tmp = malloc((2 * B + 2 * n) * sizeof *tmp);
  res.readings.null_excluding[0] = calloc(opts->replicates, sizeof(size_t));
  res.readings.null_excluding[1] = calloc(opts->replicates, sizeof(size_t));
  if (!pw.rep || !pw.point || !pw.scratch || !tmp || !res.readings.null_excluding[0] ||
      !res.readings.null_excluding[1]) {
    rc = gb_err_set(err, ENOMEM, "coverage: out of memory");
  }
  for (size_t r = 0; rc == 0 && r < opts->replicates; r++) {
    rc = one_campaign(t, &res, r, &pw, tmp, err);
  }
  free(pw.rep);
  free(pw.point);
  free(pw.scratch);
  free(tmp);
  if (rc < 0) {
    gbi_cov_result_free(&res);
    return rc;
  }
  *out = res;
  return 0;
}
