/* The two ways this machine may offer to read the RAPL counters, powercap
 * (rapl.h) and perf_event (perf_energy.h), opened side by side: the study
 * reads powercap where it can, perf_event where only it works, and where
 * both work it cross-checks every window of powercap against perf_event
 * (gb_sampler_opts.cross). docs/bare-metal.md, section 14. */
#ifndef GREENBENCH_ENERGY_WAYS_H
#define GREENBENCH_ENERGY_WAYS_H

#include <stdbool.h>

#include "greenbench/error.h"
#include "greenbench/perf_energy.h"
#include "greenbench/rapl.h"

typedef struct {
  gb_rapl *powercap;        /* NULL: unavailable, powercap_why says why */
  gb_rapl *perf;            /* NULL: unavailable or not tried, perf_why says why */
  int powercap_rc, perf_rc; /* 0, or the -errno of the open */
  gb_err powercap_why, perf_why;
} gb_energy_ways;

/* Opens both ways (either opts may be NULL: the defaults). perf_event is not
 * tried beside a powercap root other than /sys/class/powercap (a test's fake
 * tree, through opts or $GREENBENCH_POWERCAP_ROOT) unless its own folder is
 * given too (opts or $GREENBENCH_PERF_POWER_DIR): a fake tree and the
 * machine's real counters would never agree. Never fails: each way is open
 * or has its reason. */
void gb_energy_ways_open(const gb_rapl_opts *rapl, const gb_perf_opts *perf, gb_energy_ways *w);
/* Closes what is open (w may hold neither). */
void gb_energy_ways_close(gb_energy_ways *w);
/* The way the study reads: powercap, else perf_event, else NULL. */
gb_rapl *gb_energy_ways_main(const gb_energy_ways *w);
/* The way it cross-checks with: perf_event when both are open, else NULL. */
gb_rapl *gb_energy_ways_cross(const gb_energy_ways *w);
/* Takes the main way (and the cross) out of w, which no longer closes them. */
void gb_energy_ways_take(gb_energy_ways *w, gb_rapl **main, gb_rapl **cross);
/* Why neither works, one line: "powercap: ...; perf_event: ...". */
void gb_energy_ways_why(const gb_energy_ways *w, char *buf, size_t len);

/* The harness's test hooks, NULL-ended: every environment variable that
 * points it at files a test made (GB_RAPL_ROOT_ENV, GB_PERF_POWER_DIR_ENV).
 * The greenbench command refuses each under sudo (cli/src/main.c), so a new
 * hook is added here, where the harness owns it, and is refused with the
 * others; harness_hooks/every_env_define_is_a_listed_hook checks that every
 * GB_*_ENV the harness's headers define is listed. */
extern const char *const gb_test_hooks[];

#endif
