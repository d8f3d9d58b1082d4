/* The paired estimator of net power (ADR 0015): each run's own net energy
 * over its own net time, the startup and idle subtracted per run, and the
 * median of those per-run powers, bootstrapped on the very resamples of the
 * configuration's other estimates (bootstrap.h). */
#include "analysis_internal.h"

#include "boot_internal.h"
#include "greenbench/quantile.h"
#include "greenbench/quantile_rule.h"
#include "greenbench/rng.h"
#include "stats_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *gb_power_estimator_name(gb_power_estimator e) {
  return e == GB_POWER_STUDY ? "study" : "paired";
}

int gb_power_estimator_parse(const char *name, gb_power_estimator *out) {
  if (strcmp(name, "paired") == 0 || strcmp(name, "study") == 0) {
    *out = name[0] == 's' ? GB_POWER_STUDY : GB_POWER_PAIRED;
    return 0;
  }
  return -EINVAL;
}

/* Type 7 median of the non-NAN values of v[0..n-1] (moved to its front). */
static double median_defined(double *v, size_t n, size_t *used) {
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    if (!isnan(v[i])) {
      v[m++] = v[i];
    }
  }
  *used = m;
  return m ? gb_quantile_select(v, m, 0.5) : NAN;
}

/* Each replicate's startup, or NULL where the startup is held fixed (as
 * gb_boot_run_in takes them from o): *owned is the block to free. */
static int replicate_startups(const gb_boot_opts *o, const gb_startup **out, gb_startup **owned,
                              gb_err *err) {
  *owned = NULL;
  *out = o->startup_replicates;
  if (*out || !o->startup_batches || o->n_startup_batches == 0) {
    return 0;
  }
  *owned = malloc((o->replicates ? o->replicates : 1) * sizeof **owned);
  if (!*owned) {
    return gb_err_set(err, ENOMEM, "bootstrap: out of memory for %zu replicates",
                      o->replicates);
  }
  *out = *owned;
  return gb_boot_startup_replicates(o->startup_batches, o->n_startup_batches, o->seed,
                                    o->startup_stream, o->replicates, *owned, err);
}

/* A run's power (W) from its energy and time per sort, NAN where that time
 * is not > 0. */
static double run_power(double energy_uj, double time_ns) {
  return time_ns > 0.0 ? energy_uj / time_ns * 1e3 : NAN;
}

/* The median of a resample (counts per run) of the runs' powers v, all
 * defined: order holds the runs by power from the previous replicate and
 * is mended by insertion (a replicate's startup moves the powers little, so
 * few runs change places), then a walk up the counts finds the order
 * statistics: the value a sort of the resample gives. */
static double counted_median(const double *v, uint32_t *order, double *sorted,
                             const uint32_t *counts, size_t n, size_t lo, double frac) {
  for (size_t i = 1; i < n; i++) {
    uint32_t x = order[i];
    size_t j = i;
    for (; j > 0 && v[order[j - 1]] > v[x]; j--) {
      order[j] = order[j - 1];
    }
    order[j] = x;
  }
  for (size_t i = 0; i < n; i++) {
    sorted[i] = v[order[i]];
  }
  return gbi_counted_quantile(sorted, order, counts, lo, frac);
}

/* The median of the defined powers of a resample, written out into tmp. */
static double gathered_median(const double *v, const uint32_t *counts, size_t n, double *tmp) {
  size_t m = 0, used;
  for (size_t i = 0; i < n; i++) {
    for (uint32_t c = 0; c < counts[i]; c++) {
      tmp[m++] = v[i];
    }
  }
  return median_defined(tmp, m, &used);
}

