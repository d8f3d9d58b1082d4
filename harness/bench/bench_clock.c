/* The measurement's own floor (docs/performance.md, figure 4): the cost of
 * one CLOCK_MONOTONIC_RAW reading (as clock_gettime and through the
 * harness's gb_monotonic_raw_ns; CLOCK_MONOTONIC beside it) and of one
 * energy reading of every zone (gb_rapl_read_all) on a fake powercap tree of
 * two packages and two DRAM zones, in interleaved rounds whose order rotates.
 * Each figure is the median over rounds of (round time / operations).
 *
 * The fake tree's energy_uj files are regular files on tmpfs or disk: a pread
 * of one costs a page-cache copy. Real sysfs costs more: the RAPL driver
 * reads an MSR (RDMSR, often through an IPI to a CPU of that package) on every
 * read. When /sys/class/powercap (or $GREENBENCH_POWERCAP_ROOT) opens and is
 * readable, it is measured too.
 *
 *   bench_clock [--rounds N] [--cpu N] */
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "greenbench/clock.h"
#include "greenbench/rapl.h"
#include "helper_powercap.h"

#define CLOCK_READS 1000000u
#define ENERGY_READS 20000u
#define MAX_ROUNDS 1000u

enum { M_EMPTY, M_RAW, M_GB_RAW, M_MONO, M_FAKE_ALL, M_FAKE_ONE, M_REAL_ALL, M_COUNT };
static const char *const names[M_COUNT] = {
    "empty loop iteration",
    "clock_gettime(CLOCK_MONOTONIC_RAW)",
    "gb_monotonic_raw_ns()",
    "clock_gettime(CLOCK_MONOTONIC)",
    "gb_rapl_read_all, fake tree, 4 zones",
    "gb_rapl_read, fake tree, 1 zone",
    "gb_rapl_read_all, this machine's powercap",
};

static volatile uint64_t sink;

static uint64_t loop_clock(clockid_t id, unsigned n) {
  uint64_t acc = 0;
  for (unsigned i = 0; i < n; i++) {
    struct timespec ts;
    clock_gettime(id, &ts);
    acc += (uint64_t)ts.tv_nsec;
  }
  return acc;
}

static uint64_t loop_gb(unsigned n) {
  uint64_t acc = 0;
  for (unsigned i = 0; i < n; i++)
    acc += gb_monotonic_raw_ns();
  return acc;
}

static uint64_t loop_empty(unsigned n) {
  uint64_t acc = 0;
  for (unsigned i = 0; i < n; i++) {
    acc += i;
    __asm__ volatile("" : "+r"(acc)); /* keeps the loop, adds nothing */
  }
  return acc;
}

static int loop_rapl(gb_rapl *r, bool all, unsigned n, uint64_t *acc) {
  uint64_t uj[GB_RAPL_MAX_ZONES];
  gb_err err;
  for (unsigned i = 0; i < n; i++) {
    int rc = all ? gb_rapl_read_all(r, uj, &err) : gb_rapl_read(r, 0, uj, &err);
    if (rc < 0) {
      fprintf(stderr, "bench_clock: %s\n", err.msg);
      return rc;
    }
    *acc += uj[0];
  }
  return 0;
}

/* ns per operation of method m, once. */
static int time_method(int m, gb_rapl *fake, gb_rapl *real, double *per_op) {
  unsigned n = m >= M_FAKE_ALL ? ENERGY_READS : CLOCK_READS;
  uint64_t acc = 0, t0 = gb_monotonic_raw_ns();
  int rc = 0;
  switch (m) {
  case M_EMPTY:
    acc = loop_empty(n);
    break;
  case M_RAW:
    acc = loop_clock(CLOCK_MONOTONIC_RAW, n);
    break;
  case M_GB_RAW:
    acc = loop_gb(n);
    break;
  case M_MONO:
    acc = loop_clock(CLOCK_MONOTONIC, n);
    break;
  case M_FAKE_ALL:
    rc = loop_rapl(fake, true, n, &acc);
    break;
  case M_FAKE_ONE:
    rc = loop_rapl(fake, false, n, &acc);
    break;
  default:
    rc = loop_rapl(real, true, n, &acc);
    break;
  }
  *per_op = (double)(gb_monotonic_raw_ns() - t0) / n;
  sink += acc;
  return rc;
}

