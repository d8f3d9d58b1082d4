/* Private to the analysis: its steps in other files, and what its tests
 * hold to known answers. */
#ifndef GREENBENCH_ANALYSIS_INTERNAL_H
#define GREENBENCH_ANALYSIS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "greenbench/analysis.h"
#include "greenbench/error.h"

/* A configuration's bootstrap stream, from its key alone (analysis.h,
 * "Canonical order"). */
uint64_t gbi_analysis_stream(gb_language l, gb_algorithm a, gb_order o, uint64_t size);
/* A startup trial's stream, from its key alone, apart from every
 * configuration's: bit 63 set, (language x 4 + order) x 2^32 + size mod
 * 2^32 below it. */
uint64_t gbi_analysis_startup_stream(gb_language l, gb_order o, uint64_t size);

/* The smallest k with P(X > k) <= 0.05 for X ~ Binomial(n, p), 0 < p < 1:
 * how many of n intervals chance alone exceeds at most one time in 20 when
 * each excludes 1 with probability p. 0 for n = 0. */
size_t gbi_analysis_chance_bound(size_t n, double p);

/* Whether a configuration with this key lies in rank scope k (the
 * coverage study checks rank intervals against the truth of each scope). */
bool gbi_an_rank_holds(const gb_an_rank *k, gb_language l, gb_algorithm a, uint64_t size);

/* The measurement columns of a row, whichever records hold it: the study's
 * runs.csv (records.h) and a suite's (suiterecords.h) name them alike, so
 * GBI_MEASURES_OF takes either row. What the bootstrap subtracts and nets
 * is computed from these alone, by one rule for both. */
typedef struct {
  gb_rec_energy energy;
  gb_rec_opt_u64 wall_ns, user_ns, sys_ns, pkg_uj, dram_uj, idle_ns, idle_pkg_uj, idle_dram_uj;
} gbi_measures;
#define GBI_MEASURES_OF(r)                                                                     \
  ((gbi_measures){.energy = (r)->energy,                                                       \
                  .wall_ns = (r)->wall_ns,                                                     \
                  .user_ns = (r)->user_ns,                                                     \
                  .sys_ns = (r)->sys_ns,                                                       \
                  .pkg_uj = (r)->pkg_uj,                                                       \
                  .dram_uj = (r)->dram_uj,                                                     \
                  .idle_ns = (r)->idle_ns,                                                     \
                  .idle_pkg_uj = (r)->idle_pkg_uj,                                             \
                  .idle_dram_uj = (r)->idle_dram_uj})

/* An ok process as the bootstrap takes it, with per_process units of work
 * (the study's sorts, a suite's repetitions); energy package plus DRAM, NAN
 * when the row has no reading. */
gb_run gbi_run_of_measures(const gbi_measures *m, uint64_t per_process);

/* One ok startup batch's cost per process (study.md, Startup cost): wall,
 * CPU and net energy (idle subtracted) over launches. */
gb_startup gbi_analysis_startup_batch(const gbi_measures *m, uint64_t launches);

/* The startup cost subtracted by the point estimates: the medians of
 * batches[0..n-1] (n >= 1), each NAN when any batch's is. 0 or -ENOMEM. */
GB_MUST_USE int gbi_startup_medians(const gb_startup *batches, size_t n, gb_startup *cost,
                                    gb_err *err);

/* Where b's median time or energy per unit is not above 0, its net power
 * (point and interval) is undefined: the startup swallows the work. */
void gbi_power_undefined_unless_positive(gb_boot *b);

/* Whether b's median time and energy per unit, where available, are not
 * above 0 (the report's warnings). */
void gbi_boot_nonpositive(const gb_boot *b, bool *time, bool *energy);

/* x / y as the report computes every ratio: gb_ratio_of_in at o's margin
 * and level, then, when both sides hold paired power replicates (NULL
 * otherwise), the power ratio by the paired estimator. scratch: 4 x
 * o->resamples doubles. */
