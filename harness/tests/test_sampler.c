/* The sampling thread against fake powercap trees whose "firmware" thread
 * advances the counters by 1 ms ticks of virtual time (helper_powercap.h).
 * Most tests run the sampler on the fake's clock, so stall and jump checks
 * see the fake hardware's time, not the test machine's scheduling. */
#include <criterion/criterion.h>
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <time.h>

#include "greenbench/clock.h"
#include "greenbench/rapl.h"
#include "greenbench/sampler.h"
#include "harness_internal.h"
#include "helper_powercap.h"

#define RANGE_PKG 262143328850u
#define RANGE_DRAM 65712999613u
#define TICK POWERCAP_FAKE_TICK_NS

static powercap_fake *fake;
static gb_rapl *rapl;
static gb_sampler *sampler;

static void setup(void) {
  fake = powercap_fake_create();
}

static void teardown(void) {
  gb_sampler_destroy(sampler);
  gb_rapl_close(rapl);
  powercap_fake_destroy(fake);
}

TestSuite(sampler, .init = setup, .fini = teardown, .timeout = 30);

/* Opens the fake tree and starts a sampler on it (opts NULL: the fake's
 * clock, other options default), then starts the firmware. */
static void start(const gb_sampler_opts *opts) {
  gb_rapl_opts ro = powercap_fake_rapl_opts(fake);
  gb_err err;
  cr_assert_eq(gb_rapl_open(&ro, &rapl, &err), 0, "%s", err.msg);
  gb_sampler_opts so = {.clock = powercap_fake_clock(fake)};
  cr_assert_eq(gb_sampler_create(rapl, opts ? opts : &so, &sampler, &err), 0, "%s", err.msg);
  powercap_fake_start(fake);
}

static size_t zone_index(const char *id) {
  for (size_t i = 0; i < gb_rapl_count(rapl); i++)
    if (strcmp(gb_rapl_zone_at(rapl, i)->id, id) == 0)
      return i;
  cr_assert_fail("no zone %s", id);
  return 0;
}

/* One window of exactly `ticks` firmware updates: the firmware is held while
 * the window opens and closes, so the injected energy is known exactly.
 * injected[z] receives what fake zone z got during the window. */
static gb_energy_reading window(uint64_t ticks, uint64_t *injected, int nzones) {
  uint64_t before[POWERCAP_FAKE_MAX_ZONES];
  gb_energy_reading r;
  powercap_fake_hold(fake);
  for (int z = 0; z < nzones; z++)
    before[z] = powercap_fake_injected(fake, z);
  uint64_t t0 = powercap_fake_ticks(fake);
  cr_assert_eq(gb_sampler_begin(sampler), 0);
  powercap_fake_release(fake);
  powercap_fake_hold_at(fake, t0 + ticks);
  cr_assert_eq(gb_sampler_end(sampler, &r), 0);
  for (int z = 0; z < nzones; z++)
    injected[z] = powercap_fake_injected(fake, z) - before[z];
  powercap_fake_release(fake);
  return r;
}

static void assert_ok(const gb_energy_reading *r) {
  cr_assert_eq(r->status, GB_ENERGY_OK, "%s: %s", gbi_energy_status_name(r->status), r->reason);
  cr_assert_str_eq(r->reason, "");
}

static bool aborted_within(int ms) {
  struct pollfd p = {.fd = gb_sampler_abort_fd(sampler), .events = POLLIN};
  return poll(&p, 1, ms) == 1 && (p.revents & POLLIN);
}

