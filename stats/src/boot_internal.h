/* Private to bootstrap.c and the stats tests: one run's values and a
 * bootstrap with a work area of its own, which the tests call directly, and
 * the bootstrap's counted quantile: the type 7 quantile of a resample held
 * as a count of copies per run, read off the runs' values sorted once,
 * instead of a gather and a selection per resample, here so that the tests
 * can hold it to the sort-based rule (quantile.h). */
#ifndef GREENBENCH_BOOT_INTERNAL_H
#define GREENBENCH_BOOT_INTERNAL_H

#include "greenbench/bootstrap.h"
#include "greenbench/error.h"
#include "greenbench/quantile_rule.h"

#include <stddef.h>
#include <stdint.h>

/* Derives *out from one run. Errors: -EINVAL on a value outside its range
 * (bootstrap.h, gb_run and gb_startup), naming the field. Energy counts as
 * missing when the run's energy or idle energy or the startup energy is
 * NAN. */
GB_MUST_USE int gbi_run_values_of(const gb_run *run, const gb_startup *startup,
                                  gb_run_values *out, gb_err *err);

/* gb_boot_run_in with a work area of its own, freed before it returns: the
 * same results and errors. */
GB_MUST_USE int gbi_boot_run(const gb_run *runs, size_t n, const gb_startup *startup,
                             const gb_boot_opts *opts, gb_boot *out, gb_err *err);

/* Positions, in sorted order, of the order statistics behind the type 7
 * quantile at (lo, frac) (q7_position over the resample's m values) of a
 * resample that holds counts[order[j]] copies of the value at sorted
 * position j, j = 0, 1, ...: *j is that of order statistic lo, and *j2 that
 * of lo + 1 when the quantile interpolates between two positions (frac != 0
 * and statistic lo + 1 lies further up), else *j2 = *j. Needs lo < m and,
 * when frac != 0, lo + 1 < m (as q7_position gives). O(position reached). */
static inline void gbi_counted_positions(const uint32_t *order, const uint32_t *counts,
                                         size_t lo, double frac, size_t *j, size_t *j2) {
  size_t p = 0, below = counts[order[0]];
  while (below <= lo) {
    below += counts[order[++p]];
  }
  *j = p;
  if (frac != 0.0 && below <= lo + 1) {
    do {
      p++;
    } while (counts[order[p]] == 0);
  }
  *j2 = p;
}

/* gbi_counted_positions from a head start: cum_lo, the copies of the runs
 * at sorted positions 0 .. lo (order[0 .. lo]), which the caller counts as
 * it draws. The positions sought lie a few steps from lo, up or down, so
 * the walk is short. The same *j and *j2. */
static inline void gbi_counted_positions_from(const uint32_t *order, const uint32_t *counts,
                                              size_t lo, double frac, size_t cum_lo, size_t *j,
                                              size_t *j2) {
  size_t p = lo, c = cum_lo; /* c: the copies at positions 0 .. p */
  if (c > lo) {
    /* Down while the positions below p still hold more than lo copies. */
    while (p > 0 && c - counts[order[p]] > lo) {
      c -= counts[order[p--]];
    }
  } else {
    do {
      c += counts[order[++p]];
    } while (c <= lo);
  }
  *j = p;
  if (frac != 0.0 && c <= lo + 1) {
    do {
      p++;
    } while (counts[order[p]] == 0);
  }
  *j2 = p;
}

/* The quantile's value from those positions over the values sorted. */
static inline double gbi_counted_value(const double *sorted, size_t j, size_t j2, double frac) {
  return j2 == j ? sorted[j] : q7_lerp(sorted[j], sorted[j2], frac);
}

/* The type 7 quantile at (lo, frac) of the resample described by counts
 * (gbi_counted_positions): the same value as gb_quantile_select over the
 * resample's values written out. */
static inline double gbi_counted_quantile(const double *sorted, const uint32_t *order,
                                          const uint32_t *counts, size_t lo, double frac) {
  size_t j, j2;
  gbi_counted_positions(order, counts, lo, frac, &j, &j2);
  return gbi_counted_value(sorted, j, j2, frac);
}

#endif
