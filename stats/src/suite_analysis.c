/* A suite campaign's numbers (suite_analysis.h): the study's startup
 * subtraction, bootstrap, paired power, ratios and rank agreement
 * (analysis_internal.h, bootstrap.h, ratio.h, spearman.h), over the
 * configurations a suite names instead of the study's enums. */
#include "greenbench/suite_analysis.h"

#include "analysis_internal.h"
#include "stats_internal.h"
#include "suite_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

const char *gb_sa_time_reading_name(gb_sa_time_reading r) {
  static const char *const names[] = {"no clear difference", "faster", "slower", "undefined"};
  return (unsigned)r < sizeof names / sizeof *names ? names[r] : NULL;
}

void gb_sa_case_params(const gb_suite_analysis *a, const gb_sa_case *k, char *buf, size_t len) {
  /* Cut short when buf is too small. */
  int rc = gb_suite_params_join(&a->records->suite.workloads[k->workload], k->values, ", ", buf,
                                len);
  (void)rc;
}

/* ---- Configurations ---------------------------------------------------------- */

static size_t sets_of(const gb_suite_workload *w) {
  size_t n = 1;
  for (size_t i = 0; i < w->n_parameters; i++) {
    n *= w->parameters[i].n_values;
  }
  return n;
}

/* Every parameter set of every workload, the first parameter slowest. */
static int build_cases(gb_suite_analysis *a, gb_err *err) {
  const gb_suite *s = &a->records->suite;
  size_t n = 0;
  for (size_t w = 0; w < s->n_workloads; w++) {
    n += sets_of(&s->workloads[w]);
  }
  size_t nl = s->n_languages;
  a->cases = calloc(n + 1, sizeof *a->cases);
  a->configs = calloc(n * nl + 1, sizeof *a->configs);
  a->ratios = calloc(n * nl + 1, sizeof *a->ratios);
  if (!a->cases || !a->configs || !a->ratios) {
    return gb_err_set(err, ENOMEM, "suite analysis: out of memory");
  }
  for (size_t w = 0; w < s->n_workloads; w++) {
    const gb_suite_workload *wl = &s->workloads[w];
    for (size_t j = 0, sets = sets_of(wl); j < sets; j++) {
      gb_sa_case *k = &a->cases[a->n_cases];
      *k = (gb_sa_case){.workload = w, .first_config = a->n_cases * nl};
      for (size_t p = wl->n_parameters, rest = j; p-- > 0;) {
        k->values[p] = wl->parameters[p].values[rest % wl->parameters[p].n_values];
        rest /= wl->parameters[p].n_values;
      }
      a->n_cases++;
    }
  }
  a->n_configs = a->n_cases * nl;
  return 0;
}

/* The configuration's key hashed: its streams (suite_analysis.h). */
static void set_streams(gb_sa_config *c, const gb_suite *s, const char *params) {
  char key[3 * GB_SREC_PARAMS_MAX];
  int n = snprintf(key, sizeof key, "%s\n%s\n%s", s->languages[c->language].name,
                   s->workloads[c->workload].name, params);
  uint64_t h = XXH3_64bits(key, n > 0 ? (size_t)n : 0);
  c->stream = h & ~(UINT64_C(1) << 63);
  c->startup_stream = h | (UINT64_C(1) << 63);
}

static int init_configs(gb_suite_analysis *a, gb_err *err) {
  const gb_suite *s = &a->records->suite;
  for (size_t k = 0; k < a->n_cases; k++) {
    const gb_sa_case *cs = &a->cases[k];
    for (size_t l = 0; l < s->n_languages; l++) {
      gb_sa_config *c = &a->configs[cs->first_config + l];
      *c = (gb_sa_config){.language = l, .workload = cs->workload, .case_index = k};
      if (gb_srec_params_text(&s->workloads[cs->workload], cs->values, c->params,
                              sizeof c->params) < 0) {
        return gb_err_set(err, EINVAL, "suite analysis: %s: parameters too long",
                          s->workloads[cs->workload].name);
      }
      set_streams(c, s, c->params);
    }
  }
  return 0;
}