Test(sampler, steady_power_is_the_injected_energy) {
  int p0 = powercap_fake_package(fake, 0, 1000, RANGE_PKG);
  int d0 = powercap_fake_dram(fake, 0, 0, 2000, RANGE_DRAM);
  int p1 = powercap_fake_package(fake, 1, 3000, RANGE_PKG);
  int d1 = powercap_fake_dram(fake, 1, 0, 4000, RANGE_DRAM);
  powercap_fake_power(fake, p0, 15000); /* uJ per 1 ms tick: 15 W */
  powercap_fake_power(fake, d0, 3000);
  powercap_fake_power(fake, p1, 12000);
  powercap_fake_power(fake, d1, 2000);
  start(NULL);
  uint64_t inj[4];
  gb_energy_reading r = window(200, inj, 4);
  assert_ok(&r);
  cr_assert_eq(r.zone_count, 4u);
  cr_assert_eq(r.zone_uj[zone_index("intel-rapl:0")], inj[p0]);
  cr_assert_eq(r.zone_uj[zone_index("intel-rapl:0:0")], inj[d0]);
  cr_assert_eq(r.zone_uj[zone_index("intel-rapl:1")], inj[p1]);
  cr_assert_eq(r.zone_uj[zone_index("intel-rapl:1:0")], inj[d1]);
  cr_assert_eq(r.pkg_uj, inj[p0] + inj[p1]);
  cr_assert_eq(r.dram_uj, inj[d0] + inj[d1]);
  cr_assert(r.has_dram);
  /* Against power x time, by the sampler's own clock: within one update. */
  uint64_t ms = (r.end_ns - r.begin_ns) / TICK;
  cr_assert_eq(ms, 200u);
  cr_assert_leq(r.pkg_uj > 27000 * ms ? r.pkg_uj - 27000 * ms : 27000 * ms - r.pkg_uj, 27000u);
  cr_assert_geq(r.samples, 5u, "the thread sampled during the window: %llu",
                (unsigned long long)r.samples);
  cr_assert_lt(r.max_gap_ns, 200 * TICK);
}

Test(sampler, one_wrap_per_zone_at_different_ranges) {
  int p0 = powercap_fake_package(fake, 0, RANGE_PKG - 50000, RANGE_PKG);
  int d0 = powercap_fake_dram(fake, 0, 0, RANGE_DRAM - 20000, RANGE_DRAM);
  int p1 = powercap_fake_package(fake, 1, 4294967295u - 70000, 4294967295u);
  powercap_fake_power(fake, p0, 15000);
  powercap_fake_power(fake, d0, 3000);
  powercap_fake_power(fake, p1, 9000);
  start(NULL);
  uint64_t inj[3];
  gb_energy_reading r = window(100, inj, 3);
  assert_ok(&r);
  cr_assert_eq(r.zone_uj[zone_index("intel-rapl:0")], inj[p0]);
  cr_assert_eq(r.zone_uj[zone_index("intel-rapl:0:0")], inj[d0]);
  cr_assert_eq(r.zone_uj[zone_index("intel-rapl:1")], inj[p1]);
  uint64_t now[GB_RAPL_MAX_ZONES];
  gb_err err;
  cr_assert_eq(gb_rapl_read_all(rapl, now, &err), 0);
  cr_assert_lt(now[zone_index("intel-rapl:0")], RANGE_PKG - 50000, "package-0 wrapped");
  cr_assert_lt(now[zone_index("intel-rapl:0:0")], RANGE_DRAM - 20000, "dram wrapped");
  cr_assert_lt(now[zone_index("intel-rapl:1")], 4294967295u - 70000, "package-1 wrapped");
}

Test(sampler, wraps_are_corrected_per_interval_over_a_long_run) {
  /* 50 J: 50 ms at 1 kW, so the range holds 1 kW over twice the period. */
  int p0 = powercap_fake_package(fake, 0, 0, 49999999u);
  powercap_fake_power(fake, p0, 200000); /* 200 W: a wrap every 250 ticks */
  start(NULL);
  uint64_t inj[1];
  gb_energy_reading r = window(600, inj, 1);
  assert_ok(&r);
  cr_assert_eq(inj[0], 120000000u);
  cr_assert_eq(r.pkg_uj, 120000000u, "two wraps, each corrected in its own interval");
}

Test(sampler, a_wrap_in_the_idle_window_is_corrected) {
  uint64_t max = 1000000000u;
  int p0 = powercap_fake_package(fake, 0, max - 2300000, max);
  powercap_fake_power(fake, p0, 20000);
  start(NULL);
  uint64_t run[1], idle[1];
  gb_energy_reading r = window(100, run, 1);
  assert_ok(&r);
  cr_assert_eq(r.pkg_uj, run[0]);
  cr_assert_eq(r.pkg_uj, 2000000u);
  powercap_fake_power(fake, p0, 5000);
  gb_energy_reading i = window(100, idle, 1);
  assert_ok(&i);
  cr_assert_eq(i.pkg_uj, idle[0]);
  cr_assert_eq(i.pkg_uj, 500000u, "the idle window wrapped 300000 uJ into it");
}