int gbi_paired_power(const gb_run *runs, size_t n, const gb_startup *st, const gb_boot_opts *o,
                     double *rep, gb_interval *iv, gb_err *err) {
  /* Per run: its power, energy and time per sort with the fixed startup,
   * 1 / sorts; then the resample and the percentile scratch. */
  double *p = malloc((7 * n + o->replicates + 1) * sizeof *p);
  uint32_t *order = malloc((2 * n + 1) * sizeof *order);
  if (!p || !order) {
    free(p);
    free(order);
    return gb_err_set(err, ENOMEM, "bootstrap: out of memory for %zu runs", n);
  }
  double *e = p + n, *t = p + 2 * n, *inv = p + 3 * n, *tmp = p + 4 * n, *v = p + 5 * n;
  double *sorted = p + 6 * n, *scratch = p + 7 * n;
  uint32_t *counts = order + n;
  bool energy = true;
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < n; i++) {
    gb_run_values v;
    rc = gbi_run_values_of(&runs[i], st, &v, err);
    energy = energy && !isnan(v.energy_per_sort_uj);
    e[i] = v.energy_per_sort_uj;
    t[i] = v.time_per_sort_ns;
    inv[i] = 1.0 / (double)runs[i].sorts;
    p[i] = run_power(e[i], t[i]);
  }
  const gb_startup *reps = NULL;
  gb_startup *owned = NULL;
  if (rc == 0 && energy) {
    rc = replicate_startups(o, &reps, &owned, err);
  }
  *iv = (gb_interval){.available = energy && rc == 0, .point = NAN, .lo = NAN, .hi = NAN};
  if (!iv->available) {
    for (size_t r = 0; r < o->replicates; r++) {
      rep[r] = NAN;
    }
    iv->n_nonpositive = o->replicates;
    free(owned);
    free(p);
    free(order);
    return rc;
  }
  size_t used;
  memcpy(tmp, p, n * sizeof *tmp);
  iv->point = median_defined(tmp, n, &used);
  gb_rng rng;
  gb_rng_seed_stream(&rng, o->seed, o->stream);
  size_t lo;
  double frac;
  q7_position(n, 0.5, &lo, &frac);
  for (size_t i = 0; i < n; i++) {
    order[i] = (uint32_t)i;
  }
  for (size_t r = 0; r < o->replicates; r++) {
    memset(counts, 0, n * sizeof *counts);
    for (size_t i = 0; i < n; i++) {
      counts[gb_rng_below(&rng, n)]++;
    }
    /* With the startup resampled, every run's energy and time move from
     * the fixed startup to replicate r's, as the bootstrap moves them. */
    double dt = reps ? reps[r].time_ns - st->time_ns : 0.0;
    double de = reps ? reps[r].energy_uj - st->energy_uj : 0.0;
    bool defined = true;
    for (size_t i = 0; i < n; i++) {
      v[i] = reps ? run_power(e[i] - de * inv[i], t[i] - dt * inv[i]) : p[i];
      defined = defined && !isnan(v[i]);
    }
    rep[r] = defined ? counted_median(v, order, sorted, counts, n, lo, frac)
                     : gathered_median(v, counts, n, tmp);
    iv->n_nonpositive += !(rep[r] > 0.0);
  }
  iv->n_used = gb_percentile_interval(rep, o->replicates, o->level, scratch, &iv->lo, &iv->hi);
  free(owned);
  free(p);
  free(order);
  return 0;
}

void gbi_paired_power_ratio(const gb_interval *pa, const double *ra, const gb_interval *pb,
                            const double *rb, size_t replicates, double level, double margin,
                            double *scratch, gb_ratio *r) {
  double *v = scratch, *work = scratch + replicates;
  for (size_t k = 0; k < replicates; k++) {
    v[k] = ra[k] > 0.0 && rb[k] > 0.0 ? ra[k] / rb[k] : NAN;
  }
  gb_interval *iv = &r->power;
  *iv =
      (gb_interval){.point = pa->point > 0.0 && pb->point > 0.0 ? pa->point / pb->point : NAN};
  for (size_t k = 0; k < replicates; k++) {
    iv->n_nonpositive += !(v[k] > 0.0);
  }
  iv->n_used = gb_percentile_interval(v, replicates, level, work, &iv->lo, &iv->hi);
  iv->available = iv->n_used > 0;
  bool undefined = r->reading == GB_READING_UNDEFINED;
  r->reading = gbi_ratio_read(iv->lo, iv->hi, margin, undefined);
  r->excludes_one = r->reading != GB_READING_UNDEFINED && (iv->lo > 1.0 || iv->hi < 1.0);
}
