/* Energy that was not measured is never published as measured
 * (docs/adr/0008-energy-validity.md): counters that stop for good, stop
 * for 150 ms every 2 s, wrap faster than they can be read or go backwards,
 * first under the sampler with windows of exact length in the fake's virtual
 * time, then through whole campaigns, checking the rows they must produce:
 * with the real C worker, or with a scripted one (helper_script.h) where the
 * counter must change at an exact run. The sampler runs on the fake's clock throughout,
 * so a starved test process slows the fake hardware down instead of faking a
 * stall, and the bounds hold on a loaded machine. */
#include <criterion/criterion.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "greenbench/campaign.h"
#include "greenbench/perf_energy.h"
#include "greenbench/records_read.h"
#include "greenbench/sampler.h"
#include "helper_powercap.h"
#include "helper_script.h"

#define RANGE_PKG 262143328850u
#define RANGE_DRAM 65712999613u
#define WATTS_20 20000u /* uJ per 1 ms tick */
/* 150 ms stalls every 2 s, from tick 1000 of each period. */
#define STALL_EVERY 2000u
#define STALL_FROM 1000u
#define STALL_TICKS 150u

/* ---- The sampler, window by window ------------------------------------ */

typedef struct {
  uint64_t t0, t1, injected;
  gb_energy_reading r;
} timed_window;

/* One window of exactly `ticks` firmware updates (the firmware is held while
 * it opens and closes): the ticks t0+1 .. t1 fell inside it. */
static timed_window exact_window(powercap_fake *f, gb_sampler *s, int zone, uint64_t ticks) {
  timed_window w;
  powercap_fake_hold(f);
  uint64_t before = powercap_fake_injected(f, zone);
  w.t0 = powercap_fake_ticks(f);
  cr_assert_eq(gb_sampler_begin(s), 0);
  powercap_fake_release(f);
  powercap_fake_hold_at(f, w.t0 + ticks);
  cr_assert_eq(gb_sampler_end(s, &w.r), 0);
  w.t1 = powercap_fake_ticks(f);
  w.injected = powercap_fake_injected(f, zone) - before;
  powercap_fake_release(f);
  return w;
}

static uint64_t stalled_ticks(powercap_fake *f, int zone, const timed_window *w) {
  uint64_t n = 0;
  for (uint64_t t = w->t0 + 1; t <= w->t1; t++)
    n += powercap_fake_stalled_at(f, zone, t);
  return n;
}

static bool ok(const gb_energy_reading *r) {
  return r->status == GB_ENERGY_OK;
}

/* An ok window holds exactly what the fake injected, and never 0; a window
 * that is not ok says why. */
static void assert_window(const timed_window *w) {
  if (ok(&w->r)) {
    cr_assert_gt(w->r.pkg_uj, 0u, "an ok window of ticks %llu..%llu holds 0 uJ",
                 (unsigned long long)w->t0, (unsigned long long)w->t1);
    cr_assert_eq(w->r.pkg_uj, w->injected);
  } else {
    cr_assert_str_neq(w->r.reason, "");
  }
}

/* Run and idle windows of `ticks` each, back to back, the idle window
 * settled as gb_measure settles a row's last window, over two periods of the
 * stall script. Every pair of windows touching a stalled tick is not ok. */
