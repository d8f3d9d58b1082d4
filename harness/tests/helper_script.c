#include "helper_script.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibration.h"
#include "greenbench/clock.h"
#include "greenbench/numparse.h"
#include "greenbench/workload.h"

#define MAX_EVENTS 64
#define MAX_EXPECTED 64
/* Scripted process ids: never a real process to signal, only a number in
 * messages. */
#define PID_BASE 4000000

typedef struct {
  unsigned call, launch;
  script_event e;
  int value;
} event;

typedef struct {
  gb_algorithm algorithm;
  gb_order order;
  uint32_t size, seed;
  gb_expected e;
} expected_entry;

struct worker_script {
  char worker_c[4096], python_worker[4096], node_worker[4096];
  gb_spawner spawner;
  script_model model[GB_LANGUAGE_COUNT];
  bool sleep;
  event events[MAX_EVENTS];
  size_t nevents;
  void (*on_call)(void *ctx, unsigned call, const script_call *c);
  void *on_call_ctx;
  script_call *calls;
  unsigned ncalls, cap;
  expected_entry cache[MAX_EXPECTED]; /* gb_expected_compute sorts the input once */
  size_t ncached;
};

static void die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("helper_script: ", stderr);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  abort();
}

gb_settings script_settings(unsigned runs, unsigned warmups, unsigned target_ms,
                            gb_energy_mode energy) {
  gb_settings s;
  gb_err err;
  if (gb_settings_profile("smoke", &s, &err) < 0)
    die("%s", err.msg);
  s.languages = 1u << GB_C;
  s.algorithms = 1u << GB_QUICK;
  s.orders = (1u << GB_RANDOM) | (1u << GB_SORTED);
  s.sizes[0] = 50;
  s.nsizes = 1;
  s.runs = runs;
  s.warmups = warmups;
  s.target_ms = target_ms;
  s.energy = energy;
  s.order_seed = 42;
  s.timeout_s = 20;
  return s;
}

script_model script_model_default(gb_language l) {
  static const script_model models[GB_LANGUAGE_COUNT] = {
      [GB_C] = {.startup_ns = 400000, .op_ns = 2, .sys_ns = 50000, .rss_kib = 1200},
      [GB_PYTHON] = {.startup_ns = 2000000, .op_ns = 60, .sys_ns = 300000, .rss_kib = 9000},
      [GB_NODE] = {.startup_ns = 3000000, .op_ns = 4, .sys_ns = 500000, .rss_kib = 42000},
  };
  return models[l];
}

const char *script_runtime(gb_language l) {
  static const char *const names[GB_LANGUAGE_COUNT] = {[GB_C] = "c (scripted)",
                                                       [GB_PYTHON] = "python (scripted)",
                                                       [GB_NODE] = "node (scripted)"};
  return names[l];
}

static const gb_expected *expected(worker_script *s, gb_algorithm a, gb_order o, uint32_t size,
                                   uint32_t seed) {
  for (size_t i = 0; i < s->ncached; i++) {
    const expected_entry *c = &s->cache[i];
    if (c->algorithm == a && c->order == o && c->size == size && c->seed == seed)
      return &c->e;
  }
  expected_entry *c = &s->cache[s->ncached < MAX_EXPECTED ? s->ncached++ : MAX_EXPECTED - 1];
  *c = (expected_entry){.algorithm = a, .order = o, .size = size, .seed = seed};
  if (gb_expected_compute(a, o, size, seed, &c->e) < 0)
    die("cannot compute the counts of %s/%s/%" PRIu32, gb_algorithm_name(a), gb_order_name(o),
        size);
  return &c->e;
}

uint64_t script_loop_ns(worker_script *s, const gb_config *k, uint32_t seed, uint64_t sorts) {
  const gb_expected *e = expected(s, k->algorithm, k->order, k->size, seed);
  return sorts * gbi_sort_work(e->counts, k->size) * s->model[k->language].op_ns;
}

