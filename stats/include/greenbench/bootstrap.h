/* Percentile bootstrap (Efron & Tibshirani 1993, ch. 13) for one
 * configuration: its n measured runs are resampled with replacement, the
 * same index vector serving every estimate, so a run's time and energy stay
 * together (study.md, Analysis). The startup medians subtracted are either
 * held fixed or resampled with the runs, replicate by replicate
 * (gb_boot_opts.startup_batches). Central values are medians and intervals are percentile
 * intervals, both by the one quantile rule, Hyndman & Fan type 7 (quantile.h).
 *
 * Units: time in ns, energy in uJ, power in W (uJ / ns = 1e3 W). A missing
 * energy is NAN, never 0. */
#ifndef GREENBENCH_BOOTSTRAP_H
#define GREENBENCH_BOOTSTRAP_H

#include "greenbench/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One measured sorting run (one process). */
typedef struct {
  double wall_ns;        /* process wall time, finite, > 0 */
  double cpu_ns;         /* user + sys CPU time of the process, finite, >= 0 */
  double energy_uj;      /* package + DRAM over the process, >= 0; NAN if missing */
  double idle_ns;        /* the idle window after the run; > 0 when energy is present */
  double idle_energy_uj; /* energy over that window, >= 0; NAN if missing */
  uint64_t sorts;        /* sorts in the process, >= 1 */
} gb_run;

/* Median startup cost per process for the configuration's language, order
 * and size (cost of a batch divided by its launches): what the point
 * estimates subtract. */
typedef struct {
  double time_ns;   /* wall time, finite, >= 0 */
  double cpu_ns;    /* user + sys CPU time, finite, >= 0 (0 to subtract none) */
  double energy_uj; /* energy net of idle (gb_net_energy_uj); NAN if missing */
} gb_startup;

/* What one run says, per the study's Analysis section. */
typedef struct {
  double time_per_sort_ns;         /* (wall - startup time) / sorts */
  double energy_per_sort_uj;       /* (net energy - startup energy) / sorts; NAN if missing */
  double process_ns;               /* wall */
  double cpu_per_sort_ns;          /* (cpu - startup cpu) / sorts */
  double gross_energy_per_sort_uj; /* energy_per_sort + idle power x time_per_sort */
} gb_run_values;

/* Energy net of the idle baseline scaled to the run's exact length:
 * energy - idle_energy * (wall / idle_wall). Units as the arguments; NAN if
 * either energy is NAN. Also gives a startup batch's net energy. */
double gb_net_energy_uj(double energy_uj, double idle_energy_uj, double wall_ns,
                        double idle_ns);

/* The configuration's estimates; every one comes from the same resamples. */
typedef enum {
  GB_EST_TIME_PER_SORT,         /* ns: median time per sort */
  GB_EST_ENERGY_PER_SORT,       /* uJ: median net energy per sort */
  GB_EST_PROCESS_TIME,          /* ns: median process wall time */
  GB_EST_CPU_PER_SORT,          /* ns: median CPU time per sort */
  GB_EST_GROSS_ENERGY_PER_SORT, /* uJ: median energy per sort including idle power */
  GB_EST_NET_POWER,             /* W: median energy per sort / median time per sort;
                                 * no point or interval (NAN) unless both are > 0 */
  GB_EST_COUNT
} gb_estimate;

/* A point estimate with its percentile interval. */
typedef struct {
  bool available;       /* false when its inputs are missing (energy) */
  double point;         /* from the original runs; NAN when not available */
  double lo, hi;        /* percentile interval; NAN when not available */
  size_t n_used;        /* replicates with a value (not NAN) behind lo and hi */
  size_t n_nonpositive; /* replicates whose value is not > 0 (NAN counts) */
} gb_interval;

typedef struct {
  uint64_t seed;     /* the study seed */
  uint64_t stream;   /* the configuration's index: its stream of the seed */
  size_t replicates; /* resamples, >= 1 (the study: 10,000) */
  double level;      /* interval coverage, 0 < level < 1 (the study: 0.95) */
  /* Hold only the replicates of time and energy per sort, what ratios and
   * rank intervals pair (as gb_boot_trim(b, replicates) would leave them);
   * every interval is the same. */
  bool paired_only;
  /* The startup's uncertainty (docs/adr/0014-startup-in-the-intervals.md):
   * with n_startup_batches > 0, replicate r also draws n_startup_batches
   * batch costs per process with replacement from startup_batches (time,
   * CPU and energy of one batch kept together), by gb_rng_below from
   * gb_rng_seed_stream(seed, startup_stream), and subtracts that draw's
   * medians in place of the fixed startup (gb_boot_startup_replicates).
   * The point estimates still subtract the fixed startup, which should be
   * the medians of all the batches. NULL and 0: the startup is held fixed,
   * and the replicates are bit for bit those of a bootstrap without these
   * fields. */
  const gb_startup *startup_batches;
  size_t n_startup_batches;
  uint64_t startup_stream;
  /* Or the startup of every replicate given, `replicates` of them, as
   * gb_boot_startup_replicates makes them (a report makes them once per
   * startup trial rather than once per configuration); NULL: from the
   * fields above. */
  const gb_startup *startup_replicates;
} gb_boot_opts;

