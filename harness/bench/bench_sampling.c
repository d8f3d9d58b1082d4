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
 * Each round runs three arms, in all six orders in turn:
 *
 *   off    no sampler;
 *   prod   the sampler at the production period (10 ms): the figure asked;
 *   fast   the sampler at --fast-period-ns (default 0.25 ms, 40 times as
 *          many samples), which makes each sample's cost to the loop large
 *          enough to see through the noise of a shared machine: the loop's
 *          extra time over `off`, per sample, scaled back to the production
 *          rate, estimates what `prod` costs when its own ratio cannot be
 *          resolved (a linear model: a sample costs the same at both rates).
 *
 * Also reported, from the scheduler's exact per-thread accounting: the
 * sampler thread's CPU time per sample, and its share of the run.
 *
 *   bench_sampling [--rounds N] [--cpu N] [--size N] [--loop-ms N]
 *                  [--fast-period-ns NS] [--worker PATH] */
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

enum { OFF, PROD, FAST, ARMS };

typedef struct {
  uint64_t rounds, cpu, size, loop_ms, fast_period_ns;
  bool pin;
  const char *worker;
} bench_opts;

typedef struct {
  gb_measure_env env;
  gb_rapl *rapl[ARMS];
  gb_sampler *sampler[ARMS]; /* [OFF] stays NULL */
  pid_t sampler_tid[ARMS], firmware_tid;
  gb_job job;
} bench_ctx;

/* One arm's run. */
typedef struct {
  double loop, wall, cpu, samples, sampler_cpu, fw_cpu;
} arm_run;

/* Per round, the figures derived from its three runs. */
typedef struct {
  double loop_off[MAX_ROUNDS], loop_prod[MAX_ROUNDS];
  double loop_ratio[MAX_ROUNDS], wall_ratio[MAX_ROUNDS], cpu_ratio[MAX_ROUNDS];
  double fast_ratio[MAX_ROUNDS], cost_per_sample[MAX_ROUNDS], extrapolated[MAX_ROUNDS];
  double samples_prod[MAX_ROUNDS], samples_fast[MAX_ROUNDS];
  double cpu_per_sample_prod[MAX_ROUNDS], cpu_per_sample_fast[MAX_ROUNDS];
  double cpu_share_prod[MAX_ROUNDS], fw_share[MAX_ROUNDS];
} bench_result;

