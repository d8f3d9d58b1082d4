/* The report's numbers from a campaign's records (study.md, Analysis).
 * Medians and percentile intervals come from bootstrap.h, ratios from
 * ratio.h, rank agreement from spearman.h; this file decides which runs go
 * in (status ok only), subtracts the startup cost (resampled with the runs
 * unless opts.startup_fixed), and collects the data checks. */
#include "greenbench/analysis.h"

#include "analysis_internal.h"
#include "stats_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t gbi_analysis_stream(gb_language l, gb_algorithm a, gb_order o, uint64_t size) {
  uint64_t key = ((uint64_t)l * GB_ALGORITHM_COUNT + (uint64_t)a) * GB_ORDER_COUNT + o;
  return (key << 32) | (size & UINT64_C(0xffffffff));
}

uint64_t gbi_analysis_startup_stream(gb_language l, gb_order o, uint64_t size) {
  uint64_t key = (uint64_t)l * GB_ORDER_COUNT + (uint64_t)o;
  return (UINT64_C(1) << 63) | (key << 32) | (size & UINT64_C(0xffffffff));
}

void gb_an_config_label(const gb_an_config *c, char *buf, size_t len) {
  snprintf(buf, len, "%s/%s/%s/%" PRIu64, gb_language_name(c->language),
           gb_algorithm_name(c->algorithm), gb_order_name(c->order), c->size);
}

/* ---- Per-row values ----------------------------------------------------- */

/* Package plus DRAM over the process, or NAN when the row has no reading. */
static double row_energy_uj(const gbi_measures *r) {
  if (r->energy != GB_REC_ENERGY_OK || !r->pkg_uj.present) {
    return NAN;
  }
  return (double)r->pkg_uj.value + (r->dram_uj.present ? (double)r->dram_uj.value : 0.0);
}

static double row_idle_uj(const gbi_measures *r) {
  if (r->energy != GB_REC_ENERGY_OK || !r->idle_pkg_uj.present) {
    return NAN;
  }
  return (double)r->idle_pkg_uj.value +
         (r->idle_dram_uj.present ? (double)r->idle_dram_uj.value : 0.0);
}

static double row_idle_ns(const gbi_measures *r) {
  return r->idle_ns.present ? (double)r->idle_ns.value : NAN;
}

static double row_cpu_ns(const gbi_measures *r) {
  return (double)r->user_ns.value + (double)r->sys_ns.value;
}

static bool row_ok(const gb_run_row *r) {
  return r->status == GB_REC_STATUS_OK;
}

/* ---- Startup trials ------------------------------------------------------ */

/* Median of x[0..n-1] (n >= 1); NAN when any value is NAN, so that one
 * missing energy makes the startup's energy missing, never a smaller sample. */
static double median_or_nan(double *x, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (isnan(x[i])) {
      return NAN;
    }
  }
  return gb_quantile_select(x, n, 0.5);
}

gb_startup gbi_analysis_startup_batch(const gbi_measures *m, uint64_t launches) {
  double l = (double)launches, w = (double)m->wall_ns.value;
  return (gb_startup){
      .time_ns = w / l,
      .cpu_ns = row_cpu_ns(m) / l,
      .energy_uj = gb_net_energy_uj(row_energy_uj(m), row_idle_uj(m), w, row_idle_ns(m)) / l};
}

int gbi_startup_medians(const gb_startup *batches, size_t n, gb_startup *cost, gb_err *err) {
  double *v = malloc(3 * n * sizeof *v);
  if (!v) {
    return gb_err_set(err, ENOMEM, "analysis: out of memory");
  }
  double *wall = v, *cpu = v + n, *energy = v + 2 * n;
  for (size_t i = 0; i < n; i++) {
    wall[i] = batches[i].time_ns;
    cpu[i] = batches[i].cpu_ns;
    energy[i] = batches[i].energy_uj;
  }
  *cost = (gb_startup){.time_ns = median_or_nan(wall, n),
                       .cpu_ns = median_or_nan(cpu, n),
                       .energy_uj = median_or_nan(energy, n)};
  free(v);
  return 0;
}

/* Cost per process = batch / launches, median over the ok batches
 * (study.md, Startup cost). */
static int startup_cost(const gb_rec_group *g, gb_an_startup *s, gb_err *err) {
  s->batches = malloc((g->n_rows + 1) * sizeof *s->batches);
  if (!s->batches) {
    return gb_err_set(err, ENOMEM, "analysis: out of memory");
  }
  size_t n = 0;
  for (size_t i = 0; i < g->n_rows; i++) {
    const gb_run_row *r = g->rows[i];
    if (!row_ok(r)) {
      continue;
    }
    s->launches = n == 0 ? r->launches : s->launches;
    gbi_measures m = GBI_MEASURES_OF(r);
    s->batches[n++] = gbi_analysis_startup_batch(&m, r->launches);
  }
  s->n_ok = n;
  s->measured = n > 0;
  return n > 0 ? gbi_startup_medians(s->batches, n, &s->cost, err) : 0;
}

static int build_startups(gb_analysis *a, gb_err *err) {
  const gb_meta *m = &a->records->meta;
  const gb_settings *s = &m->settings;
  a->startups = calloc(gb_bits_count(s->languages) * gb_bits_count(s->orders) * s->nsizes,
                       sizeof *a->startups);
  if (!a->startups) {
    return gb_err_set(err, ENOMEM, "analysis: out of memory");
  }
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++) {
    for (gb_order o = 0; o < GB_ORDER_COUNT; o++) {
      for (size_t z = 0; z < s->nsizes; z++) {
        if (!gb_meta_plans_startup(m, l, o, s->sizes[z])) {
          continue;
        }
        gb_an_startup *st = &a->startups[a->n_startups++];
        *st = (gb_an_startup){.language = l,
                              .order = o,
                              .size = s->sizes[z],
                              .cost = {.energy_uj = NAN},
                              .stream = gbi_analysis_startup_stream(l, o, s->sizes[z])};
        const gb_rec_group *g =
            gb_rec_table_find_startup(&a->records->runs, st->language, st->order, st->size);
        st->n_rows = g ? g->n_rows : 0;
        int rc = g ? startup_cost(g, st, err) : 0;
        if (rc < 0) {
          return rc;
        }
      }
    }
  }
  return 0;
}

