#include "greenbench/measure.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "greenbench/clock.h"
#include "greenbench/text.h"
#include "harness_internal.h"

gb_job gb_job_sort(const gb_config *k, uint32_t seed, uint64_t sorts) {
  return (gb_job){.kind = GB_RUN_SORT,
                  .language = k->language,
                  .algorithm = k->algorithm,
                  .order = k->order,
                  .size = k->size,
                  .seed = seed,
                  .sorts = sorts,
                  .launches = 1};
}

gb_job gb_job_startup(const gb_startup_group *g, uint32_t seed, uint64_t launches) {
  return (gb_job){.kind = GB_RUN_STARTUP,
                  .language = g->language,
                  .algorithm = GB_STARTUP_ALGORITHM,
                  .order = g->order,
                  .size = g->size,
                  .seed = seed,
                  .sorts = 1,
                  .launches = launches};
}

void gbi_job_argv(const gb_workers *w, const gb_job *job, char **argv, char *buf) {
  size_t n = 0;
  if (job->language == GB_C) {
    argv[n++] = (char *)w->worker_c;
  } else if (job->language == GB_PYTHON) {
    argv[n++] = (char *)w->python;
    argv[n++] = (char *)w->python_worker;
  } else {
    argv[n++] = (char *)w->node;
    argv[n++] = (char *)w->node_worker;
  }
  char *size = buf, *sorts = buf + 32, *seed = buf + 64;
  snprintf(size, 32, "%" PRIu32, job->size);
  snprintf(sorts, 32, "%" PRIu64, job->kind == GB_RUN_SORT ? job->sorts : 1);
  snprintf(seed, 32, "%" PRIu32, job->seed);
  const char *fixed[] = {"--algorithm", gb_algorithm_name(job->algorithm),
                         "--order",     gb_order_name(job->order),
                         "--size",      size,
                         "--sorts",     sorts,
                         "--seed",      seed};
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
    argv[n++] = (char *)fixed[i];
  if (job->kind == GB_RUN_STARTUP)
    argv[n++] = "--startup-only";
  argv[n] = NULL;
}

/* What the spawner's callbacks share. */
typedef struct {
  const gb_measure_env *env;
  gb_spawn_check_fn check; /* the caller's judge of a launch's stdout */
  void *check_ctx;
  bool checked; /* check accepted a launch */
  gb_energy_reading energy;
} run_ctx;

/* The study's judge: the sorts' worker line (workerline.h). */
typedef struct {
  gb_worker_request req;
  gb_worker_line line;
} study_ctx;

/* Opens an energy window. A failed first reading is not an error here: the
 * window is then open but faulted, and window_end reports why. -EBUSY (a
 * window left open) would be a bug of this file. */
static void window_begin(gb_sampler *s) {
  int rc = gb_sampler_begin(s);
  assert(rc != -EBUSY);
  (void)rc;
}

/* Closes the window window_begin opened. -EINVAL (none open) would be a bug
 * of this file; the reading then says so rather than keep stale totals. */
static void window_end(gb_sampler *s, gb_energy_reading *out) {
  if (gb_sampler_end(s, out) < 0) {
    *out = (gb_energy_reading){.status = GB_ENERGY_VANISHED};
    snprintf(out->reason, sizeof out->reason, "no energy window was open to close");
  }
}

/* The row's last window must not end inside a standstill. -EBUSY (a window
 * still open) would be a bug of this file, as in window_end; the reading
 * then says so rather than pass unjudged. */
static void settle(gb_sampler *s, gb_energy_reading *r) {
  if (gb_sampler_settle(s, r) < 0 && r->status == GB_ENERGY_OK) {
    r->status = GB_ENERGY_VANISHED;
    snprintf(r->reason, sizeof r->reason, "an energy window was still open at the row's end");
  }
}

static void before_hook(void *p) {
  run_ctx *c = p;
  if (c->env->sampler)
    window_begin(c->env->sampler);
}

static void after_hook(void *p) {
  run_ctx *c = p;
  if (c->env->sampler)
    window_end(c->env->sampler, &c->energy);
}