static void pairs_under_periodic_stalls(uint64_t ticks) {
  powercap_fake *f = powercap_fake_create();
  int pkg = powercap_fake_package(f, 0, 1000, RANGE_PKG);
  powercap_fake_power(f, pkg, WATTS_20);
  powercap_fake_stall_every(f, pkg, STALL_EVERY, STALL_FROM, STALL_TICKS);
  gb_rapl_opts ro = powercap_fake_rapl_opts(f);
  gb_rapl *rapl;
  gb_sampler *s;
  gb_err err;
  cr_assert_eq(gb_rapl_open(&ro, &rapl, &err), 0, "%s", err.msg);
  gb_sampler_opts so = {.clock = powercap_fake_clock(f)};
  cr_assert_eq(gb_sampler_create(rapl, &so, &s, &err), 0, "%s", err.msg);
  powercap_fake_start(f);
  unsigned pairs = 0, touched = 0, bad = 0;
  while (powercap_fake_ticks(f) < 2 * STALL_EVERY + STALL_FROM + 2 * STALL_TICKS) {
    timed_window run = exact_window(f, s, pkg, ticks);
    timed_window idle = exact_window(f, s, pkg, ticks);
    cr_assert_eq(gb_sampler_settle(s, &idle.r), 0);
    assert_window(&run);
    assert_window(&idle);
    bool hit = stalled_ticks(f, pkg, &run) + stalled_ticks(f, pkg, &idle) > 0;
    bool pair_ok = ok(&run.r) && ok(&idle.r);
    cr_assert(!hit || !pair_ok,
              "windows of %llu ticks at %llu..%llu and %llu..%llu touch a stall, yet both are "
              "ok (%llu and %llu uJ)",
              (unsigned long long)ticks, (unsigned long long)run.t0, (unsigned long long)run.t1,
              (unsigned long long)idle.t0, (unsigned long long)idle.t1,
              (unsigned long long)run.r.pkg_uj, (unsigned long long)idle.r.pkg_uj);
    pairs++;
    touched += hit;
    bad += !pair_ok;
  }
  cr_assert_geq(touched, 2u, "both stalls fell inside windows");
  cr_assert_lt(bad, pairs, "windows away from the stalls are ok");
  gb_sampler_destroy(s);
  gb_rapl_close(rapl);
  powercap_fake_destroy(f);
}

Test(energy_windows, stalls_of_150_ms_every_2_s_under_20_ms_windows, .timeout = 60) {
  pairs_under_periodic_stalls(20);
}

Test(energy_windows, stalls_of_150_ms_every_2_s_under_60_ms_windows, .timeout = 60) {
  pairs_under_periodic_stalls(60);
}

Test(energy_windows, stalls_of_150_ms_every_2_s_under_250_ms_windows, .timeout = 60) {
  pairs_under_periodic_stalls(250);
}

/* ---- Whole campaigns --------------------------------------------------- */

static char *new_out(void) {
  static char dir[128];
  char base[] = "/tmp/gb-energy-XXXXXX";
  cr_assert_not_null(mkdtemp(base));
  snprintf(dir, sizeof dir, "%s/records", base);
  return dir;
}

static const char *const command[] = {"greenbench", "run", "--profile", "smoke"};

typedef struct {
  gb_rapl_opts rapl;
  gb_sampler_opts sampler;
  gb_campaign_opts o;
} energy_campaign;

static void campaign_on(energy_campaign *c, powercap_fake *f, const char *out, gb_settings s) {
  c->rapl = powercap_fake_rapl_opts(f);
  c->sampler = (gb_sampler_opts){.clock = powercap_fake_clock(f)};
  c->o = (gb_campaign_opts){.settings = s,
                            .out_dir = out,
                            .workers = {GB_WORKER_C_PATH, GB_PYTHON_PATH, GB_PYTHON_WORKER_PATH,
                                        GB_NODE_PATH, GB_NODE_WORKER_PATH},
                            .topology_xml = GB_TEST_DATA_DIR "/topo-desktop-smt.xml",
                            .machine_root = GB_TEST_DATA_DIR "/sysfs-intel",
                            .argc = 4,
                            .argv = command,
                            .progress = GB_PROGRESS_QUIET,
                            .rapl = &c->rapl,
                            .sampler = &c->sampler};
}

/* The same campaign on a scripted C worker whose launches last their
 * scripted times (a run of 20 ms sorts for 24 ms), so its energy windows do;
 * act(ctx, call) runs at the start of each call. Calls: 1 probes the
 * runtime, 2 to 4 are the sorting warm-ups, 5 and 6 the startup warm-ups,
 * and measured run i is call 7 + i. */
#define FIRST_RUN_CALL 7u
static void scripted_campaign_on(energy_campaign *c, powercap_fake *f, const char *out,
                                 gb_settings s, worker_script **w,
                                 void (*act)(void *, unsigned, const script_call *),
                                 void *ctx) {
  campaign_on(c, f, out, s);
  *w = script_create(&c->o.workers);
  script_sleep(*w, true);
  script_on_call(*w, act, ctx);
  c->o.spawner = script_spawner(*w);
}