static const gb_an_startup *find_startup(const gb_analysis *a, gb_language l, gb_order o,
                                         uint64_t size) {
  for (size_t i = 0; i < a->n_startups; i++) {
    const gb_an_startup *s = &a->startups[i];
    if (s->language == l && s->order == o && s->size == size) {
      return s;
    }
  }
  return NULL;
}

/* ---- Configurations ------------------------------------------------------ */

/* c->loop_per_sort_ns: the median of loop_ns / sorts over the ok runs with
 * a loop time. 0 or -ENOMEM. */
static int loop_median(gb_an_config *c, const gb_rec_group *g) {
  c->loop_per_sort_ns = NAN;
  double *v = malloc((g->n_rows + 1) * sizeof *v);
  if (!v) {
    return -ENOMEM;
  }
  size_t n = 0;
  for (size_t i = 0; i < g->n_rows; i++) {
    const gb_run_row *r = g->rows[i];
    if (row_ok(r) && r->loop_ns.present && r->sorts > 0) {
      v[n++] = (double)r->loop_ns.value / (double)r->sorts;
    }
  }
  c->loop_per_sort_ns = n > 0 ? gb_quantile_select(v, n, 0.5) : NAN;
  free(v);
  return 0;
}

static void count_rows(gb_an_config *c, const gb_rec_group *g, uint64_t target_ns) {
  c->sorts_min = UINT64_MAX;
  for (size_t i = 0; i < g->n_rows; i++) {
    const gb_run_row *r = g->rows[i];
    c->by_status[r->status]++;
    if (!row_ok(r)) {
      continue;
    }
    c->n_ok++;
    c->sorts_min = r->sorts < c->sorts_min ? r->sorts : c->sorts_min;
    c->sorts_max = r->sorts > c->sorts_max ? r->sorts : c->sorts_max;
    if (!c->has_counts && r->comparisons.present && r->writes.present) {
      c->has_counts = true;
      c->comparisons = r->comparisons.value;
      c->writes = r->writes.value;
    }
    if (r->loop_ns.present) {
      uint64_t loop = r->loop_ns.value;
      c->shortest_loop_ns =
          c->loops == 0 || loop < c->shortest_loop_ns ? loop : c->shortest_loop_ns;
      c->loops++;
      c->loops_short += loop < target_ns;
    }
    if (r->freq_start_khz.present && r->freq_end_khz.present) {
      c->freq_runs++;
      /* Integers: end < (1 - 0.10) x start, exactly. */
      c->throttled += r->freq_end_khz.value * 10 < r->freq_start_khz.value * 9;
    }
  }
  c->sorts_min = c->n_ok ? c->sorts_min : 0;
}

/* The last two ok warm-ups' loop times per sort (docs/methods.md #1): a plateau
 * when the last is within 10% of the one before it. */
static void check_plateau(gb_an_config *c, const gb_records *r) {
  c->plateau = GB_AN_PLATEAU_UNCHECKED;
  c->warmup_prev_ns = c->warmup_last_ns = NAN;
  const gb_rec_group *g =
      r->has_warmups
          ? gb_rec_table_find_sort(&r->warmups, c->language, c->algorithm, c->order, c->size)
          : NULL;
  double last[2] = {NAN, NAN};
  size_t n = 0;
  c->n_warmups = g ? g->n_rows : 0;
  for (size_t i = 0; g && i < g->n_rows; i++) {
    const gb_run_row *w = g->rows[i];
    if (row_ok(w) && w->loop_ns.present) {
      last[0] = last[1];
      last[1] = (double)w->loop_ns.value / (double)w->sorts;
      n++;
    }
  }
  if (n < 2) {
    return;
  }
  c->warmup_prev_ns = last[0];
  c->warmup_last_ns = last[1];
  bool flat = fabs(last[1] - last[0]) <= GB_ANALYSIS_PLATEAU_TOLERANCE * last[0];
  c->plateau = flat ? GB_AN_PLATEAU_YES : GB_AN_PLATEAU_NO;
}

gb_run gbi_run_of_measures(const gbi_measures *m, uint64_t per_process) {
  return (gb_run){.wall_ns = (double)m->wall_ns.value,
                  .cpu_ns = row_cpu_ns(m),
                  .energy_uj = row_energy_uj(m),
                  .idle_ns = row_idle_ns(m),
                  .idle_energy_uj = row_idle_uj(m),
                  .sorts = per_process};
}

gb_run gbi_analysis_run_of_row(const gb_run_row *r) {
  gbi_measures m = GBI_MEASURES_OF(r);
  return gbi_run_of_measures(&m, r->sorts);
}

size_t gbi_analysis_ok_runs(const gb_analysis *a, const gb_an_config *c, gb_run *runs) {
  const gb_rec_group *g =
      gb_rec_table_find_sort(&a->records->runs, c->language, c->algorithm, c->order, c->size);
  size_t n = 0;
  for (size_t i = 0; g && i < g->n_rows; i++) {
    if (row_ok(g->rows[i])) {
      runs[n++] = gbi_analysis_run_of_row(g->rows[i]);
    }
  }
  return n;
}