static void abort_reason(void *p, char *buf, size_t len) {
  run_ctx *c = p;
  gb_sampler_fault_reason(c->env->sampler, buf, len);
}

/* Parses each launch's line inside the batch: cheap, and a lying launch
 * stops the batch at once. */
static int check_line(void *p, const char *out, size_t len, bool truncated, char *msg,
                      size_t msglen) {
  study_ctx *c = p;
  gb_err err;
  if (gb_workerline_read(out, len, &c->req, &c->line, &err) < 0) {
    snprintf(msg, msglen, "%s", err.msg);
    return -1;
  }
  (void)truncated;
  return 0;
}

/* The caller's check, after the one rule of every worker: its stdout whole. */
static int check_launch(void *p, const char *out, size_t len, bool truncated, char *msg,
                        size_t msglen) {
  run_ctx *c = p;
  if (truncated) {
    snprintf(msg, msglen, "the worker printed more than %u bytes", GB_SPAWN_STDOUT_MAX);
    return -1;
  }
  if (c->check(c->check_ctx, out, len, truncated, msg, msglen) != 0)
    return -1;
  c->checked = true;
  return 0;
}

static gb_rec_status status_of_spawn(gb_spawn_status s) {
  switch (s) {
  case GB_SPAWN_OK:
    return GB_REC_STATUS_OK;
  case GB_SPAWN_EXIT_NONZERO:
    return GB_REC_STATUS_EXIT_NONZERO;
  case GB_SPAWN_CRASHED:
    return GB_REC_STATUS_CRASHED;
  case GB_SPAWN_TIMEOUT:
    return GB_REC_STATUS_TIMEOUT;
  case GB_SPAWN_SPAWN_FAILED:
    return GB_REC_STATUS_SPAWN_FAILED;
  case GB_SPAWN_ABORTED:
    return GB_REC_STATUS_ENERGY_STALLED; /* refined from the reading below */
  case GB_SPAWN_INTERRUPTED:             /* not recorded: gb_measurement.interrupted */
  case GB_SPAWN_BAD_OUTPUT:
  default:
    return GB_REC_STATUS_BAD_OUTPUT;
  }
}

/* The records have no value of their own for a disagreement of the two
 * ways of reading the counters: it is an energy_jump (a counter rose by
 * what it cannot have), and the message says which. */
static gb_rec_status status_of_energy(gb_energy_status s) {
  return s == GB_ENERGY_STALLED                           ? GB_REC_STATUS_ENERGY_STALLED
         : s == GB_ENERGY_JUMP || s == GB_ENERGY_DISAGREE ? GB_REC_STATUS_ENERGY_JUMP
                                                          : GB_REC_STATUS_ENERGY_VANISHED;
}

/* Sleeps ns, or less when *stop gets set: signals are taken only inside
 * ppoll, so a handler setting the flag always cuts the sleep short. Returns
 * true when it was cut. */