Test(sampler, amd_like_tree_has_no_dram) {
  int p0 = powercap_fake_package(fake, 0, 5, 4294967295u);
  powercap_fake_zone(fake, "intel-rapl:0:0", "core", 5, 4294967295u);
  powercap_fake_power(fake, p0, 8000);
  start(NULL);
  uint64_t inj[2];
  gb_energy_reading r = window(50, inj, 2);
  assert_ok(&r);
  cr_assert_eq(r.zone_count, 1u);
  cr_assert_eq(r.pkg_uj, inj[p0]);
  cr_assert_not(r.has_dram);
  cr_assert_eq(r.dram_uj, 0u);
}

Test(sampler, overlapping_and_duplicate_zones_add_nothing) {
  int pkg = powercap_fake_package(fake, 0, 1, RANGE_PKG);
  int core = powercap_fake_zone(fake, "intel-rapl:0:0", "core", 1, RANGE_PKG);
  int uncore = powercap_fake_zone(fake, "intel-rapl:0:1", "uncore", 1, RANGE_PKG);
  int dram = powercap_fake_dram(fake, 0, 2, 1, RANGE_DRAM);
  int psys = powercap_fake_zone(fake, "intel-rapl:1", "psys", 1, RANGE_PKG);
  int mmio = powercap_fake_zone(fake, "intel-rapl-mmio:0", "package-0", 1, RANGE_PKG);
  powercap_fake_power(fake, pkg, 10000);
  powercap_fake_power(fake, core, 7000);
  powercap_fake_power(fake, uncore, 1000);
  powercap_fake_power(fake, dram, 2000);
  powercap_fake_power(fake, psys, 30000);
  powercap_fake_power(fake, mmio, 10000);
  start(NULL);
  uint64_t inj[6];
  gb_energy_reading r = window(100, inj, 6);
  assert_ok(&r);
  cr_assert_eq(r.pkg_uj, inj[pkg], "package only: not psys, not the mmio copy");
  cr_assert_eq(r.dram_uj, inj[dram], "dram only: not core or uncore");
}

Test(sampler, a_150_ms_stall_stops_the_run) {
  int p0 = powercap_fake_package(fake, 0, 1, RANGE_PKG);
  powercap_fake_power(fake, p0, 10000);
  start(NULL);
  cr_assert_eq(gb_sampler_begin(sampler), 0);
  uint64_t from = powercap_fake_ticks(fake) + 30;
  powercap_fake_stall(fake, p0, from, 150);
  cr_assert(aborted_within(5000), "the abort fd fires");
  gb_energy_reading r;
  cr_assert_eq(gb_sampler_end(sampler, &r), 0);
  cr_assert_eq(r.status, GB_ENERGY_STALLED, "%s", r.reason);
  cr_assert_str_eq(gbi_energy_status_name(r.status), "stalled");
  cr_assert(strstr(r.reason, "package-0"), "%s", r.reason);
  cr_assert(strstr(r.reason, "intel-rapl:0/energy_uj) stood still"), "%s", r.reason);
  cr_assert(strstr(r.reason, "(limit 100 ms)"), "%s", r.reason);
  char reason[512];
  gb_sampler_fault_reason(sampler, reason, sizeof reason);
  cr_assert_str_eq(reason, r.reason);

  /* Once the counter moves again, the next window starts clean. */
  powercap_fake_wait(fake, from + 151);
  cr_assert_eq(gb_sampler_begin(sampler), 0);
  cr_assert_not(aborted_within(0), "begin resets the abort fd");
  powercap_fake_wait(fake, powercap_fake_ticks(fake) + 50);
  cr_assert_eq(gb_sampler_end(sampler, &r), 0);
  assert_ok(&r);
}

/* A standstill is seen at least a reading late and ends at most a reading
 * early, so the still time seen is at most the stall's. */
