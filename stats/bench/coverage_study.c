/* The coverage study (docs/methods.md, "Coverage of the intervals"): draws
 * campaigns from a model with a known truth (stats/src/synth.h), runs the
 * report's analysis on each and prints, for every interval the report
 * prints, the share of campaigns whose interval held the truth, as a
 * Markdown table, then the readings of the power ratios.
 *
 * usage: coverage_study [--design small|study] [--replicates N]
 *                       [--resamples B] [--seed S] [--narrow F] [--threads T]
 *                       [--startup-sigma S] [--power python-1.2|equal]
 * Defaults: study design, 200 replicates, 2,000 resamples, seed 1, narrow 1,
 * the design's startup scatter (0.20), Python at 1.2 times the others' net
 * power (equal: every configuration draws the same power, so that every
 * power ratio is a null one and the count of intervals excluding 1 is the
 * chance count of the design).
 * Then one line per interval: PASS within 93% to 97%, FAIL outside, or
 * STATED for those whose measured coverage docs/methods.md states beside
 * them (the study's net power and power ratios, rank agreement, which
 * results.md states too).
 * Exit status: 0 every interval passed or is stated, 1 some interval
 * failed, 2 bad usage or an error. */
#include "coverage.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage(void) {
  fprintf(stderr, "usage: coverage_study [--design small|study] [--replicates N] "
                  "[--resamples B] [--seed S] [--narrow F] [--threads T] [--startup-sigma S]\n"
                  "                      [--power python-1.2|equal]\n");
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

/* "what: k of n (p%, s.e. x)", or "what: none" without trials. */
static void share(const char *what, size_t k, size_t n) {
  if (n == 0) {
    printf("%s: none", what);
    return;
  }
  double p = (double)k / (double)n;
  printf("%s: %zu of %zu (%.2f%%, s.e. %.2f)", what, k, n, 100.0 * p,
         100.0 * sqrt(p * (1.0 - p) / (double)n));
}

static void print(const gbi_cov_result *r, const gbi_synth_truth *t, const char *design) {
  const gbi_cov_opts *o = &r->opts;
  printf("Coverage study: design %s (%zu configurations, %llu runs each), %zu campaigns, "
         "%zu resamples, seed %llu\n\n",
         design, t->n_configs, (unsigned long long)t->design.settings.runs, o->replicates,
         o->resamples, (unsigned long long)o->seed);
  printf(
      "| Interval (95%%) | Intervals | Coverage | MC s.e. | Mean width / truth | 93-97%% |\n");
  printf("|---|---:|---:|---:|---:|---|\n");
  for (int k = 0; k < GB_COV_COUNT; k++) {
    const gbi_cov_cell *c = &r->cell[k];
    double p = gbi_cov_rate(c);
    printf("| %s | %zu | %.1f%% | %.1f | %.4f | %s |\n", gbi_cov_kind_name(k), c->trials,
           100.0 * p, 100.0 * gbi_cov_se(c), gbi_cov_mean_width(c),
           c->trials == 0 ? "-" : (p >= 0.93 && p <= 0.97 ? "yes" : "**no**"));
  }
  const gbi_cov_readings *d = &r->readings;
  static const char *const est[2] = {"study's", "paired"};
  printf("\n");
  for (int e = 0; e < 2; e++) {
    printf("power ratios, %s estimator: ", est[e]);
    share("\"differs\" under a true ratio of 1", d->null_differs[e], d->null_ratios);
    share("; \"same power\" under a true ratio of 1.2", d->alt_same[e], d->alt_ratios);
    share("; \"differs\" under 1.2", d->alt_differs[e], d->alt_ratios);
    printf("\n");
  }
  printf("readings that differ between the two estimators: %zu of %zu defined ratios\n",
         d->changed, d->null_ratios + d->alt_ratios);
  for (int e = 0; e < 2 && d->null_ratios > 0; e++) {
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
  bool equal = false;
  gbi_cov_opts o = {.replicates = 200,
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
    } else if (strcmp(argv[i], "--power") == 0) {
      equal = strcmp(v, "equal") == 0;
      if (!equal && strcmp(v, "python-1.2") != 0) {
        return usage();
      }
    } else if (strcmp(argv[i], "--startup-sigma") == 0) {
      startup_sigma = strtod(v, NULL);
    } else if (strcmp(argv[i], "--threads") == 0) {
      o.threads = strtoul(v, NULL, 10);
    } else {
      return usage();
    }
    i++;
  }
  gbi_synth_design d;
  if (strcmp(design, "small") == 0) {
    d = gbi_synth_design_small();
  } else if (strcmp(design, "study") == 0) {
    d = gbi_synth_design_study();
  } else {
    return usage();
  }
  if (equal) {
    d.power_w[GB_PYTHON] = d.power_w[GB_C];
  }
  if (!isnan(startup_sigma)) {
    d.startup_sigma = startup_sigma;
  }
  gbi_synth_truth t;
  gbi_cov_result r;
  gb_err err;
  if (gbi_synth_truth_of(&d, &t, &err) < 0 || gbi_cov_run(&t, &o, &r, &err) < 0) {
    fprintf(stderr, "greenbench: error: coverage_study: %s\n", err.msg);
    return 2;
  }
  print(&r, &t, design);
  int rc = 0;
  printf("\n");
  for (int k = 0; k < GB_COV_COUNT; k++) {
    double p = gbi_cov_rate(&r.cell[k]);
    bool in = r.cell[k].trials > 0 && p >= 0.93 && p <= 0.97;
    /* Intervals whose coverage docs/methods.md states beside them are
     * reported, not held to the band. */
    bool stated = k == GB_COV_POWER_STUDY || k == GB_COV_RATIO_STUDY || k == GB_COV_SPEARMAN;
    printf("%s coverage of %s: %.1f%% (s.e. %.1f)%s\n",
           in       ? "PASS"
           : stated ? "STATED"
                    : "FAIL",
           gbi_cov_kind_name(k), 100.0 * p, 100.0 * gbi_cov_se(&r.cell[k]),
           in       ? " within 93-97%"
           : stated ? " (stated in docs/methods.md)"
                    : " outside 93-97%");
    rc |= !in && !stated;
  }
  gbi_cov_result_free(&r);
  gbi_synth_truth_free(&t);
  return rc;
}