static void report(double (*v)[MAX_ROUNDS], size_t rounds, int methods, const gb_rapl *real) {
  double med[M_COUNT], lo, hi;
  printf("bench_clock: %zu rounds, %u clock reads or %u energy reads per method per round\n",
         rounds, CLOCK_READS, ENERGY_READS);
  for (int m = 0; m < methods; m++) {
    bench_median_ci(v[m], rounds, &med[m], &lo, &hi);
    printf("  %-44s %9.1f ns  (95%% CI %.1f .. %.1f)\n", names[m], med[m], lo, hi);
  }
  printf("  ratios: read_all(4 fake zones) / one CLOCK_MONOTONIC_RAW read = %.1f; "
         "gb_monotonic_raw_ns / clock_gettime = %.3f\n",
         med[M_FAKE_ALL] / med[M_RAW], med[M_GB_RAW] / med[M_RAW]);
  printf("  one sample (2 clock reads + read_all): %.2f us on the fake tree\n",
         (2 * med[M_GB_RAW] + med[M_FAKE_ALL]) / 1e3);
  if (real)
    printf("  this machine: %zu zones under %s, read_all %.2f us\n", gb_rapl_count(real),
           gb_rapl_root(real), med[M_REAL_ALL] / 1e3);
  else
    printf("  this machine: no readable powercap tree, real energy reads not measured\n");
  FILE *cs = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
  char src[64] = "unknown";
  if (cs && fgets(src, sizeof src, cs))
    src[strcspn(src, "\n")] = '\0';
  if (cs)
    fclose(cs);
  printf("  clocksource: %s\n", src);
  printf("CLOCK_RAW_NS=%.2f\nRAPL_READ_ALL_FAKE_NS=%.1f\n", med[M_RAW], med[M_FAKE_ALL]);
}

static int run(uint64_t rounds, gb_rapl *fake, gb_rapl *real) {
  static double v[M_COUNT][MAX_ROUNDS];
  int methods = real ? M_COUNT : M_REAL_ALL;
  for (uint64_t r = 0; r < rounds; r++)
    for (int k = 0; k < methods; k++) {
      int m = (int)((r + (uint64_t)k) % (uint64_t)methods);
      int rc = time_method(m, fake, real, &v[m][r]);
      if (rc < 0)
        return rc;
    }
  report(v, rounds, methods, real);
  return 0;
}

int main(int argc, char **argv) {
  uint64_t rounds = 21, cpu = 0;
  bool pin = false;
  for (int i = 1; i < argc; i++) {
    int rc = !strcmp(argv[i], "--rounds")
                 ? bench_opt_u64(argc, argv, &i, 1, MAX_ROUNDS, &rounds)
             : !strcmp(argv[i], "--cpu")
                 ? (pin = true, bench_opt_u64(argc, argv, &i, 0, CPU_SETSIZE - 1, &cpu))
                 : -EINVAL;
    if (rc < 0) {
      fprintf(stderr, "usage: bench_clock [--rounds 1..1000] [--cpu N]\n");
      return 2;
    }
  }
  if (pin && bench_pin((int)cpu) < 0) {
    fprintf(stderr, "bench_clock: cannot pin to CPU %" PRIu64 "\n", cpu);
    return 1;
  }
  powercap_fake *f = powercap_fake_create();
  powercap_fake_package(f, 0, 123456789, 262143328850u);
  powercap_fake_dram(f, 0, 0, 12345678, 65712999613u);
  powercap_fake_package(f, 1, 123456789, 262143328850u);
  powercap_fake_dram(f, 1, 0, 12345678, 65712999613u);
  /* Plain pread, as in production: nothing writes the files while we read. */
  gb_rapl_opts fo = {.root = powercap_fake_root(f)};
  gb_rapl *fake = NULL, *real = NULL;
  gb_err err;
  int rc = gb_rapl_open(&fo, &fake, &err);
  if (rc < 0)
    fprintf(stderr, "bench_clock: %s\n", err.msg);
  if (rc == 0 && gb_rapl_open(NULL, &real, &err) < 0)
    real = NULL;
  if (rc == 0)
    rc = run(rounds, fake, real);
  gb_rapl_close(real);
  gb_rapl_close(fake);
  powercap_fake_destroy(f);
  return rc == 0 ? 0 : 1;
}
