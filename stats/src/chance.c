/* The chance count calibrated for the campaign's own design (study.md,
 * Counting against chance; docs/methods.md, Coverage of the intervals).
 * How many power intervals exclude 1 when every configuration draws the
 * same power depends on the design (which ratios share a configuration) and
 * on how the intervals are built; the plain 5% of the binomial is only a
 * guess at it. So the campaign is simulated under equal power: its records
 * are kept, every ok row's energy is replaced by one power over its own
 * wall time, scattered run to run as the campaign's own runs scatter, with
 * its own idle reading left as it was, and the analysis is run on each such
 * campaign. */
#include "analysis_internal.h"

#include "greenbench/quantile.h"
#include "greenbench/rng.h"
#include "normal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Stream of simulated campaign k, apart from every configuration's. */
#define CHANCE_STREAM UINT64_C(0x6368616e63650000)

/* A run's net power over its whole process (uJ per ns), NAN without energy. */
static double process_power(const gb_run_row *r) {
  gb_run x = gb_analysis_run_of_row(r);
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

/* A copy of the campaign's runs.csv table whose energies are redrawn. */
typedef struct {
  gb_records rec; /* meta and warm-ups shared with the campaign's */
  gb_run_row *rows;
  const gb_run_row **group_rows;
  gb_rec_group *groups;
} null_campaign;

static void null_free(null_campaign *n) {
  free(n->rows);
  free(n->group_rows);
  free(n->groups);
}

static int null_alloc(const gb_records *r, null_campaign *n, gb_err *err) {
  const gb_rec_table *t = &r->runs;
  *n = (null_campaign){.rec = *r};
  n->rows = malloc((t->n_rows + 1) * sizeof *n->rows);
  n->group_rows = malloc((t->n_rows + 1) * sizeof *n->group_rows);
  n->groups = malloc((t->n_groups + 1) * sizeof *n->groups);
  if (!n->rows || !n->group_rows || !n->groups) {
    null_free(n);
    return gb_err_set(err, ENOMEM, "analysis: out of memory");
  }
  memcpy(n->rows, t->rows, t->n_rows * sizeof *n->rows);
  for (size_t i = 0; i < t->n_rows; i++) {
    n->group_rows[i] = n->rows + (t->group_rows[i] - t->rows);
  }
  for (size_t g = 0; g < t->n_groups; g++) {
    n->groups[g] = t->groups[g];
    n->groups[g].rows = n->group_rows + (t->groups[g].rows - t->group_rows);
  }
  n->rec.runs = (gb_rec_table){.rows = n->rows,
                               .n_rows = t->n_rows,
                               .groups = n->groups,
                               .n_groups = t->n_groups,
                               .group_rows = n->group_rows};
  return 0;
}

/* Every ok row with an energy reading draws watts x its wall time, times
 * exp(sigma Z); its idle window stays as measured. */
static void redraw(null_campaign *n, const gb_rec_table *t, double power, double sigma,
                   gb_rng *rng) {
  for (size_t i = 0; i < t->n_rows; i++) {
    const gb_run_row *r = &t->rows[i];
    gb_run x = gb_analysis_run_of_row(r);
    if (r->status != GB_REC_STATUS_OK || isnan(x.energy_uj)) {
      continue;
    }
    double net = power * x.wall_ns * exp(sigma * gb_normal(rng));
    double total = net + x.idle_energy_uj * (x.wall_ns / x.idle_ns);
    n->rows[i].pkg_uj.value = (uint64_t)llround(total > 0.0 ? total : 0.0);
    n->rows[i].dram_uj.value = 0;
  }
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
                        ? gb_analysis_chance_bound(t->tally.defined, t->null_rate)
                        : 0;
  size_t empirical = one_in_twenty(counts, k);
  t->chance_bound = binomial > empirical ? binomial : empirical;
}

/* The three tallies' counts over the simulated campaigns. */
typedef struct {
  size_t *counts[3]; /* per tally, per campaign */
  size_t excluding[3], defined[3];
} null_counts;

static int simulate(gb_analysis *a, null_campaign *n, null_counts *nc, gb_err *err) {
  const gb_rec_table *t = &a->records->runs;
  double *tmp = malloc(3 * (t->n_rows + 1) * sizeof *tmp);
  if (!tmp) {
    return gb_err_set(err, ENOMEM, "analysis: out of memory");
  }
  double typical;
  double sigma = power_scatter(t, tmp, tmp + 2 * (t->n_rows + 1), &typical);
  free(tmp);
  gb_analysis_opts o = a->opts;
  o.chance_campaigns = 0;
  o.resamples =
      o.resamples < GB_ANALYSIS_CHANCE_RESAMPLES ? o.resamples : GB_ANALYSIS_CHANCE_RESAMPLES;
  o.rank_resamples = 1; /* rank intervals play no part in the count */
  int rc = 0;
  for (size_t k = 0; rc == 0 && k < a->opts.chance_campaigns; k++) {
    gb_rng rng;
    gb_rng_seed_stream(&rng, a->opts.seed, CHANCE_STREAM + k);
    redraw(n, t, typical, sigma, &rng);
    gb_analysis *na = NULL;
    if ((rc = gb_analysis_run(&n->rec, &o, &na, err)) < 0) {
      break;
    }
    const gb_an_tally *nt[3] = {&na->tally_all, &na->tally_languages, &na->tally_orders};
    for (int f = 0; f < 3; f++) {
      nc->counts[f][k] = nt[f]->tally.excluding_one;
      nc->excluding[f] += nt[f]->tally.excluding_one;
      nc->defined[f] += nt[f]->tally.defined;
    }
    gb_analysis_free(na);
  }
  return rc;
}

int gb_analysis_calibrate_chance(gb_analysis *a, gb_err *err) {
  size_t k = a->opts.chance_campaigns;
  if (k == 0 || !a->energy || a->tally_all.tally.defined == 0) {
    return 0;
  }
  null_campaign n;
  null_counts nc = {0};
  int rc = null_alloc(a->records, &n, err);
  if (rc < 0) {
    return rc;
  }
  for (int f = 0; f < 3; f++) {
    nc.counts[f] = calloc(k, sizeof *nc.counts[f]);
    rc = nc.counts[f] || rc < 0 ? rc : gb_err_set(err, ENOMEM, "analysis: out of memory");
  }
  if (rc == 0) {
    rc = simulate(a, &n, &nc, err);
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
  null_free(&n);
  return rc;
}
