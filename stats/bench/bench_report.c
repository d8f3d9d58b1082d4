/* Times the report stage on a records folder (gen_records writes a
 * study-sized one): reading the records, the analysis (every bootstrap,
 * ratio and rank interval) and the whole `greenbench report` (read,
 * analyse, write results.md, the chart and JUnit), each the median of N
 * repetitions, with CLOCK_MONOTONIC_RAW. It also writes the point
 * estimates to POINTS (one line per configuration) so that
 * bootstrap_numpy.py can check it computes the same medians.
 *
 * usage: bench_report DIR OUTDIR POINTS [N] */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "greenbench/analysis.h"
#include "greenbench/numparse.h"
#include "greenbench/records_read.h"
#include "greenbench/report.h"

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC_RAW, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median_of(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

static int write_points(const gb_analysis *a, const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    return -1;
  }
  fprintf(f, "language,algorithm,order,size,time_per_sort_ns,energy_per_sort_uj\n");
  for (size_t i = 0; i < a->n_configs; i++) {
    const gb_an_config *c = &a->configs[i];
    fprintf(f, "%s,%s,%s,%" PRIu64 ",%.17g,%.17g\n", gb_language_name(c->language),
            gb_algorithm_name(c->algorithm), gb_order_name(c->order), c->size,
            c->boot.est[GB_EST_TIME_PER_SORT].point, c->boot.est[GB_EST_ENERGY_PER_SORT].point);
  }
  return fclose(f);
}

/* One repetition of reading and analysing; the last one's points are kept. */
static int analyse_once(const char *dir, const char *points, double *t_read, double *t_an) {
  gb_err err;
  gb_records *r;
  gb_analysis *a;
  gb_analysis_opts o = GB_ANALYSIS_OPTS_DEFAULT;
  double t0 = now_s();
  if (gb_records_read(dir, &r, &err) < 0) {
    fprintf(stderr, "bench_report: %s\n", err.msg);
    return -1;
  }
  double t1 = now_s();
  if (gb_analysis_run(r, &o, &a, &err) < 0) {
    fprintf(stderr, "bench_report: %s\n", err.msg);
    gb_records_free(r);
    return -1;
  }
  double t2 = now_s();
  *t_read = t1 - t0;
  *t_an = t2 - t1;
  int rc = points ? write_points(a, points) : 0;
  gb_analysis_free(a);
  gb_records_free(r);
  return rc;
}

static int report_once(const char *dir, const char *outdir, double *t) {
  char md[4096], xml[4096], svg[4096];
  snprintf(md, sizeof md, "%s/results.md", outdir);
  snprintf(xml, sizeof xml, "%s/junit.xml", outdir);
  snprintf(svg, sizeof svg, "%s/chart.svg", outdir);
  gb_report_opts o = gb_report_opts_default();
  o.dir = dir;
  o.md_path = md;
  o.junit_path = xml;
  o.chart_path = svg;
  o.warnings = NULL;
  gb_err err;
  double t0 = now_s();
  if (gb_report_write(&o, &err) < 0) {
    fprintf(stderr, "bench_report: %s\n", err.msg);
    return -1;
  }
  *t = now_s() - t0;
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 4 || argc > 5) {
    fprintf(stderr, "usage: bench_report DIR OUTDIR POINTS [N]\n");
    return 2;
  }
  uint64_t rounds = 3;
  if (argc == 5 && gb_parse_u64(argv[4], 1, 50, &rounds) < 0) {
    fprintf(stderr, "bench_report: N must be a whole number from 1 to 50, got '%s'\n", argv[4]);
    return 2;
  }
  int n = (int)rounds;
  double rd[50], an[50], rep[50];
  for (int i = 0; i < n; i++) {
    if (analyse_once(argv[1], i == n - 1 ? argv[3] : NULL, &rd[i], &an[i]) < 0 ||
        report_once(argv[1], argv[2], &rep[i]) < 0) {
      return 1;
    }
  }
  printf("C: read records %.3f s, analysis %.3f s, whole report %.3f s (median of %d, "
         "10000 resamples)\n",
         median_of(rd, n), median_of(an, n), median_of(rep, n), n);
  printf("C_ANALYSIS_S=%.6f\nC_REPORT_S=%.6f\n", median_of(an, n), median_of(rep, n));
  return 0;
}