static powercap_fake *live_tree(int *pkg) {
  powercap_fake *f = powercap_fake_create();
  *pkg = powercap_fake_package(f, 0, 1000, RANGE_PKG);
  int dram = powercap_fake_dram(f, 0, 0, 5000, RANGE_DRAM);
  powercap_fake_power(f, *pkg, WATTS_20);
  powercap_fake_power(f, dram, 2000);
  return f;
}

static gb_records *read_records(const char *dir) {
  gb_records *r;
  gb_err err;
  cr_assert_eq(gb_records_read(dir, &r, &err), 0, "%s", err.msg);
  return r;
}

static bool no_energy(const gb_run_row *row) {
  return !row->pkg_uj.present && !row->dram_uj.present && !row->idle_pkg_uj.present &&
         !row->idle_dram_uj.present;
}

/* What every row of an energy campaign must be: ok with all four energy
 * figures above 0, or an energy fault (one of `allowed`) with its reason and
 * every energy column empty, never 0. Returns the number of faulted rows. */
static size_t assert_rows(const gb_records *r, unsigned allowed) {
  size_t faulted = 0;
  for (size_t i = 0; i < r->runs.n_rows; i++) {
    const gb_run_row *row = &r->runs.rows[i];
    if (row->status == GB_REC_STATUS_OK) {
      cr_assert_eq(row->energy, GB_REC_ENERGY_OK, "row %zu", i);
      cr_assert(row->pkg_uj.present && row->pkg_uj.value > 0, "row %zu: ok with no energy", i);
      cr_assert(row->idle_pkg_uj.present && row->idle_pkg_uj.value > 0, "row %zu", i);
      cr_assert(row->dram_uj.present && row->idle_dram_uj.present, "row %zu", i);
      continue;
    }
    cr_assert(allowed >> row->status & 1, "row %zu: status %d: %s", i, (int)row->status,
              row->message);
    cr_assert_eq(row->energy, GB_REC_ENERGY_UNAVAILABLE, "row %zu", i);
    cr_assert(no_energy(row), "row %zu: energy columns filled though not ok", i);
    cr_assert_str_neq(row->message, "", "row %zu says why", i);
    faulted++;
  }
  return faulted;
}

#define STALLED (1u << GB_REC_STATUS_ENERGY_STALLED)
#define JUMPED (1u << GB_REC_STATUS_ENERGY_JUMP)

/* Acts on the fake at the start of call `call` (measured run call - 7), or,
 * in fire_later's thread, once runs.csv holds `rows` rows; notes the tick. */
typedef struct {
  const char *out;
  size_t rows;
  unsigned call;
  powercap_fake *f;
  int zone;
  enum { STOP_FOREVER, GO_BACK, NOTE } act;
  uint64_t tick;
} trigger;

static size_t rows_in(const char *out) {
  char path[256];
  snprintf(path, sizeof path, "%s/runs.csv", out);
  FILE *f = fopen(path, "r");
  size_t lines = 0;
  int ch;
  while (f && (ch = fgetc(f)) != EOF)
    lines += ch == '\n';
  if (f)
    fclose(f);
  return lines ? lines - 1 : 0;
}

static void fire(trigger *t) {
  t->tick = powercap_fake_ticks(t->f);
  if (t->act == STOP_FOREVER)
    powercap_fake_stall(t->f, t->zone, t->tick + 1, UINT64_MAX / 2);
  else if (t->act == GO_BACK)
    powercap_fake_set(t->f, t->zone, 1000);
}

static void *fire_later(void *p) {
  trigger *t = p;
  while (rows_in(t->out) < t->rows)
    usleep(1000);
  fire(t);
  return NULL;
}

static void fire_at_call(void *p, unsigned call, const script_call *c) {
  trigger *t = p;
  (void)c;
  if (call == t->call)
    fire(t);
}

/* The counter stops for good just before measured run 6 starts: that row
 * and every later one is energy_stalled with empty energy columns, never ok
 * with 0 uJ (which a report would turn into 0 W and no carbon). */
