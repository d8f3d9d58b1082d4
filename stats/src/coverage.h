/* The coverage study (docs/methods.md, "Coverage of the intervals"): the
 * report's analysis (analysis.h) run on many campaigns drawn from one model
 * with a known truth (synth.h), and for every interval the report prints,
 * the share of campaigns whose interval holds the truth. Beside the study's
 * net power (median energy per sort / median time per sort) it measures the
 * paired estimator: the median over runs of each run's own net energy /
 * net time (startup and idle subtracted per run), bootstrapped on the very
 * resamples the analysis draws. */
#ifndef GREENBENCH_COVERAGE_H
#define GREENBENCH_COVERAGE_H

#include "greenbench/analysis.h"
#include "greenbench/error.h"
#include "synth.h"

#include <stddef.h>
#include <stdint.h>

typedef enum {
  GB_COV_PROCESS,      /* median process wall time, per configuration */
  GB_COV_TIME,         /* time per sort */
  GB_COV_CPU,          /* CPU per sort */
  GB_COV_ENERGY,       /* net energy per sort */
  GB_COV_GROSS,        /* energy per sort with idle power */
  GB_COV_POWER_STUDY,  /* net power, median energy / median time */
  GB_COV_POWER_PAIRED, /* net power, median of per-run power */
  GB_COV_RATIO_TIME,   /* time ratios */
  GB_COV_RATIO_ENERGY, /* energy ratios */
  GB_COV_RATIO_STUDY,  /* power ratios, the study's estimator */
  GB_COV_RATIO_PAIRED, /* power ratios, the paired estimator */
  GB_COV_SPEARMAN,     /* rank agreement of time and energy, every scope */
  GB_COV_COUNT
} gbi_cov_kind;

/* "time per sort", ... */
const char *gbi_cov_kind_name(gbi_cov_kind k);

typedef struct {
  size_t trials, covered, undefined; /* undefined: no interval printed, not a trial */
  /* For the Monte Carlo standard error by replicate (campaign) clusters:
   * sums over replicates of h^2, h n and n^2 (h covered, n trials). */
  double hh, hn, nn;
  double width_sum; /* sum of (hi - lo) / truth over the trials */
} gbi_cov_cell;

/* The share covered, and its Monte Carlo standard error (the intervals of
 * one campaign are dependent where they share a configuration, so the
 * error is that of a ratio estimate over campaigns). NAN without trials. */
double gbi_cov_rate(const gbi_cov_cell *c);
double gbi_cov_se(const gbi_cov_cell *c);
double gbi_cov_mean_width(const gbi_cov_cell *c);

/* Readings of the power ratios, by estimator (0 study, 1 paired). */
typedef struct {
  size_t null_ratios;        /* defined ratios whose true value is 1 */
  size_t null_differs[2];    /* of those, read "differs" */
  size_t alt_ratios;         /* defined ratios whose true value is not 1 */
  size_t alt_same[2];        /* of those, read "same power" */
  size_t alt_differs[2];     /* of those, read "differs" */
  size_t changed;            /* defined ratios whose reading differs between the two */
  size_t *null_excluding[2]; /* per replicate: null ratios whose interval excludes 1 */
} gbi_cov_readings;

typedef struct {
  size_t replicates; /* campaigns drawn */
  uint64_t seed;     /* campaign c is drawn with seed + c, bootstrapped with the study's */
  size_t resamples;  /* per configuration */
  double level;      /* 0.95 */
  double margin;     /* the study's 0.10 */
  size_t threads;    /* of each analysis; 0 for one per CPU */
  /* Test-only: every interval is checked as if narrowed about its point by
   * this factor (1 as printed, 0.9 ten percent narrower), so that a test can
   * show the study failing when its intervals are too short. */
  double narrow;
} gbi_cov_opts;

typedef struct {
  gbi_cov_opts opts;
  gbi_cov_cell cell[GB_COV_COUNT];
  gbi_cov_readings readings;
} gbi_cov_result;

/* Draws opts->replicates campaigns from t and measures every interval's
 * coverage. 0, -EINVAL (bad options, a campaign the analysis refuses),
 * -ENOMEM; release *out with gbi_cov_result_free. */
GB_MUST_USE int gbi_cov_run(const gbi_synth_truth *t, const gbi_cov_opts *opts,
                            gbi_cov_result *out, gb_err *err);
void gbi_cov_result_free(gbi_cov_result *r);

/* The paired estimator of one configuration of a: the per-run powers of
 * its ok runs (W; startup and idle subtracted per run, NAN where the run's
 * net time is not > 0), their median *point, and B = resamples replicate
 * medians in rep[] drawn with the configuration's bootstrap stream, so
 * replicate r resamples the same runs as the analysis's replicate r.
 * scratch: room for c->n_ok gb_run. 0, -EINVAL (the run values), -ENOMEM. */
GB_MUST_USE int gbi_cov_paired_power(const gb_analysis *a, const gb_an_config *c, double *rep,
                                     double *point, double *scratch, gb_err *err);

#endif