uint64_t script_wall_ns(worker_script *s, const gb_config *k, uint32_t seed, uint64_t sorts) {
  return s->model[k->language].startup_ns + script_loop_ns(s, k, seed, sorts);
}

script_model script_model_of(const worker_script *s, gb_language l) {
  return s->model[l];
}

void script_set_model(worker_script *s, gb_language l, script_model m) {
  if (m.sys_ns > m.startup_ns)
    die("a launch's system time cannot exceed its start-up");
  s->model[l] = m;
}

void script_sleep(worker_script *s, bool on) {
  s->sleep = on;
}

void script_at(worker_script *s, unsigned call, unsigned launch, script_event e, int value) {
  if (s->nevents == MAX_EVENTS)
    die("more than %d events", MAX_EVENTS);
  s->events[s->nevents++] = (event){call, launch ? launch : 1, e, value};
}

void script_on_call(worker_script *s,
                    void (*fn)(void *ctx, unsigned call, const script_call *c), void *ctx) {
  s->on_call = fn;
  s->on_call_ctx = ctx;
}

unsigned script_calls(const worker_script *s) {
  return s->ncalls;
}

const script_call *script_call_at(const worker_script *s, unsigned n) {
  if (n < 1 || n > s->ncalls)
    die("no call %u (%u made)", n, s->ncalls);
  return &s->calls[n - 1];
}

static const event *event_at(const worker_script *s, unsigned call, unsigned launch) {
  for (size_t i = 0; i < s->nevents; i++)
    if (s->events[i].call == call && s->events[i].launch == launch)
      return &s->events[i];
  return NULL;
}

/* ---- Reading the request back from argv ---------------------------------- */

static int parse_u32(const char *v, uint32_t *out) {
  uint64_t x;
  int rc = v ? gb_parse_u64(v, 1, UINT32_MAX, &x) : -EINVAL;
  if (rc == 0)
    *out = (uint32_t)x;
  return rc;
}

/* The request in argv, as gbi_job_argv builds it; -EINVAL for anything else
 * (a harness that asks a worker for something it cannot parse). */
static int parse_argv(const worker_script *s, char *const *argv, script_call *c) {
  *c = (script_call){.algorithm = GB_ALGORITHM_COUNT, .order = GB_ORDER_COUNT};
  size_t i = 1;
  if (strcmp(argv[0], s->worker_c) == 0) {
    c->language = GB_C;
  } else if (argv[1] && strcmp(argv[1], s->python_worker) == 0) {
    c->language = GB_PYTHON;
    i = 2;
  } else if (argv[1] && strcmp(argv[1], s->node_worker) == 0) {
    c->language = GB_NODE;
    i = 2;
  } else {
    return -EINVAL;
  }
  bool has_size = false, has_sorts = false, has_seed = false;
  size_t used = 0;
  for (; argv[i]; i++) {
    used += (size_t)snprintf(c->argv + used, sizeof c->argv - used, "%s%s", used ? " " : "",
                             argv[i]);
    if (used >= sizeof c->argv)
      return -EINVAL;
    const char *v = argv[i + 1];
    int rc = 0;
    if (strcmp(argv[i], "--startup-only") == 0) {
      c->startup = true;
      continue;
    }
    if (!v)
      return -EINVAL;
    if (strcmp(argv[i], "--algorithm") == 0)
      rc = gb_algorithm_parse(v, &c->algorithm);
    else if (strcmp(argv[i], "--order") == 0)
      rc = gb_order_parse(v, &c->order);
    else if (strcmp(argv[i], "--size") == 0)
      rc = parse_u32(v, &c->size), has_size = true;
    else if (strcmp(argv[i], "--seed") == 0)
      rc = parse_u32(v, &c->seed), has_seed = true;
    else if (strcmp(argv[i], "--sorts") == 0)
      rc = gb_parse_u64(v, 1, GB_MAX_SORTS, &c->sorts), has_sorts = true;
    else
      return -EINVAL;
    if (rc < 0)
      return -EINVAL;
    used += (size_t)snprintf(c->argv + used, sizeof c->argv - used, " %s", v);
    if (used >= sizeof c->argv)
      return -EINVAL;
    i++;
  }
  bool whole = c->algorithm != GB_ALGORITHM_COUNT && c->order != GB_ORDER_COUNT && has_size &&
               has_sorts && has_seed;
  return whole ? 0 : -EINVAL;
}

