#include "greenbench/sampler.h"
#include "greenbench/text.h"
#include "harness_internal.h"

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
  /* Stepped (tests that simulate time): no thread; samples come from
   * gbi_sampler_step, and settle waits through wait() on the opts clock. */
  gbi_sampler_wait_fn wait;
  void *wait_ctx;
  pthread_mutex_t mu; /* guards everything below; held for the whole of a sample */
  run_state state;
  bool faulted;
  gb_energy_status status;
  char reason[512];
  /* Kept from the first reading on, across windows and between them: a
   * standstill is the counter's, whatever window is open. */
  uint64_t last[GB_RAPL_MAX_ZONES];       /* latest reading of each zone */
  uint64_t changed_hi[GB_RAPL_MAX_ZONES]; /* when last[i] was first seen, at the latest */
  uint64_t
      counted_to[GB_RAPL_MAX_ZONES];   /* still time of the current standstill counted up to */
  uint64_t wrap_ns[GB_RAPL_MAX_ZONES]; /* shortest time the zone takes to wrap */
  uint64_t prev_lo;                    /* the previous sample's clock before its reads */
  char pending[512];       /* a jump seen between windows, for the next one; "" when none */
  size_t begin_zone;       /* a zone standing still when the window began, or n */
  uint64_t begin_still_ns; /* how long it had */
  /* The open window only. */
  uint64_t total[GB_RAPL_MAX_ZONES]; /* wrap-corrected sum of the deltas */
  uint64_t still[GB_RAPL_MAX_ZONES]; /* time seen standing still inside the window */
  bool moved[GB_RAPL_MAX_ZONES];     /* changed after the window's first reading */
  uint64_t begin_ns, end_ns, samples, max_gap_ns;
  /* The cross-check (opts.cross): its first reading, and how far each zone
   * of the sampler's rose while the second way was read at the two edges. */
  uint64_t cross_begin[GB_RAPL_MAX_ZONES];
  uint64_t cross_slack[GB_RAPL_MAX_ZONES];
  uint64_t cross_total[2]; /* package, dram: the second way's window */
  bool crossed;
};

