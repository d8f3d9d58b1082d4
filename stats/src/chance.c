/* The chance count calibrated for the campaign's own design (study.md,
 * Counting against chance; docs/methods.md, Coverage of the intervals).
 * How many power intervals exclude 1 when every configuration draws the
 * same power depends on the design (which ratios share a configuration) and
 * on how the intervals are built; the plain 5% of the binomial is only a
 * guess at it. So the campaign is simulated under equal power: every ok
 * sorting run keeps its wall time and sorts, its net energy is one power
 * over its own wall time, scattered run to run as the campaign's own runs
 * scatter, less the startup's energy at that power; and only what the count
 * needs is computed for each simulated campaign: each configuration's net
 * power replicates (by the report's estimator) and each ratio's percentile
 * interval, not a whole analysis. The startup is held at its median in the
 * simulation, which makes its intervals no wider than the report's (which
 * resample the startup): the bound errs high, towards "chance". */
#include "analysis_internal.h"

#include "boot_internal.h"
#include "greenbench/bootstrap.h"
#include "greenbench/quantile_rule.h"

#include "greenbench/quantile.h"
#include "greenbench/rng.h"
#include "stats_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Stream of simulated campaign k, apart from every configuration's. */
#define CHANCE_STREAM UINT64_C(0x6368616e63650000)

/* A run's net power over its whole process (uJ per ns), NAN without energy. */
static double process_power(const gb_run_row *r) {
  gb_run x = gbi_analysis_run_of_row(r);
  return gb_net_energy_uj(x.energy_uj, x.idle_energy_uj, x.wall_ns, x.idle_ns) / x.wall_ns;
}

/* The run-to-run scatter of power, as a lognormal sigma: per configuration
 * 1.4826 x the median absolute deviation of log power over its ok runs,
 * the median over configurations with at least 3; and the median power of
 * every ok sorting run (*typical). tmp holds a table's rows. */
static double power_scatter(const gb_rec_table *t, double *tmp, double *sigmas,
                            double *typical) {
  size_t ns = 0, all = 0;
  double *everyone = tmp + t->n_rows;
  for (size_t g = 0; g < t->n_groups; g++) {
    const gb_rec_group *grp = &t->groups[g];
    size_t n = 0;
    for (size_t i = 0; grp->kind == GB_REC_KIND_SORT && i < grp->n_rows; i++) {
      double p = grp->rows[i]->status == GB_REC_STATUS_OK ? process_power(grp->rows[i]) : NAN;
      if (p > 0.0) {
        tmp[n++] = log(p);
        everyone[all++] = p;
      }
    }
    if (n < 3) {
      continue;
    }
    double med = gb_quantile_select(tmp, n, 0.5);
    for (size_t i = 0; i < n; i++) {
      tmp[i] = fabs(tmp[i] - med);
    }
    sigmas[ns++] = 1.4826 * gb_quantile_select(tmp, n, 0.5);
  }
  *typical = all ? gb_quantile_select(everyone, all, 0.5) : 0.0;
  return ns ? gb_quantile_select(sigmas, ns, 0.5) : 0.0;
}

static size_t one_in_twenty(size_t *counts, size_t k) {
  for (size_t i = 1; i < k; i++) {
    for (size_t j = i; j > 0 && counts[j - 1] > counts[j]; j--) {
      size_t x = counts[j];
      counts[j] = counts[j - 1];
      counts[j - 1] = x;
    }
  }
  return counts[(size_t)ceil(0.95 * (double)k) - 1];
}

static void calibrate(gb_an_tally *t, size_t *counts, size_t k, size_t excluding,
                      size_t defined) {
  t->calibrated = true;
  t->null_campaigns = k;
  t->null_rate = defined ? (double)excluding / (double)defined : 0.0;
  t->null_mean = t->null_rate * (double)t->tally.defined;
  size_t binomial = t->null_rate > 0.0 && t->null_rate < 1.0
                        ? gbi_analysis_chance_bound(t->tally.defined, t->null_rate)
                        : 0;
  size_t empirical = one_in_twenty(counts, k);
  t->chance_bound = binomial > empirical ? binomial : empirical;
}

/* The three tallies' counts over the simulated campaigns. */
typedef struct {
  size_t *counts[3]; /* per tally, per campaign */
  size_t excluding[3], defined[3];
} null_counts;

/* One configuration as the simulation takes it: per ok run its wall time
 * and its net time per sort's numerator (wall - startup), and the order of
 * the net times; n 0 where it plays no part (no bootstrap, no energy, a
 * net time not above 0). */
