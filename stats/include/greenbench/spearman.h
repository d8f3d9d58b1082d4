/* Spearman's rank correlation: the Pearson correlation of the ranks, with
 * tied values given the average of the ranks they span (the "average"
 * method, as in scipy.stats.spearmanr), so it stays exact under ties. */
#ifndef GREENBENCH_SPEARMAN_H
#define GREENBENCH_SPEARMAN_H

#include "greenbench/bootstrap.h"
#include "greenbench/error.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct {
  bool defined; /* false when n < 2 or either side has no spread */
  double rho;   /* in [-1, 1]; NAN when not defined */
} gb_rho;

/* Spearman's rho of the pairs (x[i], y[i]). n < 2, or all x (or all y)
 * equal, gives defined = false and rho = NAN with return 0: rho does not
 * exist there, which is a result, not an error; nor does it with a NaN on
 * either side (a figure that does not exist), which has no rank. Errors:
 * -ENOMEM. *out is set only on success. */
GB_MUST_USE int gb_spearman_nan(const double *x, const double *y, size_t n, gb_rho *out,
                                gb_err *err);

/* Rank agreement across configurations with a percentile-bootstrap
 * interval (study.md, Analysis). */
typedef struct {
  gb_rho point;  /* from the configurations' point estimates */
  double lo, hi; /* type 7 percentile interval of the replicate rhos; NAN if none */
  size_t n_used; /* replicates whose rho is defined (the interval's basis) */
} gb_rho_interval;

/* Spearman's rho between estimate x and estimate y (e.g. median time and
 * median energy per sort) across the k configurations configs[0..k-1].
 * Replicate r uses every configuration's replicate r, for r < replicates
 * (the study takes the first 2,000): each configuration's resamples are
 * independent, so this resamples all of them at once. Replicates where rho
 * is undefined are left out and counted by n_used. An estimate that is not
 * available in some configuration (energy missing) gives an undefined point
 * and no interval, with return 0.
 * Errors: -EINVAL when replicates is 0 or exceeds the replicates a
 * configuration holds (n_held), when x's or y's replicates are not held
 * (gb_boot_trim), or when level is outside (0, 1); -ENOMEM. */
GB_MUST_USE int gb_spearman_boot(const gb_boot *const *configs, size_t k, gb_estimate x,
                                 gb_estimate y, size_t replicates, double level,
                                 gb_rho_interval *out, gb_err *err);

#endif