/* The configuration a row belongs to, or NULL. */
static gb_sa_config *config_of(gb_suite_analysis *a, const gb_srec_row *r) {
  const gb_suite *s = &a->records->suite;
  size_t l = 0, w = 0;
  while (l < s->n_languages && strcmp(s->languages[l].name, r->language) != 0) {
    l++;
  }
  while (w < s->n_workloads && strcmp(s->workloads[w].name, r->workload) != 0) {
    w++;
  }
  if (l == s->n_languages || w == s->n_workloads) {
    return NULL;
  }
  for (size_t k = 0; k < a->n_cases; k++) {
    gb_sa_config *c = &a->configs[a->cases[k].first_config + l];
    if (a->cases[k].workload == w && strcmp(c->params, r->params) == 0) {
      return c;
    }
  }
  return NULL;
}

static bool row_ok(const gb_srec_row *r) {
  return r->status == GB_REC_STATUS_OK;
}

/* Counts every row; collects each configuration's ok startup batches. */
static int count_rows(gb_suite_analysis *a, gb_err *err) {
  const gb_srec_records *r = a->records;
  for (size_t i = 0; i < r->n_runs; i++) {
    const gb_srec_row *row = &r->runs[i];
    gb_sa_config *c = config_of(a, row);
    if (!c || (unsigned)row->status >= GB_REC_STATUS_COUNT) {
      return gb_err_set(err, EINVAL, "runs.csv: row %zu: %s/%s/%s is not in suite %s", i + 1,
                        row->language, row->workload, row->params, r->suite.name);
    }
    a->rows_by_status[row->status]++;
    if (row->kind == GB_SREC_KIND_STARTUP) {
      c->n_startup_rows++;
      c->n_startup_ok += row_ok(row);
      continue;
    }
    c->n_rows++;
    c->by_status[row->status]++;
    c->work_seconds += row->wall_ns.present ? (double)row->wall_ns.value / 1e9 : 0.0;
    if (row_ok(row)) {
      c->reps_min = c->n_ok == 0 || row->reps < c->reps_min ? row->reps : c->reps_min;
      c->reps_max = c->n_ok == 0 || row->reps > c->reps_max ? row->reps : c->reps_max;
      c->n_ok++;
    }
  }
  for (size_t i = 0; i < a->n_configs; i++) {
    gb_sa_config *c = &a->configs[i];
    c->batches = malloc((c->n_startup_ok + 1) * sizeof *c->batches);
    if (!c->batches) {
      return gb_err_set(err, ENOMEM, "suite analysis: out of memory");
    }
    c->n_startup_ok = 0;
  }
  for (size_t i = 0; i < r->n_runs; i++) {
    const gb_srec_row *row = &r->runs[i];
    if (row->kind == GB_SREC_KIND_STARTUP && row_ok(row)) {
      gb_sa_config *c = config_of(a, row);
      gbi_measures m = GBI_MEASURES_OF(row);
      c->batches[c->n_startup_ok++] = gbi_analysis_startup_batch(&m, row->launches);
    }
  }
  return 0;
}

/* ---- The bootstrap ------------------------------------------------------------ */

static int config_error(const gb_suite_analysis *a, const gb_sa_config *c, int rc,
                        const gb_err *inner, gb_err *err) {
  const gb_suite *s = &a->records->suite;
  char params[GB_SREC_PARAMS_MAX];
  gb_sa_case_params(a, &a->cases[c->case_index], params, sizeof params);
  return gb_err_set(err, -rc, "%s/%s/%s: %s", s->languages[c->language].name,
                    s->workloads[c->workload].name, params, inner->msg);
}

/* c's ok work rows as the bootstrap takes them, in runs.csv's order. */
static size_t ok_runs(const gb_suite_analysis *a, const gb_sa_config *c, gb_run *runs) {
  size_t n = 0;
  for (size_t i = 0; i < a->records->n_runs; i++) {
    const gb_srec_row *row = &a->records->runs[i];
    if (row->kind == GB_SREC_KIND_WORK && row_ok(row) &&
        config_of((gb_suite_analysis *)a, row) == c) {
      gbi_measures m = GBI_MEASURES_OF(row);
      runs[n++] = gbi_run_of_measures(&m, row->reps);
    }
  }
  return n;
}

/* As the study draws a configuration (gbi_analysis_boot_opts): only time
 * and energy per unit held, the startup resampled from the configuration's
 * own batches on its startup stream unless opts.startup_fixed. */