Test(energy_campaign, a_counter_that_stops_forever_mid_campaign, .timeout = 120) {
  int pkg;
  powercap_fake *f = live_tree(&pkg);
  powercap_fake_set(f, pkg, 100000000000u); /* far from a wrap */
  powercap_fake_start(f);
  char *out = new_out();
  energy_campaign c;
  trigger t = {
      .out = out, .call = FIRST_RUN_CALL + 6, .f = f, .zone = pkg, .act = STOP_FOREVER};
  worker_script *w;
  scripted_campaign_on(&c, f, out, script_settings(5, 1, 20, GB_ENERGY_ON), &w, fire_at_call,
                       &t);
  gb_campaign_result res;
  gb_err err;
  cr_assert_eq(gb_campaign_run(&c.o, &res, &err), 0, "%s", err.msg);
  cr_assert(res.completed, "a stalled counter is recorded, the campaign goes on");
  cr_assert_eq(script_calls(w), FIRST_RUN_CALL - 1 + 20);
  gb_records *r = read_records(out);
  cr_assert_eq(r->runs.n_rows, 20u);
  assert_rows(r, STALLED);
  for (size_t i = 6; i < r->runs.n_rows; i++) {
    const gb_run_row *row = &r->runs.rows[i];
    cr_assert_eq(row->status, GB_REC_STATUS_ENERGY_STALLED, "row %zu: %s", i, row->message);
    cr_assert(strstr(row->message, "stood still"), "row %zu: %s", i, row->message);
  }
  size_t ok_rows = 0;
  for (size_t i = 0; i < 6; i++)
    ok_rows += r->runs.rows[i].status == GB_REC_STATUS_OK;
  cr_assert_gt(ok_rows, 0u, "the counter was live before it stopped");
  gb_records_free(r);
  powercap_fake_destroy(f);
  script_destroy(w);
}

/* 150 ms stalls every 2 s of the fake's time under loops of target_ms: every
 * row is ok with energy or energy_stalled without, and the stalls that fell
 * among the measured rows left stalled rows behind. */
static void campaign_under_periodic_stalls(uint32_t target_ms, uint32_t runs) {
  int pkg;
  powercap_fake *f = live_tree(&pkg);
  powercap_fake_stall_every(f, pkg, STALL_EVERY, STALL_FROM, STALL_TICKS);
  powercap_fake_start(f);
  char *out = new_out();
  energy_campaign c;
  campaign_on(&c, f, out, script_settings(runs, 1, target_ms, GB_ENERGY_ON));
  trigger t = {.out = out, .rows = 1, .f = f, .zone = pkg, .act = NOTE};
  pthread_t th;
  pthread_create(&th, NULL, fire_later, &t);
  gb_campaign_result res;
  gb_err err;
  cr_assert_eq(gb_campaign_run(&c.o, &res, &err), 0, "%s", err.msg);
  pthread_join(th, NULL);
  uint64_t end = powercap_fake_ticks(f);
  gb_records *r = read_records(out);
  cr_assert_eq(r->runs.n_rows, 4u * runs);
  size_t stalled = assert_rows(r, STALLED);
  /* idle_ns is the sampler's clock, the fake's time: an ok idle window shows
   * the fake's 20 W within a tick, never the loss of a stall. */
  for (size_t i = 0; i < r->runs.n_rows; i++) {
    const gb_run_row *row = &r->runs.rows[i];
    if (row->status == GB_REC_STATUS_OK)
      cr_assert_geq(row->idle_pkg_uj.value * 1000u, 17u * row->idle_ns.value,
                    "row %zu: %llu uJ in %llu ns of idle at 20 W", i,
                    (unsigned long long)row->idle_pkg_uj.value,
                    (unsigned long long)row->idle_ns.value);
  }
  /* Stalls wholly between the first row and the end: each hit a window. */
  unsigned inside = 0;
  for (uint64_t s = STALL_FROM; s + STALL_TICKS + 200 < end; s += STALL_EVERY)
    inside += s > t.tick;
  if (inside >= 2)
    cr_assert_gt(stalled, 0u, "%u stalls among the rows left no stalled row", inside);
  cr_assert_lt(stalled, r->runs.n_rows, "rows away from the stalls are ok");
  gb_records_free(r);
  powercap_fake_destroy(f);
}

