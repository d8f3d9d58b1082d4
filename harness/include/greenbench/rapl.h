/* The processor's energy counters, read straight from the Linux powercap tree
 * (ADR 0002). The tree is a root folder holding one directory per RAPL zone:
 *
 *   ROOT/intel-rapl:N/{name,energy_uj,max_energy_range_uj}       name package-N
 *   ROOT/intel-rapl:N/intel-rapl:N:M/{...}                         name dram
 *
 * Counted: every top-level zone named "package-N" (or "package-N-die-D" on
 * multi-die parts) and the "dram" subzones of those packages. AMD processors
 * appear through the same intel-rapl tree with package zones and no DRAM.
 * Never counted, because they overlap the package or duplicate it: psys,
 * core and uncore zones, and the intel-rapl-mmio:* tree. Flat links such as
 * /sys/class/powercap/intel-rapl:0:0 are ignored; subzones are found inside
 * their package's directory, so nothing is counted twice.
 *
 * Each zone's energy_uj is opened once and pread again for every reading, so
 * a reading costs one pread per zone and no path lookup. */
#ifndef GREENBENCH_RAPL_H
#define GREENBENCH_RAPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "greenbench/clock.h"
#include "greenbench/error.h"

#define GB_RAPL_DEFAULT_ROOT "/sys/class/powercap"
#define GB_RAPL_ROOT_ENV "GREENBENCH_POWERCAP_ROOT"
/* Zones kept at most (packages and DRAM of every socket and die). */
#define GB_RAPL_MAX_ZONES 32
#define GB_RAPL_PATH_MAX 1024

typedef enum { GB_RAPL_PACKAGE, GB_RAPL_DRAM } gb_rapl_kind;

typedef struct {
  char id[32];                 /* directory name: "intel-rapl:0", "intel-rapl:0:2" */
  char name[32];               /* the zone's name file: "package-0", "dram" */
  char path[GB_RAPL_PATH_MAX]; /* the zone's directory */
  gb_rapl_kind kind;
  unsigned socket;              /* N of "package-N" (a DRAM zone: its package's) */
  uint64_t max_energy_range_uj; /* > 0; the largest value energy_uj shows */
} gb_rapl_zone;

/* Reads len bytes at offset off of fd, like pread(2): returns the count, or
 * -1 with errno set. */
typedef ssize_t (*gb_rapl_pread_fn)(int fd, void *buf, size_t len, off_t off, void *ctx);

typedef struct {
  /* The powercap root. NULL or "": $GREENBENCH_POWERCAP_ROOT when set and
   * not empty, else /sys/class/powercap. */
  const char *root;
  /* Reads energy_uj. NULL: pread(2). Tests wrap pread to keep a fake tree's
   * writer from changing a file in the middle of a read, which sysfs never
   * does but a regular file can. */
  gb_rapl_pread_fn pread;
  void *pread_ctx;
} gb_rapl_opts;

typedef struct gb_rapl gb_rapl;

/* Finds the zones under the root (opts may be NULL: all defaults), reads
 * their max_energy_range_uj, opens every energy_uj and reads it once. On
 * success sets *out (free with gb_rapl_close) and returns 0. Errors, each with
 * a message naming the file:
 *   -ENOENT  no package zone under the root (or the root does not exist);
 *   -EACCES  energy_uj is not readable (root-only since Linux 5.10 and the
 *            stable releases 4.4.243, 4.9.243, 4.14.206, 4.19.157, 5.4.78);
 *   -EINVAL  a name, max_energy_range_uj or energy_uj that does not parse
 *            (max_energy_range_uj must be a positive integer, energy_uj a
 *            non-negative one; digits and one optional newline, nothing else),
 *            or two zones with the same name;
 *   -ERANGE  a number too large, or energy_uj above max_energy_range_uj;
 *   -E2BIG   more than GB_RAPL_MAX_ZONES zones;
 *   -ENOMEM, or another -errno from open/read. */
