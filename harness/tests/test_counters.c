/* The sampler against counters as real hardware shows them
 * (helper_counters.h), on simulated time: a stepped sampler (no thread) is
 * read on the schedule its thread keeps, woken late by a realistic scheduler,
 * through rows of the study's shape (a run window, an idle window as long,
 * then settling). No false fault over 10,000 windows on every machine, every
 * window's energy within its resolution of the truth, and the true faults
 * (stopped, wrapping unseen, jumping, vanished) still caught. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "greenbench/perf_energy.h"
#include "greenbench/rapl.h"
#include "greenbench/sampler.h"
#include "harness_internal.h"
#include "helper_counters.h"

#define MS 1000000ull
#define ROWS 5000 /* two windows each */

typedef enum {
  POWERCAP,   /* powercap alone */
  CROSSED,    /* powercap, cross-checked by perf_event */
  PERF_ALONE, /* perf_event alone, as where energy_uj is root-only */
} sim_ways;

typedef struct {
  counters *c;
  gb_rapl *rapl, *cross;
  gb_sampler *s;
  uint64_t period, sched, wake, rng;
  uint64_t starve_at, starve_ns; /* one late wake-up, for the wrap test */
} sim;

static uint64_t sim_rnd(sim *m) {
  m->rng ^= m->rng << 13;
  m->rng ^= m->rng >> 7;
  m->rng ^= m->rng << 17;
  return m->rng;
}

/* How late the sampling thread wakes: up to 0.2 ms, and one time in 200 up to
 * 4 ms (a busy machine's preemption). */
static uint64_t latency(sim *m) {
  uint64_t r = sim_rnd(m);
  return r % 200 == 0 ? 1 * MS + sim_rnd(m) % (3 * MS) : sim_rnd(m) % 200000;
}

/* Moves the simulated time to t, taking every sample the thread would take. */
static void sim_until(sim *m, uint64_t t) {
  while (m->wake <= t) {
    counters_advance(m->c, m->wake);
    gbi_sampler_step(m->s);
    uint64_t now = counters_now(m->c);
    m->sched = m->sched + m->period > now ? m->sched + m->period : now + m->period;
    m->wake = m->sched + latency(m);
    if (m->starve_at && m->wake >= m->starve_at) {
      m->wake += m->starve_ns;
      m->starve_at = 0;
    }
  }
  counters_advance(m->c, t);
}

static void sim_wait(uint64_t ns, void *ctx) {
  sim *m = ctx;
  sim_until(m, counters_now(m->c) + ns);
}

static void sim_open_ways(sim *m, counters_machine machine, uint64_t seed, sim_ways ways,
                          double skew) {
  gb_err err;
  gb_perf_opts po;
  m->c = counters_create(machine, seed);
  m->rng = seed * 2654435761u + 1;
  gb_rapl_opts ro = counters_rapl_opts(m->c);
  counters_perf(m->c, skew, &po);
  if (ways == PERF_ALONE)
    cr_assert_eq(gb_rapl_open_perf(&po, &m->rapl, &err), 0, "%s", err.msg);
  else
    cr_assert_eq(gb_rapl_open(&ro, &m->rapl, &err), 0, "%s", err.msg);
  if (ways == CROSSED)
    cr_assert_eq(gb_rapl_open_perf(&po, &m->cross, &err), 0, "%s", err.msg);
  gb_sampler_opts so = {.clock = counters_clock(m->c), .cross = m->cross};
  cr_assert_eq(gb_sampler_fit(m->rapl, &so, &m->period, &err), 0, "%s", err.msg);
  cr_assert_eq(gbi_sampler_create_stepped(m->rapl, &so, sim_wait, m, &m->s, &err), 0, "%s",
               err.msg);
  m->sched = counters_now(m->c) + m->period;
  m->wake = m->sched;
}

static void sim_open(sim *m, counters_machine machine, uint64_t seed) {
  sim_open_ways(m, machine, seed, POWERCAP, 1.0);
}