static gb_boot_opts boot_opts(const gb_suite_analysis *a, const gb_sa_config *c) {
  bool resample = !a->opts.startup_fixed && c->n_startup_ok > 0;
  return (gb_boot_opts){.seed = a->opts.seed,
                        .stream = c->stream,
                        .replicates = a->opts.resamples,
                        .level = a->opts.level,
                        .paired_only = true,
                        .startup_batches = resample ? c->batches : NULL,
                        .n_startup_batches = resample ? c->n_startup_ok : 0,
                        .startup_stream = resample ? c->startup_stream : 0};
}

static int bootstrap(gb_suite_analysis *a, gb_sa_config *c, gb_boot_work *work, gb_err *err) {
  gb_run *runs = malloc(c->n_ok * sizeof *runs);
  if (!runs) {
    return gb_err_set(err, ENOMEM, "suite analysis: out of memory");
  }
  size_t n = ok_runs(a, c, runs);
  gb_boot_opts bo = boot_opts(a, c);
  gb_err inner;
  int rc = gb_boot_run_in(work, runs, n, &c->startup, &bo, &c->boot, &inner);
  if (rc < 0) {
    config_error(a, c, rc, &inner, err);
  }
  if (rc == 0 && a->opts.power_estimator == GB_POWER_PAIRED && c->boot.has_energy) {
    c->power_replicates = malloc(bo.replicates * sizeof *c->power_replicates);
    rc = c->power_replicates ? 0 : gb_err_set(err, ENOMEM, "suite analysis: out of memory");
    if (rc == 0 && (rc = gbi_paired_power(runs, n, &c->startup, &bo, c->power_replicates,
                                          &c->boot.est[GB_EST_NET_POWER], &inner)) < 0) {
      config_error(a, c, rc, &inner, err);
    }
    if (rc == 0) {
      gbi_power_undefined_unless_positive(&c->boot);
    }
  }
  c->measured = rc == 0;
  if (c->measured) {
    gbi_boot_nonpositive(&c->boot, &c->nonpositive_time, &c->nonpositive_energy);
  }
  free(runs);
  return rc;
}

int gbi_sa_draw(const gb_suite_analysis *a, const gb_sa_config *c, uint64_t offset,
                gb_boot *boot, double **power, gb_err *err) {
  *power = NULL;
  gb_run *runs = malloc((c->n_ok + 1) * sizeof *runs);
  if (!runs) {
    return gb_err_set(err, ENOMEM, "suite analysis: out of memory");
  }
  size_t n = ok_runs(a, c, runs);
  gb_boot_opts bo = boot_opts(a, c);
  bo.stream ^= offset;
  bo.startup_stream ^= bo.startup_batches ? offset : 0;
  gb_boot_work work = {0};
  gb_err inner;
  int rc = gb_boot_run_in(&work, runs, n, &c->startup, &bo, boot, &inner);
  gb_boot_work_free(&work);
  if (rc == 0 && a->opts.power_estimator == GB_POWER_PAIRED && boot->has_energy) {
    gb_interval iv;
    *power = malloc(bo.replicates * sizeof **power);
    rc = *power ? gbi_paired_power(runs, n, &c->startup, &bo, *power, &iv, &inner)
                : gb_err_set(&inner, ENOMEM, "out of memory");
  }
  free(runs);
  return rc < 0 ? config_error(a, c, rc, &inner, err) : 0;
}

static int measure(gb_suite_analysis *a, gb_err *err) {
  gb_boot_work work = {0};
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < a->n_configs; i++) {
    gb_sa_config *c = &a->configs[i];
    if (c->n_startup_ok > 0) {
      rc = gbi_startup_medians(c->batches, c->n_startup_ok, &c->startup, err);
    }
    if (rc == 0 && c->n_ok > 0 && c->n_startup_ok > 0) {
      rc = bootstrap(a, c, &work, err);
    }
  }
  gb_boot_work_free(&work);
  return rc;
}

/* ---- Ratios and rank agreement -------------------------------------------------- */