Test(energy_campaign, stalls_of_150_ms_every_2_s_under_20_ms_loops, .timeout = 180) {
  campaign_under_periodic_stalls(20, 20);
}

Test(energy_campaign, stalls_of_150_ms_every_2_s_under_60_ms_loops, .timeout = 180) {
  campaign_under_periodic_stalls(60, 8);
}

Test(energy_campaign, stalls_of_150_ms_every_2_s_under_250_ms_loops, .timeout = 180) {
  campaign_under_periodic_stalls(250, 3);
}

/* max_energy_range_uj 100000 wraps every 5 ms at 20 W and every 0.1 ms at
 * 1 kW: --energy on refuses to start, --energy auto measures time only and
 * records why. */
Test(energy_campaign, a_counter_that_wraps_every_5_ms_is_refused, .timeout = 120) {
  powercap_fake *f = powercap_fake_create();
  int pkg = powercap_fake_package(f, 0, 1000, 100000u);
  powercap_fake_power(f, pkg, WATTS_20);
  powercap_fake_start(f);
  char *out = new_out();
  energy_campaign c;
  worker_script *w;
  scripted_campaign_on(&c, f, out, script_settings(2, 1, 20, GB_ENERGY_ON), &w, NULL, NULL);
  gb_err err;
  cr_assert_eq(gb_campaign_run(&c.o, NULL, &err), -ENODEV);
  cr_assert(strstr(err.msg, "energy is unavailable"), "%s", err.msg);
  cr_assert(strstr(err.msg, "max_energy_range_uj 100000 wraps every 100 us at 1000 W"), "%s",
            err.msg);
  cr_assert_eq(access(out, F_OK), -1, "nothing was recorded");
  cr_assert_eq(script_calls(w), 0u, "no worker was started");
  script_destroy(w);

  out = new_out();
  scripted_campaign_on(&c, f, out, script_settings(2, 1, 20, GB_ENERGY_AUTO), &w, NULL, NULL);
  cr_assert_eq(gb_campaign_run(&c.o, NULL, &err), 0, "%s", err.msg);
  gb_records *r = read_records(out);
  cr_assert_eq(r->meta.energy.status, GB_REC_ENERGY_UNAVAILABLE);
  cr_assert(strstr(r->meta.energy.reason, "a missed wrap would go unseen"), "%s",
            r->meta.energy.reason);
  cr_assert_eq(r->runs.n_rows, 8u);
  for (size_t i = 0; i < r->runs.n_rows; i++) {
    cr_assert_eq(r->runs.rows[i].status, GB_REC_STATUS_OK, "row %zu", i);
    cr_assert_eq(r->runs.rows[i].energy, GB_REC_ENERGY_UNAVAILABLE);
    cr_assert(no_energy(&r->runs.rows[i]), "row %zu: never a figure that missed wraps", i);
  }
  gb_records_free(r);
  powercap_fake_destroy(f);
  script_destroy(w);
}

/* The counter goes back to 1000 uJ just before measured run 3 starts, as
 * after a reset: that run's window is energy_jump, and no row records the
 * wrap-sized rise it looks like. */
Test(energy_campaign, a_counter_that_goes_backwards, .timeout = 120) {
  int pkg;
  powercap_fake *f = live_tree(&pkg);
  powercap_fake_set(f, pkg, 100000000000u);
  powercap_fake_start(f);
  char *out = new_out();
  energy_campaign c;
  trigger t = {.out = out, .call = FIRST_RUN_CALL + 3, .f = f, .zone = pkg, .act = GO_BACK};
  worker_script *w;
  scripted_campaign_on(&c, f, out, script_settings(3, 1, 20, GB_ENERGY_ON), &w, fire_at_call,
                       &t);
  gb_err err;
  cr_assert_eq(gb_campaign_run(&c.o, NULL, &err), 0, "%s", err.msg);
  gb_records *r = read_records(out);
  cr_assert_eq(r->runs.n_rows, 12u);
  assert_rows(r, STALLED | JUMPED);
  size_t jumps = 0;
  for (size_t i = 0; i < r->runs.n_rows; i++) {
    const gb_run_row *row = &r->runs.rows[i];
    if (row->status == GB_REC_STATUS_ENERGY_JUMP) {
      jumps++;
      cr_assert_eq(i, 3u, "row %zu: %s", i, row->message);
      cr_assert(strstr(row->message, "counter reset"), "row %zu: %s", i, row->message);
    }
    if (row->pkg_uj.present)
      cr_assert_lt(row->pkg_uj.value, 1000000000u, "row %zu: %llu uJ", i,
                   (unsigned long long)row->pkg_uj.value);
  }
  cr_assert_eq(jumps, 1u, "one reset, one energy_jump row");
  gb_records_free(r);
  powercap_fake_destroy(f);
  script_destroy(w);
}