/* The ok runs as the bootstrap takes them, and each run's process energy. */
static size_t collect_runs(const gb_rec_group *g, gb_run *runs, double *wall, double *energy) {
  size_t n = 0;
  for (size_t i = 0; i < g->n_rows; i++) {
    const gb_run_row *r = g->rows[i];
    if (!row_ok(r)) {
      continue;
    }
    runs[n] = gbi_analysis_run_of_row(r);
    wall[n] = runs[n].wall_ns;
    energy[n] = runs[n].energy_uj;
    n++;
  }
  return n;
}

/* Whether c gets a bootstrap: ok runs and a measured startup. */
static bool bootstrappable(const gb_an_config *c) {
  return c->n_ok > 0 && c->startup && c->startup->measured;
}

/* Only time and energy per sort are paired across configurations (ratios,
 * rank intervals), so only theirs are held. */
gb_boot_opts gbi_analysis_boot_opts(const gb_analysis *a, const gb_an_config *c) {
  bool resample = !a->opts.startup_fixed && c->startup && c->startup->n_ok > 0;
  return (gb_boot_opts){.seed = a->opts.seed,
                        .stream = c->stream,
                        .replicates = a->opts.resamples,
                        .level = a->opts.level,
                        .paired_only = true,
                        .startup_batches = resample ? c->startup->batches : NULL,
                        .n_startup_batches = resample ? c->startup->n_ok : 0,
                        .startup_stream = resample ? c->startup->stream : 0,
                        .startup_replicates = resample ? c->startup->replicates : NULL};
}

/* Names c in a bootstrap error. */
static int boot_error(const gb_an_config *c, int rc, const gb_err *inner, gb_err *err) {
  char label[96];
  gb_an_config_label(c, label, sizeof label);
  return gb_err_set(err, -rc, "%s: %s", label, inner->msg);
}

/* Everything of c's ok runs but the bootstrap, which build_ratios draws
 * later, a group at a time: the spread of process times and the coupling
 * of time and energy. The runs are checked here as the bootstrap will take
 * them (gb_boot_check), so that a bad run fails the analysis with the same
 * message, in the same configuration order, as a bootstrap drawn here. */
static int prepare(gb_analysis *a, gb_an_config *c, const gb_rec_group *g, gb_err *err) {
  gb_run *runs = malloc(c->n_ok * sizeof *runs);
  double *v = malloc(2 * c->n_ok * sizeof *v);
  int rc = runs && v ? 0 : gb_err_set(err, ENOMEM, "analysis: out of memory");
  double *wall = v, *energy = v ? v + c->n_ok : NULL;
  size_t n = rc == 0 ? collect_runs(g, runs, wall, energy) : 0;
  gb_boot_opts bo = gbi_analysis_boot_opts(a, c);
  gb_err inner;
  if (rc == 0 && (rc = gb_boot_check(runs, n, &c->startup->cost, &bo, &inner)) < 0) {
    boot_error(c, rc, &inner, err);
  }
  if (rc == 0) {
    rc = gb_summarize(wall, n, &c->process, err);
  }
  c->coupling = (gb_rho){.defined = false, .rho = NAN};
  if (rc == 0) {
    rc = gb_spearman_nan(wall, energy, n, &c->coupling, err);
  }
  free(runs);
  free(v);
  return rc;
}

/* c's net power by the paired estimator, on the bootstrap's resamples:
 * its interval replaces the study's, and its replicates are held for the
 * ratios. */
static int paired_power(gb_an_config *c, const gb_run *runs, size_t n, const gb_boot_opts *bo,
                        gb_err *err) {
  c->power_replicates = malloc(bo->replicates * sizeof *c->power_replicates);
  if (!c->power_replicates) {
    return gb_err_set(err, ENOMEM, "analysis: out of memory");
  }
  gb_err inner;
  gb_interval *iv = &c->boot.est[GB_EST_NET_POWER];
  int rc = gbi_paired_power(runs, n, &c->startup->cost, bo, c->power_replicates, iv, &inner);
  if (rc < 0) {
    return boot_error(c, rc, &inner, err);
  }
  gbi_power_undefined_unless_positive(&c->boot);
  return 0;
}

void gbi_power_undefined_unless_positive(gb_boot *b) {
  /* As the report says: where the median time or energy per sort is not
   * above 0, the startup swallows the sort and net power is undefined. */
  if (!(b->est[GB_EST_TIME_PER_SORT].point > 0.0) ||
      !(b->est[GB_EST_ENERGY_PER_SORT].point > 0.0)) {
    gb_interval *iv = &b->est[GB_EST_NET_POWER];
    iv->point = iv->lo = iv->hi = NAN;
  }
}

void gbi_boot_nonpositive(const gb_boot *b, bool *time, bool *energy) {
  const gb_interval *t = &b->est[GB_EST_TIME_PER_SORT];
  const gb_interval *e = &b->est[GB_EST_ENERGY_PER_SORT];
  *time = t->available && !(t->point > 0.0);
  *energy = e->available && !(e->point > 0.0);
}

/* c's bootstrap (prepare has checked its runs), with the buffers of
 * `work`: every estimate with its interval, and every replicate of time
 * and energy per sort until gb_boot_trim. */
static int bootstrap(gb_analysis *a, gb_an_config *c, gb_boot_work *work, gb_err *err) {
  const gb_rec_group *g =
      gb_rec_table_find_sort(&a->records->runs, c->language, c->algorithm, c->order, c->size);
  gb_run *runs = malloc(c->n_ok * sizeof *runs);
  double *v = malloc(2 * c->n_ok * sizeof *v);
  int rc = runs && v ? 0 : gb_err_set(err, ENOMEM, "analysis: out of memory");
  size_t n = rc == 0 ? collect_runs(g, runs, v, v + c->n_ok) : 0;
  gb_boot_opts bo = gbi_analysis_boot_opts(a, c);
  gb_err inner;
  if (rc == 0 &&
      (rc = gb_boot_run_in(work, runs, n, &c->startup->cost, &bo, &c->boot, &inner)) < 0) {
    boot_error(c, rc, &inner, err);
  }
  if (rc == 0 && a->opts.power_estimator == GB_POWER_PAIRED && c->boot.has_energy) {
    rc = paired_power(c, runs, n, &bo, err);
  }
  c->measured = rc == 0;
  if (c->measured) {
    gbi_boot_nonpositive(&c->boot, &c->nonpositive_time, &c->nonpositive_energy);
  }
  free(runs);
  free(v);
  return rc;
}

