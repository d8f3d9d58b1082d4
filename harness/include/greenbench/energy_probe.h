/* Whether energy can be measured here, decided once: the one probe that both
 * `greenbench check` and the campaign run, so that they never disagree. It
 * says how each way of reading the counters fared (energy_ways.h), watches
 * the main way's counters for GB_ENERGY_PROBE_NS, one reading every
 * GB_ENERGY_PROBE_STEP_NS, and judges what it saw: a package counter that
 * did not move (frozen, as in most virtual machines), one that stood still
 * for the sampler's stall limit, a range the sampler cannot follow, or a
 * reading that failed (a zone that vanished). */
#ifndef GREENBENCH_ENERGY_PROBE_H
#define GREENBENCH_ENERGY_PROBE_H

#include <stdbool.h>
#include <stddef.h>

#include "greenbench/energy_ways.h"
#include "greenbench/findings.h"
#include "greenbench/sampler.h"

/* Long enough for a package counter to move several times (it updates about
 * once a millisecond), short enough to run before every campaign; read
 * every millisecond so that a standstill is measured to about that. */
#define GB_ENERGY_PROBE_NS 500000000ull
#define GB_ENERGY_PROBE_STEP_NS 1000000ull

/* Probes the ways in w (opened by the caller, with the identity that may
 * read them) with the sampler options the campaign would use (so may be
 * NULL: the defaults; its clock times the standstills, its stall_ns and
 * max_power_w set the limits). Adds its findings to f: one per way, the
 * ways' summary, "energy: ..." with the zones, TPMI, counters, sampling and
 * standstill under it. Returns true when energy can be measured; else false
 * with the reason, one line, in why[len]. */
bool gb_energy_probe(const gb_energy_ways *w, const gb_sampler_opts *so, gb_findings *f,
                     char *why, size_t len);

#endif
