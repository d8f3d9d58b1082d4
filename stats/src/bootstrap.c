#include "greenbench/bootstrap.h"

#include "greenbench/quantile.h"
#include "greenbench/rng.h"
#include "quantile_rule.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Every estimate before GB_EST_NET_POWER is a median of one per-run value;
 * net power is derived from two of those medians. */
enum { N_MEDIANS = GB_EST_NET_POWER };

double gb_net_energy_uj(double energy_uj, double idle_energy_uj, double wall_ns,
                        double idle_ns) {
  return energy_uj - idle_energy_uj * (wall_ns / idle_ns);
}

static bool finite_at_least(double v, double min) {
  return isfinite(v) && v >= min;
}

static int check_run(const gb_run *run, gb_err *err) {
  if (!(isfinite(run->wall_ns) && run->wall_ns > 0.0)) {
    return gb_err_set(err, EINVAL, "wall_ns = %g is not a positive time", run->wall_ns);
  }
  if (!finite_at_least(run->cpu_ns, 0.0)) {
    return gb_err_set(err, EINVAL, "cpu_ns = %g is not a time >= 0", run->cpu_ns);
  }
  if (run->sorts == 0) {
    return gb_err_set(err, EINVAL, "sorts is 0");
  }
  if (!isnan(run->energy_uj) && !finite_at_least(run->energy_uj, 0.0)) {
    return gb_err_set(err, EINVAL, "energy_uj = %g is neither missing nor >= 0",
                      run->energy_uj);
  }
  if (!isnan(run->idle_energy_uj) && !finite_at_least(run->idle_energy_uj, 0.0)) {
    return gb_err_set(err, EINVAL, "idle_energy_uj = %g is neither missing nor >= 0",
                      run->idle_energy_uj);
  }
  bool energy = !isnan(run->energy_uj) && !isnan(run->idle_energy_uj);
  if (energy && !(isfinite(run->idle_ns) && run->idle_ns > 0.0)) {
    return gb_err_set(err, EINVAL, "idle_ns = %g is not a positive time", run->idle_ns);
  }
  return 0;
}

static int check_startup(const gb_startup *st, gb_err *err) {
  if (!finite_at_least(st->time_ns, 0.0) || !finite_at_least(st->cpu_ns, 0.0)) {
    return gb_err_set(err, EINVAL, "startup time %g ns or cpu %g ns is not a time >= 0",
                      st->time_ns, st->cpu_ns);
  }
  if (isinf(st->energy_uj)) {
    return gb_err_set(err, EINVAL, "startup energy_uj is infinite");
  }
  return 0;
}

int gb_run_values_of(const gb_run *run, const gb_startup *startup, gb_run_values *out,
                     gb_err *err) {
  int rc = check_run(run, err);
  if (rc == 0) {
    rc = check_startup(startup, err);
  }
  if (rc < 0) {
    return rc;
  }
  double sorts = (double)run->sorts;
  gb_run_values v = {.process_ns = run->wall_ns};
  v.time_per_sort_ns = (run->wall_ns - startup->time_ns) / sorts;
  v.cpu_per_sort_ns = (run->cpu_ns - startup->cpu_ns) / sorts;
  /* NAN in any energy input propagates: missing stays missing. */
  double net =
      gb_net_energy_uj(run->energy_uj, run->idle_energy_uj, run->wall_ns, run->idle_ns);
  v.energy_per_sort_uj = (net - startup->energy_uj) / sorts;
  double idle_power = run->idle_energy_uj / run->idle_ns; /* uJ per ns */
  v.gross_energy_per_sort_uj = v.energy_per_sort_uj + idle_power * v.time_per_sort_ns;
  if (isnan(v.energy_per_sort_uj)) {
    v.gross_energy_per_sort_uj = NAN;
  }
  *out = v;
  return 0;
}

/* Each estimate's run values in ascending order with the run behind each,
 * so that a resample, held as a count per run, yields its median by one walk
 * up the sorted values instead of a gather and a select per estimate. The
 * order statistics are the same values a sort of the resample would give. */
typedef struct {
  size_t n;
  bool active[N_MEDIANS];
  double *sorted;   /* N_MEDIANS x n */
  uint32_t *order;  /* N_MEDIANS x n */
  uint32_t *counts; /* n: copies of each run in the current resample */
  double *scratch;  /* max(n, replicates), for points and intervals */
} boot_work;

typedef struct {
  double v;
  uint32_t run;
} keyed;

static int cmp_keyed(const void *a, const void *b) {
  const keyed *x = a, *y = b;
  if (x->v != y->v) {
    return x->v < y->v ? -1 : 1;
  }
  return (x->run > y->run) - (x->run < y->run);
}