static bool sleep_unless_stopped(uint64_t ns, volatile sig_atomic_t *stop) {
  if (!stop) {
    if (gb_sleep_ns(ns) < 0) { /* resumes after signals: the window is always whole */
      /* Not a failure to report: nanosleep refuses only a malformed request,
       * which ns never makes, and idle_window measures the window's length
       * rather than assume it. */
    }
    return false;
  }
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  uint64_t end = gb_monotonic_raw_ns() + ns, now;
  while (!*stop && (now = gb_monotonic_raw_ns()) < end) {
    struct timespec ts = {(time_t)((end - now) / 1000000000u),
                          (long)((end - now) % 1000000000u)};
    ppoll(NULL, 0, &ts, &old);
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  return *stop != 0;
}

/* The idle baseline: as long as the run took, measured the same way. */
static void idle_window(const gb_measure_env *env, uint64_t ns, gb_measurement *m) {
  uint64_t t0 = gb_monotonic_raw_ns();
  if (env->sampler)
    window_begin(env->sampler);
  m->interrupted = sleep_unless_stopped(ns, env->stop);
  if (env->sampler)
    window_end(env->sampler, &m->idle_energy);
  m->idle_ns = gb_monotonic_raw_ns() - t0;
  if (env->sampler)
    m->idle_ns = m->idle_energy.end_ns - m->idle_energy.begin_ns;
}

static void record_energy_faults(gb_measurement *m) {
  const gb_energy_reading *bad = m->energy.status != GB_ENERGY_OK        ? &m->energy
                                 : m->idle_energy.status != GB_ENERGY_OK ? &m->idle_energy
                                                                         : NULL;
  if (!bad || (m->status != GB_REC_STATUS_OK && m->status != GB_REC_STATUS_ENERGY_STALLED))
    return;
  m->status = status_of_energy(bad->status);
  char msg[sizeof bad->reason + 32];
  snprintf(msg, sizeof msg, "%s%s", bad == &m->idle_energy ? "in the idle window: " : "",
           bad->reason);
  gb_str_copy(m->message, sizeof m->message, msg);
}

int gbi_measure_argv(const gb_measure_env *env, char *const *argv, unsigned launches,
                     gb_spawn_check_fn check, void *check_ctx, gb_measurement *m, gb_err *err) {
  run_ctx ctx = {.env = env, .check = check, .check_ctx = check_ctx};
  gb_spawn_opts o;
  gb_spawn_opts_init(&o, argv);
  o.timeout_ns = env->timeout_ns;
  o.run_as = env->run_as;
  o.envp = env->envp;
  o.stop = env->stop;
  o.before = before_hook;
  o.after = after_hook;
  o.check = check_launch;
  o.ctx = &ctx;
  o.launches = launches;
  if (env->sampler) {
    o.abort_fd = gb_sampler_abort_fd(env->sampler);
    o.abort_reason = abort_reason;
  }
  gb_machine_sample start = {0}, end = {0};
  if (env->machine)
    gb_machine_sample_read(env->machine, &start);
  gb_spawn_result r;
  int rc = env->spawner ? env->spawner->run(env->spawner->ctx, &o, &r, err)
                        : gb_spawn_run(&o, &r, err);
  if (rc < 0)
    return rc;
  if (env->machine)
    gb_machine_sample_read(env->machine, &end);
  *m = (gb_measurement){.status = status_of_spawn(r.status),
                        .wall_ns = r.wall_ns,
                        .user_ns = r.user_ns,
                        .sys_ns = r.sys_ns,
                        .max_rss_kib = r.max_rss_kib,
                        .launches_done = r.launches,
                        .has_line = ctx.checked && r.status == GB_SPAWN_OK,
                        .energy_read = env->sampler != NULL,
                        .energy = ctx.energy,
                        .machine_start = start,
                        .machine_end = end};
  gb_str_copy(m->message, sizeof m->message, r.message);
  m->interrupted = r.status == GB_SPAWN_INTERRUPTED;
  gb_spawn_result_free(&r);
  m->idled = env->idle && !m->interrupted;
  if (m->idled)
    idle_window(env, m->wall_ns, m);
  if (env->sampler) {
    settle(env->sampler, m->idled ? &m->idle_energy : &m->energy);
    record_energy_faults(m);
  }
  return 0;
}

int gb_measure(const gb_measure_env *env, const gb_job *job, gb_measurement *m, gb_err *err) {
  char *argv[16], numbers[96];
  gbi_job_argv(env->workers, job, argv, numbers);
  study_ctx ctx = {
      .req = {.kind = job->kind == GB_RUN_SORT ? GB_WORKERLINE_SORT : GB_WORKERLINE_STARTUP,
              .language = gb_language_name(job->language),
              .algorithm = job->algorithm,
              .order = job->order,
              .size = job->size,
              .seed = job->seed,
              .sorts = job->kind == GB_RUN_SORT ? job->sorts : 1}};
  int rc =
      gbi_measure_argv(env, argv, job->kind == GB_RUN_STARTUP ? (unsigned)job->launches : 1,
                       check_line, &ctx, m, err);
  if (rc == 0)
    m->line = ctx.line;
  return rc;
}