/* ---- perf_event, alone and beside powercap (docs/bare-metal.md, 14) ------ */

/* A power PMU folder in the fake tree whose energy-pkg counts are what the
 * fake injected into zone `zone` (or 20 W of its ticks when zone < 0). */
typedef struct {
  powercap_fake *f;
  int zone;
  long double skew; /* counts against the fake's energy: 1, or a planted disagreement */
  gb_perf_reader reader;
  gb_perf_opts opts;
  char dir[1100], cpus[1100];
} fake_pmu;

static int pmu_open(void *ctx, uint32_t type, uint64_t config, int cpu) {
  (void)ctx;
  return type == 23 && config == 2 && cpu == 0 ? 7 : -ENOENT;
}

static int pmu_read(void *ctx, int fd, uint64_t *count) {
  fake_pmu *p = ctx;
  uint64_t uj = p->zone < 0 ? powercap_fake_ticks(p->f) * WATTS_20
                            : powercap_fake_injected(p->f, p->zone);
  (void)fd;
  *count = (uint64_t)((long double)uj * p->skew * 4294967296.0L / 1e6L); /* 2^-32 J/count */
  return 0;
}

static void pmu_close(void *ctx, int fd) {
  (void)ctx;
  (void)fd;
}

static void fake_pmu_init(fake_pmu *p, powercap_fake *f, int zone) {
  static const char *const dirs[] = {"power", "power/events", "cpus", "cpus/cpu0",
                                     "cpus/cpu0/topology"};
  for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
    snprintf(p->dir, sizeof p->dir, "%s/%s", powercap_fake_root(f), dirs[i]);
    cr_assert_eq(mkdir(p->dir, 0755), 0, "%s", p->dir);
  }
  powercap_fake_write(f, "power/type", "23\n");
  powercap_fake_write(f, "power/cpumask", "0\n");
  powercap_fake_write(f, "power/events/energy-pkg", "event=0x02\n");
  powercap_fake_write(f, "power/events/energy-pkg.scale", "2.3283064365386962890625e-10\n");
  powercap_fake_write(f, "power/events/energy-pkg.unit", "Joules\n");
  powercap_fake_write(f, "cpus/cpu0/topology/physical_package_id", "0\n");
  p->f = f;
  p->zone = zone;
  p->skew = 1;
  p->reader = (gb_perf_reader){pmu_open, pmu_read, pmu_close, p};
  snprintf(p->dir, sizeof p->dir, "%s/power", powercap_fake_root(f));
  snprintf(p->cpus, sizeof p->cpus, "%s/cpus", powercap_fake_root(f));
  p->opts = (gb_perf_opts){.dir = p->dir, .reader = &p->reader, .cpu_dir = p->cpus};
}

static char *environment_of(const char *out) {
  static char text[65536];
  char path[1200];
  snprintf(path, sizeof path, "%s/environment.txt", out);
  FILE *fp = fopen(path, "r");
  cr_assert_not_null(fp, "%s", path);
  text[fread(text, 1, sizeof text - 1, fp)] = '\0';
  fclose(fp);
  return text;
}

/* A scripted energy campaign (2 runs, 20 ms) on tree f with the fake PMU
 * beside it, counting zone's energy (or 20 W of ticks when zone < 0) times
 * skew; returns its records, and its environment.txt in *env. */
