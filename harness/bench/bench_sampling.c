/* What the energy sampler costs the worker it measures (docs/performance.md,
 * figure 2): the C worker's own loop time (loop_ns, the figure the study
 * divides by sorts) with the sampler running at the production period and
 * without it, in pairs of runs through gb_measure as the campaign makes
 * them, the order inside each pair alternating. The sampler reads a fake
 * powercap tree of two packages with DRAM (four zones) whose "firmware"
 * thread moves the counters every millisecond, so the sampler takes the
 * same path as on live counters (no stall, no standstill check).
 *
 * Everything (this process, the sampler, the fake firmware, the worker) runs
 * on the CPU this process is started on when --cpu is given (ci/bench uses
 * CPU 0): every microsecond the sampler spends is taken from the worker, the
 * worst case. The fake firmware costs CPU in both arms of a pair alike.
 *
 * Also reported, from the scheduler's exact per-thread accounting: the
 * sampler thread's CPU time per sample and per window.
 *
 *   bench_sampling [--rounds N] [--cpu N] [--size N] [--loop-ms N] [--worker PATH] */
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "greenbench/measure.h"
#include "greenbench/rapl.h"
#include "greenbench/sampler.h"
#include "helper_powercap.h"

#ifndef GB_BENCH_WORKER_C
#define GB_BENCH_WORKER_C "build/workers/worker-c"
#endif
#define MAX_ROUNDS 1000u
#define MAX_THREADS 64

typedef struct {
  uint64_t rounds, cpu, size, loop_ms;
  bool pin;
  const char *worker;
} bench_opts;

typedef struct {
  gb_measure_env env;
  gb_sampler *sampler;
  pid_t sampler_tid, firmware_tid;
  gb_job job;
} bench_ctx;

typedef struct {
  double loop_on[MAX_ROUNDS], loop_off[MAX_ROUNDS], wall_on[MAX_ROUNDS], wall_off[MAX_ROUNDS];
  double loop_ratio[MAX_ROUNDS], wall_ratio[MAX_ROUNDS];
  double cpu_per_sample[MAX_ROUNDS], cpu_share[MAX_ROUNDS], samples[MAX_ROUNDS];
  double fw_on[MAX_ROUNDS], fw_off[MAX_ROUNDS];
} bench_result;

static int parse_args(int argc, char **argv, bench_opts *o) {
  *o = (bench_opts){.rounds = 30, .size = 2000, .loop_ms = 240, .worker = GB_BENCH_WORKER_C};
  for (int i = 1; i < argc; i++) {
    int rc = -EINVAL;
    if (!strcmp(argv[i], "--rounds"))
      rc = bench_opt_u64(argc, argv, &i, 2, MAX_ROUNDS, &o->rounds);
    else if (!strcmp(argv[i], "--cpu") && (o->pin = true))
      rc = bench_opt_u64(argc, argv, &i, 0, CPU_SETSIZE - 1, &o->cpu);
    else if (!strcmp(argv[i], "--size"))
      rc = bench_opt_u64(argc, argv, &i, 2, 100000, &o->size);
    else if (!strcmp(argv[i], "--loop-ms"))
      rc = bench_opt_u64(argc, argv, &i, 10, 10000, &o->loop_ms);
    else if (!strcmp(argv[i], "--worker") && i + 1 < argc)
      rc = (o->worker = argv[++i], 0);
    if (rc < 0)
      return rc;
  }
  return 0;
}

/* The thread that appeared in this process since `before` was taken. */
static pid_t new_thread(const pid_t *before, size_t nbefore) {
  pid_t now[MAX_THREADS];
  size_t n = bench_threads(now, MAX_THREADS);
  for (size_t i = 0; i < n; i++) {
    bool old = false;
    for (size_t j = 0; j < nbefore && !old; j++)
      old = now[i] == before[j];
    if (!old)
      return now[i];
  }
  return -1;
}

