/* What the sampler costs the process it measures: a CPU-bound loop timed
 * with and without a sampling window open, against a fake powercap tree of
 * two sockets with DRAM (four zones). The whole process is pinned to one CPU,
 * so every sample takes its time from the loop: the worst case, since the
 * study runs the harness and the worker on the same two CPUs.
 *
 * The fake counters stand still (a writer thread would cost CPU of its own),
 * so each sample also makes the "has the file gone?" fstat that a moving
 * counter skips: the figure is an upper bound. On real sysfs a pread of
 * energy_uj costs more than on a regular file (it reads an MSR, possibly on
 * another CPU), so measure there too before trusting the number.
 *
 *   bench_sampler [--rounds N] [--period-ns NS] [--unpinned] */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "greenbench/clock.h"
#include "greenbench/numparse.h"
#include "greenbench/rapl.h"
#include "greenbench/sampler.h"
#include "helper_powercap.h"

#define LOOP_TARGET_NS 100000000u

typedef struct {
  unsigned rounds;
  uint64_t period_ns;
  int pinned;
} bench_opts;

static uint64_t cpu_ns(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* xorshift32 steps; the result is printed, so the loop cannot be elided. */
static uint32_t work(uint64_t iterations, uint32_t x) {
  for (uint64_t i = 0; i < iterations; i++) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
  }
  return x;
}

/* Steps for a loop of about LOOP_TARGET_NS, measured twice: the first
 * estimate can be taken while the CPU is still ramping its frequency up. */
static uint64_t calibrate(uint32_t *sink) {
  uint64_t n = 1000000;
  for (int pass = 0; pass < 2; pass++) {
    for (;;) {
      uint64_t t0 = gb_monotonic_raw_ns();
      *sink ^= work(n, *sink | 1);
      uint64_t ns = gb_monotonic_raw_ns() - t0;
      if (ns >= LOOP_TARGET_NS / 4) {
        n = n * LOOP_TARGET_NS / ns;
        break;
      }
      n *= 4;
    }
  }
  return n;
}

static int by_value(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

static double median_ms(uint64_t *v, unsigned n) {
  qsort(v, n, sizeof v[0], by_value);
  uint64_t m = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  return (double)m / 1e6;
}

static int parse_args(int argc, char **argv, bench_opts *o) {
  *o = (bench_opts){.rounds = 15, .period_ns = GB_SAMPLER_DEFAULT_PERIOD_NS, .pinned = 1};
  for (int i = 1; i < argc; i++) {
    uint64_t v;
    if (strcmp(argv[i], "--unpinned") == 0) {
      o->pinned = 0;
    } else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) {
      if (gb_parse_u64(argv[++i], 1, 1000000, &v) < 0)
        return -EINVAL;
      o->rounds = (unsigned)v;
    } else if (strcmp(argv[i], "--period-ns") == 0 && i + 1 < argc) {
      if (gb_parse_u64(argv[++i], 1, UINT64_MAX, &o->period_ns) < 0)
        return -EINVAL;
    } else {
      return -EINVAL;
    }
  }
  return o->rounds >= 1 && o->rounds <= 1000 ? 0 : -EINVAL;
}

static int pin_here(void) {
  cpu_set_t set;
  int cpu = sched_getcpu();
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return sched_setaffinity(0, sizeof set, &set) == 0 ? cpu : -1;
}

static powercap_fake *make_tree(void) {
  powercap_fake *f = powercap_fake_create();
  powercap_fake_package(f, 0, 1000, 262143328850u);
  powercap_fake_dram(f, 0, 0, 1000, 65712999613u);
  powercap_fake_package(f, 1, 1000, 262143328850u);
  powercap_fake_dram(f, 1, 0, 1000, 65712999613u);
  return f;
}

typedef struct {
  uint64_t off[1000], on[1000];
  uint64_t samples, sampler_cpu_ns;
} bench_result;

/* One timed loop, inside a window when s is not NULL. */
static int timed_loop(gb_sampler *s, uint64_t n, uint32_t *sink, uint64_t *wall,
                      bench_result *res) {
  uint64_t p0 = cpu_ns(CLOCK_PROCESS_CPUTIME_ID), t0 = cpu_ns(CLOCK_THREAD_CPUTIME_ID);
  if (s && gb_sampler_begin(s) != 0)
    return -EIO;
  uint64_t w0 = gb_monotonic_raw_ns();
  *sink ^= work(n, *sink | 1);
  *wall = gb_monotonic_raw_ns() - w0;
  if (!s)
    return 0;
  gb_energy_reading r;
  /* The tree's counters never advance, so every window is stalled by
   * design (energy not read is never zero); only a read fault is a failure. */
  if (gb_sampler_end(s, &r) != 0 || r.status == GB_ENERGY_VANISHED ||
      r.status == GB_ENERGY_JUMP) {
    fprintf(stderr, "bench_sampler: window failed: %s\n", r.reason);
    return -EIO;
  }
  res->samples += r.samples;
  res->sampler_cpu_ns +=
      (cpu_ns(CLOCK_PROCESS_CPUTIME_ID) - p0) - (cpu_ns(CLOCK_THREAD_CPUTIME_ID) - t0);
  return 0;
}

