/* The coverage study (docs/methods.md, "Coverage of the intervals"): draws
 * campaigns from a model with a known truth (stats/src/synth.h), runs the
 * report's analysis on each and prints, for every interval the report
 * prints, the share of campaigns whose interval held the truth, as a
 * Markdown table, then the readings of the power ratios.
 *
 * usage: coverage_study [--design small|study] [--replicates N]
 *                       [--resamples B] [--seed S] [--narrow F] [--threads T]
 *                       [--startup-sigma S]
 * Defaults: study design, 200 replicates, 2,000 resamples, seed 1, narrow 1,
 * the design's startup scatter (0.20).
 * Exit status: 0 every 95% interval covered 93% to 97%, 1 some did not,
 * 2 bad usage or an error. */
#include "coverage.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage(void) {
  fprintf(stderr,
          "usage: coverage_study [--design small|study] [--replicates N] "
          "[--resamples B] [--seed S] [--narrow F] [--threads T] [--startup-sigma S]\n");
  return 2;
}

static int cmp_size(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return (x > y) - (x < y);
}

/* The count of null intervals excluding 1 that campaigns exceeded at most
 * 5% of the time: the 95th percentile (type 1) of the per-campaign counts. */
static void null_counts(size_t *v, size_t n, double *mean, size_t *p95) {
  double s = 0.0;
  for (size_t i = 0; i < n; i++) {
    s += (double)v[i];
  }
  qsort(v, n, sizeof *v, cmp_size);
  *mean = s / (double)n;
  *p95 = v[(size_t)ceil(0.95 * (double)n) - 1];
}

static void print(const gb_cov_result *r, const gb_synth_truth *t, const char *design) {
  const gb_cov_opts *o = &r->opts;
  printf("Coverage study: design %s (%zu configurations, %llu runs each), %zu campaigns, "
         "%zu resamples, seed %llu\n\n",
         design, t->n_configs, (unsigned long long)t->design.settings.runs, o->replicates,
         o->resamples, (unsigned long long)o->seed);
  printf(
      "| Interval (95%%) | Intervals | Coverage | MC s.e. | Mean width / truth | 93-97%% |\n");
  printf("|---|---:|---:|---:|---:|---|\n");
  for (int k = 0; k < GB_COV_COUNT; k++) {
    const gb_cov_cell *c = &r->cell[k];
    double p = gb_cov_rate(c);
    printf("| %s | %zu | %.1f%% | %.1f | %.4f | %s |\n", gb_cov_kind_name(k), c->trials,
           100.0 * p, 100.0 * gb_cov_se(c), gb_cov_mean_width(c),
           c->trials == 0 ? "-" : (p >= 0.93 && p <= 0.97 ? "yes" : "**no**"));
  }
  const gb_cov_readings *d = &r->readings;
  static const char *const est[2] = {"study's", "paired"};
  printf("\n");
  for (int e = 0; e < 2; e++) {
    double pd = (double)d->null_differs[e] / (double)d->null_ratios;
    double ps = (double)d->alt_same[e] / (double)d->alt_ratios;
    printf("power ratios, %s estimator: \"differs\" under a true ratio of 1: %zu of %zu "
           "(%.1f%%, s.e. %.1f); \"same power\" under a true ratio of 1.2: %zu of %zu "
           "(%.1f%%, s.e. %.1f)\n",
           est[e], d->null_differs[e], d->null_ratios, 100.0 * pd,
           100.0 * sqrt(pd * (1 - pd) / (double)d->null_ratios), d->alt_same[e], d->alt_ratios,
           100.0 * ps, 100.0 * sqrt(ps * (1 - ps) / (double)d->alt_ratios));
  }
  for (int e = 0; e < 2; e++) {
    double mean;
    size_t p95;
    null_counts(d->null_excluding[e], o->replicates, &mean, &p95);
    printf("null power ratios excluding 1 per campaign, %s estimator: mean %.2f of %zu "
           "(%.2f%%), 95th percentile %zu\n",
           est[e], mean, d->null_ratios / o->replicates,
           100.0 * mean / ((double)d->null_ratios / (double)o->replicates), p95);
  }
}

int main(int argc, char **argv) {
  const char *design = "study";
  double startup_sigma = NAN;
  gb_cov_opts o = {.replicates = 200,
                   .seed = 1,
                   .resamples = 2000,
                   .level = 0.95,
                   .margin = 0.10,
                   .narrow = 1.0};
  for (int i = 1; i < argc; i++) {
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!v) {
      return usage();
    }
    if (strcmp(argv[i], "--design") == 0) {
      design = v;
    } else if (strcmp(argv[i], "--replicates") == 0) {
      o.replicates = strtoul(v, NULL, 10);
    } else if (strcmp(argv[i], "--resamples") == 0) {
      o.resamples = strtoul(v, NULL, 10);
    } else if (strcmp(argv[i], "--seed") == 0) {
      o.seed = strtoull(v, NULL, 10);
    } else if (strcmp(argv[i], "--narrow") == 0) {
      o.narrow = strtod(v, NULL);
    } else if (strcmp(argv[i], "--startup-sigma") == 0) {
      startup_sigma = strtod(v, NULL);
    } else if (strcmp(argv[i], "--threads") == 0) {
      o.threads = strtoul(v, NULL, 10);
    } else {
      return usage();
    }
    i++;
  }
  gb_synth_design d;
  if (strcmp(design, "small") == 0) {
    d = gb_synth_design_small();
  } else if (strcmp(design, "study") == 0) {
    d = gb_synth_design_study();
  } else {
    return usage();
  }
  if (!isnan(startup_sigma)) {
    d.startup_sigma = startup_sigma;
  }
  gb_synth_truth t;
  gb_cov_result r;
  gb_err err;
  if (gb_synth_truth_of(&d, &t, &err) < 0 || gb_cov_run(&t, &o, &r, &err) < 0) {
    fprintf(stderr, "greenbench: error: coverage_study: %s\n", err.msg);
    return 2;
  }
  print(&r, &t, design);
  int rc = 0;
  for (int k = 0; k < GB_COV_COUNT; k++) {
    double p = gb_cov_rate(&r.cell[k]);
    rc |= r.cell[k].trials > 0 && !(p >= 0.93 && p <= 0.97);
  }
  gb_cov_result_free(&r);
  gb_synth_truth_free(&t);
  return rc;
}