Test(sampler, a_20_ms_stall_in_a_250_ms_window_is_below_both_limits) {
  int p0 = powercap_fake_package(fake, 0, 1, RANGE_PKG);
  powercap_fake_power(fake, p0, 10000);
  start(NULL);
  powercap_fake_hold(fake); /* the stall's place in the window, however late it opens */
  powercap_fake_stall(fake, p0, powercap_fake_ticks(fake) + 100, 20);
  uint64_t inj[1];
  gb_energy_reading r = window(250, inj, 1);
  assert_ok(&r);
  cr_assert_eq(r.pkg_uj, inj[0]);
  cr_assert_eq(r.pkg_uj, 230u * 10000u, "250 ticks less 20 stalled ones");
}

/* 60 of 200 ms lost: shorter than the 100 ms limit, but 30% of the window.
 * Read every 2 ms, the stall is seen for at least 56 ms, far above 10%. */
Test(sampler, a_short_stall_that_swallows_a_share_of_the_window_is_stalled) {
  int p0 = powercap_fake_package(fake, 0, 1, RANGE_PKG);
  powercap_fake_power(fake, p0, 10000);
  start(&(gb_sampler_opts){.period_ns = 2000000u, .clock = powercap_fake_clock(fake)});
  powercap_fake_hold(fake); /* the stall's place in the window, however late it opens */
  powercap_fake_stall(fake, p0, powercap_fake_ticks(fake) + 70, 60);
  uint64_t inj[1];
  gb_energy_reading r = window(200, inj, 1);
  cr_assert_eq(r.status, GB_ENERGY_STALLED, "%s: %s", gbi_energy_status_name(r.status),
               r.reason);
  cr_assert(strstr(r.reason, "of the 200 ms window (limit 10%)"), "%s", r.reason);
}

/* A window never records 0 uJ as measured: with no change there is no
 * reading, however short the window. */
Test(sampler, a_window_without_a_tick_is_stalled_not_zero) {
  powercap_fake_power(fake, powercap_fake_package(fake, 0, 1, RANGE_PKG), 10000);
  start(NULL);
  uint64_t inj[1];
  gb_energy_reading r = window(0, inj, 1);
  cr_assert_eq(inj[0], 0u);
  cr_assert_eq(r.status, GB_ENERGY_STALLED, "%s", r.reason);
  cr_assert(strstr(r.reason, "no energy was read"), "%s", r.reason);
}

/* The standstill is the counter's: one that began before a window counts in
 * it, so a window shorter than the limit is stalled inside a long stall. */
Test(sampler, a_short_window_inside_a_long_standstill_is_stalled) {
  int p0 = powercap_fake_package(fake, 0, 1, RANGE_PKG);
  powercap_fake_power(fake, p0, 10000);
  start(NULL);
  uint64_t from = powercap_fake_ticks(fake) + 5;
  powercap_fake_stall(fake, p0, from, 150);
  /* hold_at, not wait: a window opened after a wait could begin any number
   * of ticks later than asked, after the stall's end under a loaded CPU. */
  powercap_fake_hold_at(fake, from + 60);
  uint64_t inj[1];
  gb_energy_reading r = window(20, inj, 1); /* ticks 60 to 80 of the stall */
  cr_assert_eq(r.status, GB_ENERGY_STALLED, "%s", r.reason);
  cr_assert_eq(inj[0], 0u);
  /* The window after the stall begins inside it: more than 5 ms still. */
  powercap_fake_hold_at(fake, from + 140);
  r = window(60, inj, 1);
  cr_assert_eq(r.status, GB_ENERGY_STALLED, "%s", r.reason);
  cr_assert(strstr(r.reason, "stood still"), "%s", r.reason);
}

/* A run that ends where a stall begins: settle waits for the counter to
 * move again and marks the window when it does not. */
