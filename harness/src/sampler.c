#include "greenbench/sampler.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

typedef enum { IDLE, OPEN, QUIT } run_state;

struct gb_sampler {
  gb_rapl *rapl;
  gb_sampler_opts opts;
  size_t n;
  int abort_fd;
  pthread_t thread;
  pthread_mutex_t mu; /* guards everything below; held for the whole of a sample */
  pthread_cond_t wake;
  run_state state;
  uint64_t window; /* counts windows, so a sleeping thread notices a new one */
  bool faulted;
  gb_energy_status status;
  char reason[512];
  uint64_t last[GB_RAPL_MAX_ZONES];       /* latest reading of each zone */
  uint64_t total[GB_RAPL_MAX_ZONES];      /* wrap-corrected sum of the deltas */
  uint64_t changed_hi[GB_RAPL_MAX_ZONES]; /* when last[i] was first seen, at the latest */
  uint64_t prev_lo;                       /* the previous sample's clock before its reads */
  uint64_t begin_ns, end_ns, samples, max_gap_ns;
};

const char *gb_energy_status_name(gb_energy_status s) {
  switch (s) {
  case GB_ENERGY_OK:
    return "ok";
  case GB_ENERGY_STALLED:
    return "stalled";
  case GB_ENERGY_JUMP:
    return "jump";
  case GB_ENERGY_VANISHED:
    return "vanished";
  }
  return "unknown";
}

static uint64_t now(const gb_sampler *s) {
  return gb_clock_now(&s->opts.clock);
}

static uint64_t since(uint64_t later, uint64_t earlier) {
  return later > earlier ? later - earlier : 0;
}

__attribute__((format(printf, 3, 4))) static void fault(gb_sampler *s, gb_energy_status st,
                                                        const char *fmt, ...) {
  if (s->faulted)
    return;
  s->faulted = true;
  s->status = st;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(s->reason, sizeof s->reason, fmt, ap);
  va_end(ap);
  uint64_t one = 1;
  /* Cannot fail: begin drains the counter, so it is far below its limit. */
  ssize_t w = write(s->abort_fd, &one, sizeof one);
  (void)w;
}

/* Power above the limit: uJ * 1000 / ns is watts. The interval is widened by
 * the slack because a read just after a counter update carries energy from
 * up to one update before the interval began. */
static bool too_fast(const gb_sampler *s, uint64_t uj, uint64_t ns) {
  double limit = (double)s->opts.max_power_w * (double)(ns + GB_SAMPLER_JUMP_SLACK_NS);
  return (double)uj * 1e3 > limit;
}

static void check_unchanged(gb_sampler *s, size_t i, uint64_t lo) {
  const gb_rapl_zone *z = gb_rapl_zone_at(s->rapl, i);
  gb_err err;
  if (gb_rapl_check(s->rapl, i, &err) < 0) {
    fault(s, GB_ENERGY_VANISHED, "%s: %s", z->name, err.msg);
    return;
  }
  uint64_t still = since(lo, s->changed_hi[i]);
  if (z->kind == GB_RAPL_PACKAGE && still >= s->opts.stall_ns)
    fault(s, GB_ENERGY_STALLED,
          "%s (%s/energy_uj) stood still at %llu uJ for %llu ms (limit %llu ms)", z->name,
          z->path, (unsigned long long)s->last[i], (unsigned long long)(still / 1000000u),
          (unsigned long long)(s->opts.stall_ns / 1000000u));
}

static void check_rise(gb_sampler *s, size_t i, uint64_t uj, uint64_t ns) {
  const gb_rapl_zone *z = gb_rapl_zone_at(s->rapl, i);
  if (z->kind == GB_RAPL_PACKAGE && too_fast(s, uj, ns))
    fault(s, GB_ENERGY_JUMP,
          "%s (%s/energy_uj) rose by %llu uJ in %llu us, above %llu W (counter reset, "
          "e.g. by a suspend?)",
          z->name, z->path, (unsigned long long)uj, (unsigned long long)(ns / 1000u),
          (unsigned long long)s->opts.max_power_w);
}

/* Takes zone i's new reading v, read between clock readings lo and hi. Each
 * check uses the bound that keeps it from firing falsely when the thread is
 * preempted mid-sample: a rise is judged over the widest interval the two
 * reads can span, a standstill over the narrowest. */