/* ---- One launch ------------------------------------------------------------ */

typedef struct {
  gb_spawn_status status;
  int exit_code, signal, error;
  uint64_t wall_ns, user_ns, sys_ns, loop_ns;
  char out[1024], err[256], msg[400];
} launch_result;

/* The line the real worker prints (workers/c/worker.c, key for key). */
static void worker_line(const script_call *c, const gb_expected *e, uint64_t loop_ns, bool lie,
                        char *buf, size_t len) {
  char hash[17];
  gb_hash_hex(lie && c->startup ? e->input_hash ^ 1 : e->input_hash, hash);
  int n =
      snprintf(buf, len,
               "{\"language\":\"%s\",\"algorithm\":\"%s\",\"order\":\"%s\",\"size\":%" PRIu32
               ",\"seed\":%" PRIu32 ",\"sorts\":%" PRIu64 ",",
               gb_language_name(c->language), gb_algorithm_name(c->algorithm),
               gb_order_name(c->order), c->size, c->seed, c->sorts);
  if (c->startup)
    snprintf(buf + n, len - (size_t)n,
             "\"startup_only\":true,\"input_hash\":\"%s\",\"runtime\":\"%s\"}\n", hash,
             script_runtime(c->language));
  else
    snprintf(buf + n, len - (size_t)n,
             "\"comparisons\":%" PRIu64 ",\"writes\":%" PRIu64 ",\"input_hash\":\"%s\","
             "\"loop_ns\":%" PRIu64 ",\"sorted\":true,\"runtime\":\"%s\"}\n",
             e->counts.comparisons + (lie ? 1 : 0), e->counts.writes, hash, loop_ns,
             script_runtime(c->language));
}

/* Lets ns pass, in slices, as a launch the real spawner watches: the abort
 * fd or the stop flag cut it short. Returns the status that cut it, or
 * GB_SPAWN_OK; *slept gets the time that passed. */
static gb_spawn_status pass_time(const gb_spawn_opts *o, uint64_t ns, uint64_t *slept) {
  uint64_t t0 = gb_monotonic_raw_ns(), now = t0;
  do {
    if (o->stop && *o->stop) {
      *slept = gb_monotonic_raw_ns() - t0;
      return GB_SPAWN_INTERRUPTED;
    }
    uint64_t left = t0 + ns - now, slice = left < 1000000u ? left : 1000000u;
    struct timespec ts = {0, (long)slice};
    struct pollfd p = {o->abort_fd, POLLIN, 0};
    if (ppoll(&p, o->abort_fd >= 0 ? 1 : 0, &ts, NULL) > 0) {
      *slept = gb_monotonic_raw_ns() - t0;
      return GB_SPAWN_ABORTED;
    }
  } while ((now = gb_monotonic_raw_ns()) < t0 + ns);
  *slept = now - t0;
  return GB_SPAWN_OK;
}

static bool abort_pending(const gb_spawn_opts *o) {
  struct pollfd p = {o->abort_fd, POLLIN, 0};
  return o->abort_fd >= 0 && poll(&p, 1, 0) > 0;
}

static void describe_timeout(uint64_t ns, char *out, size_t len) {
  if (ns >= 100000000u)
    snprintf(out, len, "%.1f s", (double)ns / 1e9);
  else
    snprintf(out, len, "%llu ms", (unsigned long long)(ns / 1000000u));
}