Test(sampler, a_window_that_ends_in_a_standstill_is_stalled_once_settled) {
  int p0 = powercap_fake_package(fake, 0, 1, RANGE_PKG);
  powercap_fake_power(fake, p0, 10000);
  start(NULL);
  powercap_fake_hold(fake); /* the stall's place in the window, however late it opens */
  powercap_fake_stall(fake, p0, powercap_fake_ticks(fake) + 51, 150);
  uint64_t inj[1];
  gb_energy_reading r = window(50, inj, 1); /* the stall starts just after it */
  assert_ok(&r);
  cr_assert_eq(gb_sampler_settle(sampler, &r), 0);
  cr_assert_eq(r.status, GB_ENERGY_STALLED, "%s", r.reason);
  cr_assert(strstr(r.reason, "across the end of the window"), "%s", r.reason);
  /* On a live counter, settle leaves an ok window ok. */
  powercap_fake_wait(fake, powercap_fake_ticks(fake) + 200);
  r = window(50, inj, 1);
  assert_ok(&r);
  cr_assert_eq(gb_sampler_settle(sampler, &r), 0);
  assert_ok(&r);
  cr_assert_eq(r.pkg_uj, inj[0]);
}

/* A counter going backwards reads as one wrap: a rise of about the whole
 * range in one interval, far above 1 kW. */
Test(sampler, a_counter_that_goes_backwards_is_a_jump) {
  int p0 = powercap_fake_package(fake, 0, 5000000000u, RANGE_PKG);
  powercap_fake_power(fake, p0, 10000);
  start(NULL);
  cr_assert_eq(gb_sampler_begin(sampler), 0);
  powercap_fake_wait(fake, powercap_fake_ticks(fake) + 20);
  powercap_fake_set(fake, p0, 4000000000u);
  cr_assert(aborted_within(5000), "the abort fd fires");
  gb_energy_reading r;
  cr_assert_eq(gb_sampler_end(sampler, &r), 0);
  cr_assert_eq(r.status, GB_ENERGY_JUMP, "%s: %s", gbi_energy_status_name(r.status), r.reason);
  cr_assert(strstr(r.reason, "above 1000 W"), "%s", r.reason);
}

/* 100 mJ wraps every 5 ms at 20 W and every 0.1 ms at 1 kW: no sampler
 * can read it twice per wrap, so energy is refused rather than undercounted. */
Test(sampler, a_range_that_can_wrap_unseen_is_refused) {
  powercap_fake_package(fake, 0, 1, 100000u);
  gb_rapl_opts ro = powercap_fake_rapl_opts(fake);
  gb_err err;
  cr_assert_eq(gb_rapl_open(&ro, &rapl, &err), 0, "%s", err.msg);
  uint64_t period = 0;
  cr_assert_eq(gb_sampler_fit(rapl, NULL, &period, &err), -ERANGE);
  cr_assert_eq(period, 0u, "untouched");
  cr_assert(strstr(err.msg, "max_energy_range_uj 100000 wraps every 100 us at 1000 W"), "%s",
            err.msg);
  cr_assert(strstr(err.msg, "energy is refused"), "%s", err.msg);
  cr_assert_eq(gb_sampler_create(rapl, NULL, &sampler, &err), -ERANGE);
  cr_assert_null(sampler);
}

/* 8 J: 8 ms at 1 kW. The default period shortens to 4 ms to read it twice
 * per wrap; a period given longer than that is refused. */
Test(sampler, a_small_range_is_sampled_faster) {
  powercap_fake_package(fake, 0, 1, RANGE_PKG);
  powercap_fake_dram(fake, 0, 0, 1, 8000000u);
  gb_rapl_opts ro = powercap_fake_rapl_opts(fake);
  gb_err err;
  cr_assert_eq(gb_rapl_open(&ro, &rapl, &err), 0, "%s", err.msg);
  uint64_t period;
  cr_assert_eq(gb_sampler_fit(rapl, NULL, &period, &err), 0, "%s", err.msg);
  cr_assert_eq(period, 4000000u);
  cr_assert_eq(gb_sampler_fit(rapl, &(gb_sampler_opts){.period_ns = 5000000u}, &period, &err),
               -ERANGE);
  cr_assert(strstr(err.msg, "dram"), "%s", err.msg);
  cr_assert_eq(gb_sampler_wrap_ns(262143328850u, 1000), 262143328850000u / 1000u);
}