static void account(gb_sampler *s, size_t i, uint64_t v, uint64_t lo, uint64_t hi) {
  uint64_t d =
      gb_rapl_delta_uj(s->last[i], v, gb_rapl_zone_at(s->rapl, i)->max_energy_range_uj);
  if (d == 0) {
    check_unchanged(s, i, lo);
  } else {
    s->changed_hi[i] = hi;
    check_rise(s, i, d, since(hi, s->prev_lo));
  }
  s->total[i] += d;
  s->last[i] = v;
}

static void sample(gb_sampler *s) {
  uint64_t v[GB_RAPL_MAX_ZONES];
  gb_err err;
  uint64_t lo = now(s);
  int rc = gb_rapl_read_all(s->rapl, v, &err);
  uint64_t hi = now(s);
  if (rc < 0) {
    fault(s, GB_ENERGY_VANISHED, "%s", err.msg);
    return;
  }
  for (size_t i = 0; i < s->n && !s->faulted; i++)
    account(s, i, v[i], lo, hi);
  uint64_t gap = since(hi, s->prev_lo);
  if (gap > s->max_gap_ns)
    s->max_gap_ns = gap;
  s->prev_lo = lo;
  s->end_ns = hi;
  s->samples++;
}

static uint64_t mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void sleep_until(uint64_t ns) {
  struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000u),
                        .tv_nsec = (long)(ns % 1000000000u)};
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
  }
}

static bool sampling(const gb_sampler *s, uint64_t window) {
  return s->state == OPEN && !s->faulted && s->window == window;
}

/* Samples the open window every period until it closes, faults or is
 * replaced. Called and returns with the mutex held; drops it while asleep.
 * A late wake-up samples at once and schedules from then, without bursts. */
static void run_window(gb_sampler *s) {
  uint64_t window = s->window, period = s->opts.period_ns;
  uint64_t next = mono_ns() + period;
  while (sampling(s, window)) {
    pthread_mutex_unlock(&s->mu);
    sleep_until(next);
    pthread_mutex_lock(&s->mu);
    if (!sampling(s, window))
      break;
    sample(s);
    uint64_t t = mono_ns();
    next = next + period > t ? next + period : t + period;
  }
}

static void *thread_main(void *arg) {
  gb_sampler *s = arg;
  pthread_mutex_lock(&s->mu);
  while (s->state != QUIT) {
    if (s->state == OPEN && !s->faulted)
      run_window(s);
    else
      pthread_cond_wait(&s->wake, &s->mu);
  }
  pthread_mutex_unlock(&s->mu);
  return NULL;
}

static int resolve_opts(const gb_sampler_opts *in, gb_sampler_opts *o, gb_err *err) {
  *o = in ? *in : (gb_sampler_opts){0};
  if (!o->period_ns)
    o->period_ns = GB_SAMPLER_DEFAULT_PERIOD_NS;
  if (!o->stall_ns)
    o->stall_ns = GB_SAMPLER_DEFAULT_STALL_NS;
  if (!o->max_power_w)
    o->max_power_w = GB_SAMPLER_DEFAULT_MAX_POWER_W;
  if (!o->clock.now_ns)
    o->clock = gb_clock_raw();
  if (o->period_ns < GB_SAMPLER_MIN_PERIOD_NS || o->period_ns > GB_SAMPLER_MAX_PERIOD_NS)
    return gb_err_set(err, EINVAL, "sampler period %llu ns is outside %u..%u ns",
                      (unsigned long long)o->period_ns, GB_SAMPLER_MIN_PERIOD_NS,
                      GB_SAMPLER_MAX_PERIOD_NS);
  if (o->stall_ns <= o->period_ns)
    return gb_err_set(err, EINVAL, "sampler stall limit %llu ns must exceed the period %llu ns",
                      (unsigned long long)o->stall_ns, (unsigned long long)o->period_ns);
  return 0;
}

/* The thread blocks every signal: a process-directed signal such as SIGCHLD
 * must reach the spawner's thread (or its signalfd), never this one. */
static int start_thread(gb_sampler *s, gb_err *err) {
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  int rc = pthread_create(&s->thread, NULL, thread_main, s);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (rc != 0)
    return gb_err_set(err, rc, "cannot start the sampling thread: %s", strerror(rc));
  return 0;
}

