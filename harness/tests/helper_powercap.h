/* A fake Linux powercap tree for the RAPL and sampler tests (and the sampler
 * benchmark): zone directories with name, energy_uj and max_energy_range_uj
 * files in a mkdtemp folder, laid out as sysfs lays them out, plus a
 * "firmware" thread that advances the counters in ticks of 1 ms of virtual
 * time and plays scripted faults (stalls, jumps, removals, read errors).
 *
 * Every energy_uj write and every read through powercap_fake_rapl_opts's
 * pread happen under one mutex, because a regular file, unlike sysfs, can be
 * read half-written. The fake's clock is its virtual time, so a starved test
 * process slows the fake hardware down instead of faking a stall.
 *
 * Setup failures abort with a message: these are test fixtures. Nothing
 * here depends on Criterion. */
#ifndef GREENBENCH_TESTS_HELPER_POWERCAP_H
#define GREENBENCH_TESTS_HELPER_POWERCAP_H

#include <stdbool.h>
#include <stdint.h>

#include "greenbench/clock.h"
#include "greenbench/rapl.h"

#define POWERCAP_FAKE_TICK_NS 1000000u /* virtual time per firmware update */
#define POWERCAP_FAKE_MAX_ZONES 16

typedef struct powercap_fake powercap_fake;

/* An empty tree (only the "intel-rapl" control-type directory sysfs has). */
powercap_fake *powercap_fake_create(void);
/* Stops the firmware thread and removes the tree. */
void powercap_fake_destroy(powercap_fake *f);
const char *powercap_fake_root(const powercap_fake *f);

/* Adds zone directory `id` holding name, energy_uj and max_energy_range_uj.
 * An id "intel-rapl:N:M" goes inside intel-rapl:N (which must exist) with a
 * flat link ROOT/intel-rapl:N:M, as in /sys/class/powercap; any other id
 * ("intel-rapl:N", "intel-rapl-mmio:0") is a top-level directory. Returns
 * the zone's handle. */
int powercap_fake_zone(powercap_fake *f, const char *id, const char *name, uint64_t energy_uj,
                       uint64_t max_uj);
/* intel-rapl:<socket> named package-<socket>. */
int powercap_fake_package(powercap_fake *f, unsigned socket, uint64_t energy_uj,
                          uint64_t max_uj);
/* intel-rapl:<socket>:<sub> named dram. */
int powercap_fake_dram(powercap_fake *f, unsigned socket, unsigned sub, uint64_t energy_uj,
                       uint64_t max_uj);
/* Writes text as the whole of ROOT/relpath (created if needed). */
void powercap_fake_write(powercap_fake *f, const char *relpath, const char *text);
/* Replaces ROOT/relpath (a file) by an empty directory. */
void powercap_fake_make_dir(powercap_fake *f, const char *relpath);

/* Energy added to the zone per tick (uJ per ms, i.e. mW). */
void powercap_fake_power(powercap_fake *f, int zone, uint64_t uj_per_tick);
/* Sets the counter as the file shows it (0..max), adding nothing to the
 * injected total. */
void powercap_fake_set(powercap_fake *f, int zone, uint64_t energy_uj);
/* Scripted faults, at absolute ticks (see powercap_fake_ticks): */
void powercap_fake_stall(powercap_fake *f, int zone, uint64_t from_tick, uint64_t ticks);
/* Stalls at every tick t with from <= t % every < from + ticks. */
void powercap_fake_stall_every(powercap_fake *f, int zone, uint64_t every, uint64_t from,
                               uint64_t ticks);
/* Whether tick is one of the zone's scripted stalls (either kind). */
bool powercap_fake_stalled_at(powercap_fake *f, int zone, uint64_t tick);
void powercap_fake_jump(powercap_fake *f, int zone, uint64_t at_tick, uint64_t uj);
/* Removes the zone's directory (and its subzones) like a driver unload. */
void powercap_fake_vanish(powercap_fake *f, int zone, uint64_t at_tick);
/* From at_tick on, reads of the zone's energy_uj fail with errnum. */
void powercap_fake_fail(powercap_fake *f, int zone, uint64_t at_tick, int errnum);

/* Advances n ticks now, in the caller's thread. */
void powercap_fake_tick(powercap_fake *f, uint64_t n);
/* Starts the firmware thread: one tick per millisecond of real time. */
void powercap_fake_start(powercap_fake *f);
/* Pauses ticking (no tick is in progress once it returns) and resumes it. */
void powercap_fake_hold(powercap_fake *f);
void powercap_fake_release(powercap_fake *f);
/* Lets the firmware tick up to tick and no further, then holds it there: the
 * tick count is exactly tick when it returns, however late the caller wakes. */
void powercap_fake_hold_at(powercap_fake *f, uint64_t tick);
uint64_t powercap_fake_ticks(powercap_fake *f);
/* Waits until the tick count reaches tick; aborts after 10 s of real time. */
void powercap_fake_wait(powercap_fake *f, uint64_t tick);

/* Energy added to the zone since it was created, not wrapped. */
uint64_t powercap_fake_injected(powercap_fake *f, int zone);
/* Reads that went through the fake's pread. */
uint64_t powercap_fake_preads(powercap_fake *f);
/* Virtual time: ticks * POWERCAP_FAKE_TICK_NS. */
gb_clock powercap_fake_clock(powercap_fake *f);
/* This tree's root and the fake's serialising pread. */
gb_rapl_opts powercap_fake_rapl_opts(powercap_fake *f);

#endif