static void sim_close(sim *m) {
  gb_sampler_destroy(m->s);
  gb_rapl_close(m->rapl);
  gb_rapl_close(m->cross);
  counters_destroy(m->c);
}

static gb_energy_reading sim_window(sim *m, uint64_t len, bool busy) {
  gb_energy_reading r;
  counters_busy(m->c, busy);
  int rc = gb_sampler_begin(m->s); /* a failed first reading faults the window */
  cr_assert_neq(rc, -EBUSY);
  sim_until(m, counters_now(m->c) + len);
  cr_assert_eq(gb_sampler_end(m->s, &r), 0);
  return r;
}

/* One row: the worker's start (0.5 to 5 ms), its run, the idle window as
 * long, settling. len_ms: the study's 200 to 300 ms, or the smoke's 20 to 30. */
static void sim_row(sim *m, uint64_t len_ms, gb_energy_reading *run, gb_energy_reading *idle) {
  sim_until(m, counters_now(m->c) + MS / 2 + sim_rnd(m) % (9 * MS / 2));
  uint64_t len = len_ms * MS + sim_rnd(m) % (len_ms * MS / 2);
  *run = sim_window(m, len, true);
  *idle = sim_window(m, len, false);
  counters_busy(m->c, false);
  cr_assert_eq(gb_sampler_settle(m->s, idle), 0);
}

/* ok, and within the counters' resolution of the true energy. */
static void assert_measured(const sim *m, const gb_energy_reading *r, unsigned row) {
  cr_assert_eq(r->status, GB_ENERGY_OK, "row %u: %s: %s", row,
               gbi_energy_status_name(r->status), r->reason);
  for (int dram = 0; dram <= 1; dram++) {
    double truth = counters_true_j(m->c, dram, r->begin_ns, r->end_ns);
    double got = (double)(dram ? r->dram_uj : r->pkg_uj) * 1e-6;
    double slack = counters_slack_j(m->c, dram);
    cr_assert(got <= truth + slack && got >= truth - slack,
              "row %u %s: %.6f J read, %.6f J true, slack %.6f J", row,
              dram ? "dram" : "package", got, truth, slack);
  }
}

/* The zones read, in order: never psys, core, uncore or TPMI's copies. */
static const char *const zones_read[] = {
    [COUNTERS_INTEL_CLIENT] = "intel-rapl:0=package-0",
    [COUNTERS_INTEL_SERVER] = "intel-rapl:0=package-0 intel-rapl:0:0=dram "
                              "intel-rapl:1=package-1 intel-rapl:1:0=dram",
    [COUNTERS_MULTI_DIE] = "intel-rapl:0=package-0-die-0 intel-rapl:1=package-0-die-1 "
                           "intel-rapl:0:0=dram intel-rapl:1:0=dram "
                           "intel-rapl:2=package-1-die-0 intel-rapl:3=package-1-die-1 "
                           "intel-rapl:2:0=dram intel-rapl:3:0=dram",
    [COUNTERS_AMD_ZEN] = "intel-rapl:0=package-0 intel-rapl:1=package-1",
    [COUNTERS_XEON6_TPMI] = "intel-rapl:0=package-0 intel-rapl:0:0=dram "
                            "intel-rapl:1=package-1 intel-rapl:1:0=dram",
    [COUNTERS_HARSH] = "intel-rapl:0=package-0",
};

static void assert_zones(const sim *m, counters_machine machine) {
  char got[512] = "";
  for (size_t i = 0; i < gb_rapl_count(m->rapl); i++) {
    const gb_rapl_zone *z = gb_rapl_zone_at(m->rapl, i);
    size_t len = strlen(got);
    snprintf(got + len, sizeof got - len, "%s%s=%s", i ? " " : "", z->id, z->name);
  }
  cr_assert_str_eq(got, zones_read[machine], "%s", counters_machine_name(machine));
}