static powercap_fake *make_tree(void) {
  powercap_fake *f = powercap_fake_create();
  int z[4] = {powercap_fake_package(f, 0, 1000, 262143328850u),
              powercap_fake_dram(f, 0, 0, 1000, 65712999613u),
              powercap_fake_package(f, 1, 1000, 262143328850u),
              powercap_fake_dram(f, 1, 0, 1000, 65712999613u)};
  for (int i = 0; i < 4; i++)
    powercap_fake_power(f, z[i], i % 2 ? 3000 : 15000); /* 15 W package, 3 W DRAM */
  return f;
}

/* One measured run; with the sampler, also its thread's CPU time. */
static int measure(bench_ctx *c, bool on, gb_measurement *m, uint64_t *sampler_cpu,
                   uint64_t *fw_cpu) {
  c->env.sampler = on ? c->sampler : NULL;
  uint64_t s0 = 0, s1 = 0, f0 = 0, f1 = 0;
  bench_thread_cpu_ns(c->sampler_tid, &s0);
  bench_thread_cpu_ns(c->firmware_tid, &f0);
  gb_err err;
  int rc = gb_measure(&c->env, &c->job, m, &err);
  bench_thread_cpu_ns(c->sampler_tid, &s1);
  bench_thread_cpu_ns(c->firmware_tid, &f1);
  if (rc < 0 || m->status != GB_REC_STATUS_OK || !m->has_line) {
    fprintf(stderr, "bench_sampling: the worker run failed: %s\n", rc < 0 ? err.msg : m->message);
    return -EIO;
  }
  if (on && m->energy.status != GB_ENERGY_OK) {
    fprintf(stderr, "bench_sampling: the energy window failed: %s\n", m->energy.reason);
    return -EIO;
  }
  *sampler_cpu = s1 - s0;
  *fw_cpu = f1 - f0;
  return 0;
}

/* Sorts per process for a loop of about loop_ms, from two runs. */
static int calibrate(bench_ctx *c, uint64_t loop_ms) {
  c->job.sorts = 20;
  for (int pass = 0; pass < 2; pass++) {
    gb_measurement m;
    uint64_t ignored;
    int rc = measure(c, false, &m, &ignored, &ignored);
    if (rc < 0)
      return rc;
    double per_sort = (double)m.line.loop_ns / (double)c->job.sorts;
    c->job.sorts = (uint64_t)((double)loop_ms * 1e6 / per_sort) + 1;
  }
  return 0;
}

static int one_round(bench_ctx *c, uint64_t i, bench_result *res) {
  gb_measurement on, off;
  uint64_t scpu = 0, fw_on = 0, fw_off = 0, ignored;
  bool on_first = i % 2 == 0;
  int rc = on_first ? measure(c, true, &on, &scpu, &fw_on) : measure(c, false, &off, &ignored, &fw_off);
  if (rc == 0)
    rc = on_first ? measure(c, false, &off, &ignored, &fw_off) : measure(c, true, &on, &scpu, &fw_on);
  if (rc < 0)
    return rc;
  res->loop_on[i] = (double)on.line.loop_ns;
  res->loop_off[i] = (double)off.line.loop_ns;
  res->wall_on[i] = (double)on.wall_ns;
  res->wall_off[i] = (double)off.wall_ns;
  res->loop_ratio[i] = res->loop_on[i] / res->loop_off[i];
  res->wall_ratio[i] = res->wall_on[i] / res->wall_off[i];
  res->samples[i] = (double)on.energy.samples;
  /* begin and end are read in this thread; the rest in the sampler's */
  res->cpu_per_sample[i] = (double)scpu / (double)(on.energy.samples > 2 ? on.energy.samples - 2 : 1);
  res->cpu_share[i] = (double)scpu / (double)on.wall_ns;
  res->fw_on[i] = (double)fw_on / (double)on.wall_ns;
  res->fw_off[i] = (double)fw_off / (double)off.wall_ns;
  return 0;
}

static void line_ci(const char *what, double *x, size_t n, double scale, const char *unit) {
  double med = 0, lo = 0, hi = 0;
  bench_median_ci(x, n, &med, &lo, &hi);
  printf("  %-44s %10.4f %s  (95%% CI %.4f .. %.4f)\n", what, med * scale, unit, lo * scale,
         hi * scale);
}