const char *gbi_energy_status_name(gb_energy_status s) {
  static const char *const names[] = {
      [GB_ENERGY_OK] = "ok",
      [GB_ENERGY_STALLED] = "stalled",
      [GB_ENERGY_JUMP] = "jump",
      [GB_ENERGY_VANISHED] = "vanished",
      [GB_ENERGY_DISAGREE] = "disagree",
  };
  return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "unknown";
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

static unsigned long long ms_of(uint64_t ns) {
  return (unsigned long long)(ns / 1000000u);
}

static bool is_package(const gb_sampler *s, size_t i) {
  return gb_rapl_zone_at(s->rapl, i)->kind == GB_RAPL_PACKAGE;
}

static void stalled(gb_sampler *s, size_t i, uint64_t still, const char *when) {
  const gb_rapl_zone *z = gb_rapl_zone_at(s->rapl, i);
  fault(s, GB_ENERGY_STALLED, "%s (%s/energy_uj) stood still at %llu uJ for %llu ms %s",
        z->name, z->path, (unsigned long long)s->last[i], ms_of(still), when);
}

/* A standstill inside the window adds to its still time once it is longer
 * than a counter's normal update gap; from then on all of it counts. */
static void count_still(gb_sampler *s, size_t i, uint64_t lo) {
  uint64_t from = s->changed_hi[i];
  if (s->counted_to[i] > from)
    from = s->counted_to[i];
  if (s->begin_ns > from)
    from = s->begin_ns;
  s->still[i] += since(lo, from);
  s->counted_to[i] = lo;
}

static void check_unchanged(gb_sampler *s, size_t i, uint64_t lo) {
  const gb_rapl_zone *z = gb_rapl_zone_at(s->rapl, i);
  gb_err err;
  if (gb_rapl_check(s->rapl, i, &err) < 0) {
    fault(s, GB_ENERGY_VANISHED, "%s: %s", z->name, err.msg);
    return;
  }
  uint64_t still = since(lo, s->changed_hi[i]);
  if (z->kind != GB_RAPL_PACKAGE)
    return;
  if (still >= GB_SAMPLER_UPDATE_GAP_NS)
    count_still(s, i, lo);
  if (still >= s->opts.stall_ns) {
    char limit[32];
    snprintf(limit, sizeof limit, "(limit %llu ms)", ms_of(s->opts.stall_ns));
    stalled(s, i, still, limit);
  }
}

static void check_rise(gb_sampler *s, size_t i, uint64_t uj, uint64_t ns) {
  const gb_rapl_zone *z = gb_rapl_zone_at(s->rapl, i);
  if (too_fast(s, uj, ns))
    fault(s, GB_ENERGY_JUMP,
          "%s (%s/energy_uj) rose by %llu uJ in %llu us, above %llu W (counter reset, "
          "e.g. by a suspend?)",
          z->name, z->path, (unsigned long long)uj, (unsigned long long)(ns / 1000u),
          (unsigned long long)s->opts.max_power_w);
}

/* Two readings further apart than the zone's shortest wrap may hide a wrap:
 * the difference of the two would then be short by a whole range. */
static void check_gap(gb_sampler *s, size_t i, uint64_t ns) {
  const gb_rapl_zone *z = gb_rapl_zone_at(s->rapl, i);
  if (ns + GB_SAMPLER_JUMP_SLACK_NS >= s->wrap_ns[i])
    fault(s, GB_ENERGY_STALLED,
          "%s (%s/energy_uj) was not read for %llu us, while its counter can wrap every "
          "%llu us at %llu W: a wrap may have been missed",
          z->name, z->path, (unsigned long long)(ns / 1000u),
          (unsigned long long)(s->wrap_ns[i] / 1000u), (unsigned long long)s->opts.max_power_w);
}

/* Takes zone i's new reading v, read between clock readings lo and hi, into
 * the open window. Each check uses the bound that keeps it from firing
 * falsely when the thread is preempted mid-sample: a rise is judged over the
 * widest interval the two reads can span, a standstill over the narrowest. */
static void account(gb_sampler *s, size_t i, uint64_t v, uint64_t lo, uint64_t hi) {
  uint64_t d =
      gb_rapl_delta_uj(s->last[i], v, gb_rapl_zone_at(s->rapl, i)->max_energy_range_uj);
  check_gap(s, i, since(hi, s->prev_lo));
  if (d == 0) {
    check_unchanged(s, i, lo);
  } else {
    s->changed_hi[i] = hi;
    s->moved[i] = true;
    check_rise(s, i, d, since(hi, s->prev_lo));
  }
  s->total[i] += d;
  s->last[i] = v;
}

/* Between windows only the standstill is followed, and a counter that
 * jumped or went backwards (a reset) is remembered for the next window:
 * counters that reset are not to be trusted, whenever they did it. span is
 * the widest interval since the previous reading. */
static void track(gb_sampler *s, const uint64_t *v, uint64_t hi, uint64_t span) {
  for (size_t i = 0; i < s->n; i++) {
    const gb_rapl_zone *z = gb_rapl_zone_at(s->rapl, i);
    uint64_t d = gb_rapl_delta_uj(s->last[i], v[i], z->max_energy_range_uj);
    if (d != 0)
      s->changed_hi[i] = hi;
    if (d != 0 && !s->pending[0] && too_fast(s, d, span))
      gb_str_append(s->pending, sizeof s->pending, /* empty: this sets it */
                    "%s (%s/energy_uj) went from %llu to %llu uJ between windows, faster "
                    "than %llu W (counter reset, e.g. by a suspend?)",
                    z->name, z->path, (unsigned long long)s->last[i], (unsigned long long)v[i],
                    (unsigned long long)s->opts.max_power_w);
    s->last[i] = v[i];
  }
}

static bool in_window(const gb_sampler *s) {
  return s->state == OPEN && !s->faulted;
}

static void sample(gb_sampler *s) {
  uint64_t v[GB_RAPL_MAX_ZONES];
  gb_err err;
  uint64_t lo = now(s);
  int rc = gb_rapl_read_all(s->rapl, v, &err);
  uint64_t hi = now(s);
  if (!in_window(s)) {
    if (rc == 0)
      track(s, v, hi, since(hi, s->prev_lo));
    s->prev_lo = lo;
    return;
  }
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

/* Samples every period from the start to the end of the sampler, in a
 * window or between windows: a counter's standstill is followed across
 * windows. Called and returns with the mutex held; drops it while asleep. A
 * late wake-up samples at once and schedules from then, without bursts. */
static void *thread_main(void *arg) {
  gb_sampler *s = arg;
  uint64_t period = s->opts.period_ns, next = mono_ns() + period;
  pthread_mutex_lock(&s->mu);
  while (s->state != QUIT) {
    pthread_mutex_unlock(&s->mu);
    sleep_until(next);
    pthread_mutex_lock(&s->mu);
    if (s->state == QUIT)
      break;
    sample(s);
    uint64_t t = mono_ns();
    next = next + period > t ? next + period : t + period;
  }
  pthread_mutex_unlock(&s->mu);
  return NULL;
}

uint64_t gb_sampler_wrap_ns(uint64_t max_range_uj, uint64_t max_power_w) {
  if (max_power_w == 0 || max_range_uj > UINT64_MAX / 1000u)
    return UINT64_MAX;
  return max_range_uj * 1000u / max_power_w; /* uJ / W is us */
}

static int resolve_opts(const gb_sampler_opts *in, gb_sampler_opts *o, gb_err *err) {
  *o = in ? *in : (gb_sampler_opts){0};
  if (!o->stall_ns)
    o->stall_ns = GB_SAMPLER_DEFAULT_STALL_NS;
  if (!o->max_power_w)
    o->max_power_w = GB_SAMPLER_DEFAULT_MAX_POWER_W;
  if (!o->edge_ns)
    o->edge_ns = GB_SAMPLER_DEFAULT_EDGE_NS;
  if (!o->still_pct)
    o->still_pct = GB_SAMPLER_DEFAULT_STILL_PCT;
  if (!o->clock.now_ns)
    o->clock = gb_clock_raw();
  if (o->still_pct > 100)
    return gb_err_set(err, EINVAL, "sampler still share %llu%% is above 100%%",
                      (unsigned long long)o->still_pct);
  if (o->period_ns &&
      (o->period_ns < GB_SAMPLER_MIN_PERIOD_NS || o->period_ns > GB_SAMPLER_MAX_PERIOD_NS))
    return gb_err_set(err, EINVAL, "sampler period %llu ns is outside %u..%u ns",
                      (unsigned long long)o->period_ns, GB_SAMPLER_MIN_PERIOD_NS,
                      GB_SAMPLER_MAX_PERIOD_NS);
  uint64_t period = o->period_ns ? o->period_ns : GB_SAMPLER_DEFAULT_PERIOD_NS;
  if (o->stall_ns <= period)
    return gb_err_set(err, EINVAL, "sampler stall limit %llu ns must exceed the period %llu ns",
                      (unsigned long long)o->stall_ns, (unsigned long long)period);
  return 0;
}

/* The zone that wraps soonest at the power limit. */
static size_t fastest_wrap(const gb_rapl *rapl, uint64_t max_power_w, uint64_t *wrap_ns) {
  size_t best = 0;
  *wrap_ns = UINT64_MAX;
  for (size_t i = 0; i < gb_rapl_count(rapl); i++) {
    uint64_t w = gb_sampler_wrap_ns(gb_rapl_zone_at(rapl, i)->max_energy_range_uj, max_power_w);
    if (w < *wrap_ns) {
      *wrap_ns = w;
      best = i;
    }
  }
  return best;
}

int gb_sampler_fit(const gb_rapl *rapl, const gb_sampler_opts *opts, uint64_t *period_ns,
                   gb_err *err) {
  gb_sampler_opts o;
  int rc = resolve_opts(opts, &o, err);
  if (rc < 0)
    return rc;
  uint64_t wrap;
  const gb_rapl_zone *z = gb_rapl_zone_at(rapl, fastest_wrap(rapl, o.max_power_w, &wrap));
  uint64_t fit = wrap / 2, period = o.period_ns;
  if (!period)
    period = fit < GB_SAMPLER_DEFAULT_PERIOD_NS ? fit : GB_SAMPLER_DEFAULT_PERIOD_NS;
  if (period < GB_SAMPLER_MIN_PERIOD_NS || period > fit)
    return gb_err_set(err, ERANGE,
                      "%s (%s): max_energy_range_uj %llu wraps every %llu us at %llu W; "
                      "reading it at least twice per wrap means every %llu us, %s: a "
                      "missed wrap would go unseen, so energy is refused",
                      z->name, z->path, (unsigned long long)z->max_energy_range_uj,
                      (unsigned long long)(wrap / 1000u), (unsigned long long)o.max_power_w,
                      (unsigned long long)(fit / 1000u),
                      o.period_ns ? "faster than the sampling period"
                                  : "faster than the sampler can read (every 100 us at most)");
  *period_ns = period;
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

static int create(gb_rapl *rapl, const gb_sampler_opts *opts, gbi_sampler_wait_fn wait,
                  void *wait_ctx, gb_sampler **out, gb_err *err) {
  gb_sampler_opts o;
  int rc = resolve_opts(opts, &o, err);
  if (rc == 0)
    rc = gb_sampler_fit(rapl, &o, &o.period_ns, err);
  if (rc < 0)
    return rc;
  gb_sampler *s = calloc(1, sizeof *s);
  if (!s)
    return gb_err_set(err, ENOMEM, "out of memory for the sampler");
  s->rapl = rapl;
  s->opts = o;
  s->wait = wait;
  s->wait_ctx = wait_ctx;
  s->n = gb_rapl_count(rapl);
  for (size_t i = 0; i < s->n; i++)
    s->wrap_ns[i] =
        gb_sampler_wrap_ns(gb_rapl_zone_at(rapl, i)->max_energy_range_uj, o.max_power_w);
  s->prev_lo = now(s);
  rc = gb_rapl_read_all(rapl, s->last, err);
  for (size_t i = 0; i < s->n; i++)
    s->changed_hi[i] = now(s);
  if (rc < 0) {
    free(s);
    return rc;
  }
  s->abort_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (s->abort_fd < 0) {
    rc = gb_err_set(err, errno, "cannot create the sampler's eventfd: %s", strerror(errno));
    free(s);
    return rc;
  }
  pthread_mutex_init(&s->mu, NULL);
  rc = wait ? 0 : start_thread(s, err);
  if (rc < 0) {
    close(s->abort_fd);
    free(s);
    return rc;
  }
  *out = s;
  return 0;
}

int gb_sampler_create(gb_rapl *rapl, const gb_sampler_opts *opts, gb_sampler **out,
                      gb_err *err) {
  return create(rapl, opts, NULL, NULL, out, err);
}

int gbi_sampler_create_stepped(gb_rapl *rapl, const gb_sampler_opts *opts,
                               gbi_sampler_wait_fn wait, void *ctx, gb_sampler **out,
                               gb_err *err) {
  if (!wait || !opts || !opts->clock.now_ns)
    return gb_err_set(err, EINVAL, "a stepped sampler needs a clock and a wait function");
  return create(rapl, opts, wait, ctx, out, err);
}

void gbi_sampler_step(gb_sampler *s) {
  pthread_mutex_lock(&s->mu);
  sample(s);
  pthread_mutex_unlock(&s->mu);
}

void gb_sampler_destroy(gb_sampler *s) {
  if (!s)
    return;
  pthread_mutex_lock(&s->mu);
  s->state = QUIT;
  pthread_mutex_unlock(&s->mu);
  if (!s->wait)
    pthread_join(s->thread, NULL);
  pthread_mutex_destroy(&s->mu);
  close(s->abort_fd);
  free(s);
}

/* Reads the second way into c, then the sampler's zones again: what each
 * rose by since p (the reading just taken) bounds where the second reading
 * lies, and is added to the window's allowance. */
static int cross_edge(gb_sampler *s, const uint64_t *p, uint64_t *c) {
  uint64_t again[GB_RAPL_MAX_ZONES];
  gb_err err;
  int rc = gb_rapl_read_all(s->opts.cross, c, &err);
  if (rc == 0)
    rc = gb_rapl_read_all(s->rapl, again, &err);
  if (rc < 0) {
    fault(s, GB_ENERGY_VANISHED, "%s", err.msg);
    return rc;
  }
  for (size_t i = 0; i < s->n; i++)
    s->cross_slack[i] +=
        gb_rapl_delta_uj(p[i], again[i], gb_rapl_zone_at(s->rapl, i)->max_energy_range_uj);
  return 0;
}

static bool same_group(const gb_rapl_zone *a, const gb_rapl_zone *b) {
  return a->socket == b->socket && a->kind == b->kind;
}

/* The second way's energy for zone i's socket and kind over the window;
 * false when it has no such zone. */
static bool cross_energy(const gb_sampler *s, const gb_rapl_zone *z, const uint64_t *end,
                         uint64_t *uj, uint64_t *zones) {
  const gb_rapl *x = s->opts.cross;
  *uj = *zones = 0;
  for (size_t j = 0; j < gb_rapl_count(x); j++) {
    const gb_rapl_zone *y = gb_rapl_zone_at(x, j);
    if (same_group(z, y)) {
      *uj += gb_rapl_delta_uj(s->cross_begin[j], end[j], y->max_energy_range_uj);
      ++*zones;
    }
  }
  return *zones > 0;
}

/* Per socket and kind: the sampler's total against the second way's, within
 * the counters' resolution. */
static void cross_compare(gb_sampler *s, const uint64_t *end) {
  s->crossed = true;
  for (size_t i = 0; i < s->n && !s->faulted; i++) {
    const gb_rapl_zone *z = gb_rapl_zone_at(s->rapl, i);
    uint64_t p = 0, slack = 0, zones = 0, c, czones;
    bool first = true;
    for (size_t j = 0; j < s->n; j++)
      if (same_group(z, gb_rapl_zone_at(s->rapl, j))) {
        first = first && j >= i;
        p += s->total[j];
        slack += s->cross_slack[j];
        zones++;
      }
    if (!first || !cross_energy(s, z, end, &c, &czones))
      continue;
    s->cross_total[z->kind == GB_RAPL_PACKAGE ? 0 : 1] += c;
    uint64_t tol = slack +
                   GB_SAMPLER_CROSS_UNITS * GB_SAMPLER_CROSS_UNIT_UJ * (zones + czones) +
                   (uint64_t)((double)p * GB_SAMPLER_CROSS_PPM / 1e6);
    uint64_t diff = c > p ? c - p : p - c;
    if (diff > tol)
      fault(s, GB_ENERGY_DISAGREE,
            "%s and %s disagree on %s of socket %u: %llu uJ against %llu uJ (%.2f%%), beyond "
            "the counters' resolution of %llu uJ",
            gb_rapl_source(s->rapl), gb_rapl_source(s->opts.cross),
            z->kind == GB_RAPL_PACKAGE ? "the package" : "DRAM", z->socket,
            (unsigned long long)p, (unsigned long long)c,
            p ? 100.0 * (double)diff / (double)p : 100.0, (unsigned long long)tol);
  }
}

/* A window that begins inside a standstill may have lost energy before its
 * first reading could tell. */
static void check_begin(gb_sampler *s, const uint64_t *v, uint64_t lo) {
  s->begin_zone = s->n;
  for (size_t i = 0; i < s->n && s->begin_zone == s->n; i++) {
    uint64_t still = since(lo, s->changed_hi[i]);
    if (is_package(s, i) && v[i] == s->last[i] && still >= s->opts.edge_ns) {
      s->begin_zone = i;
      s->begin_still_ns = still;
    }
  }
}

/* The window's first reading, in the caller's thread. */
static int open_window(gb_sampler *s) {
  uint64_t drained, v[GB_RAPL_MAX_ZONES];
  ssize_t r = read(s->abort_fd, &drained, sizeof drained); /* EAGAIN when not signalled */
  (void)r;
  s->faulted = false;
  s->status = GB_ENERGY_OK;
  s->reason[0] = '\0';
  memset(s->total, 0, sizeof s->total);
  memset(s->still, 0, sizeof s->still);
  memset(s->moved, 0, sizeof s->moved);
  memset(s->cross_slack, 0, sizeof s->cross_slack);
  memset(s->cross_total, 0, sizeof s->cross_total);
  s->crossed = false;
  s->samples = 1;
  s->max_gap_ns = 0;
  gb_err err;
  uint64_t lo = now(s);
  int rc = gb_rapl_read_all(s->rapl, v, &err);
  uint64_t hi = now(s);
  uint64_t span = since(hi, s->prev_lo);
  s->begin_ns = s->prev_lo = lo;
  s->end_ns = hi;
  if (rc < 0) {
    fault(s, GB_ENERGY_VANISHED, "%s", err.msg);
    return rc;
  }
  if (s->opts.cross && (rc = cross_edge(s, v, s->cross_begin)) < 0)
    return rc;
  for (size_t i = 0; i < s->n; i++)
    if (v[i] == s->last[i])
      check_unchanged(s, i, lo);
  check_begin(s, v, lo);
  track(s, v, hi, span);
  if (s->pending[0])
    fault(s, GB_ENERGY_JUMP, "%s", s->pending);
  s->pending[0] = '\0';
  return 0;
}

int gb_sampler_begin(gb_sampler *s) {
  pthread_mutex_lock(&s->mu);
  if (s->state == OPEN) {
    pthread_mutex_unlock(&s->mu);
    return -EBUSY;
  }
  int rc = open_window(s);
  s->state = OPEN;
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
  out->crossed = s->crossed;
  out->cross_pkg_uj = s->cross_total[0];
  out->cross_dram_uj = s->cross_total[1];
  out->samples = s->samples;
  out->max_gap_ns = s->max_gap_ns;
  out->begin_ns = s->begin_ns;
  out->end_ns = s->end_ns;
}

/* After the last reading of a window: a window must not begin or end inside
 * a standstill, energy not read is never zero, and a short stall must not
 * swallow much of a short window. These verdicts do not stop the run: only
 * a standstill of stall_ns, a jump or a lost zone does. */
static void check_window(gb_sampler *s) {
  uint64_t len = since(s->end_ns, s->begin_ns), lo = s->prev_lo;
  if (s->begin_zone < s->n)
    stalled(s, s->begin_zone, s->begin_still_ns,
            "when the window began (a window must not begin in a standstill)");
  for (size_t i = 0; i < s->n && !s->faulted; i++) {
    const gb_rapl_zone *z = gb_rapl_zone_at(s->rapl, i);
    uint64_t still = since(lo, s->changed_hi[i]);
    char when[96];
    if (z->kind != GB_RAPL_PACKAGE)
      continue;
    if (!s->moved[i]) {
      snprintf(when, sizeof when, "over the whole %llu us window: no energy was read",
               (unsigned long long)(len / 1000u));
      stalled(s, i, since(lo, s->begin_ns), when);
    } else if (still >= s->opts.edge_ns) {
      stalled(s, i, still, "when the window ended (a window must not end in a standstill)");
    } else if (s->still[i] * 100u > len * s->opts.still_pct) {
      snprintf(when, sizeof when, "in all, %llu%% of the %llu ms window (limit %llu%%)",
               (unsigned long long)(s->still[i] * 100u / len), ms_of(len),
               (unsigned long long)s->opts.still_pct);
      stalled(s, i, s->still[i], when);
    }
  }
}

int gb_sampler_end(gb_sampler *s, gb_energy_reading *out) {
  pthread_mutex_lock(&s->mu);
  if (s->state != OPEN) {
    pthread_mutex_unlock(&s->mu);
    return -EINVAL;
  }
  uint64_t cross_end[GB_RAPL_MAX_ZONES];
  if (!s->faulted)
    sample(s);
  if (!s->faulted && s->opts.cross && cross_edge(s, s->last, cross_end) == 0)
    cross_compare(s, cross_end);
  if (!s->faulted)
    check_window(s);
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

/* The first package zone that has not changed since the clock read `after`,
 * or n when every one has. */
static size_t unchanged_since(const gb_sampler *s, uint64_t after) {
  for (size_t i = 0; i < s->n; i++)
    if (is_package(s, i) && s->changed_hi[i] <= after)
      return i;
  return s->n;
}

static void settled_stalled(const gb_sampler *s, size_t i, uint64_t still, bool late,
                            gb_energy_reading *r) {
  const gb_rapl_zone *z = gb_rapl_zone_at(s->rapl, i);
  r->status = GB_ENERGY_STALLED;
  r->reason[0] = '\0';
  if (late)
    gb_str_append(r->reason, sizeof r->reason,
                  "%s (%s/energy_uj) did not change within %llu ms after the window ended",
                  z->name, z->path, ms_of(GB_SAMPLER_SETTLE_MAX_NS));
  else
    gb_str_append(r->reason, sizeof r->reason,
                  "%s (%s/energy_uj) stood still at %llu uJ for %llu ms across the end of "
                  "the window (a window must not end in a standstill)",
                  z->name, z->path, (unsigned long long)s->last[i], ms_of(still));
}

/* Settling's own time: CLOCK_MONOTONIC, or the opts clock when stepped. */
static uint64_t settle_now(const gb_sampler *s) {
  return s->wait ? now(s) : mono_ns();
}

static void settle_wait(gb_sampler *s) {
  if (s->wait)
    s->wait(GB_SAMPLER_SETTLE_STEP_NS, s->wait_ctx);
  else
    sleep_until(mono_ns() + GB_SAMPLER_SETTLE_STEP_NS);
}

int gb_sampler_settle(gb_sampler *s, gb_energy_reading *r) {
  bool judge = r->status == GB_ENERGY_OK;
  uint64_t give_up = settle_now(s) + GB_SAMPLER_SETTLE_MAX_NS;
  pthread_mutex_lock(&s->mu);
  if (s->state == OPEN) {
    pthread_mutex_unlock(&s->mu);
    return -EBUSY;
  }
  for (;;) {
    sample(s);
    size_t i = unchanged_since(s, r->end_ns);
    uint64_t still = i < s->n ? since(s->prev_lo, s->changed_hi[i]) : 0;
    bool late = settle_now(s) >= give_up;
    if (judge && i < s->n && (still >= s->opts.edge_ns || late)) {
      settled_stalled(s, i, still, late, r);
      judge = false;
    }
    if (i == s->n || late)
      break;
    pthread_mutex_unlock(&s->mu);
    settle_wait(s);
    pthread_mutex_lock(&s->mu);
  }
  pthread_mutex_unlock(&s->mu);
  return 0;
}