static int build_config(gb_analysis *a, gb_an_config *c, gb_err *err) {
  const gb_settings *s = &a->records->meta.settings;
  c->stream = gbi_analysis_stream(c->language, c->algorithm, c->order, c->size);
  c->startup = find_startup(a, c->language, c->order, c->size);
  c->coupling = (gb_rho){.defined = false, .rho = NAN};
  c->process = (gb_summary){.min = NAN, .median = NAN, .p95 = NAN, .max = NAN};
  c->loop_per_sort_ns = NAN;
  check_plateau(c, a->records);
  const gb_rec_group *g =
      gb_rec_table_find_sort(&a->records->runs, c->language, c->algorithm, c->order, c->size);
  if (!g) {
    return 0;
  }
  c->n_rows = g->n_rows;
  count_rows(c, g, s->target_ms * UINT64_C(1000000));
  if (loop_median(c, g) < 0) {
    return gb_err_set(err, ENOMEM, "analysis: out of memory");
  }
  if (!bootstrappable(c)) {
    return 0;
  }
  return prepare(a, c, g, err);
}

static int build_configs(gb_analysis *a, gb_err *err) {
  const gb_meta *m = &a->records->meta;
  const gb_settings *s = &m->settings;
  size_t cap = gb_bits_count(s->languages) * gb_bits_count(s->algorithms) *
               gb_bits_count(s->orders) * s->nsizes;
  a->configs = calloc(cap, sizeof *a->configs);
  if (!a->configs) {
    return gb_err_set(err, ENOMEM, "analysis: out of memory");
  }
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++) {
    for (gb_algorithm g = 0; g < GB_ALGORITHM_COUNT; g++) {
      for (gb_order o = 0; o < GB_ORDER_COUNT; o++) {
        for (size_t z = 0; z < s->nsizes; z++) {
          if (!gb_meta_plans(m, l, g, o, s->sizes[z])) {
            continue;
          }
          gb_an_config *c = &a->configs[a->n_configs++];
          c->language = l;
          c->algorithm = g;
          c->order = o;
          c->size = s->sizes[z];
          int rc = build_config(a, c, err);
          if (rc < 0) {
            return rc;
          }
        }
      }
    }
  }
  return 0;
}

const gb_an_config *gb_analysis_find(const gb_analysis *a, gb_language l, gb_algorithm alg,
                                     gb_order o, uint64_t size) {
  for (size_t i = 0; i < a->n_configs; i++) {
    const gb_an_config *c = &a->configs[i];
    if (c->language == l && c->algorithm == alg && c->order == o && c->size == size) {
      return c;
    }
  }
  return NULL;
}

/* ---- Ratios (study.md, Ratios) ------------------------------------------ */

/* Lists x / y; build_ratios computes it once both are bootstrapped. */
static void add_ratio(gb_analysis *a, gb_an_family f, const gb_an_config *x,
                      const gb_an_config *y) {
  if (x && y) {
    a->ratios[a->n_ratios++] = (gb_an_ratio){
        .family = f, .a = (size_t)(x - a->configs), .b = (size_t)(y - a->configs)};
  }
}

/* scratch: 4 x resamples doubles. */
static int compute_ratio(gb_analysis *a, gb_an_ratio *r, double *scratch, gb_err *err) {
  const gb_an_config *x = &a->configs[r->a], *y = &a->configs[r->b];
  r->computed = x->measured && y->measured;
  if (!r->computed) {
    gb_interval none = {.point = NAN, .lo = NAN, .hi = NAN};
    r->ratio = (gb_ratio){.time = none, .energy = none, .power = none};
    return 0;
  }
  return gbi_ratio_with_power(&x->boot, x->power_replicates, &y->boot, y->power_replicates,
                              &a->opts, scratch, &r->ratio, err);
}

int gbi_ratio_with_power(const gb_boot *x, const double *x_power, const gb_boot *y,
                         const double *y_power, const gb_analysis_opts *o, double *scratch,
                         gb_ratio *out, gb_err *err) {
  int rc = gb_ratio_of_in(x, y, o->margin, o->level, scratch, out, err);
  if (rc == 0 && x_power && y_power) {
    gbi_paired_power_ratio(&x->est[GB_EST_NET_POWER], x_power, &y->est[GB_EST_NET_POWER],
                           y_power, o->resamples, o->level, o->margin, scratch, out);
  }
  return rc;
}

/* Python / C, Node.js / C and Python / Node.js: the slower language on top
 * for the usual case, so most ratios read as "times C". */
static const gb_language language_pairs[3][2] = {
    {GB_PYTHON, GB_C},
    {GB_NODE, GB_C},
    {GB_PYTHON, GB_NODE},
};

static void language_ratios(gb_analysis *a) {
  const gb_settings *s = &a->records->meta.settings;
  for (int p = 0; p < 3; p++) {
    for (gb_algorithm g = 0; g < GB_ALGORITHM_COUNT; g++) {
      for (gb_order o = 0; o < GB_ORDER_COUNT; o++) {
        for (size_t z = 0; z < s->nsizes; z++) {
          const gb_an_config *x = gb_analysis_find(a, language_pairs[p][0], g, o, s->sizes[z]);
          const gb_an_config *y = gb_analysis_find(a, language_pairs[p][1], g, o, s->sizes[z]);
          add_ratio(a, GB_AN_LANGUAGES, x, y);
        }
      }
    }
  }
  a->n_language_ratios = a->n_ratios;
}

