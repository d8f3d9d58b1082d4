/* Counters as real RAPL hardware shows them, on simulated time, for the
 * sampler's no-false-stall tests (docs/bare-metal.md, "Counters as they
 * really behave", gives the sources of every parameter):
 *
 *   - an update about every millisecond, each one late or early by up to
 *     jitter_ns, and some updates missed (their energy shows at the next);
 *   - a raw 32-bit counter in energy units (2^-14 J, 61.035 uJ, for Intel
 *     packages; 15.3 uJ for the DRAM of many Xeons; 2^-16 J, 15.259 uJ, on
 *     AMD), shown in energy_uj as the kernel converts it: raw x unit_nj /
 *     1000, integer division, wrapping with the raw counter;
 *   - optional filtering noise (Intel after PLATYPUS, up to 50% of a
 *     reading): each update shows the true energy plus a fresh random error
 *     of at most filter_share of one update's energy, never less than the
 *     previous update showed;
 *   - trees laid out as each kind of machine registers them (client with
 *     psys, two-socket server with DRAM, multi-die package-N-die-D names,
 *     AMD package and core, Xeon 6 with TPMI zones beside the MSR ones).
 *
 * The tree is a powercap_fake (helper_powercap.h) for the zone discovery;
 * every energy_uj read goes through counters_rapl_opts's pread, which
 * answers from the model at the simulated time. Nothing sleeps: the test
 * moves the time with counters_advance. */
#ifndef GREENBENCH_TESTS_HELPER_COUNTERS_H
#define GREENBENCH_TESTS_HELPER_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

#include "greenbench/clock.h"
#include "greenbench/perf_energy.h"
#include "greenbench/rapl.h"
#include "helper_powercap.h"

#define COUNTERS_MAX_ZONES 16

/* How one zone's counter behaves. */
typedef struct {
  uint64_t unit_nj;      /* kernel energy unit, nJ: 61035, 15300, 15258 */
  uint64_t interval_ns;  /* mean time between updates: 1 ms */
  uint64_t jitter_ns;    /* each update early or late by up to this */
  double miss_p;         /* chance that an update is missed */
  unsigned miss_burst;   /* at most this many missed in a row (>= 1 when miss_p > 0) */
  double filter_share;   /* filtering noise bound, share of one update; 0: none */
  double idle_w, busy_w; /* power while idle and while a worker runs */
} counters_behaviour;

/* One machine: its name and the zones of its tree. */
typedef struct counters counters;

typedef enum {
  COUNTERS_INTEL_CLIENT, /* package-0 (core, uncore) and psys: 61 uJ, filtered */
  COUNTERS_INTEL_SERVER, /* package-0/1 with dram (15.3 uJ) */
  COUNTERS_MULTI_DIE,    /* package-0-die-0/1, package-1-die-0/1, each with dram */
  COUNTERS_AMD_ZEN,      /* package-0/1 with core subzones, 15.259 uJ, no dram */
  COUNTERS_XEON6_TPMI,   /* package-0/1 and psys, plus intel-rapl-tpmi:0/1 duplicates */
  COUNTERS_HARSH,        /* package-0: +-0.5 ms jitter, 15% missed, bursts of 4, filtered */
  COUNTERS_MACHINE_COUNT
} counters_machine;

const char *counters_machine_name(counters_machine m);

/* Builds machine m's tree with the seed for every random draw; counters
 * start near the top of their range so that they wrap within minutes. */
counters *counters_create(counters_machine m, uint64_t seed);
void counters_destroy(counters *c);
/* The tree's root and the pread that answers from the model. */
gb_rapl_opts counters_rapl_opts(counters *c);
/* The simulated time (ns); every clock reading costs 1 us, every pread 3 us. */
gb_clock counters_clock(counters *c);
uint64_t counters_now(const counters *c);
/* Moves the simulated time forward to t (not back). */
void counters_advance(counters *c, uint64_t t);
/* Whether a worker runs: every zone draws busy_w, else idle_w. */
void counters_busy(counters *c, bool busy);

/* True energy (J) of the counted zones (packages, or DRAM when dram) between
 * simulated times a and b: the integral of their power. */
double counters_true_j(const counters *c, bool dram, uint64_t a, uint64_t b);
/* The most a window's reading can differ from counters_true_j over its own
 * begin_ns and end_ns: two stale edges at busy power, two units, two filter
 * bounds, per zone, summed over the counted zones. */
double counters_slack_j(const counters *c, bool dram);

/* The same counters through perf_event: writes a power PMU folder (type 23,
 * one CPU per package zone in the cpumask, energy-pkg and, where the tree
 * has DRAM, energy-ram, with the kernel's scales: 2^-32 J per count) and
 * those CPUs' physical_package_id, and fills opts with it and a reader whose
 * counts are the raw counters, 64 bits wide, times skew (1: the same
 * counters; 1.05: a planted 5% disagreement). DRAM counts in 2^-16 J, as the
 * kernel's perf driver takes it, where powercap takes 15.3 uJ. */
void counters_perf(counters *c, double skew, gb_perf_opts *opts);

/* Faults, on every package zone, from simulated time t: */
void counters_stop(counters *c, uint64_t t);          /* never updates again */
void counters_reset(counters *c, uint64_t t);         /* goes to 0, as after a suspend */
void counters_vanish(counters *c, uint64_t t, int e); /* reads fail with errno e */

#endif