/* Launch i of call c, worded as spawn.c words it. */
static void run_launch(worker_script *s, const gb_spawn_opts *o, const script_call *c,
                       unsigned call, unsigned i, launch_result *l) {
  const script_model *m = &s->model[c->language];
  const event *ev = event_at(s, call, i);
  script_event e = ev ? ev->e : 0;
  int pid = PID_BASE + (int)call;
  const gb_expected *x = expected(s, c->algorithm, c->order, c->size, c->seed);
  uint64_t loop = c->startup ? 0 : c->sorts * gbi_sort_work(x->counts, c->size) * m->op_ns;
  uint64_t startup = m->startup_ns;
  if (e == SCRIPT_SLOW && c->startup)
    startup = startup * (uint64_t)ev->value / 100u;
  else if (e == SCRIPT_SLOW)
    loop = loop * (uint64_t)ev->value / 100u;
  *l = (launch_result){.status = GB_SPAWN_OK, .wall_ns = startup + loop};
  if (e == SCRIPT_CRASH || e == SCRIPT_EXIT || e == SCRIPT_INTERRUPT)
    l->wall_ns = m->startup_ns; /* it ended before its loop */
  if (e == SCRIPT_TIMEOUT)
    l->wall_ns = o->timeout_ns ? o->timeout_ns : 3600000000000ull;
  if (e == SCRIPT_NO_EXEC)
    l->wall_ns = 0;
  l->sys_ns = e == SCRIPT_NO_EXEC ? 0 : m->sys_ns;
  if ((o->stop && *o->stop) || (e == SCRIPT_INTERRUPT && o->stop)) {
    *o->stop = 1;
    l->status = GB_SPAWN_INTERRUPTED;
  } else if (abort_pending(o)) {
    l->status = GB_SPAWN_ABORTED;
    l->wall_ns = 0;
  } else if (s->sleep && e != SCRIPT_TIMEOUT) {
    uint64_t slept;
    l->status = pass_time(o, l->wall_ns, &slept);
    if (l->status != GB_SPAWN_OK)
      l->wall_ns = slept;
  }
  if (l->status == GB_SPAWN_INTERRUPTED) {
    snprintf(l->msg, sizeof l->msg, "interrupted; killed process group %d", pid);
  } else if (l->status == GB_SPAWN_ABORTED) {
    char why[256] = "stopped by the abort fd";
    if (o->abort_reason)
      o->abort_reason(o->ctx, why, sizeof why);
    why[sizeof why - 1] = '\0';
    snprintf(l->msg, sizeof l->msg, "%s; killed process group %d", why, pid);
  } else if (e == SCRIPT_TIMEOUT) {
    char t[32];
    describe_timeout(o->timeout_ns, t, sizeof t);
    l->status = GB_SPAWN_TIMEOUT;
    snprintf(l->msg, sizeof l->msg, "timed out after %s; killed process group %d", t, pid);
  } else if (e == SCRIPT_NO_EXEC) {
    const char *name = strerrorname_np(ev->value);
    l->status = GB_SPAWN_SPAWN_FAILED;
    l->error = ev->value;
    snprintf(l->msg, sizeof l->msg, "cannot execute %s: %s (%s)", o->argv[0],
             strerror(ev->value), name ? name : "?");
  } else if (e == SCRIPT_CRASH) {
    const char *abbrev = sigabbrev_np(ev->value);
    l->status = GB_SPAWN_CRASHED;
    l->signal = ev->value;
    snprintf(l->msg, sizeof l->msg, "crashed: killed by SIG%s (signal %d)",
             abbrev ? abbrev : "?", ev->value);
  } else if (e == SCRIPT_EXIT) {
    l->status = GB_SPAWN_EXIT_NONZERO;
    l->exit_code = ev->value;
    snprintf(l->err, sizeof l->err, "worker: error: scripted failure\n");
    snprintf(l->msg, sizeof l->msg, "exited with code %d: worker: error: scripted failure",
             ev->value);
  } else if (e == SCRIPT_GARBAGE) {
    snprintf(l->out, sizeof l->out, "sorted, trust me\n");
  } else {
    worker_line(c, x, loop, e == SCRIPT_LIE, l->out, sizeof l->out);
  }
  l->user_ns = l->wall_ns > l->sys_ns ? l->wall_ns - l->sys_ns : 0;
  if (l->wall_ns < l->sys_ns)
    l->sys_ns = l->wall_ns;
  l->loop_ns = loop;
}