GB_MUST_USE int gbi_ratio_with_power(const gb_boot *x, const double *x_power, const gb_boot *y,
                                     const double *y_power, const gb_analysis_opts *o,
                                     double *scratch, gb_ratio *out, gb_err *err);

/* An ok row of runs.csv as the bootstrap takes it (energy NAN when the row
 * has no reading). */
gb_run gbi_analysis_run_of_row(const gb_run_row *r);

/* Configuration c's ok runs as the bootstrap takes them, in runs.csv's
 * order, into runs (room for c->n_ok); returns how many. */
size_t gbi_analysis_ok_runs(const gb_analysis *a, const gb_an_config *c, gb_run *runs);

/* Configuration c's bootstrap options as the analysis draws it: a's seed,
 * resamples and level, c's stream, only time and energy per sort held
 * (paired_only), and the startup resampled from c's startup batches on
 * the trial's stream unless opts.startup_fixed (from the trial's held
 * replicates while the analysis holds them; drawn afresh, the same
 * values, once it has released them). c must have a startup trial. */
gb_boot_opts gbi_analysis_boot_opts(const gb_analysis *a, const gb_an_config *c);

/* Calibrates a's three tallies' chance counts (gb_an_tally) by simulating
 * opts.chance_campaigns campaigns of a's own design under equal power
 * (chance.c); nothing when that is 0, energy was not measured or no power
 * ratio is defined. Needs the ratios, the tallies and the configurations'
 * bootstraps (only each configuration's power replicates and each ratio's
 * power interval are simulated, not a whole analysis). 0 or -ENOMEM. */
GB_MUST_USE int gbi_analysis_calibrate_chance(gb_analysis *a, gb_err *err);

/* The paired estimator of net power (paired.c, ADR 0015) over runs[0..n-1]
 * with startup st: each run's power (W) is its energy per sort over its
 * time per sort (NAN where that time is not > 0); *iv gets their median and
 * the percentile interval at o->level of rep[0 .. o->replicates - 1],
 * replicate r being the median of the defined powers of resample r, whose
 * indices are drawn exactly as gb_boot_run_in draws replicate r's (same
 * seed, stream and order); where o resamples the startup, every run of
 * replicate r subtracts replicate r's startup in place of st, as the
 * bootstrap's own estimates do (docs/adr/0014). Not available (rep all NAN) when a run lacks
 * energy. 0, -EINVAL (a run's values), -ENOMEM. */
GB_MUST_USE int gbi_paired_power(const gb_run *runs, size_t n, const gb_startup *st,
                                 const gb_boot_opts *o, double *rep, gb_interval *iv,
                                 gb_err *err);

/* Sets r's power interval from two paired estimates: point pa / pb, the
 * percentile interval at level of ra[k] / rb[k] (NAN where either is not
 * > 0), and reads it against margin again (an undefined reading stays
 * undefined). scratch: 2 x replicates doubles. */
void gbi_paired_power_ratio(const gb_interval *pa, const double *ra, const gb_interval *pb,
                            const double *rb, size_t replicates, double level, double margin,
                            double *scratch, gb_ratio *r);

/* Whether a CPU time per sort is impossible beside a time per sort for
 * workers that could use `cpus` CPUs: above time x cpus, with no tolerance
 * (docs/methods.md, "No tolerance for CPU above wall": the clocks' resolution
 * cannot make CPU time exceed wall time). False where either is NAN or
 * cpus is 0 (unknown). */
bool gbi_an_cpu_above_wall(double cpu_per_sort, double time_per_sort, uint64_t cpus);

/* Fills a's conclusions from its figures (analysis_summary.c): groups,
 * net_power, remedies, each configuration's validity and checks.invalid,
 * verdict and noisy. Needs the configurations, ratios and tallies. 0 or
 * -ENOMEM. */
GB_MUST_USE int gbi_analysis_conclude(gb_analysis *a, gb_err *err);

#endif
