/* The paired estimator of net power (ADR 0015): each run's own net energy
 * over its own net time, the startup and idle subtracted per run, and the
 * median of those per-run powers, bootstrapped on the very resamples of the
 * configuration's other estimates (bootstrap.h). */
#include "analysis_internal.h"

#include "boot_internal.h"
#include "greenbench/quantile.h"
#include "greenbench/rng.h"
#include "ratio_internal.h"

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

int gb_paired_power(const gb_run *runs, size_t n, const gb_startup *st, const gb_boot_opts *o,
                    double *rep, gb_interval *iv, gb_err *err) {
  /* Per run: its power, energy and time per sort with the fixed startup,
   * 1 / sorts; then the resample and the percentile scratch. */
  double *p = malloc((5 * n + o->replicates + 1) * sizeof *p);
  if (!p) {
    return gb_err_set(err, ENOMEM, "bootstrap: out of memory for %zu runs", n);
  }
  double *e = p + n, *t = p + 2 * n, *inv = p + 3 * n, *tmp = p + 4 * n, *scratch = p + 5 * n;
  bool energy = true;
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < n; i++) {
    gb_run_values v;
    rc = gb_run_values_of(&runs[i], st, &v, err);
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
    return rc;
  }
  size_t used;
  memcpy(tmp, p, n * sizeof *tmp);
  iv->point = median_defined(tmp, n, &used);
  gb_rng rng;
  gb_rng_seed_stream(&rng, o->seed, o->stream);
  for (size_t r = 0; r < o->replicates; r++) {
    /* With the startup resampled, every run's energy and time move from
     * the fixed startup to replicate r's, as the bootstrap moves them. */
    double dt = reps ? reps[r].time_ns - st->time_ns : 0.0;
    double de = reps ? reps[r].energy_uj - st->energy_uj : 0.0;
    for (size_t i = 0; i < n; i++) {
      size_t k = gb_rng_below(&rng, n);
      tmp[i] = reps ? run_power(e[k] - de * inv[k], t[k] - dt * inv[k]) : p[k];
    }
    rep[r] = median_defined(tmp, n, &used);
    iv->n_nonpositive += !(rep[r] > 0.0);
  }
  iv->n_used = gb_percentile_interval(rep, o->replicates, o->level, scratch, &iv->lo, &iv->hi);
  free(owned);
  free(p);
  return 0;
}

void gb_paired_power_ratio(const gb_interval *pa, const double *ra, const gb_interval *pb,
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
  r->reading = gb_ratio_read(iv->lo, iv->hi, margin, undefined);
  r->excludes_one = r->reading != GB_READING_UNDEFINED && (iv->lo > 1.0 || iv->hi < 1.0);
}