/* Alternates which of the pair goes first, so drift hits both alike. */
static int run_rounds(gb_sampler *s, const bench_opts *o, uint64_t n, uint32_t *sink,
                      bench_result *res) {
  for (unsigned i = 0; i < o->rounds; i++) {
    int first_on = i % 2;
    int rc =
        timed_loop(first_on ? s : NULL, n, sink, first_on ? &res->on[i] : &res->off[i], res);
    if (rc == 0)
      rc = timed_loop(first_on ? NULL : s, n, sink, first_on ? &res->off[i] : &res->on[i], res);
    if (rc < 0)
      return rc;
  }
  return 0;
}

/* Median of the per-round ratios on/off: pairs cancel slow drift, which on
 * a shared machine is larger than the effect. */
static double median_pair_ratio(const bench_result *res, unsigned n) {
  double r[1000];
  for (unsigned i = 0; i < n; i++)
    r[i] = (double)res->on[i] / (double)res->off[i];
  for (unsigned i = 1; i < n; i++)
    for (unsigned j = i; j > 0 && r[j - 1] > r[j]; j--) {
      double t = r[j];
      r[j] = r[j - 1];
      r[j - 1] = t;
    }
  return n % 2 ? r[n / 2] : (r[n / 2 - 1] + r[n / 2]) / 2;
}

static void report(const bench_opts *o, int cpu, uint64_t n, const bench_result *res_in,
                   uint32_t sink) {
  bench_result res = *res_in;
  double pair = median_pair_ratio(&res, o->rounds);
  double off = median_ms(res.off, o->rounds), on = median_ms(res.on, o->rounds);
  double per_sample_us =
      res.samples ? (double)res.sampler_cpu_ns / 1e3 / (double)res.samples : 0;
  printf("bench_sampler: 4 zones, period %.1f ms, %u rounds of %llu xorshift steps, ",
         (double)o->period_ns / 1e6, o->rounds, (unsigned long long)n);
  if (cpu >= 0)
    printf("all threads on CPU %d\n", cpu);
  else
    printf("unpinned\n");
  printf("  without sampler: median %.3f ms\n", off);
  printf("  with sampler:    median %.3f ms (%.1f samples per window)\n", on,
         (double)res.samples / o->rounds);
  printf("  ratio with/without: %.4f (median of paired rounds %.4f)\n", on / off, pair);
  printf(
      "  sampler CPU: %.2f us per sample, %.3f%% of the loop's wall time   (checksum %08x)\n",
      per_sample_us, 100.0 * (double)res.sampler_cpu_ns / o->rounds / (off * 1e6), sink);
}

int main(int argc, char **argv) {
  bench_opts o;
  if (parse_args(argc, argv, &o) < 0) {
    fprintf(stderr, "usage: bench_sampler [--rounds 1..1000] [--period-ns NS] [--unpinned]\n");
    return 2;
  }
  int cpu = o.pinned ? pin_here() : -1;
  powercap_fake *f = make_tree();
  gb_rapl_opts ro = {.root = powercap_fake_root(f)};
  gb_sampler_opts so = {.period_ns = o.period_ns, .stall_ns = 3600000000000u};
  gb_rapl *r = NULL;
  gb_sampler *s = NULL;
  gb_err err;
  int rc = gb_rapl_open(&ro, &r, &err);
  if (rc == 0)
    rc = gb_sampler_create(r, &so, &s, &err);
  static bench_result res;
  uint32_t sink = 2463534242u;
  if (rc == 0) {
    uint64_t n = calibrate(&sink);
    rc = run_rounds(s, &o, n, &sink, &res);
    if (rc == 0)
      report(&o, cpu, n, &res, sink);
  } else {
    fprintf(stderr, "bench_sampler: %s\n", err.msg);
  }
  gb_sampler_destroy(s);
  gb_rapl_close(r);
  powercap_fake_destroy(f);
  return rc == 0 ? 0 : 1;
}