/* Two readings further apart than a wrap at 1 kW: the difference could be
 * short by a whole range, so the window is not ok. The firmware is stepped
 * by hand, 30 ticks at once, between two readings of a 25 ms range. */
Test(sampler, readings_further_apart_than_a_wrap_are_refused) {
  int p0 = powercap_fake_package(fake, 0, 1, 24999999u);
  powercap_fake_power(fake, p0, 20000);
  gb_rapl_opts ro = powercap_fake_rapl_opts(fake);
  gb_err err;
  cr_assert_eq(gb_rapl_open(&ro, &rapl, &err), 0, "%s", err.msg);
  gb_sampler_opts so = {.clock = powercap_fake_clock(fake)};
  cr_assert_eq(gb_sampler_create(rapl, &so, &sampler, &err), 0, "%s", err.msg);
  cr_assert_eq(gb_sampler_begin(sampler), 0);
  powercap_fake_tick(fake, 30);
  gb_energy_reading r;
  cr_assert_eq(gb_sampler_end(sampler, &r), 0);
  cr_assert_eq(r.status, GB_ENERGY_STALLED, "%s", r.reason);
  cr_assert(strstr(r.reason, "a wrap may have been missed"), "%s", r.reason);
}

Test(sampler, a_dram_stall_is_not_a_fault) {
  powercap_fake_power(fake, powercap_fake_package(fake, 0, 1, RANGE_PKG), 10000);
  int d0 = powercap_fake_dram(fake, 0, 0, 1, RANGE_DRAM);
  powercap_fake_power(fake, d0, 1000);
  start(NULL);
  powercap_fake_hold(fake); /* the stall's place in the window, however late it opens */
  powercap_fake_stall(fake, d0, powercap_fake_ticks(fake) + 10, 200);
  uint64_t inj[2];
  gb_energy_reading r = window(250, inj, 2);
  assert_ok(&r);
  cr_assert_eq(r.dram_uj, inj[d0]);
}

Test(sampler, a_rise_above_1_kw_is_a_jump) {
  int p0 = powercap_fake_package(fake, 0, 1, RANGE_PKG);
  powercap_fake_power(fake, p0, 10000);
  start(NULL);
  cr_assert_eq(gb_sampler_begin(sampler), 0);
  powercap_fake_jump(fake, p0, powercap_fake_ticks(fake) + 30, 100000000u); /* 100 J at once */
  cr_assert(aborted_within(5000), "the abort fd fires");
  gb_energy_reading r;
  cr_assert_eq(gb_sampler_end(sampler, &r), 0);
  cr_assert_eq(r.status, GB_ENERGY_JUMP, "%s: %s", gbi_energy_status_name(r.status), r.reason);
  cr_assert(strstr(r.reason, "package-0"), "%s", r.reason);
  cr_assert(strstr(r.reason, "above 1000 W"), "%s", r.reason);
}

Test(sampler, a_steady_900_w_is_not_a_jump) {
  int p0 = powercap_fake_package(fake, 0, 1, RANGE_PKG);
  powercap_fake_power(fake, p0, 900000);
  start(NULL);
  uint64_t inj[1];
  gb_energy_reading r = window(300, inj, 1);
  assert_ok(&r);
  cr_assert_eq(r.pkg_uj, inj[0]);
}

Test(sampler, a_removed_zone_has_vanished) {
  powercap_fake_power(fake, powercap_fake_package(fake, 0, 1, RANGE_PKG), 10000);
  int p1 = powercap_fake_package(fake, 1, 1, RANGE_PKG);
  powercap_fake_power(fake, p1, 10000);
  powercap_fake_power(fake, powercap_fake_dram(fake, 1, 0, 1, RANGE_DRAM), 1000);
  start(NULL);
  cr_assert_eq(gb_sampler_begin(sampler), 0);
  powercap_fake_vanish(fake, p1, powercap_fake_ticks(fake) + 30);
  cr_assert(aborted_within(5000), "the abort fd fires");
  gb_energy_reading r;
  cr_assert_eq(gb_sampler_end(sampler, &r), 0);
  cr_assert_eq(r.status, GB_ENERGY_VANISHED, "%s: %s", gbi_energy_status_name(r.status),
               r.reason);
  cr_assert(strstr(r.reason, "intel-rapl:1"), "%s", r.reason);
  cr_assert(strstr(r.reason, "was removed"), "%s", r.reason);
}