static char *dup_text(const char *text) {
  char *p = strdup(text);
  if (!p)
    die("out of memory");
  return p;
}

static int run(void *ctx, const gb_spawn_opts *o, gb_spawn_result *r, gb_err *err) {
  worker_script *s = ctx;
  if (s->ncalls == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 64;
    s->calls = realloc(s->calls, s->cap * sizeof *s->calls);
    if (!s->calls)
      die("out of memory");
  }
  unsigned call = ++s->ncalls;
  script_call *c = &s->calls[call - 1];
  if (!o || !r || !o->argv || !o->argv[0] || parse_argv(s, o->argv, c) < 0) {
    c->rc = -EINVAL;
    return gb_err_set(err, EINVAL, "scripted workers: call %u is not a worker's argv", call);
  }
  c->launches = o->launches ? o->launches : 1;
  if (s->on_call)
    s->on_call(s->on_call_ctx, call, c);
  const event *broken = event_at(s, call, 1);
  if (broken && broken->e == SCRIPT_BROKEN) {
    c->rc = -broken->value;
    return gb_err_set(err, broken->value, "scripted spawner failure at call %u", call);
  }
  gb_spawn_result res = {.status = GB_SPAWN_OK, .pid = PID_BASE + (int)call};
  launch_result l = {0};
  if (o->before)
    o->before(o->ctx);
  for (unsigned i = 1; i <= c->launches && res.status == GB_SPAWN_OK; i++) {
    run_launch(s, o, c, call, i, &l);
    res.launches = i;
    res.wall_ns += l.wall_ns;
    res.user_ns += l.user_ns;
    res.sys_ns += l.sys_ns;
    if (l.status != GB_SPAWN_SPAWN_FAILED && s->model[c->language].rss_kib > res.max_rss_kib)
      res.max_rss_kib = s->model[c->language].rss_kib;
    res.status = l.status;
    res.exit_code = l.exit_code;
    res.signal = l.signal;
    res.error = l.error;
    if (l.status == GB_SPAWN_OK && o->check &&
        o->check(o->ctx, l.out, strlen(l.out), false, l.msg, sizeof l.msg) != 0) {
      res.status = GB_SPAWN_BAD_OUTPUT;
      l.msg[sizeof l.msg - 1] = '\0';
    }
    if (res.status != GB_SPAWN_OK && c->launches > 1)
      snprintf(res.message, sizeof res.message, "launch %u of %u: %s", i, c->launches, l.msg);
    else if (res.status != GB_SPAWN_OK)
      snprintf(res.message, sizeof res.message, "%s", l.msg);
  }
  if (o->after)
    o->after(o->ctx);
  res.out = dup_text(l.out);
  res.out_len = strlen(l.out);
  res.err_tail = dup_text(l.err);
  res.err_len = strlen(l.err);
  c->rc = 0;
  c->status = res.status;
  c->loop_ns = l.loop_ns;
  *r = res;
  return 0;
}

worker_script *script_create(const gb_workers *w) {
  worker_script *s = calloc(1, sizeof *s);
  if (!s)
    die("out of memory");
  snprintf(s->worker_c, sizeof s->worker_c, "%s", w->worker_c);
  snprintf(s->python_worker, sizeof s->python_worker, "%s", w->python_worker);
  snprintf(s->node_worker, sizeof s->node_worker, "%s", w->node_worker);
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++)
    s->model[l] = script_model_default(l);
  s->spawner = (gb_spawner){.run = run, .ctx = s};
  return s;
}

void script_destroy(worker_script *s) {
  if (!s)
    return;
  free(s->calls);
  free(s);
}

const gb_spawner *script_spawner(worker_script *s) {
  return &s->spawner;
}