#define GB_BOOT_OPTS_DEFAULT                                                                   \
  { .seed = 0, .stream = 0, .replicates = 10000, .level = 0.95, .paired_only = false }

/* The startup medians of `replicates` resamples of batches[0..n-1] (n >= 1)
 * into out[0..replicates-1]: resample r draws n batches by
 * gb_rng_below(rng, n) from gb_rng_seed_stream(seed, stream), and out[r]
 * holds the type 7 medians of their time, CPU and energy (energy NAN when
 * any batch's is). The same arguments give bit-identical results, so every
 * configuration that shares a startup trial (and its stream) subtracts the
 * same startup in its replicate r. Errors: -EINVAL (n == 0 or above
 * UINT32_MAX), -ENOMEM. */
GB_MUST_USE int gb_boot_startup_replicates(const gb_startup *batches, size_t n, uint64_t seed,
                                           uint64_t stream, size_t replicates, gb_startup *out,
                                           gb_err *err);

typedef struct {
  size_t n_runs;
  size_t n_replicates;           /* resamples drawn: behind every interval */
  bool has_energy;               /* every run, and the startup, has energy */
  gb_interval est[GB_EST_COUNT]; /* indexed by gb_estimate */
  /* The replicates held, estimate-major: estimates 0 .. n_held_estimates - 1
   * (in gb_estimate order), the first n_held replicates of each. gb_boot_run_in
   * holds every replicate of every estimate (of time and energy per sort
   * only with paired_only); gb_boot_trim keeps fewer. */
  size_t n_held;
  size_t n_held_estimates;
  double *replicates; /* owned; see gb_boot_replicates */
} gb_boot;

/* Buffers for the resamples and their intervals (GB_EST_COUNT + 1 doubles
 * and a gb_startup per replicate), kept from one gb_boot_run_in to the next, so that a
 * report's many bootstraps do not each take fresh pages from the system.
 * Zero-initialise; release with gb_boot_work_free. One thread at a time. */
typedef struct {
  size_t replicates; /* held for, 0 before the first use */
  double *buf;
  gb_startup *startups; /* a startup per replicate, when resampled */
} gb_boot_work;

void gb_boot_work_free(gb_boot_work *w);

/* Bootstraps one configuration, with its large buffers from *work, grown as
 * needed. Replicate r (0-based, in order) draws n run indices with
 * gb_rng_below(rng, n), n draws in order, from the generator
 * gb_rng_seed_stream(seed, stream), and takes each estimate's type 7 median
 * over those runs (net power: the ratio of the two medians, not a median of
 * ratios). The interval is the ((1 - level) / 2, (1 + level) / 2) type 7
 * quantile pair of the replicate values, NAN values left out. The same runs,
 * startup and options give bit-identical results, whatever work held.
 * Errors: -EINVAL (n == 0 or above UINT32_MAX, bad options, or a run out of
 * range, naming the run and field), -ENOMEM (also when work cannot grow).
 * *out is set only on success and must be released with gb_boot_free. */
GB_MUST_USE int gb_boot_run_in(gb_boot_work *work, const gb_run *runs, size_t n,
                               const gb_startup *startup, const gb_boot_opts *opts,
                               gb_boot *out, gb_err *err);

/* What gb_boot_run_in would refuse, with the same error and message,
 * without drawing anything: its checks of n and opts, then every run's
 * values (gb_run_values) in order. 0 when gb_boot_run_in could fail only for
 * want of memory. */
GB_MUST_USE int gb_boot_check(const gb_run *runs, size_t n, const gb_startup *startup,
                              const gb_boot_opts *opts, gb_err *err);

/* The first n_held replicate values of estimate e, in replicate order
 * (replicate r of every estimate comes from the same resample); NULL when
 * e's replicates are not held (e >= n_held_estimates, after gb_boot_trim).
 * All NAN for an estimate that is not available. Net power is NAN where
 * median time per sort <= 0. */
const double *gb_boot_replicates(const gb_boot *b, gb_estimate e);

/* The estimates gb_boot_trim keeps: time and energy per sort, the two that
 * ratios (ratio.h) and rank intervals (spearman.h) pair across
 * configurations. They come first in gb_estimate. */
#define GB_BOOT_TRIM_ESTIMATES 2

/* Keeps only the first min(n, n_held) replicates of time and energy per
 * sort and releases the rest, so that a report holds what its ratios and
 * rank intervals still need and no more. Intervals, points and
 * n_replicates are unchanged; gb_boot_replicates of any other estimate is
 * NULL afterwards. Cannot fail: without memory for the smaller block it
 * keeps the larger one. */
void gb_boot_trim(gb_boot *b, size_t n);

/* Releases b's replicates and zeroes it. NULL and a zeroed gb_boot are fine. */
void gb_boot_free(gb_boot *b);

/* Percentile interval of values[0..n-1] at coverage level, skipping NAN:
 * the type 7 quantiles at t and 1 - t, t = (1 - level) / 2 rounded to 12
 * decimal places (so level 0.95 gives exactly the double nearest 0.025;
 * docs/adr/0005-quantile-rule.md). Sets *lo, *hi and returns the number of
 * values used (0 leaves them NAN). scratch holds n doubles; values is
 * unchanged. */
size_t gb_percentile_interval(const double *values, size_t n, double level, double *scratch,
                              double *lo, double *hi);

#endif
