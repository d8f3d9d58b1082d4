/* Energy over a measurement window, watched while it runs. A background
 * thread reads every zone every period, from the sampler's creation to its
 * end, so that how long a counter has stood still is known whatever window
 * is open (a standstill is the counter's, not the window's). In a window it
 * adds up the wrap-corrected change of each interval (so a counter may wrap
 * any number of times over a run, as long as it wraps at most once per
 * interval), and stops the run through an eventfd when the counters stop
 * making sense:
 *
 *   stalled   a package counter stood still for stall_ns (default 100 ms),
 *             counted from its last change, even one before the window; or
 *             two readings were so far apart that a wrap may have been missed;
 *   jump      a package counter rose faster than max_power_w (default 1 kW)
 *             over an interval, as after a suspend resets the counters;
 *   vanished  a zone could no longer be read (read error, or its file gone);
 *   disagree  a second way of reading the counters (opts.cross) gave a
 *             different energy for the window.
 *
 * A window is also stalled, when it closes, if a package counter did not
 * change in it at all (energy not read is never zero), stood still for more
 * than still_pct (10%) of it, or stood still for edge_ns (10 ms) across its
 * beginning or its end (docs/adr/0008-energy-validity.md).
 *
 * Usage per measured run (the idle window after it is just another window):
 *
 *   gb_sampler_begin(s);     just before spawning the worker
 *   ... poll gb_sampler_abort_fd(s) while the worker runs ...
 *   gb_sampler_end(s, &r);   just after reaping it
 *   gb_sampler_settle(s, &r) after the last window of a row, before judging it
 *
 * Each sample is one clock reading before and one after a pread per zone,
 * under a mutex, with no allocation; the thread blocks every signal so that
 * the spawner's signal handling is undisturbed. */
#ifndef GREENBENCH_SAMPLER_H
#define GREENBENCH_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "greenbench/clock.h"
#include "greenbench/error.h"
#include "greenbench/rapl.h"

#define GB_SAMPLER_DEFAULT_PERIOD_NS 10000000u /* 10 ms */
#define GB_SAMPLER_MIN_PERIOD_NS 100000u       /* 0.1 ms */
#define GB_SAMPLER_MAX_PERIOD_NS 20000000u     /* 20 ms */
#define GB_SAMPLER_DEFAULT_STALL_NS 100000000u /* 100 ms */
#define GB_SAMPLER_DEFAULT_MAX_POWER_W 1000u   /* per package zone */
/* A counter read just after an update can hold up to one update (about
 * 1 ms) of energy from before the interval began; the jump test allows two. */
#define GB_SAMPLER_JUMP_SLACK_NS 2000000u
/* A real counter changes about every 1 ms, but misses updates, sometimes
 * several in a row (their energy shows at the next one, so nothing is
 * lost), and each update comes early or late: a standstill shorter than
 * this is a normal update gap and adds nothing to a window's still time.
 * It was 2 ms until the realistic counters of docs/bare-metal.md stalled
 * 25 ms windows with normal gaps of 2.5 and 5 ms (ADR 0008). */
#define GB_SAMPLER_UPDATE_GAP_NS 10000000u
/* 10 ms: longer than a real counter's normal gaps (it was 5 ms; ADR 0008). */
#define GB_SAMPLER_DEFAULT_EDGE_NS 10000000u
#define GB_SAMPLER_DEFAULT_STILL_PCT 10u
/* gb_sampler_settle reads every 0.2 ms for at most 1 s of CLOCK_MONOTONIC. */
#define GB_SAMPLER_SETTLE_STEP_NS 200000u
#define GB_SAMPLER_SETTLE_MAX_NS 1000000000u

typedef enum {
  GB_ENERGY_OK,
  GB_ENERGY_STALLED,
  GB_ENERGY_JUMP,
  GB_ENERGY_VANISHED,
  GB_ENERGY_DISAGREE, /* the two ways of reading the counters disagree (opts.cross) */
} gb_energy_status;

/* Zero in a field means its default. */
typedef struct {
  /* Between samples: 0.1 ms to 20 ms. 0: 10 ms, or shorter when a zone's
   * range would wrap in less than two periods at max_power_w. */
  uint64_t period_ns;
  uint64_t stall_ns;    /* a package counter unchanged this long is stalled; > period */
  uint64_t max_power_w; /* per package zone; faster is a jump; also sets the wrap rule */
  uint64_t edge_ns;     /* unchanged this long across a window's begin or end: stalled */
  uint64_t still_pct;   /* still for more than this share of a window: stalled; <= 100 */
  gb_clock clock;       /* timestamps for stall and jump; now_ns NULL: CLOCK_MONOTONIC_RAW.
                           The thread's sleeps always use CLOCK_MONOTONIC. */
  /* NULL: none. A second way of reading the same counters (perf_event beside
   * powercap; it must outlive the sampler), read at each window's first and
   * last reading. Its zones are matched to the sampler's by socket and kind;
   * a window whose totals differ by more than the counters' resolution
   * (GB_SAMPLER_CROSS_UNITS units of 62 uJ per zone, GB_SAMPLER_CROSS_PPM of
   * the energy, and whatever the counters rose by while the two were read)
   * is GB_ENERGY_DISAGREE. */
  gb_rapl *cross;
} gb_sampler_opts;