static int parse_args(int argc, char **argv, bench_opts *o) {
  *o = (bench_opts){.rounds = 30,
                    .size = 2000,
                    .loop_ms = 240,
                    .fast_period_ns = 250000,
                    .worker = GB_BENCH_WORKER_C};
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
    else if (!strcmp(argv[i], "--fast-period-ns"))
      rc = bench_opt_u64(argc, argv, &i, GB_SAMPLER_MIN_PERIOD_NS, GB_SAMPLER_DEFAULT_PERIOD_NS,
                         &o->fast_period_ns);
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

static uint64_t thread_cpu(pid_t tid) {
  uint64_t ns = 0;
  if (tid > 0)
    bench_thread_cpu_ns(tid, &ns);
  return ns;
}

/* One measured run of arm a, with its sampler thread's CPU time. */
static int measure(bench_ctx *c, int a, gb_measurement *m, arm_run *out) {
  c->env.sampler = c->sampler[a];
  uint64_t s0 = thread_cpu(c->sampler_tid[a]), f0 = thread_cpu(c->firmware_tid);
  gb_err err;
  int rc = gb_measure(&c->env, &c->job, m, &err);
  uint64_t s1 = thread_cpu(c->sampler_tid[a]), f1 = thread_cpu(c->firmware_tid);
  if (rc < 0 || m->status != GB_REC_STATUS_OK || !m->has_line) {
    fprintf(stderr, "bench_sampling: the worker run failed: %s\n",
            rc < 0 ? err.msg : m->message);
    return -EIO;
  }
  if (c->sampler[a] && m->energy.status != GB_ENERGY_OK) {
    fprintf(stderr, "bench_sampling: the energy window failed: %s\n", m->energy.reason);
    return -EIO;
  }
  *out = (arm_run){.loop = (double)m->line.loop_ns,
                   .wall = (double)m->wall_ns,
                   .cpu = (double)(m->user_ns + m->sys_ns),
                   .samples = c->sampler[a] ? (double)m->energy.samples : 0,
                   .sampler_cpu = (double)(s1 - s0),
                   .fw_cpu = (double)(f1 - f0)};
  return 0;
}

/* Sorts per process for a loop of about loop_ms, from two runs. */
static int calibrate(bench_ctx *c, uint64_t loop_ms) {
  c->job.sorts = 20;
  for (int pass = 0; pass < 2; pass++) {
    gb_measurement m;
    arm_run r;
    int rc = measure(c, OFF, &m, &r);
    if (rc < 0)
      return rc;
    c->job.sorts = (uint64_t)((double)loop_ms * 1e6 / (r.loop / (double)c->job.sorts)) + 1;
  }
  return 0;
}

/* The sampler thread's readings: the window's first and last are taken in
 * the measuring thread (gb_sampler_begin and _end). */
static double per_sample(const arm_run *r) {
  return r->sampler_cpu / (r->samples > 2 ? r->samples - 2 : 1);
}

static int one_round(bench_ctx *c, uint64_t i, bench_result *res) {
  /* Every order of the three arms in turn: each arm comes first, and
   * directly follows each other arm, equally often over six rounds. */
  static const int order[6][ARMS] = {{OFF, PROD, FAST}, {PROD, FAST, OFF}, {FAST, OFF, PROD},
                                     {OFF, FAST, PROD}, {FAST, PROD, OFF}, {PROD, OFF, FAST}};
  arm_run r[ARMS];
  for (int k = 0; k < ARMS; k++) {
    int a = order[i % 6][k];
    gb_measurement m;
    int rc = measure(c, a, &m, &r[a]);
    if (rc < 0)
      return rc;
  }
  const arm_run *off = &r[OFF], *prod = &r[PROD], *fast = &r[FAST];
  res->loop_off[i] = off->loop;
  res->loop_prod[i] = prod->loop;
  res->loop_ratio[i] = prod->loop / off->loop;
  res->wall_ratio[i] = prod->wall / off->wall;
  res->cpu_ratio[i] = (prod->cpu + prod->sampler_cpu) / off->cpu;
  res->fast_ratio[i] = fast->loop / off->loop;
  res->cost_per_sample[i] = (fast->loop - off->loop) / fast->samples;
  res->extrapolated[i] = 1 + res->cost_per_sample[i] * prod->samples / off->loop;
  res->samples_prod[i] = prod->samples;
  res->samples_fast[i] = fast->samples;
  res->cpu_per_sample_prod[i] = per_sample(prod);
  res->cpu_per_sample_fast[i] = per_sample(fast);
  res->cpu_share_prod[i] = prod->sampler_cpu / prod->wall;
  res->fw_share[i] = (off->fw_cpu + prod->fw_cpu) / (off->wall + prod->wall);
  return 0;
}

static void line_ci(const char *what, double *x, size_t n, double scale, const char *unit,
                    double *med_out, double *hi_out) {
  double med = 0, lo = 0, hi = 0;
  bench_median_ci(x, n, &med, &lo, &hi);
  printf("  %-50s %10.4f %-3s (95%% CI %.4f .. %.4f)\n", what, med * scale, unit, lo * scale,
         hi * scale);
  if (med_out)
    *med_out = med, *hi_out = hi;
  (void)lo;
}

static void verdict(double loop_med, double loop_lo, double loop_hi, double ext_med,
                    double ext_hi) {
  /* The loop_ns ratio is the figure asked; on a shared machine its interval
   * can be wider than the goal, and then the amplified estimate decides. */
  bool resolved = loop_hi - loop_lo < 0.01;
  double judged = resolved ? loop_med : ext_med, judged_hi = resolved ? loop_hi : ext_hi;
  printf("SAMPLING_LOOP_RATIO=%.5f\nSAMPLING_EXTRAPOLATED_RATIO=%.5f\n", loop_med, ext_med);
  printf("%s: sampling at 10 ms costs the worker's loop %+.3f%% (95%% CI up to %+.3f%%) by %s; "
         "goal: under 0.5%%\n",
         judged - 1 < 0.005 ? "PASS" : "FAIL", (judged - 1) * 100, (judged_hi - 1) * 100,
         resolved
             ? "the loop_ns ratio"
             : "the amplified estimate (the loop_ns ratio's interval is wider than 1% here)");
}

static void report(const bench_opts *o, const bench_ctx *c, bench_result *r) {
  size_t n = o->rounds;
  double m, hi, lm, llo, lhi, em, ehi;
  printf("bench_sampling: worker-c quick/random/%" PRIu64 ", %" PRIu64
         " sorts per process, %" PRIu64
         " rounds of (off, 10 ms, %.2f ms) in all six orders, 4 fake zones, %s\n",
         o->size, c->job.sorts, o->rounds, (double)o->fast_period_ns / 1e6,
         o->pin ? "everything on one CPU" : "unpinned");
  line_ci("loop_ns, sampler off", r->loop_off, n, 1e-6, "ms", NULL, NULL);
  line_ci("loop_ns, sampler at 10 ms", r->loop_prod, n, 1e-6, "ms", NULL, NULL);
  bench_median_ci(r->loop_ratio, n, &lm, &llo, &lhi);
  line_ci("loop_ns ratio 10 ms / off, median of rounds", r->loop_ratio, n, 1, "", NULL, NULL);
  line_ci("wall_ns ratio 10 ms / off", r->wall_ratio, n, 1, "", NULL, NULL);
  line_ci("CPU ratio (worker + sampler) 10 ms / worker off", r->cpu_ratio, n, 1, "", NULL,
          NULL);
  line_ci("loop_ns ratio fast / off", r->fast_ratio, n, 1, "", NULL, NULL);
  line_ci("loop cost per sample, from fast - off", r->cost_per_sample, n, 1e-3, "us", NULL,
          NULL);
  line_ci("=> estimated loop_ns ratio at 10 ms", r->extrapolated, n, 1, "", &em, &ehi);
  line_ci("samples per window at 10 ms", r->samples_prod, n, 1, "", NULL, NULL);
  line_ci("samples per window fast", r->samples_fast, n, 1, "", NULL, NULL);
  line_ci("sampler thread CPU per sample at 10 ms", r->cpu_per_sample_prod, n, 1e-3, "us", &m,
          &hi);
  line_ci("sampler thread CPU per sample fast", r->cpu_per_sample_fast, n, 1e-3, "us", NULL,
          NULL);
  line_ci("sampler thread CPU / run wall at 10 ms", r->cpu_share_prod, n, 100, "%", NULL, NULL);
  line_ci("fake firmware thread CPU / wall (off, 10 ms)", r->fw_share, n, 100, "%", NULL, NULL);
  printf("SAMPLER_CPU_PER_SAMPLE_US=%.3f\n", m / 1e3);
  verdict(lm, llo, lhi, em, ehi);
}

static int add_sampler(bench_ctx *c, powercap_fake *f, int a, uint64_t period_ns) {
  pid_t before[MAX_THREADS];
  size_t nb = bench_threads(before, MAX_THREADS);
  gb_rapl_opts ro = powercap_fake_rapl_opts(f);
  gb_sampler_opts so = {.period_ns = period_ns}; /* production stall and jump limits */
  gb_err err;
  int rc = gb_rapl_open(&ro, &c->rapl[a], &err);
  if (rc == 0)
    rc = gb_sampler_create(c->rapl[a], &so, &c->sampler[a], &err);
  if (rc < 0) {
    fprintf(stderr, "bench_sampling: %s\n", err.msg);
    return rc;
  }
  c->sampler_tid[a] = new_thread(before, nb);
  return c->sampler_tid[a] > 0 ? 0 : -ESRCH;
}

static int setup(const bench_opts *o, powercap_fake *f, bench_ctx *c) {
  pid_t before[MAX_THREADS];
  size_t nb = bench_threads(before, MAX_THREADS);
  powercap_fake_start(f);
  c->firmware_tid = new_thread(before, nb);
  int rc = add_sampler(c, f, PROD, GB_SAMPLER_DEFAULT_PERIOD_NS);
  if (rc == 0)
    rc = add_sampler(c, f, FAST, o->fast_period_ns);
  return rc;
}

int main(int argc, char **argv) {
  bench_opts o;
  if (parse_args(argc, argv, &o) < 0) {
    fprintf(stderr, "usage: bench_sampling [--rounds 2..1000] [--cpu N] [--size N] "
                    "[--loop-ms N] [--fast-period-ns NS] [--worker PATH]\n");
    return 2;
  }
  if (o.pin && bench_pin((int)o.cpu) < 0) {
    fprintf(stderr, "bench_sampling: cannot pin to CPU %" PRIu64 "\n", o.cpu);
    return 1;
  }
  gb_workers w = {.worker_c = o.worker};
  bench_ctx c = {.env = {.workers = &w, .timeout_ns = 60000000000u},
                 .job = gb_job_sort(&(gb_config){.language = GB_C,
                                                 .algorithm = GB_QUICK,
                                                 .order = GB_RANDOM,
                                                 .size = (uint32_t)o.size},
                                    GB_DEFAULT_SEED, 1)};
  powercap_fake *f = make_tree();
  static bench_result res;
  int rc = setup(&o, f, &c);
  if (rc == 0)
    rc = calibrate(&c, o.loop_ms);
  for (uint64_t i = 0; i < o.rounds && rc == 0; i++)
    rc = one_round(&c, i, &res);
  if (rc == 0)
    report(&o, &c, &res);
  for (int a = 0; a < ARMS; a++) {
    gb_sampler_destroy(c.sampler[a]);
    gb_rapl_close(c.rapl[a]);
  }
  powercap_fake_destroy(f);
  return rc == 0 ? 0 : 1;
}