static gb_sa_time_reading time_reading(const gb_sa_ratio *r) {
  const gb_interval *t = &r->ratio.time;
  if (!r->computed || !t->available || isnan(t->point) || isnan(t->lo) || isnan(t->hi)) {
    return GB_SA_TIME_UNDEFINED;
  }
  return t->lo > 1.0 ? GB_SA_SLOWER : t->hi < 1.0 ? GB_SA_FASTER : GB_SA_NO_CLEAR;
}

static int build_ratios(gb_suite_analysis *a, gb_err *err) {
  size_t nl = a->records->suite.n_languages;
  double *scratch = malloc(4 * a->opts.resamples * sizeof *scratch);
  if (!scratch) {
    return gb_err_set(err, ENOMEM, "suite analysis: out of memory");
  }
  int rc = 0;
  for (size_t k = 0; rc == 0 && k < a->n_cases; k++) {
    for (size_t l = 1; rc == 0 && l < nl; l++) {
      gb_sa_ratio *r = &a->ratios[a->n_ratios++];
      *r = (gb_sa_ratio){.a = a->cases[k].first_config + l, .b = a->cases[k].first_config};
      const gb_sa_config *x = &a->configs[r->a], *y = &a->configs[r->b];
      r->computed = x->measured && y->measured;
      gb_interval none = {.point = NAN, .lo = NAN, .hi = NAN};
      r->ratio = (gb_ratio){.time = none, .energy = none, .power = none};
      if (r->computed) {
        rc = gbi_ratio_with_power(&x->boot, x->power_replicates, &y->boot, y->power_replicates,
                                  &a->opts, scratch, &r->ratio, err);
      }
      r->time_reading = time_reading(r);
    }
  }
  free(scratch);
  return rc;
}

static int build_rank(gb_suite_analysis *a, gb_err *err) {
  const gb_boot **boots = malloc((a->n_configs + 1) * sizeof *boots);
  if (!boots) {
    return gb_err_set(err, ENOMEM, "suite analysis: out of memory");
  }
  bool energy = true;
  for (size_t i = 0; i < a->n_configs; i++) {
    if (a->configs[i].measured) {
      boots[a->rank_k++] = &a->configs[i].boot;
      energy = energy && a->configs[i].boot.has_energy;
    }
  }
  a->rank = (gb_rho_interval){.point = {.defined = false, .rho = NAN}, .lo = NAN, .hi = NAN};
  a->rank_computed = a->rank_k >= 2 && energy;
  size_t reps =
      a->opts.rank_resamples < a->opts.resamples ? a->opts.rank_resamples : a->opts.resamples;
  int rc = a->rank_computed
               ? gb_spearman_boot(boots, a->rank_k, GB_EST_TIME_PER_SORT,
                                  GB_EST_ENERGY_PER_SORT, reps, a->opts.level, &a->rank, err)
               : 0;
  free(boots);
  return rc;
}

int gb_suite_analysis_run(const gb_srec_records *r, const gb_analysis_opts *opts,
                          gb_suite_analysis **out, gb_err *err) {
  if (opts->resamples < 1 || opts->rank_resamples < 1 || !(opts->level > 0.0) ||
      !(opts->level < 1.0) || !(opts->margin > 0.0) || !isfinite(opts->margin)) {
    return gb_err_set(err, EINVAL, "suite analysis: bad options");
  }
  gb_suite_analysis *a = calloc(1, sizeof *a);
  if (!a) {
    return gb_err_set(err, ENOMEM, "suite analysis: out of memory");
  }
  a->opts = *opts;
  a->records = r;
  a->energy = r->meta.energy_status == GB_REC_ENERGY_OK;
  int rc = build_cases(a, err);
  if (rc == 0 && (rc = init_configs(a, err)) == 0 && (rc = count_rows(a, err)) == 0 &&
      (rc = measure(a, err)) == 0 && (rc = build_ratios(a, err)) == 0) {
    rc = build_rank(a, err);
  }
  if (rc < 0) {
    gb_suite_analysis_free(a);
    return rc;
  }
  *out = a;
  return 0;
}

void gb_suite_analysis_free(gb_suite_analysis *a) {
  if (!a) {
    return;
  }
  for (size_t i = 0; a->configs && i < a->n_configs; i++) {
    free(a->configs[i].batches);
    free(a->configs[i].power_replicates);
    gb_boot_free(&a->configs[i].boot);
  }
  free(a->configs);
  free(a->cases);
  free(a->ratios);
  free(a);
}