Test(sampler, a_read_error_has_vanished) {
  powercap_fake_power(fake, powercap_fake_package(fake, 0, 1, RANGE_PKG), 10000);
  int d0 = powercap_fake_dram(fake, 0, 0, 1, RANGE_DRAM);
  powercap_fake_power(fake, d0, 1000);
  start(NULL);
  cr_assert_eq(gb_sampler_begin(sampler), 0);
  powercap_fake_fail(fake, d0, powercap_fake_ticks(fake) + 30, EIO);
  cr_assert(aborted_within(5000), "the abort fd fires");
  gb_energy_reading r;
  cr_assert_eq(gb_sampler_end(sampler, &r), 0);
  cr_assert_eq(r.status, GB_ENERGY_VANISHED, "%s", r.reason);
  cr_assert(strstr(r.reason, "intel-rapl:0:0/energy_uj: Input/output error"), "%s", r.reason);
}

Test(sampler, a_failed_first_reading_opens_a_faulted_window) {
  int p0 = powercap_fake_package(fake, 0, 1, RANGE_PKG);
  start(NULL);
  powercap_fake_fail(fake, p0, 0, ENODEV);
  cr_assert_eq(gb_sampler_begin(sampler), -ENODEV);
  cr_assert(aborted_within(0), "the abort fd is already readable");
  gb_energy_reading r;
  cr_assert_eq(gb_sampler_end(sampler, &r), 0);
  cr_assert_eq(r.status, GB_ENERGY_VANISHED);
  cr_assert(strstr(r.reason, "No such device"), "%s", r.reason);
}

Test(sampler, windows_must_open_and_close_in_turn) {
  powercap_fake_package(fake, 0, 1, RANGE_PKG);
  start(NULL);
  gb_energy_reading r = {.samples = 99};
  cr_assert_eq(gb_sampler_end(sampler, &r), -EINVAL);
  cr_assert_eq(r.samples, 99u, "out untouched");
  cr_assert_eq(gb_sampler_begin(sampler), 0);
  cr_assert_eq(gb_sampler_begin(sampler), -EBUSY);
  cr_assert_eq(gb_sampler_end(sampler, &r), 0);
  cr_assert_eq(gb_sampler_end(sampler, &r), -EINVAL);
}

Test(sampler, options_out_of_range_are_refused) {
  powercap_fake_package(fake, 0, 1, RANGE_PKG);
  gb_rapl_opts ro = powercap_fake_rapl_opts(fake);
  gb_err err;
  cr_assert_eq(gb_rapl_open(&ro, &rapl, &err), 0, "%s", err.msg);
  static const gb_sampler_opts bad[] = {
      {.period_ns = 20000001u},
      {.period_ns = 99999u},
      {.period_ns = 5000000u, .stall_ns = 5000000u},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    gb_sampler *s = NULL;
    cr_assert_eq(gb_sampler_create(rapl, &bad[i], &s, &err), -EINVAL, "case %zu", i);
    cr_assert_null(s);
    cr_assert(strstr(err.msg, "sampler"), "%s", err.msg);
  }
  cr_assert_eq(gb_sampler_create(rapl, NULL, &sampler, &err), 0, "%s", err.msg);
}

/* Real time from here on: the thread's period is honoured and it is idle
 * between windows. Bounds are loose; the machine is shared. */
static gb_energy_reading real_window(uint64_t period_ns, uint64_t ms) {
  int p0 = powercap_fake_package(fake, 0, 1, RANGE_PKG);
  powercap_fake_power(fake, p0, 10000);
  gb_sampler_opts o = {.period_ns = period_ns,
                       .stall_ns = 1000000000u,
                       .edge_ns = 1000000000u,
                       .still_pct = 100};
  start(&o);
  gb_energy_reading r;
  cr_assert_eq(gb_sampler_begin(sampler), 0);
  cr_assert_eq(gb_sleep_ns(ms * 1000000u), 0);
  cr_assert_eq(gb_sampler_end(sampler, &r), 0);
  assert_ok(&r);
  return r;
}