static gb_records *pmu_campaign(powercap_fake *f, int zone, long double skew, char **env) {
  powercap_fake_start(f);
  fake_pmu pmu;
  fake_pmu_init(&pmu, f, zone);
  pmu.skew = skew;
  char *out = new_out();
  energy_campaign c;
  worker_script *w;
  scripted_campaign_on(&c, f, out, script_settings(2, 1, 20, GB_ENERGY_ON), &w, NULL, NULL);
  c.o.perf = &pmu.opts;
  gb_err err;
  cr_assert_eq(gb_campaign_run(&c.o, NULL, &err), 0, "%s", err.msg);
  script_destroy(w);
  *env = environment_of(out);
  return read_records(out);
}

static powercap_fake *tree_at_20_w(int *pkg) {
  powercap_fake *f = powercap_fake_create();
  *pkg = powercap_fake_package(f, 0, 1000, RANGE_PKG);
  powercap_fake_power(f, *pkg, WATTS_20);
  return f;
}

/* Where powercap cannot be read, perf_event measures, and the records say so. */
Test(energy_campaign, perf_event_measures_where_powercap_cannot, .timeout = 120) {
  powercap_fake *f = powercap_fake_create(); /* no package zone */
  char *env;
  gb_records *r = pmu_campaign(f, -1, 1, &env);
  cr_assert_eq(r->meta.energy.status, GB_REC_ENERGY_OK, "%s", r->meta.energy.reason);
  cr_assert(r->meta.energy.has_source);
  cr_assert_str_eq(r->meta.energy.source, "perf_event");
  cr_assert_not(r->meta.energy.has_cross);
  cr_assert_str_eq(r->meta.energy.zones[0].path, "events/energy-pkg");
  for (size_t i = 0; i < r->runs.n_rows; i++) {
    cr_assert_eq(r->runs.rows[i].status, GB_REC_STATUS_OK, "row %zu: %s", i,
                 r->runs.rows[i].message);
    cr_assert(r->runs.rows[i].pkg_uj.present && r->runs.rows[i].pkg_uj.value > 0, "row %zu", i);
  }
  cr_assert(strstr(env, "\nenergy: perf_event ("), "%s", env);
  cr_assert(strstr(env, "), not cross-checked\n"), "%s", env);
  gb_records_free(r);
  powercap_fake_destroy(f);
}

/* Where both can be read, powercap is read and every window cross-checked. */
Test(energy_campaign, perf_event_checks_powercap_in_every_window, .timeout = 120) {
  int pkg;
  powercap_fake *f = tree_at_20_w(&pkg);
  char *env;
  gb_records *r = pmu_campaign(f, pkg, 1, &env);
  cr_assert_str_eq(r->meta.energy.source, "powercap");
  cr_assert(r->meta.energy.has_cross);
  cr_assert_str_eq(r->meta.energy.cross_check, "perf_event");
  for (size_t i = 0; i < r->runs.n_rows; i++)
    cr_assert_eq(r->runs.rows[i].status, GB_REC_STATUS_OK, "row %zu: %s", i,
                 r->runs.rows[i].message);
  cr_assert(strstr(env, "), every window cross-checked against perf_event ("), "%s", env);
  gb_records_free(r);
  powercap_fake_destroy(f);
}

/* A planted 5% disagreement makes every row energy_jump, with the reason. */
Test(energy_campaign, a_5_percent_disagreement_is_recorded_as_an_energy_fault, .timeout = 120) {
  int pkg;
  powercap_fake *f = tree_at_20_w(&pkg);
  char *env;
  gb_records *r = pmu_campaign(f, pkg, 1.05L, &env);
  cr_assert_gt(r->runs.n_rows, 0u);
  for (size_t i = 0; i < r->runs.n_rows; i++) {
    const gb_run_row *row = &r->runs.rows[i];
    cr_assert_eq(row->status, GB_REC_STATUS_ENERGY_JUMP, "row %zu: %s", i, row->message);
    cr_assert(
        strstr(row->message, "powercap and perf_event disagree on the package of socket 0"),
        "row %zu: %s", i, row->message);
    cr_assert(no_energy(row), "row %zu", i);
  }
  gb_records_free(r);
  powercap_fake_destroy(f);
}
