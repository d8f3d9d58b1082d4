/* The same RAPL counters through perf_event: the kernel's `power` PMU, the
 * second way to read them (docs/bare-metal.md, section 14). Its folder,
 * /sys/bus/event_source/devices/power, holds
 *
 *   type                    the PMU's perf_event type number
 *   cpumask                 one CPU per package ("0,28"): the event is opened there
 *   events/energy-pkg       "event=0x02" (the config), and energy-pkg.scale
 *                           (Joules per count, 2^-32) and energy-pkg.unit ("Joules")
 *   events/energy-ram       the same for DRAM, where the processor has it
 *
 * The kernel accumulates each counter into 64 bits, so it never wraps. Opening
 * the events needs perf_event_paranoid <= 0, CAP_PERFMON or root.
 *
 * gb_rapl_open_perf gives a gb_rapl (rapl.h) whose zones are these events:
 * one package zone per CPU of the cpumask (one per package, or per die on
 * multi-die parts), named package-S with S its socket (package-S-die-D for
 * the second and later die of a socket), and a dram zone beside each where
 * energy-ram exists; the sampler
 * reads it exactly as it reads powercap. Both the opening and reading of an
 * event go through an injectable reader, so tests play the perf fd and the
 * metadata with files. */
#ifndef GREENBENCH_PERF_ENERGY_H
#define GREENBENCH_PERF_ENERGY_H

#include <stdint.h>

#include "greenbench/error.h"
#include "greenbench/rapl.h"

#define GB_PERF_POWER_DEFAULT_DIR "/sys/bus/event_source/devices/power"
#define GB_PERF_POWER_DIR_ENV "GREENBENCH_PERF_POWER_DIR"
/* A perf_event zone's max_energy_range_uj: the kernel's 64-bit count never
 * wraps, and this (2^53 - 1 uJ, 9 GJ) is the largest that meta.json holds
 * exactly; a reading above it is refused (-ERANGE), after years at 100 W. */
#define GB_PERF_MAX_UJ 9007199254740991ull

/* How events are opened and read: perf_event_open(2) and read(2) of the
 * 8-byte count, or a test's stand-in. open returns an fd (>= 0) or -errno;
 * read sets *count and returns 0, or -errno; close releases fd. */
typedef struct {
  int (*open)(void *ctx, uint32_t type, uint64_t config, int cpu);
  int (*read)(void *ctx, int fd, uint64_t *count);
  void (*close)(void *ctx, int fd);
  void *ctx;
} gb_perf_reader;

typedef struct {
  /* The PMU folder. NULL or "": $GREENBENCH_PERF_POWER_DIR when set and not
   * empty, else /sys/bus/event_source/devices/power. */
  const char *dir;
  const gb_perf_reader *reader; /* NULL: the real system calls */
  /* Where cpuN/topology/physical_package_id says each CPU's socket. NULL or
   * "": /sys/devices/system/cpu. A CPU whose socket cannot be read counts as
   * socket k, its place in the cpumask. */
  const char *cpu_dir;
} gb_perf_opts;

/* Opens energy-pkg (and energy-ram) on one CPU per package and reads each
 * once. Returns 0 and sets *out (free with gb_rapl_close), or, with a
 * message naming the file or the event:
 *   -ENOENT  no power PMU folder, or no events/energy-pkg in it;
 *   -EINVAL  type, an event, a scale, a unit (not "Joules") or the cpumask
 *            that does not parse;
 *   -EACCES  perf_event_open was refused (the message gives
 *            perf_event_paranoid and what would allow it);
 *   -E2BIG   more than GB_RAPL_MAX_ZONES events;
 *   or the -errno of the open or the read. */
GB_MUST_USE int gb_rapl_open_perf(const gb_perf_opts *opts, gb_rapl **out, gb_err *err);

/* The PMU folder opts names (resolved as gb_perf_opts.dir is). */
const char *gb_perf_dir(const gb_perf_opts *opts);

#endif