GB_MUST_USE int gb_rapl_open(const gb_rapl_opts *opts, gb_rapl **out, gb_err *err);
/* Closes the files and frees r (NULL is fine). */
void gb_rapl_close(gb_rapl *r);

/* Lists the top-level intel-rapl-tpmi:N zones under root (resolved as
 * gb_rapl_opts.root is), in version order, which Intel Xeon 6 registers beside or instead of
 * intel-rapl:N and which greenbench does not read, into buf as
 * "intel-rapl-tpmi:0 (package-0), ..." (buf may be NULL). Returns how many;
 * a root that cannot be listed has none. */
GB_MUST_USE int gb_rapl_tpmi_zones(const char *root, char *buf, size_t len);

/* The root in use (for perf_event, the PMU folder). */
const char *gb_rapl_root(const gb_rapl *r);
/* How the counters are read: "powercap", or "perf_event" (perf_energy.h). */
const char *gb_rapl_source(const gb_rapl *r);
/* Number of zones (at least 1). Zones are ordered by socket, each package
 * before its DRAM zone. */
size_t gb_rapl_count(const gb_rapl *r);
/* Zone i < gb_rapl_count(r). */
const gb_rapl_zone *gb_rapl_zone_at(const gb_rapl *r, size_t i);
/* True when at least one DRAM zone is counted (false on AMD). */
bool gb_rapl_has_dram(const gb_rapl *r);

/* Reads zone i's energy_uj (one pread, no allocation) into *uj, in
 * microjoules, 0..max_energy_range_uj. Errors name the file: -EACCES,
 * -ENODATA (the read returned nothing), -EINVAL (not a number), -ERANGE
 * (above max_energy_range_uj), or the -errno of the read (-ENODEV, -EIO and
 * -ENOENT when the zone has gone away). */
GB_MUST_USE int gb_rapl_read(gb_rapl *r, size_t i, uint64_t *uj, gb_err *err);
/* gb_rapl_read for every zone into uj[0..gb_rapl_count(r)-1]; stops at the
 * first error. */
GB_MUST_USE int gb_rapl_read_all(gb_rapl *r, uint64_t *uj, gb_err *err);
/* Returns 0 while zone i's energy_uj still exists, or -ENODEV (with a message)
 * once the file has been removed: a removed file can still be read through
 * the open descriptor, but it will never change again. */
GB_MUST_USE int gb_rapl_check(gb_rapl *r, size_t i, gb_err *err);

/* Energy in microjoules from reading `before` to reading `after` of a counter
 * that runs from 0 to max_range_uj inclusive and then wraps to 0. A smaller
 * `after` is taken as exactly one wrap. Both readings must be <= max_range_uj. */
uint64_t gb_rapl_delta_uj(uint64_t before, uint64_t after, uint64_t max_range_uj);

/* What gb_rapl_watch saw of one zone. */
typedef struct {
  bool moved;                /* the counter changed at least once */
  uint64_t longest_still_ns; /* longest time it was seen unchanged, at least (ns) */
} gb_rapl_watched;

/* Reads every zone every step_ns (> 0) for window_ns (> 0) of
 * CLOCK_MONOTONIC_RAW and fills out[0..gb_rapl_count(r)-1]: whether each
 * counter moved and the longest standstill seen, a lower bound (from the
 * clock after the reading that first showed a value to the clock before the
 * last that still showed it), timed by clock (NULL or now_ns NULL:
 * CLOCK_MONOTONIC_RAW; a test's fake counters give their virtual time, so
 * that a starved fake is not taken for a standstill). Returns 0, -EINVAL for
 * a zero window or step, or the error of a failed reading (out untouched). */
GB_MUST_USE int gb_rapl_watch(gb_rapl *r, uint64_t window_ns, uint64_t step_ns,
                              const gb_clock *clock, gb_rapl_watched *out, gb_err *err);

#endif
