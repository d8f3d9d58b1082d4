#include "bench_util.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/numparse.h"
#include "greenbench/quantile.h"
#include "greenbench/rng.h"

#define RESAMPLES 10000
#define SEED 2463534242u

int bench_pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return sched_setaffinity(0, sizeof set, &set) == 0 ? 0 : -errno;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

static int cmp_f(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double bench_median_u64(uint64_t *v, size_t n) {
  qsort(v, n, sizeof v[0], cmp_u64);
  return n % 2 ? (double)v[n / 2] : ((double)v[n / 2 - 1] + (double)v[n / 2]) / 2;
}

double bench_median_f(double *v, size_t n) {
  qsort(v, n, sizeof v[0], cmp_f);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int bench_median_ci(const double *x, size_t n, double *median, double *lo, double *hi) {
  double *scratch = malloc(n * sizeof *scratch), *meds = malloc(RESAMPLES * sizeof *meds);
  if (!scratch || !meds) {
    free(scratch);
    free(meds);
    return -ENOMEM;
  }
  gb_rng rng;
  gb_rng_seed(&rng, SEED);
  for (size_t b = 0; b < RESAMPLES; b++) {
    for (size_t i = 0; i < n; i++)
      scratch[i] = x[gb_rng_below(&rng, n)];
    meds[b] = gb_quantile_select(scratch, n, 0.5);
  }
  memcpy(scratch, x, n * sizeof *scratch);
  *median = gb_quantile_select(scratch, n, 0.5);
  *lo = gb_quantile_select(meds, RESAMPLES, 0.025);
  *hi = gb_quantile_select(meds, RESAMPLES, 0.975);
  free(scratch);
  free(meds);
  return 0;
}

size_t bench_threads(pid_t *tids, size_t cap) {
  DIR *d = opendir("/proc/self/task");
  size_t n = 0;
  if (!d)
    return 0;
  for (struct dirent *e; (e = readdir(d)) && n < cap;) {
    uint64_t tid;
    if (gb_parse_u64(e->d_name, 1, INT32_MAX, &tid) == 0)
      tids[n++] = (pid_t)tid;
  }
  closedir(d);
  return n;
}

int bench_thread_cpu_ns(pid_t tid, uint64_t *ns) {
  char path[64];
  snprintf(path, sizeof path, "/proc/self/task/%d/schedstat", (int)tid);
  FILE *f = fopen(path, "r");
  if (!f)
    return -errno;
  uint64_t v;
  int ok = fscanf(f, "%" SCNu64, &v) == 1;
  fclose(f);
  if (!ok)
    return -EINVAL;
  *ns = v;
  return 0;
}

int bench_opt_u64(int argc, char **argv, int *i, uint64_t min, uint64_t max, uint64_t *out) {
  if (*i + 1 >= argc) {
    fprintf(stderr, "%s needs a value\n", argv[*i]);
    return -EINVAL;
  }
  if (gb_parse_u64(argv[*i + 1], min, max, out) < 0) {
    fprintf(stderr, "%s: '%s' is not a whole number in %" PRIu64 "..%" PRIu64 "\n", argv[*i],
            argv[*i + 1], min, max);
    return -EINVAL;
  }
  (*i)++;
  return 0;
}