int gb_sampler_create(gb_rapl *rapl, const gb_sampler_opts *opts, gb_sampler **out,
                      gb_err *err) {
  gb_sampler_opts o;
  int rc = resolve_opts(opts, &o, err);
  if (rc < 0)
    return rc;
  gb_sampler *s = calloc(1, sizeof *s);
  if (!s)
    return gb_err_set(err, ENOMEM, "out of memory for the sampler");
  s->rapl = rapl;
  s->opts = o;
  s->n = gb_rapl_count(rapl);
  s->abort_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (s->abort_fd < 0) {
    rc = gb_err_set(err, errno, "cannot create the sampler's eventfd: %s", strerror(errno));
    free(s);
    return rc;
  }
  pthread_mutex_init(&s->mu, NULL);
  pthread_cond_init(&s->wake, NULL);
  rc = start_thread(s, err);
  if (rc < 0) {
    close(s->abort_fd);
    free(s);
    return rc;
  }
  *out = s;
  return 0;
}

void gb_sampler_destroy(gb_sampler *s) {
  if (!s)
    return;
  pthread_mutex_lock(&s->mu);
  s->state = QUIT;
  pthread_cond_signal(&s->wake);
  pthread_mutex_unlock(&s->mu);
  pthread_join(s->thread, NULL);
  pthread_cond_destroy(&s->wake);
  pthread_mutex_destroy(&s->mu);
  close(s->abort_fd);
  free(s);
}

static int open_window(gb_sampler *s) {
  uint64_t drained;
  ssize_t r = read(s->abort_fd, &drained, sizeof drained); /* EAGAIN when not signalled */
  (void)r;
  s->faulted = false;
  s->status = GB_ENERGY_OK;
  s->reason[0] = '\0';
  memset(s->total, 0, sizeof s->total);
  s->samples = 1;
  s->max_gap_ns = 0;
  gb_err err;
  uint64_t lo = now(s);
  int rc = gb_rapl_read_all(s->rapl, s->last, &err);
  uint64_t hi = now(s);
  for (size_t i = 0; i < s->n; i++)
    s->changed_hi[i] = hi;
  s->begin_ns = s->prev_lo = lo;
  s->end_ns = hi;
  if (rc < 0)
    fault(s, GB_ENERGY_VANISHED, "%s", err.msg);
  return rc;
}

int gb_sampler_begin(gb_sampler *s) {
  pthread_mutex_lock(&s->mu);
  if (s->state == OPEN) {
    pthread_mutex_unlock(&s->mu);
    return -EBUSY;
  }
  int rc = open_window(s);
  s->state = OPEN;
  s->window++;
  pthread_cond_signal(&s->wake);
  pthread_mutex_unlock(&s->mu);
  return rc;
}

static void fill(const gb_sampler *s, gb_energy_reading *out) {
  memset(out, 0, sizeof *out);
  out->status = s->status;
  snprintf(out->reason, sizeof out->reason, "%s", s->reason);
  out->zone_count = s->n;
  for (size_t i = 0; i < s->n; i++) {
    out->zone_uj[i] = s->total[i];
    if (gb_rapl_zone_at(s->rapl, i)->kind == GB_RAPL_PACKAGE) {
      out->pkg_uj += s->total[i];
    } else {
      out->dram_uj += s->total[i];
      out->has_dram = true;
    }
  }
  out->samples = s->samples;
  out->max_gap_ns = s->max_gap_ns;
  out->begin_ns = s->begin_ns;
  out->end_ns = s->end_ns;
}

int gb_sampler_end(gb_sampler *s, gb_energy_reading *out) {
  pthread_mutex_lock(&s->mu);
  if (s->state != OPEN) {
    pthread_mutex_unlock(&s->mu);
    return -EINVAL;
  }
  if (!s->faulted)
    sample(s);
  fill(s, out);
  s->state = IDLE;
  pthread_mutex_unlock(&s->mu);
  return 0;
}

int gb_sampler_abort_fd(const gb_sampler *s) {
  return s->abort_fd;
}

void gb_sampler_fault_reason(gb_sampler *s, char *buf, size_t len) {
  if (len == 0)
    return;
  pthread_mutex_lock(&s->mu);
  snprintf(buf, len, "%s", s->reason);
  pthread_mutex_unlock(&s->mu);
}