typedef struct {
  size_t n;
  double *wall, *net; /* n each */
  double startup_ns;
  double *sorted_t;  /* time per sort, ascending */
  uint32_t *order_t; /* the run behind each */
} null_config;

/* Work of one simulated campaign: per run its values and their order, the
 * counts of a resample, and every configuration's replicates. */
typedef struct {
  double *e, *sorted_e;
  uint32_t *order_e, *counts;
  double *rep;     /* n_configs x resamples */
  double *scratch; /* 2 x resamples */
} null_work;

/* Sorts order[0..n-1] by v (insertion: a configuration's runs are few). */
static void order_by(const double *v, uint32_t *order, double *sorted, size_t n) {
  for (size_t i = 0; i < n; i++) {
    size_t j = i;
    for (; j > 0 && v[order[j - 1]] > v[i]; j--) {
      order[j] = order[j - 1];
    }
    order[j] = (uint32_t)i;
  }
  for (size_t i = 0; i < n; i++) {
    sorted[i] = v[order[i]];
  }
}

static int config_prepare(const gb_analysis *a, const gb_an_config *c, null_config *nc,
                          gb_err *err) {
  *nc = (null_config){0};
  if (!c->measured || !c->boot.has_energy || !c->startup) {
    return 0;
  }
  const gb_rec_group *g =
      gb_rec_table_find_sort(&a->records->runs, c->language, c->algorithm, c->order, c->size);
  size_t m = g ? g->n_rows : 0;
  nc->wall = malloc((3 * m + 1) * sizeof *nc->wall);
  nc->order_t = malloc((m + 1) * sizeof *nc->order_t);
  if (!nc->wall || !nc->order_t) {
    return gb_err_set(err, ENOMEM, "analysis: out of memory");
  }
  nc->net = nc->wall + m;
  nc->sorted_t = nc->net + m;
  nc->startup_ns = c->startup->cost.time_ns;
  size_t n = 0;
  bool positive = true;
  for (size_t i = 0; i < m; i++) {
    if (g->rows[i]->status != GB_REC_STATUS_OK) {
      continue;
    }
    gb_run x = gbi_analysis_run_of_row(g->rows[i]);
    nc->wall[n] = x.wall_ns;
    nc->net[n] = x.wall_ns - nc->startup_ns;
    positive = positive && nc->net[n] > 0.0;
    nc->net[n] /= (double)x.sorts;
    nc->wall[n] /= (double)x.sorts;
    n++;
  }
  if (!positive || n == 0) {
    return 0;
  }
  order_by(nc->net, nc->order_t, nc->sorted_t, n);
  nc->n = n;
  return 0;
}

/* Configuration i's net power replicates in simulated campaign k: each run's
 * net energy per sort is (wall e^(sigma Z) - startup) / sorts at unit power,
 * and replicate r, a resample of the runs as counts, is the median of the
 * resample's per-run powers (paired) or its median energy over its median
 * time (study). */
static void config_replicates(const gb_analysis *a, const null_config *nc, size_t i, size_t k,
                              double sigma, size_t B, null_work *w) {
  double *rep = w->rep + i * B;
  size_t n = nc->n;
  if (n == 0) {
    for (size_t r = 0; r < B; r++) {
      rep[r] = NAN;
    }
    return;
  }
  bool paired = a->opts.power_estimator == GB_POWER_PAIRED;
  gb_rng rng;
  gb_rng_seed_stream(&rng, a->opts.seed, CHANCE_STREAM + k * a->n_configs + i);
  for (size_t j = 0; j < n; j++) {
    double e = nc->wall[j] * exp(sigma * gbi_normal(&rng)) - (nc->wall[j] - nc->net[j]);
    w->e[j] = paired ? e / nc->net[j] : e;
  }
  order_by(w->e, w->order_e, w->sorted_e, n);
  size_t lo;
  double frac;
  q7_position(n, 0.5, &lo, &frac);
  for (size_t r = 0; r < B; r++) {
    memset(w->counts, 0, n * sizeof *w->counts);
    for (size_t j = 0; j < n; j++) {
      w->counts[gb_rng_below(&rng, n)]++;
    }
    double m = gbi_counted_quantile(w->sorted_e, w->order_e, w->counts, lo, frac);
    rep[r] =
        paired ? m : m / gbi_counted_quantile(nc->sorted_t, nc->order_t, w->counts, lo, frac);
  }
}