static void no_false_fault(counters_machine machine, uint64_t len_ms) {
  sim m = {0};
  sim_open(&m, machine, 1000 + machine);
  assert_zones(&m, machine);
  for (unsigned row = 0; row < ROWS; row++) {
    gb_energy_reading run, idle;
    sim_row(&m, len_ms, &run, &idle);
    cr_assert_eq(run.status, GB_ENERGY_OK, "%s, row %u, run: %s",
                 counters_machine_name(machine), row, run.reason);
    cr_assert_eq(idle.status, GB_ENERGY_OK, "%s, row %u, idle: %s",
                 counters_machine_name(machine), row, idle.reason);
    assert_measured(&m, &run, row);
    assert_measured(&m, &idle, row);
  }
  sim_close(&m);
}

TestSuite(counters, .timeout = 120);

Test(counters, intel_client_with_psys_and_filtering) {
  no_false_fault(COUNTERS_INTEL_CLIENT, 200);
}
Test(counters, intel_two_socket_server_with_dram) {
  no_false_fault(COUNTERS_INTEL_SERVER, 200);
}
Test(counters, multi_die_package_n_die_d) {
  no_false_fault(COUNTERS_MULTI_DIE, 200);
}
Test(counters, amd_zen_package_and_core_no_dram) {
  no_false_fault(COUNTERS_AMD_ZEN, 200);
}
Test(counters, xeon6_with_tpmi_zones) {
  no_false_fault(COUNTERS_XEON6_TPMI, 200);
}
Test(counters, harsh_jitter_missed_updates_and_filtering) {
  no_false_fault(COUNTERS_HARSH, 200);
}
Test(counters, harsh_at_the_smoke_profile_s_20_ms) {
  no_false_fault(COUNTERS_HARSH, 20);
}
Test(counters, amd_zen_at_the_smoke_profile_s_20_ms) {
  no_false_fault(COUNTERS_AMD_ZEN, 20);
}

typedef enum { STOP, RESET, VANISH } fault_kind;

/* 20 good rows, then the fault 20 ms into the next run window: that run
 * and every window after it are not ok, with want's status. */
static void caught(counters_machine machine, fault_kind kind, gb_energy_status want,
                   const char *says) {
  sim m = {0};
  gb_energy_reading run, idle;
  sim_open(&m, machine, 77 + machine);
  for (unsigned row = 0; row < 20; row++) {
    sim_row(&m, 200, &run, &idle);
    assert_measured(&m, &run, row);
    assert_measured(&m, &idle, row);
  }
  uint64_t at = counters_now(m.c) + 25 * MS;
  if (kind == STOP)
    counters_stop(m.c, at);
  else if (kind == RESET)
    counters_reset(m.c, at);
  else
    counters_vanish(m.c, at, ENODEV);
  sim_row(&m, 200, &run, &idle);
  cr_assert_eq(run.status, want, "%s: %s: %s", counters_machine_name(machine),
               gbi_energy_status_name(run.status), run.reason);
  cr_assert(strstr(run.reason, says), "%s", run.reason);
  for (unsigned row = 0; kind != RESET && row < 3; row++) {
    sim_row(&m, 200, &run, &idle);
    cr_assert_neq(run.status, GB_ENERGY_OK, "after the fault: %s", run.reason);
    cr_assert_neq(idle.status, GB_ENERGY_OK, "after the fault: %s", idle.reason);
  }
  sim_close(&m);
}

Test(counters, a_stopped_counter_is_caught) {
  for (counters_machine machine = 0; machine < COUNTERS_MACHINE_COUNT; machine++)
    caught(machine, STOP, GB_ENERGY_STALLED, "(limit 100 ms)");
}

Test(counters, a_counter_reset_to_zero_is_a_jump) {
  for (counters_machine machine = 0; machine < COUNTERS_MACHINE_COUNT; machine++)
    caught(machine, RESET, GB_ENERGY_JUMP, "counter reset");
}

Test(counters, a_counter_that_cannot_be_read_has_vanished) {
  for (counters_machine machine = 0; machine < COUNTERS_MACHINE_COUNT; machine++)
    caught(machine, VANISH, GB_ENERGY_VANISHED, "No such device");
}