static void report(const bench_opts *o, const bench_ctx *c, bench_result *r) {
  size_t n = o->rounds;
  printf("bench_sampling: worker-c quick/random/%" PRIu64 ", %" PRIu64 " sorts per process, %"
         PRIu64 " rounds of (sampler on, off), period %.0f ms, 4 fake zones, %s\n",
         o->size, c->job.sorts, o->rounds, GB_SAMPLER_DEFAULT_PERIOD_NS / 1e6,
         o->pin ? "everything on one CPU" : "unpinned");
  line_ci("loop_ns without sampler, median", r->loop_off, n, 1e-6, "ms");
  line_ci("loop_ns with sampler, median", r->loop_on, n, 1e-6, "ms");
  line_ci("loop_ns ratio on/off, median of pairs", r->loop_ratio, n, 1, "");
  line_ci("wall_ns ratio on/off, median of pairs", r->wall_ratio, n, 1, "");
  line_ci("samples per window", r->samples, n, 1, "");
  line_ci("sampler CPU per sample", r->cpu_per_sample, n, 1e-3, "us");
  line_ci("sampler CPU / run wall time", r->cpu_share, n, 100, "%");
  line_ci("fake firmware CPU / wall, sampler on", r->fw_on, n, 100, "%");
  line_ci("fake firmware CPU / wall, sampler off", r->fw_off, n, 100, "%");
  double med = bench_median_f(r->loop_ratio, n);
  printf("SAMPLING_LOOP_RATIO=%.5f\n", med);
  printf("%s: sampling costs the worker's loop %+.3f%% (goal: under 0.5%%)\n",
         med - 1 < 0.005 ? "PASS" : "FAIL", (med - 1) * 100);
}

static int setup(const bench_opts *o, powercap_fake *f, gb_rapl **rapl, bench_ctx *c) {
  pid_t before[MAX_THREADS];
  size_t nb = bench_threads(before, MAX_THREADS);
  powercap_fake_start(f);
  c->firmware_tid = new_thread(before, nb);
  nb = bench_threads(before, MAX_THREADS);
  gb_rapl_opts ro = powercap_fake_rapl_opts(f);
  gb_err err;
  int rc = gb_rapl_open(&ro, rapl, &err);
  if (rc == 0)
    rc = gb_sampler_create(*rapl, NULL, &c->sampler, &err); /* production defaults */
  if (rc < 0) {
    fprintf(stderr, "bench_sampling: %s\n", err.msg);
    return rc;
  }
  c->sampler_tid = new_thread(before, nb);
  (void)o;
  return c->sampler_tid > 0 && c->firmware_tid > 0 ? 0 : -ESRCH;
}

int main(int argc, char **argv) {
  bench_opts o;
  if (parse_args(argc, argv, &o) < 0) {
    fprintf(stderr, "usage: bench_sampling [--rounds 2..1000] [--cpu N] [--size N] "
                    "[--loop-ms N] [--worker PATH]\n");
    return 2;
  }
  if (o.pin && bench_pin((int)o.cpu) < 0) {
    fprintf(stderr, "bench_sampling: cannot pin to CPU %" PRIu64 "\n", o.cpu);
    return 1;
  }
  gb_workers w = {.worker_c = o.worker};
  bench_ctx c = {.env = {.workers = &w, .timeout_ns = 60000000000u},
                 .job = {GB_RUN_SORT, GB_C, GB_QUICK, GB_RANDOM, (uint32_t)o.size,
                         GB_DEFAULT_SEED, 1, 1}};
  powercap_fake *f = make_tree();
  gb_rapl *rapl = NULL;
  static bench_result res;
  int rc = setup(&o, f, &rapl, &c);
  if (rc == 0)
    rc = calibrate(&c, o.loop_ms);
  for (uint64_t i = 0; i < o.rounds && rc == 0; i++)
    rc = one_round(&c, i, &res);
  if (rc == 0)
    report(&o, &c, &res);
  gb_sampler_destroy(c.sampler);
  gb_rapl_close(rapl);
  powercap_fake_destroy(f);
  return rc == 0 ? 0 : 1;
}