static void order_ratios(gb_analysis *a) {
  const gb_settings *s = &a->records->meta.settings;
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++) {
    for (gb_algorithm g = 0; g < GB_ALGORITHM_COUNT; g++) {
      for (int o = GB_RANDOM + 1; o < GB_ORDER_COUNT; o++) {
        for (size_t z = 0; z < s->nsizes; z++) {
          const gb_an_config *x = gb_analysis_find(a, l, g, o, s->sizes[z]);
          const gb_an_config *y = gb_analysis_find(a, l, g, GB_RANDOM, s->sizes[z]);
          add_ratio(a, GB_AN_ORDERS, x, y);
        }
      }
    }
  }
}

size_t gbi_analysis_chance_bound(size_t n, double p) {
  double cdf = 0.0, ln = lgamma((double)n + 1.0);
  for (size_t k = 0; k < n; k++) {
    double lk = ln - lgamma((double)k + 1.0) - lgamma((double)(n - k) + 1.0);
    cdf += exp(lk + (double)k * log(p) + (double)(n - k) * log1p(-p));
    if (1.0 - cdf <= 0.05) {
      return k;
    }
  }
  return n;
}

gb_an_verdict gb_analysis_verdict(const gb_an_tally *t) {
  const gb_ratio_tally *y = &t->tally;
  if (y->defined == 0) {
    return GB_AN_VERDICT_CANNOT;
  }
  if (2 * y->readings[GB_READING_SAME] > y->total) {
    return y->excluding_one <= t->chance_bound ? GB_AN_VERDICT_YES
                                               : GB_AN_VERDICT_YES_BUT_DIFFERS;
  }
  if (2 * y->readings[GB_READING_INCONCLUSIVE] > y->defined) {
    return GB_AN_VERDICT_TOO_NOISY;
  }
  return GB_AN_VERDICT_NO;
}

bool gb_analysis_noisy(const gb_an_tally *t) {
  const gb_ratio_tally *y = &t->tally;
  return y->defined > 0 && y->readings[GB_READING_INCONCLUSIVE] * GB_ANALYSIS_NOISY_SHARE_DEN >=
                               y->defined * GB_ANALYSIS_NOISY_SHARE_NUM;
}

static void tally(const gb_analysis *a, size_t from, size_t to, gb_ratio *tmp, gb_an_tally *t) {
  for (size_t i = from; i < to; i++) {
    tmp[i - from] = a->ratios[i].ratio;
  }
  gb_ratio_tally_of(tmp, to - from, a->opts.level, &t->tally);
  t->plain_bound = gbi_analysis_chance_bound(t->tally.defined, 1.0 - a->opts.level);
  t->chance_bound = t->plain_bound;
}

/* Every ratio pairs two configurations of one algorithm and size (another
 * language, or another order, of the same sort), so the bootstraps are
 * drawn one (algorithm, size) group at a time: the group's configurations
 * are bootstrapped, the group's ratios computed, and then each bootstrap
 * keeps only what rank intervals need (gb_boot_trim). The replicates of
 * every configuration are never held at once, and the results are the
 * same as in any other order, since each configuration draws from its own
 * stream. */
static bool in_group(const gb_an_config *c, int algorithm, uint64_t size) {
  return (int)c->algorithm == algorithm && c->size == size;
}

/* Buffers of one worker thread, reused from group to group so that the
 * bootstraps and ratios do not each take fresh pages from the system. */
typedef struct {
  gb_boot_work boot;
  double *ratio; /* 4 x resamples */
} worker_bufs;

/* The group's configurations or ratios, by index, as parallel items. */
typedef struct {
  gb_analysis *a;
  size_t *index;
  worker_bufs *bufs; /* one per worker */
} group_items;

static int bootstrap_item(void *ctx, size_t i, size_t worker, gb_err *err) {
  group_items *g = ctx;
  return bootstrap(g->a, &g->a->configs[g->index[i]], &g->bufs[worker].boot, err);
}

static int ratio_item(void *ctx, size_t i, size_t worker, gb_err *err) {
  group_items *g = ctx;
  return compute_ratio(g->a, &g->a->ratios[g->index[i]], g->bufs[worker].ratio, err);
}

static int measure_group(gb_analysis *a, int algorithm, uint64_t size, group_items *g,
                         gb_err *err) {
  size_t n = 0;
  for (size_t i = 0; i < a->n_configs; i++) {
    if (in_group(&a->configs[i], algorithm, size) && bootstrappable(&a->configs[i])) {
      g->index[n++] = i;
    }
  }
  int rc = gbi_parallel_for(n, a->opts.threads, bootstrap_item, g, err);
  n = 0;
  for (size_t i = 0; i < a->n_ratios; i++) {
    if (in_group(&a->configs[a->ratios[i].a], algorithm, size)) {
      g->index[n++] = i;
    }
  }
  if (rc == 0) {
    rc = gbi_parallel_for(n, a->opts.threads, ratio_item, g, err);
  }
  for (size_t i = 0; i < a->n_configs; i++) {
    if (in_group(&a->configs[i], algorithm, size)) {
      gb_boot_trim(&a->configs[i].boot, a->opts.rank_resamples);
      free(a->configs[i].power_replicates);
      a->configs[i].power_replicates = NULL;
    }
  }
  return rc;
}

/* The startup trials of one size, whose replicates its groups share. */
typedef struct {
  gb_analysis *a;
  gb_an_startup **trials;
} size_startups;

