/* Ratios of two configurations, A / B, each bootstrapped on its own stream
 * (bootstrap.h), so replicate r of the ratio pairs A's replicate r with B's
 * replicate r: an independent resampling of both sides. Intervals are
 * percentile intervals by the type 7 rule (quantile.h). */
#ifndef GREENBENCH_RATIO_H
#define GREENBENCH_RATIO_H

#include "greenbench/bootstrap.h"
#include "greenbench/error.h"

#include <stdbool.h>
#include <stddef.h>

/* The study's margin, fixed before measuring: 10% either way. */
#define GB_RATIO_MARGIN_DEFAULT 0.10
/* A ratio is undefined when more than 1 in this many replicates of either
 * side's time or energy per sort are not > 0 (2.5%). */
#define GB_RATIO_NOISE_SHARE_DEN 40

/* A power-ratio interval [lo, hi] is read against margin m, in this order:
 *   undefined     when the ratio is undefined (gb_ratio_of_in) or lo or hi
 *                 is NAN;
 *   same          when 1 / (1 + m) <= lo and hi <= 1 + m (edges inclusive:
 *                 an interval ending exactly on the margin is inside it);
 *   differs       when lo > 1 or hi < 1 (exclusive: an edge exactly at 1
 *                 includes 1), so an interval inside the margin that
 *                 excludes 1 still reads "same";
 *   inconclusive  otherwise. */
typedef enum {
  GB_READING_UNDEFINED,    /* energy or time per sort lost in the noise, or energy missing */
  GB_READING_SAME,         /* same power within the margin */
  GB_READING_DIFFERS,      /* the power-ratio interval excludes 1 */
  GB_READING_INCONCLUSIVE, /* includes 1 but reaches beyond the margin */
} gb_reading;

/* "undefined", "same", "differs", "inconclusive". */
const char *gb_reading_name(gb_reading r);

typedef struct {
  gb_interval time;   /* time per sort, A / B */
  gb_interval energy; /* net energy per sort, A / B */
  gb_interval power;  /* energy ratio / time ratio: net power, A / B */
  gb_reading reading;
  bool excludes_one; /* the power interval excludes 1 (lo > 1 or hi < 1); false if undefined */
} gb_ratio;

/* Ratio of configurations a / b at coverage level, read against margin m,
 * with the caller's scratch of 4 x a->n_replicates doubles (reused from
 * ratio to ratio, it spares fresh pages each time). Replicates where a
 * side's time per sort is not > 0 are left out of the time ratio, and
 * replicates where any of the four per-sort values is not > 0 out of the
 * energy and power ratios. The reading is undefined when either side lacks
 * energy, when either side's median time or energy per sort is not > 0, or
 * when more than 2.5% (strictly more than 1/40) of either side's replicates
 * of time or energy per sort are not > 0: the interval from the rest would
 * look narrower than it is. Point estimates are ratios of the medians
 * (power: energy ratio / time ratio). An undefined reading leaves the
 * power ratio unavailable, its point and interval NAN (n_nonpositive
 * still counts the replicates that made it so).
 * Errors: -EINVAL when the two sides differ in replicate count or either
 * no longer holds all its replicates of time and energy per sort
 * (gb_boot_trim), m is not positive and finite, or level is outside
 * (0, 1). */
GB_MUST_USE int gb_ratio_of_in(const gb_boot *a, const gb_boot *b, double m, double level,
                               double *scratch, gb_ratio *out, gb_err *err);

/* Many comparisons (study.md, Analysis): how many defined power-ratio
 * intervals exclude 1, against the (1 - level) share that chance alone
 * would give if every configuration drew the same power. No correction is
 * applied to the intervals. */
typedef struct {
  size_t total;              /* ratios counted */
  size_t defined;            /* ratios whose reading is not undefined */
  size_t excluding_one;      /* defined ratios whose power interval excludes 1 */
  double expected_by_chance; /* (1 - level) x defined */
  size_t readings[4];        /* count per gb_reading */
} gb_ratio_tally;

void gb_ratio_tally_of(const gb_ratio *ratios, size_t n, double level, gb_ratio_tally *out);

#endif