/* AMD's 32-bit counter in 2^-16 J holds 65,532 J: a wrap every 65.5 s at
 * 1 kW. A sampling thread starved for 70 s (simulated) could have missed a
 * wrap, and the window says so instead of counting a range short. */
Test(counters, a_wrap_that_may_have_been_missed_is_caught) {
  sim m = {0};
  gb_energy_reading run, idle;
  sim_open(&m, COUNTERS_AMD_ZEN, 5);
  sim_row(&m, 200, &run, &idle);
  assert_measured(&m, &run, 0);
  m.starve_at = counters_now(m.c) + 10 * MS;
  m.starve_ns = 70000ull * MS;
  sim_until(&m, counters_now(m.c) + MS);
  run = sim_window(&m, 70000ull * MS, true);
  cr_assert_eq(run.status, GB_ENERGY_STALLED, "%s: %s", gbi_energy_status_name(run.status),
               run.reason);
  cr_assert(strstr(run.reason, "a wrap may have been missed"), "%s", run.reason);
  sim_close(&m);
}

/* perf_event beside powercap: the two agree in every window within the
 * counters' resolution, DRAM's two units (15.3 uJ and 2^-16 J) included. */
static void ways_agree(counters_machine machine) {
  sim m = {0};
  sim_open_ways(&m, machine, 31 + machine, CROSSED, 1.0);
  for (unsigned row = 0; row < 1000; row++) {
    gb_energy_reading run, idle;
    sim_row(&m, 200, &run, &idle);
    assert_measured(&m, &run, row);
    assert_measured(&m, &idle, row);
    cr_assert(run.crossed && idle.crossed);
    cr_assert_gt(run.cross_pkg_uj, 0u);
    /* Apart by at most an update at each edge (one may land between the two
     * readings) and the units' rounding. */
    double d = (double)run.cross_pkg_uj - (double)run.pkg_uj;
    cr_assert_lt(d < 0 ? -d : d, 3e-3 * (double)run.pkg_uj + 2 * 25000.0 * 2,
                 "row %u: %llu %llu", row, (unsigned long long)run.pkg_uj,
                 (unsigned long long)run.cross_pkg_uj);
  }
  sim_close(&m);
}

Test(counters, perf_event_and_powercap_agree_on_every_machine) {
  for (counters_machine machine = 0; machine < COUNTERS_MACHINE_COUNT; machine++)
    ways_agree(machine);
}

Test(counters, a_planted_5_percent_disagreement_is_an_energy_fault) {
  sim m = {0};
  gb_energy_reading run, idle;
  sim_open_ways(&m, COUNTERS_INTEL_SERVER, 3, CROSSED, 1.05);
  sim_row(&m, 200, &run, &idle);
  cr_assert_eq(run.status, GB_ENERGY_DISAGREE, "%s: %s", gbi_energy_status_name(run.status),
               run.reason);
  cr_assert_str_eq(gbi_energy_status_name(run.status), "disagree");
  cr_assert(strstr(run.reason, "powercap and perf_event disagree on the package of socket 0"),
            "%s", run.reason);
  cr_assert(strstr(run.reason, "(5.0"), "%s", run.reason);
  cr_assert_eq(idle.status, GB_ENERGY_DISAGREE, "%s", idle.reason);
  sim_close(&m);
}

/* Where energy_uj is root-only, perf_event alone measures the same energy. */
Test(counters, perf_event_alone_measures_every_machine) {
  for (counters_machine machine = 0; machine < COUNTERS_MACHINE_COUNT; machine++) {
    sim m = {0};
    sim_open_ways(&m, machine, 41 + machine, PERF_ALONE, 1.0);
    cr_assert_str_eq(gb_rapl_source(m.rapl), "perf_event");
    for (unsigned row = 0; row < 1000; row++) {
      gb_energy_reading run, idle;
      sim_row(&m, 200, &run, &idle);
      assert_measured(&m, &run, row);
      assert_measured(&m, &idle, row);
    }
    sim_close(&m);
  }
}