/* The cross-check's allowance: two energy units per zone (one per edge; the
 * two ways round the same raw count differently), and 0.3% of the energy,
 * because the kernel's powercap driver takes many Xeons' DRAM unit as
 * 15.3 uJ and its perf driver as 2^-16 J (15.26 uJ). */
#define GB_SAMPLER_CROSS_UNITS 2u
#define GB_SAMPLER_CROSS_UNIT_UJ 62u
#define GB_SAMPLER_CROSS_PPM 3000u

typedef struct {
  gb_energy_status status;
  char reason[512]; /* why, one line, when status is not GB_ENERGY_OK; else "" */
  /* The totals are the energy of the window only when status is GB_ENERGY_OK;
   * after a fault they hold what was counted up to it and must be recorded
   * as unavailable. */
  uint64_t pkg_uj;  /* all package zones, summed over sockets */
  uint64_t dram_uj; /* all DRAM zones; 0 when !has_dram */
  bool has_dram;
  size_t zone_count;
  uint64_t zone_uj[GB_RAPL_MAX_ZONES]; /* per zone, in gb_rapl_zone_at order */
  uint64_t samples;                    /* readings in the window, begin and end included */
  /* Longest time between two consecutive readings, at most: each reading
   * lies between two clock readings, and the gap is taken from the earlier
   * reading's first to the later one's second. */
  uint64_t max_gap_ns;
  /* opts.cross was read: the same window's totals by the second way. */
  bool crossed;
  uint64_t cross_pkg_uj, cross_dram_uj;
  uint64_t begin_ns; /* sampler clock just before the first reading */
  uint64_t end_ns;   /* sampler clock just after the last good reading */
} gb_energy_reading;

typedef struct gb_sampler gb_sampler;

/* Nanoseconds a counter of range max_range_uj (uJ) takes to wrap at
 * max_power_w (W): the shortest time in which a wrap can happen. UINT64_MAX
 * when it does not fit or the power is 0. */
uint64_t gb_sampler_wrap_ns(uint64_t max_range_uj, uint64_t max_power_w);
/* Whether every zone of rapl can be read often enough that no wrap is
 * missed: at least twice per wrap at max_power_w. Sets *period_ns to the
 * sampling period the sampler would use (opts->period_ns if given, else 10
 * ms or shorter to fit) and returns 0; -ERANGE when that period is longer
 * than half a wrap or shorter than 0.1 ms (the message names the zone, its
 * range and wrap time), -EINVAL for options out of range. */
GB_MUST_USE int gb_sampler_fit(const gb_rapl *rapl, const gb_sampler_opts *opts,
                               uint64_t *period_ns, gb_err *err);

/* Starts the sampling thread over rapl's zones (rapl must outlive the
 * sampler; opts may be NULL) after one reading of every zone. Returns 0 and
 * sets *out; -EINVAL for options out of range; -ERANGE when a zone could
 * wrap unseen (gb_sampler_fit); the -errno of the reading; or -errno from
 * eventfd or pthread_create; each with a message. */
GB_MUST_USE int gb_sampler_create(gb_rapl *rapl, const gb_sampler_opts *opts, gb_sampler **out,
                                  gb_err *err);
/* Stops and joins the thread (within one period) and frees s (NULL is fine).
 * An open window is abandoned. */
void gb_sampler_destroy(gb_sampler *s);

/* Opens a window: takes the "before" reading now, in the caller's thread,
 * and resets the abort fd. Returns 0; -EBUSY when a window is already open
 * (nothing changes); or the -errno of a failed reading, in which case the
 * window is open but already faulted (vanished): the abort fd is readable
 * and gb_sampler_end reports why. */
GB_MUST_USE int gb_sampler_begin(gb_sampler *s);
/* Closes the window: takes the "after" reading now (unless it has faulted)
 * and fills *out with the totals and the status. Returns 0, or -EINVAL (out
 * untouched) when no window is open. */
GB_MUST_USE int gb_sampler_end(gb_sampler *s, gb_energy_reading *out);

/* After r, the reading of the window just closed, judges its end and
 * keeps the next window out of the same standstill: waits (reading every 0.2
 * ms) until every package counter has changed after the window's last
 * reading, for at most 1 s of CLOCK_MONOTONIC, and marks an ok r stalled,
 * with the reason, if one stood still for edge_ns across that end or did
 * not change within the second. Returns 0, or -EBUSY (r untouched) while a
 * window is open. On a live counter it takes about one counter update
 * (1 ms). */
GB_MUST_USE int gb_sampler_settle(gb_sampler *s, gb_energy_reading *r);

/* An eventfd that becomes readable (POLLIN) when the open window faults, and
 * stays so until the next gb_sampler_begin. Owned by the sampler: poll it,
 * never read or close it. */
GB_MUST_USE int gb_sampler_abort_fd(const gb_sampler *s);
/* Copies the current window's fault reason ("" when none) into buf. */
void gb_sampler_fault_reason(gb_sampler *s, char *buf, size_t len);

#endif