static double value_of(const gb_run_values *v, int e) {
  switch (e) {
  case GB_EST_TIME_PER_SORT:
    return v->time_per_sort_ns;
  case GB_EST_ENERGY_PER_SORT:
    return v->energy_per_sort_uj;
  case GB_EST_PROCESS_TIME:
    return v->process_ns;
  case GB_EST_CPU_PER_SORT:
    return v->cpu_per_sort_ns;
  default:
    return v->gross_energy_per_sort_uj;
  }
}

static void work_free(boot_work *w) {
  free(w->sorted);
  free(w->order);
  free(w->counts);
  free(w->scratch);
}

static int work_alloc(boot_work *w, size_t n, size_t replicates, gb_err *err) {
  size_t m = n > replicates ? n : replicates;
  *w = (boot_work){.n = n};
  w->sorted = malloc(N_MEDIANS * n * sizeof *w->sorted);
  w->order = malloc(N_MEDIANS * n * sizeof *w->order);
  w->counts = malloc(n * sizeof *w->counts);
  w->scratch = malloc(m * sizeof *w->scratch);
  if (!w->sorted || !w->order || !w->counts || !w->scratch) {
    work_free(w);
    return gb_err_set(err, ENOMEM, "bootstrap: out of memory for %zu runs", n);
  }
  return 0;
}

static bool needs_energy(int e) {
  return e == GB_EST_ENERGY_PER_SORT || e == GB_EST_GROSS_ENERGY_PER_SORT ||
         e == GB_EST_NET_POWER;
}

static void work_fill(boot_work *w, const gb_run_values *vals, bool has_energy, keyed *tmp) {
  for (int e = 0; e < N_MEDIANS; e++) {
    w->active[e] = has_energy || !needs_energy(e);
    if (!w->active[e]) {
      continue;
    }
    for (size_t i = 0; i < w->n; i++) {
      tmp[i] = (keyed){value_of(&vals[i], e), (uint32_t)i};
    }
    qsort(tmp, w->n, sizeof *tmp, cmp_keyed);
    for (size_t i = 0; i < w->n; i++) {
      w->sorted[e * w->n + i] = tmp[i].v;
      w->order[e * w->n + i] = tmp[i].run;
    }
  }
}

/* Type 7 quantile of the resample described by counts: walks the sorted
 * values until more than lo resampled values lie at or below position j. */
static double counted_quantile(const double *sorted, const uint32_t *order,
                               const uint32_t *counts, size_t lo, double frac) {
  size_t j = 0, below = counts[order[0]];
  while (below <= lo) {
    below += counts[order[++j]];
  }
  double a = sorted[j];
  if (frac == 0.0 || below > lo + 1) {
    return a;
  }
  do {
    j++;
  } while (counts[order[j]] == 0);
  return q7_lerp(a, sorted[j], frac);
}

static double power_w(double energy_uj, double time_ns) {
  return time_ns > 0.0 ? energy_uj / time_ns * 1e3 : NAN;
}

static void resample_all(boot_work *w, gb_rng *rng, size_t replicates, double *rep) {
  size_t n = w->n, lo;
  double frac;
  q7_position(n, 0.5, &lo, &frac);
  for (size_t r = 0; r < replicates; r++) {
    memset(w->counts, 0, n * sizeof *w->counts);
    for (size_t i = 0; i < n; i++) {
      w->counts[gb_rng_below(rng, n)]++;
    }
    for (int e = 0; e < N_MEDIANS; e++) {
      rep[e * replicates + r] =
          w->active[e]
              ? counted_quantile(w->sorted + e * n, w->order + e * n, w->counts, lo, frac)
              : NAN;
    }
    rep[GB_EST_NET_POWER * replicates + r] =
        power_w(rep[GB_EST_ENERGY_PER_SORT * replicates + r],
                rep[GB_EST_TIME_PER_SORT * replicates + r]);
  }
}

size_t gb_percentile_interval(const double *values, size_t n, double level, double *scratch,
                              double *lo, double *hi) {
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    if (!isnan(values[i])) {
      scratch[m++] = values[i];
    }
  }
  *lo = *hi = NAN;
  if (m == 0) {
    return 0;
  }
  /* level is a decimal such as 0.95, and 1 - 0.95 is not 0.05 in binary:
   * rounding the tail to 12 places makes it the double nearest 0.025, so a
   * tail that falls on an order statistic picks exactly that value. */
  double tail = round((1.0 - level) / 2.0 * 1e12) / 1e12;
  *lo = gb_quantile_select(scratch, m, tail);
  *hi = gb_quantile_select(scratch, m, 1.0 - tail);
  return m;
}