/* At most one reading per period of the window as it really lasted (a
 * loaded machine wakes the test late, and the window grows), plus the two
 * at its edges, plus slack. */
static uint64_t most_samples(const gb_energy_reading *r, uint64_t period_ns, uint64_t slack) {
  return (r->end_ns - r->begin_ns) / period_ns + 2 + slack;
}

Test(sampler, samples_every_period_on_the_real_clock) {
  gb_energy_reading r = real_window(0, 200);
  cr_assert_geq(r.samples, 6u, "about 20 expected at 10 ms: %llu",
                (unsigned long long)r.samples);
  cr_assert_leq(r.samples, most_samples(&r, 10000000u, 3),
                "no faster than the period: %llu in %llu ns", (unsigned long long)r.samples,
                (unsigned long long)(r.end_ns - r.begin_ns));
  cr_assert_lt(r.max_gap_ns, 150000000u, "gap %llu ns", (unsigned long long)r.max_gap_ns);
  cr_assert_geq(r.end_ns - r.begin_ns, 200000000u);
}

Test(sampler, a_shorter_period_samples_more_often) {
  gb_energy_reading r = real_window(2000000u, 200);
  cr_assert_geq(r.samples, 30u, "about 100 expected at 2 ms: %llu",
                (unsigned long long)r.samples);
  cr_assert_leq(r.samples, most_samples(&r, 2000000u, 1), "%llu in %llu ns",
                (unsigned long long)r.samples, (unsigned long long)(r.end_ns - r.begin_ns));
}

static uint64_t cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Real RAPL, like this fake on the real clock, adds about 1 ms of energy at
 * each update: two readings 0.1 ms apart can straddle a whole update. */
Test(sampler, a_steady_900_w_in_1_ms_steps_is_not_a_jump_at_a_short_period) {
  int p0 = powercap_fake_package(fake, 0, 1, RANGE_PKG);
  powercap_fake_power(fake, p0, 900000);
  gb_sampler_opts o = {.period_ns = GB_SAMPLER_MIN_PERIOD_NS,
                       .stall_ns = 1000000000u,
                       .edge_ns = 1000000000u,
                       .still_pct = 100};
  start(&o);
  gb_energy_reading r;
  cr_assert_eq(gb_sampler_begin(sampler), 0);
  cr_assert_eq(gb_sleep_ns(200000000u), 0);
  cr_assert_eq(gb_sampler_end(sampler, &r), 0);
  assert_ok(&r);
  cr_assert_gt(r.samples, 2 * r.pkg_uj / 900000u, "most intervals hold no update");
}

/* Between windows the thread goes on reading at its period, so that a
 * standstill is followed across windows, and no faster. */
Test(sampler, reads_at_its_period_between_windows) {
  powercap_fake_package(fake, 0, 1, RANGE_PKG);
  gb_rapl_opts ro = powercap_fake_rapl_opts(fake);
  gb_err err;
  cr_assert_eq(gb_rapl_open(&ro, &rapl, &err), 0, "%s", err.msg);
  gb_sampler_opts o = {.period_ns = 10000000u, .stall_ns = 1000000000u};
  cr_assert_eq(gb_sampler_create(rapl, &o, &sampler, &err), 0, "%s", err.msg);
  uint64_t reads = powercap_fake_preads(fake), cpu = cpu_ns(), t0 = gb_monotonic_raw_ns();
  cr_assert_eq(gb_sleep_ns(200000000u), 0);
  uint64_t between = powercap_fake_preads(fake) - reads;
  uint64_t slept = gb_monotonic_raw_ns() - t0; /* 200 ms, or more when woken late */
  cr_assert_geq(between, 3u, "about 20 expected at 10 ms: %llu", (unsigned long long)between);
  cr_assert_leq(between, slept / 10000000u + 1, "no faster than the period: %llu in %llu ns",
                (unsigned long long)between, (unsigned long long)slept);
  cr_assert_lt(cpu_ns() - cpu, 20000000u, "no busy loop between windows");
}
