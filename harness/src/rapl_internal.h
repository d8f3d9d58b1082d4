/* Private to rapl.c and perf_energy.c: the zones of either way of reading
 * the counters, powercap files or perf_event events. */
#ifndef GREENBENCH_RAPL_INTERNAL_H
#define GREENBENCH_RAPL_INTERNAL_H

#include "greenbench/perf_energy.h"
#include "greenbench/rapl.h"

struct gb_rapl {
  char root[GB_RAPL_PATH_MAX]; /* the powercap root, or the PMU folder */
  gb_rapl_pread_fn pread;
  void *pread_ctx;
  size_t n;
  gb_rapl_zone zone[GB_RAPL_MAX_ZONES];
  int fd[GB_RAPL_MAX_ZONES]; /* energy_uj, or the event's fd; -1 when none */
  /* perf_event: counts times scale[i] are Joules. */
  bool perf;
  gb_perf_reader perf_reader;
  long double scale[GB_RAPL_MAX_ZONES];
  char cpu_dir[512]; /* where each CPU's socket is read */
};

/* A zeroed gb_rapl with every fd -1, or NULL. */
gb_rapl *gb_rapl_alloc(void);
/* gb_rapl_read of a perf_event zone. */
GB_MUST_USE int gb_perf_read(gb_rapl *r, size_t i, uint64_t *uj, gb_err *err);

#endif