static int startup_item(void *ctx, size_t i, size_t worker, gb_err *err) {
  (void)worker;
  size_startups *z = ctx;
  gb_an_startup *s = z->trials[i];
  size_t B = z->a->opts.resamples;
  s->replicates = malloc(B * sizeof *s->replicates);
  if (!s->replicates) {
    return gb_err_set(err, ENOMEM, "analysis: out of memory");
  }
  return gb_boot_startup_replicates(s->batches, s->n_ok, z->a->opts.seed, s->stream, B,
                                    s->replicates, err);
}

/* Makes the replicates of the startup trials of this size (none with
 * opts.startup_fixed), or releases them (make false). Each trial's
 * replicates come from its own stream, so making them once per size rather
 * than once per configuration changes nothing but the time. */
static int size_replicates(gb_analysis *a, uint64_t size, bool make, gb_err *err) {
  gb_an_startup *trials[GB_LANGUAGE_COUNT * GB_ORDER_COUNT];
  size_t n = 0;
  for (size_t i = 0; i < a->n_startups; i++) {
    gb_an_startup *s = &a->startups[i];
    if (s->size != size) {
      continue;
    }
    free(s->replicates);
    s->replicates = NULL;
    if (make && !a->opts.startup_fixed && s->n_ok > 0 && n < sizeof trials / sizeof *trials) {
      trials[n++] = s;
    }
  }
  size_startups z = {a, trials};
  return n > 0 ? gbi_parallel_for(n, a->opts.threads, startup_item, &z, err) : 0;
}

static int measure_groups(gb_analysis *a, gb_err *err) {
  const gb_settings *s = &a->records->meta.settings;
  size_t workers = a->opts.threads;
  group_items g = {a, malloc((a->n_configs + a->n_ratios + 1) * sizeof *g.index),
                   calloc(workers, sizeof *g.bufs)};
  int rc = g.index && g.bufs ? 0 : gb_err_set(err, ENOMEM, "analysis: out of memory");
  for (size_t w = 0; rc == 0 && w < workers; w++) {
    g.bufs[w].ratio = malloc(4 * a->opts.resamples * sizeof *g.bufs[w].ratio);
    rc = g.bufs[w].ratio ? 0 : gb_err_set(err, ENOMEM, "analysis: out of memory");
  }
  /* Size by size, so that a size's startup replicates serve its groups
   * and are released before the next size's are made. */
  for (size_t z = 0; rc == 0 && z < s->nsizes; z++) {
    rc = size_replicates(a, s->sizes[z], true, err);
    for (int alg = 0; rc == 0 && alg < GB_ALGORITHM_COUNT; alg++) {
      rc = measure_group(a, alg, s->sizes[z], &g, err);
    }
    int released = size_replicates(a, s->sizes[z], false, err);
    rc = rc < 0 ? rc : released;
  }
  for (size_t w = 0; g.bufs && w < workers; w++) {
    gb_boot_work_free(&g.bufs[w].boot);
    free(g.bufs[w].ratio);
  }
  free(g.bufs);
  free(g.index);
  return rc;
}

static int build_ratios(gb_analysis *a, gb_err *err) {
  a->ratios = calloc(2 * a->n_configs + 1, sizeof *a->ratios);
  gb_ratio *tmp = calloc(2 * a->n_configs + 1, sizeof *tmp);
  int rc = a->ratios && tmp ? 0 : gb_err_set(err, ENOMEM, "analysis: out of memory");
  if (rc == 0) {
    language_ratios(a);
    order_ratios(a);
    rc = measure_groups(a, err);
  }
  if (rc == 0) {
    tally(a, 0, a->n_ratios, tmp, &a->tally_all);
    tally(a, 0, a->n_language_ratios, tmp, &a->tally_languages);
    tally(a, a->n_language_ratios, a->n_ratios, tmp, &a->tally_orders);
  }
  free(tmp);
  return rc;
}

/* ---- Rank agreement and coupling ------------------------------------------ */

bool gbi_an_rank_holds(const gb_an_rank *k, gb_language l, gb_algorithm a, uint64_t size) {
  switch (k->scope) {
  case GB_AN_RANK_SIZE:
    return size == k->size;
  case GB_AN_RANK_LANGUAGE:
    return l == k->language;
  case GB_AN_RANK_LANG_ALG:
    return l == k->language && a == k->algorithm;
  default:
    return true;
  }
}

static bool in_scope(const gb_an_rank *k, const gb_an_config *c) {
  return gbi_an_rank_holds(k, c->language, c->algorithm, c->size);
}

static int rank_one(gb_analysis *a, gb_an_rank *k, const gb_boot **tmp, gb_err *err) {
  bool energy = true;
  k->k = 0;
  for (size_t i = 0; i < a->n_configs; i++) {
    const gb_an_config *c = &a->configs[i];
    if (c->measured && in_scope(k, c)) {
      tmp[k->k++] = &c->boot;
      energy = energy && c->boot.has_energy;
    }
  }
  k->rho = (gb_rho_interval){.point = {.defined = false, .rho = NAN}, .lo = NAN, .hi = NAN};
  k->computed = k->k >= 2 && energy;
  if (!k->computed) {
    return 0;
  }
  return gb_spearman_boot(tmp, k->k, GB_EST_TIME_PER_SORT, GB_EST_ENERGY_PER_SORT,
                          a->opts.rank_resamples, a->opts.level, &k->rho, err);
}