static void summarise(gb_boot *b, const boot_work *w, const double *rep, double level) {
  size_t n = w->n, B = b->n_replicates;
  for (int e = 0; e < GB_EST_COUNT; e++) {
    gb_interval *iv = &b->est[e];
    const double *v = rep + (size_t)e * B;
    iv->available = b->has_energy || !needs_energy(e);
    for (size_t r = 0; r < B; r++) {
      iv->n_nonpositive += !(v[r] > 0.0);
    }
    iv->n_used = gb_percentile_interval(v, B, level, w->scratch, &iv->lo, &iv->hi);
    iv->point =
        e < N_MEDIANS && iv->available ? gb_quantile_sorted(w->sorted + e * n, n, 0.5) : NAN;
  }
  b->est[GB_EST_NET_POWER].point = b->has_energy ? power_w(b->est[GB_EST_ENERGY_PER_SORT].point,
                                                           b->est[GB_EST_TIME_PER_SORT].point)
                                                 : NAN;
}

static int check_opts(const gb_boot_opts *o, size_t n, gb_err *err) {
  if (n == 0 || n > UINT32_MAX) {
    return gb_err_set(err, EINVAL, "bootstrap: %zu runs (need 1 to %u)", n, UINT32_MAX);
  }
  if (o->replicates == 0 || o->replicates > SIZE_MAX / (GB_EST_COUNT * sizeof(double))) {
    return gb_err_set(err, EINVAL, "bootstrap: %zu replicates", o->replicates);
  }
  if (!(o->level > 0.0 && o->level < 1.0)) {
    return gb_err_set(err, EINVAL, "bootstrap: level %g is not in (0, 1)", o->level);
  }
  return 0;
}

/* Derives every run's values; they are kept in the caller's vals. */
static int derive_all(const gb_run *runs, size_t n, const gb_startup *st, gb_run_values *vals,
                      bool *has_energy, gb_err *err) {
  *has_energy = true;
  for (size_t i = 0; i < n; i++) {
    gb_err inner;
    int rc = gb_run_values_of(&runs[i], st, &vals[i], &inner);
    if (rc < 0) {
      return gb_err_set(err, -rc, "bootstrap: run %zu: %s", i, inner.msg);
    }
    *has_energy = *has_energy && !isnan(vals[i].energy_per_sort_uj);
  }
  return 0;
}

static int boot_prepare(const gb_run *runs, size_t n, const gb_startup *st, size_t replicates,
                        boot_work *w, bool *has_energy, gb_err *err) {
  gb_run_values *vals = malloc(n * sizeof *vals);
  keyed *tmp = malloc(n * sizeof *tmp);
  int rc =
      vals && tmp ? 0 : gb_err_set(err, ENOMEM, "bootstrap: out of memory for %zu runs", n);
  if (rc == 0) {
    rc = derive_all(runs, n, st, vals, has_energy, err);
  }
  if (rc == 0) {
    rc = work_alloc(w, n, replicates, err);
  }
  if (rc == 0) {
    work_fill(w, vals, *has_energy, tmp);
  }
  free(vals);
  free(tmp);
  return rc;
}

int gb_boot_run(const gb_run *runs, size_t n, const gb_startup *startup,
                const gb_boot_opts *opts, gb_boot *out, gb_err *err) {
  int rc = check_opts(opts, n, err);
  if (rc < 0) {
    return rc;
  }
  boot_work w = {0};
  gb_boot b = {.n_runs = n, .n_replicates = opts->replicates};
  rc = boot_prepare(runs, n, startup, opts->replicates, &w, &b.has_energy, err);
  if (rc < 0) {
    return rc;
  }
  b.replicates = malloc(GB_EST_COUNT * opts->replicates * sizeof *b.replicates);
  if (!b.replicates) {
    work_free(&w);
    return gb_err_set(err, ENOMEM, "bootstrap: out of memory for %zu replicates",
                      opts->replicates);
  }
  gb_rng rng;
  gb_rng_seed_stream(&rng, opts->seed, opts->stream);
  resample_all(&w, &rng, opts->replicates, b.replicates);
  summarise(&b, &w, b.replicates, opts->level);
  work_free(&w);
  *out = b;
  return 0;
}

const double *gb_boot_replicates(const gb_boot *b, gb_estimate e) {
  return b->replicates + (size_t)e * b->n_replicates;
}

void gb_boot_free(gb_boot *b) {
  if (b) {
    free(b->replicates);
    *b = (gb_boot){0};
  }
}