/* Campaign k's ratios: a ratio the report read counts where both sides
 * were simulated, and excludes 1 where its interval does. */
static void count_ratios(const gb_analysis *a, const null_config *ncs, size_t k, size_t B,
                         null_work *w, null_counts *nc) {
  for (size_t j = 0; j < a->n_ratios; j++) {
    const gb_an_ratio *x = &a->ratios[j];
    if (x->ratio.reading == GB_READING_UNDEFINED || ncs[x->a].n == 0 || ncs[x->b].n == 0) {
      continue;
    }
    const double *ra = w->rep + x->a * B, *rb = w->rep + x->b * B;
    double *v = w->scratch, lo, hi;
    for (size_t r = 0; r < B; r++) {
      v[r] = ra[r] > 0.0 && rb[r] > 0.0 ? ra[r] / rb[r] : NAN;
    }
    size_t used = gb_percentile_interval(v, B, a->opts.level, w->scratch + B, &lo, &hi);
    bool excludes = used > 0 && (lo > 1.0 || hi < 1.0);
    bool in[3] = {true, j < a->n_language_ratios, j >= a->n_language_ratios};
    for (int f = 0; f < 3; f++) {
      nc->defined[f] += in[f] && used > 0;
      nc->excluding[f] += in[f] && excludes;
      nc->counts[f][k] += in[f] && excludes;
    }
  }
}

static int simulate(gb_analysis *a, null_counts *nc, gb_err *err) {
  const gb_rec_table *t = &a->records->runs;
  size_t B = a->opts.resamples < GB_ANALYSIS_CHANCE_RESAMPLES ? a->opts.resamples
                                                              : GB_ANALYSIS_CHANCE_RESAMPLES;
  size_t rows = t->n_rows + 1;
  double *tmp = malloc(3 * rows * sizeof *tmp);
  null_config *ncs = calloc(a->n_configs + 1, sizeof *ncs);
  null_work w = {.e = malloc(2 * rows * sizeof(double)),
                 .order_e = malloc(2 * rows * sizeof(uint32_t)),
                 .rep = malloc((a->n_configs * B + 1) * sizeof(double)),
                 .scratch = malloc((2 * B + 1) * sizeof(double))};
  int rc = tmp && ncs && w.e && w.order_e && w.rep && w.scratch
               ? 0
               : gb_err_set(err, ENOMEM, "analysis: out of memory");
  double typical, sigma = 0.0;
  if (rc == 0) {
    w.sorted_e = w.e + rows;
    w.counts = w.order_e + rows;
    sigma = power_scatter(t, tmp, tmp + 2 * rows, &typical);
  }
  for (size_t i = 0; rc == 0 && i < a->n_configs; i++) {
    rc = config_prepare(a, &a->configs[i], &ncs[i], err);
  }
  for (size_t k = 0; rc == 0 && k < a->opts.chance_campaigns; k++) {
    for (size_t i = 0; i < a->n_configs; i++) {
      config_replicates(a, &ncs[i], i, k, sigma, B, &w);
    }
    count_ratios(a, ncs, k, B, &w, nc);
  }
  for (size_t i = 0; ncs && i < a->n_configs; i++) {
    free(ncs[i].wall);
    free(ncs[i].order_t);
  }
  free(ncs);
  free(tmp);
  free(w.e);
  free(w.order_e);
  free(w.rep);
  free(w.scratch);
  return rc;
}

int gbi_analysis_calibrate_chance(gb_analysis *a, gb_err *err) {
  size_t k = a->opts.chance_campaigns;
  if (k == 0 || !a->energy || a->tally_all.tally.defined == 0) {
    return 0;
  }
  null_counts nc = {0};
  int rc = 0;
  for (int f = 0; f < 3; f++) {
    nc.counts[f] = calloc(k, sizeof *nc.counts[f]);
    rc = nc.counts[f] || rc < 0 ? rc : gb_err_set(err, ENOMEM, "analysis: out of memory");
  }
  if (rc == 0) {
    rc = simulate(a, &nc, err);
  }
  if (rc == 0) {
    gb_an_tally *t[3] = {&a->tally_all, &a->tally_languages, &a->tally_orders};
    for (int f = 0; f < 3; f++) {
      calibrate(t[f], nc.counts[f], k, nc.excluding[f], nc.defined[f]);
    }
  }
  for (int f = 0; f < 3; f++) {
    free(nc.counts[f]);
  }
  return rc;
}