static void add_scopes(gb_analysis *a) {
  const gb_meta *m = &a->records->meta;
  a->ranks[a->n_ranks++] = (gb_an_rank){.scope = GB_AN_RANK_OVERALL};
  for (size_t z = 0; z < m->settings.nsizes; z++) {
    a->ranks[a->n_ranks++] =
        (gb_an_rank){.scope = GB_AN_RANK_SIZE, .size = m->settings.sizes[z]};
  }
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++) {
    if (gb_meta_has_language(m, l)) {
      a->ranks[a->n_ranks++] = (gb_an_rank){.scope = GB_AN_RANK_LANGUAGE, .language = l};
    }
  }
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++) {
    for (gb_algorithm g = 0; g < GB_ALGORITHM_COUNT; g++) {
      if (gb_meta_has_language(m, l) && gb_meta_has_algorithm(m, g)) {
        a->ranks[a->n_ranks++] =
            (gb_an_rank){.scope = GB_AN_RANK_LANG_ALG, .language = l, .algorithm = g};
      }
    }
  }
}

static int rank_item(void *ctx, size_t i, size_t worker, gb_err *err) {
  (void)worker;
  gb_analysis *a = ctx;
  const gb_boot **tmp = calloc(a->n_configs + 1, sizeof *tmp);
  int rc = tmp ? rank_one(a, &a->ranks[i], tmp, err)
               : gb_err_set(err, ENOMEM, "analysis: out of memory");
  free(tmp);
  return rc;
}

static int build_ranks(gb_analysis *a, gb_err *err) {
  size_t cap = 1 + GB_MAX_SIZES + GB_LANGUAGE_COUNT * (1 + GB_ALGORITHM_COUNT);
  a->ranks = calloc(cap, sizeof *a->ranks);
  if (!a->ranks) {
    return gb_err_set(err, ENOMEM, "analysis: out of memory");
  }
  add_scopes(a);
  return gbi_parallel_for(a->n_ranks, a->opts.threads, rank_item, a, err);
}

static void coupling_of(const gb_analysis *a, gb_an_coupling *cp, double *tmp) {
  size_t n = 0;
  for (size_t i = 0; i < a->n_configs; i++) {
    const gb_an_config *c = &a->configs[i];
    if (c->language == cp->language && c->algorithm == cp->algorithm && c->coupling.defined) {
      tmp[n++] = c->coupling.rho;
    }
  }
  cp->n_defined = n;
  cp->median = cp->min = cp->max = NAN;
  if (n > 0) {
    cp->median = gb_quantile_select(tmp, n, 0.5);
    cp->min = gb_quantile_select(tmp, n, 0.0);
    cp->max = gb_quantile_select(tmp, n, 1.0);
  }
}

static int build_couplings(gb_analysis *a, gb_err *err) {
  const gb_meta *m = &a->records->meta;
  a->couplings = calloc(GB_LANGUAGE_COUNT * GB_ALGORITHM_COUNT, sizeof *a->couplings);
  double *tmp = malloc((a->n_configs + 1) * sizeof *tmp);
  if (!a->couplings || !tmp) {
    free(tmp);
    return gb_err_set(err, ENOMEM, "analysis: out of memory");
  }
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++) {
    for (gb_algorithm g = 0; g < GB_ALGORITHM_COUNT; g++) {
      if (gb_meta_has_language(m, l) && gb_meta_has_algorithm(m, g)) {
        gb_an_coupling *cp = &a->couplings[a->n_couplings++];
        *cp = (gb_an_coupling){.language = l, .algorithm = g};
        coupling_of(a, cp, tmp);
      }
    }
  }
  free(tmp);
  return 0;
}

/* ---- Data checks and warnings --------------------------------------------- */

static void check_rows(gb_an_checks *k, const gb_rec_table *t) {
  bool any_energy = false, nonzero = false;
  k->rows = t->n_rows;
  for (size_t i = 0; i < t->n_rows; i++) {
    const gb_run_row *r = &t->rows[i];
    k->by_status[r->status]++;
    if (!row_ok(r)) {
      continue;
    }
    gbi_measures m = GBI_MEASURES_OF(r);
    double e = row_energy_uj(&m);
    any_energy = any_energy || !isnan(e);
    nonzero = nonzero || (!isnan(e) && e != 0.0);
    const gb_rec_opt_i64 *temps[2] = {&r->temp_start_mc, &r->temp_end_mc};
    for (int j = 0; j < 2 && r->kind == GB_REC_KIND_SORT; j++) {
      if (!temps[j]->present) {
        continue;
      }
      int64_t v = temps[j]->value;
      k->temp_min_mc = !k->has_temp || v < k->temp_min_mc ? v : k->temp_min_mc;
      k->temp_max_mc = !k->has_temp || v > k->temp_max_mc ? v : k->temp_max_mc;
      k->has_temp = true;
    }
  }
  k->all_energy_zero = any_energy && !nonzero;
}

static void check_configs(gb_an_checks *k, const gb_analysis *a) {
  k->configs = a->n_configs;
  for (size_t i = 0; i < a->n_configs; i++) {
    const gb_an_config *c = &a->configs[i];
    k->configs_measured += c->measured;
    k->configs_without_rows += c->n_rows == 0;
    k->plateau[c->plateau]++;
    k->warmups_extended += c->n_warmups > a->records->meta.settings.warmups;
    k->warmups_most = c->n_warmups > k->warmups_most ? c->n_warmups : k->warmups_most;
    k->nonpositive += c->nonpositive_time || c->nonpositive_energy;
    k->freq_runs += c->freq_runs;
    k->throttled += c->throttled;
    if (c->loops > 0) {
      bool first = k->loops == 0;
      k->shortest_loop_ns = first || c->shortest_loop_ns < k->shortest_loop_ns
                                ? c->shortest_loop_ns
                                : k->shortest_loop_ns;
      k->loops += c->loops;
      k->loops_short += c->loops_short;
    }
  }
}

bool gb_an_point_outside(const gb_interval *iv) {
  return iv->available && !isnan(iv->lo) && !isnan(iv->hi) &&
         (iv->point < iv->lo || iv->point > iv->hi);
}

__attribute__((format(printf, 2, 3))) static int warn(gb_analysis *a, const char *fmt, ...) {
  gb_an_warning *w = realloc(a->warnings, (a->n_warnings + 1) * sizeof *w);
  if (!w) {
    return -ENOMEM;
  }
  a->warnings = w;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(w[a->n_warnings++].text, GB_AN_WARNING_MAX, fmt, ap);
  va_end(ap);
  return 0;
}

/* "28 of 30 planned runs ok (1 timeout, 1 crashed)". */
static void describe_runs(char *buf, size_t len, size_t ok, uint64_t planned,
                          const size_t *by_status) {
  int n = snprintf(buf, len, "%zu of %" PRIu64 " planned runs ok", ok, planned);
  const char *sep = " (";
  for (int s = GB_REC_STATUS_OK + 1; s < GB_REC_STATUS_COUNT && n > 0 && (size_t)n < len; s++) {
    if (by_status[s] > 0) {
      n += snprintf(buf + n, len - (size_t)n, "%s%zu %s", sep, by_status[s],
                    gb_rec_status_name((gb_rec_status)s));
      sep = ", ";
    }
  }
  if (*sep == ',' && n > 0 && (size_t)n < len) {
    snprintf(buf + n, len - (size_t)n, ")");
  }
}

/* A warning for each configuration, then each startup trial, with fewer ok
 * runs than planned. */
static int warn_short(gb_analysis *a) {
  uint64_t planned = a->records->meta.settings.runs;
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < a->n_configs; i++) {
    const gb_an_config *c = &a->configs[i];
    char label[96], runs[160];
    if (c->n_ok < planned) {
      gb_an_config_label(c, label, sizeof label);
      describe_runs(runs, sizeof runs, c->n_ok, planned, c->by_status);
      rc = warn(a, "%s: %s", label, runs);
    }
  }
  for (size_t i = 0; rc == 0 && i < a->n_startups; i++) {
    const gb_an_startup *s = &a->startups[i];
    if (s->n_ok < planned) {
      rc = warn(a, "startup %s/%s/%" PRIu64 ": %zu of %" PRIu64 " planned batches ok",
                gb_language_name(s->language), gb_order_name(s->order), s->size, s->n_ok,
                planned);
    }
  }
  return rc;
}

static int build_warnings(gb_analysis *a, gb_err *err) {
  const gb_meta *m = &a->records->meta;
  int rc = 0;
  if (!m->completed) {
    rc = warn(a, "the campaign did not complete: %" PRIu64 " of %" PRIu64 " planned runs done",
              m->runs_done, m->plan.measured_runs);
  }
  if (rc == 0 && m->settings.runs < GB_ANALYSIS_MIN_RUNS) {
    rc = warn(a,
              "the campaign planned %" PRIu64 " runs per configuration, fewer than the %d "
              "that medians and intervals need (docs/methods.md #3)",
              m->settings.runs, GB_ANALYSIS_MIN_RUNS);
  }
  if (rc == 0) {
    rc = warn_short(a);
  }
  return rc < 0 ? gb_err_set(err, ENOMEM, "analysis: out of memory") : 0;
}

/* ---- Entry points ---------------------------------------------------------- */

static int check_opts(const gb_analysis_opts *o, gb_err *err) {
  if (o->resamples == 0) {
    return gb_err_set(err, EINVAL, "analysis: resamples must be at least 1");
  }
  if (!(o->level > 0.0 && o->level < 1.0)) {
    return gb_err_set(err, EINVAL, "analysis: level %g is not in (0, 1)", o->level);
  }
  if (!(isfinite(o->margin) && o->margin > 0.0)) {
    return gb_err_set(err, EINVAL, "analysis: margin %g is not a positive number", o->margin);
  }
  return 0;
}

int gb_analysis_run(const gb_records *r, const gb_analysis_opts *opts, gb_analysis **out,
                    gb_err *err) {
  int rc = check_opts(opts, err);
  if (rc < 0) {
    return rc;
  }
  gb_analysis *a = calloc(1, sizeof *a);
  if (!a) {
    return gb_err_set(err, ENOMEM, "analysis: out of memory");
  }
  a->opts = *opts;
  a->opts.rank_resamples =
      opts->rank_resamples < opts->resamples ? opts->rank_resamples : opts->resamples;
  a->opts.threads = opts->threads > 0 ? opts->threads : gbi_parallel_threads();
  a->records = r;
  a->energy = r->meta.energy.status == GB_REC_ENERGY_OK;
  if ((rc = build_startups(a, err)) == 0 && (rc = build_configs(a, err)) == 0 &&
      (rc = build_ratios(a, err)) == 0 && (rc = build_ranks(a, err)) == 0 &&
      (rc = build_couplings(a, err)) == 0 &&
      (rc = gbi_analysis_calibrate_chance(a, err)) == 0) {
    check_rows(&a->checks, &r->runs);
    check_configs(&a->checks, a);
    if ((rc = build_warnings(a, err)) == 0) {
      rc = gbi_analysis_conclude(a, err);
    }
  }
  if (rc < 0) {
    gb_analysis_free(a);
    return rc;
  }
  *out = a;
  return 0;
}

void gb_analysis_free(gb_analysis *a) {
  if (!a) {
    return;
  }
  for (size_t i = 0; i < a->n_configs; i++) {
    gb_boot_free(&a->configs[i].boot);
    free(a->configs[i].power_replicates);
  }
  free(a->configs);
  for (size_t i = 0; i < a->n_startups; i++) {
    free(a->startups[i].batches);
    free(a->startups[i].replicates);
  }
  free(a->startups);
  free(a->ratios);
  free(a->ranks);
  free(a->couplings);
  free(a->warnings);
  free(a->groups);
  free(a);
}
