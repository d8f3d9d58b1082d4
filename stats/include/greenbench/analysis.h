/* The report's numbers (study.md, Analysis): a campaign's records in,
 * estimates, ratios, rank agreement and data checks out. Pure: no files, no
 * clock, no printing; the same records and options give bit-identical
 * results.
 *
 * Units: time in ns, energy in uJ, power in W. Only runs with status ok
 * enter the statistics; the others are counted. */
#ifndef GREENBENCH_ANALYSIS_H
#define GREENBENCH_ANALYSIS_H

#include "greenbench/bootstrap.h"
#include "greenbench/error.h"
#include "greenbench/quantile.h"
#include "greenbench/ratio.h"
#include "greenbench/records_read.h"
#include "greenbench/spearman.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The study's seed, so the default report of the same records is always
 * the same, byte for byte. */
#define GB_ANALYSIS_SEED_DEFAULT UINT64_C(2463534242)
#define GB_ANALYSIS_RESAMPLES_DEFAULT 10000
#define GB_ANALYSIS_RANK_RESAMPLES 2000 /* study.md: rank intervals from 2,000 */
#define GB_ANALYSIS_MIN_RUNS 30         /* docs/methods.md #3 */
/* A warm-up plateau: the last two warm-ups' per-sort loop times within 10%. */
#define GB_ANALYSIS_PLATEAU_TOLERANCE 0.10
/* The loop-time cross-check (docs/methods.md): time per sort from process
 * time minus the startup median disagrees with the worker's own clock
 * (median of loop_ns / sorts) when that lies outside its interval or more
 * than 10% away from its point. */
#define GB_ANALYSIS_LOOP_TOLERANCE 0.10
/* A run counts as throttled when the pinned CPUs' mean frequency at its end
 * is more than 10% below that at its start. */
#define GB_ANALYSIS_THROTTLE_DROP 0.10

/* How net power, and so the power ratios, are estimated (ADR 0015):
 *   PAIRED  the median over runs of each run's own net energy / net time
 *           (idle and startup subtracted per run), bootstrapped on the same
 *           resamples as every other estimate; the default;
 *   STUDY   the study's original: median energy per sort / median time per
 *           sort, two medians that may come from different runs. */
typedef enum { GB_POWER_PAIRED, GB_POWER_STUDY } gb_power_estimator;

/* "paired", "study"; parse: 0 or -EINVAL. */
const char *gb_power_estimator_name(gb_power_estimator e);
GB_MUST_USE int gb_power_estimator_parse(const char *name, gb_power_estimator *out);

typedef struct {
  uint64_t seed;         /* bootstrap seed */
  size_t resamples;      /* per configuration, >= 1 */
  size_t rank_resamples; /* of those, used for rank intervals: min(this, resamples) */
  double level;          /* interval coverage, in (0, 1) */
  double margin;         /* equivalence margin of power ratios, > 0 */
  /* Threads for the bootstraps, ratios and rank intervals: 0 for one per
   * online CPU (at most 8). The results do not depend on it, bit for bit. */
  size_t threads;
  /* Campaigns simulated under equal power to calibrate the chance count
   * (gb_an_tally); 0 sets the count against the plain binomial bound. */
  size_t chance_campaigns;
  gb_power_estimator power_estimator;
  /* Hold the startup medians fixed, as the study first did, instead of
   * resampling the startup batches in every replicate
   * (docs/adr/0014-startup-in-the-intervals.md); the default is false. */
  bool startup_fixed;
} gb_analysis_opts;

/* The chance count's null (chance.c): this many campaigns of the
 * campaign's own design, each bootstrapped with at most this many
 * resamples. */
#define GB_ANALYSIS_CHANCE_CAMPAIGNS 20
#define GB_ANALYSIS_CHANCE_RESAMPLES 1000

#define GB_ANALYSIS_OPTS_DEFAULT                                                               \
  {                                                                                            \
    .seed = GB_ANALYSIS_SEED_DEFAULT, .resamples = GB_ANALYSIS_RESAMPLES_DEFAULT,              \
    .rank_resamples = GB_ANALYSIS_RANK_RESAMPLES, .level = 0.95,                               \
    .margin = GB_RATIO_MARGIN_DEFAULT, .chance_campaigns = GB_ANALYSIS_CHANCE_CAMPAIGNS,       \
    .power_estimator = GB_POWER_PAIRED                                                         \
  }

/* One startup trial (language, order, size): the cost per process of its
 * ok batches (batch / launches), median over them. Every bootstrap replicate
 * of a configuration resamples these batches (from the trial's own stream,
 * gbi_analysis_startup_stream) unless opts.startup_fixed. */
typedef struct {
  gb_language language;
  gb_order order;
  uint64_t size;
  size_t n_rows, n_ok;
  bool measured;       /* at least one ok batch */
  gb_startup cost;     /* per process; energy net of idle, NAN when missing */
  uint64_t launches;   /* of its first ok batch */
  gb_startup *batches; /* n_ok costs per process, one per ok batch (owned) */
  uint64_t stream;     /* its bootstrap stream */
  /* Its replicates (gb_boot_startup_replicates), held while the
   * configurations of its size are bootstrapped; NULL otherwise. */
  gb_startup *replicates;
} gb_an_startup;

typedef enum { GB_AN_PLATEAU_UNCHECKED, GB_AN_PLATEAU_YES, GB_AN_PLATEAU_NO } gb_an_plateau;

/* One configuration of the settings (language, algorithm, order, size). */
typedef struct {
  gb_language language;
  gb_algorithm algorithm;
  gb_order order;
  uint64_t size;
  uint64_t stream; /* its bootstrap stream (gbi_analysis_stream) */
  size_t n_rows;   /* rows of kind sort, any status */
  size_t n_ok;
  size_t by_status[GB_REC_STATUS_COUNT];
  const gb_an_startup *startup; /* NULL when its startup trial has no rows */
  /* Estimates exist: at least one ok run and a measured startup. */
  bool measured;
  uint64_t sorts_min, sorts_max; /* sorts per process over the ok runs */
  bool has_counts;               /* comparisons and writes of the first ok run */
  uint64_t comparisons, writes;
  gb_boot boot; /* every estimate with its interval; zeroed if not measured */
  /* With the paired estimator: its replicates of net power (W), from the
   * bootstrap until the configuration's ratios are computed; else NULL. */
  double *power_replicates;
  gb_summary process; /* process wall time (ns) over the ok runs: p95, min, max, outliers */
  gb_rho coupling;    /* rho(process wall time, process energy) over its ok runs */
  size_t loops, loops_short; /* ok runs with a loop time; of those below target_ms */
  uint64_t shortest_loop_ns;
  size_t freq_runs, throttled; /* ok runs with both frequencies; of those throttled */
  gb_an_plateau plateau;
  double warmup_prev_ns, warmup_last_ns; /* per-sort loop times; NAN unless checked */
  size_t n_warmups; /* warm-up rows, any status (more than settings.warmups when extended) */
  /* gb_validate_case of its records (energy required when it was measured):
   * valid, or why not. */
  bool valid;
  char invalid_reason[512];
  /* The point estimate of time or energy per sort is not above 0: the
   * startup cost subtracted is as large as the whole sort, or larger. */
  bool nonpositive_time, nonpositive_energy;
  /* The worker's own clock: median over the ok runs with a loop time of
   * loop_ns / sorts (NAN without one), and whether time per sort disagrees
   * with it (GB_ANALYSIS_LOOP_TOLERANCE; false when either is missing). */
  double loop_per_sort_ns;
  bool loop_disagrees;
  /* Impossible: median CPU time per sort above median time per sort times
   * the CPUs the workers could use (gb_an_checks.worker_cpus). */
  bool cpu_above_wall;
} gb_an_config;

/* Whether iv's point lies outside its own interval, as it can when
 * resamples with no value (undefined) are left out of the interval. False
 * when the interval is not available. */
bool gb_an_point_outside(const gb_interval *iv);

typedef enum { GB_AN_LANGUAGES, GB_AN_ORDERS } gb_an_family;

/* configs[a] / configs[b]: another language against C, Python against
 * Node.js, or an order against random input. */
typedef struct {
  gb_an_family family;
  size_t a, b;
  bool computed; /* both sides measured; otherwise ratio reads undefined, all NAN */
  gb_ratio ratio;
} gb_an_ratio;

typedef struct {
  gb_ratio_tally tally;
  /* The count of intervals excluding 1 that chance alone would exceed with
   * probability at most 5%, which the verdict sets the count against: the
   * calibrated bound when calibrated, else plain_bound. */
  size_t chance_bound;
  /* The study's plain figure: the smallest k with P(X > k) <= 0.05 for
   * X ~ Binomial(defined, 1 - level). */
  size_t plain_bound;
  /* Calibrated by simulation (chance.c): null_campaigns campaigns of this
   * design under equal power gave null_rate, the share of their defined
   * power intervals that excluded 1, and null_mean = null_rate x defined;
   * chance_bound is then the larger of the binomial bound at null_rate and
   * the count that at most 5% of the simulated campaigns exceeded. */
  bool calibrated;
  size_t null_campaigns;
  double null_rate, null_mean;
} gb_an_tally;

/* Many inconclusive readings mean the measurements were too noisy to decide
 * those comparisons: "many" is at least this share of the defined readings,
 * fixed before measuring (one in five). */
#define GB_ANALYSIS_NOISY_SHARE_NUM 1
#define GB_ANALYSIS_NOISY_SHARE_DEN 5

/* The answer to question 1 (does energy follow time?) from a tally, decided
 * in this order:
 *   CANNOT       no power ratio is defined;
 *   YES          most ratios (of all counted) read same power within the
 *                margin, and no more intervals exclude 1 than chance_bound;
 *   YES_BUT_DIFFERS  most read same power, but more intervals exclude 1
 *                than chance alone would produce: time predicts energy
 *                within the margin, yet power differs measurably (an
 *                interval excluding 1 counts as differing whatever its
 *                position against the margin);
 *   TOO_NOISY    most defined ratios are inconclusive;
 *   NO           otherwise. */
typedef enum {
  GB_AN_VERDICT_CANNOT,
  GB_AN_VERDICT_YES,
  GB_AN_VERDICT_YES_BUT_DIFFERS,
  GB_AN_VERDICT_TOO_NOISY,
  GB_AN_VERDICT_NO
} gb_an_verdict;

gb_an_verdict gb_analysis_verdict(const gb_an_tally *t);
/* Whether at least GB_ANALYSIS_NOISY_SHARE of the defined readings are
 * inconclusive (false when none is defined), compared in integers. */
bool gb_analysis_noisy(const gb_an_tally *t);

typedef enum {
  GB_AN_RANK_OVERALL,
  GB_AN_RANK_SIZE,
  GB_AN_RANK_LANGUAGE,
  GB_AN_RANK_LANG_ALG
} gb_an_rank_scope;

/* Spearman's rho between median time and median energy per sort across the
 * measured configurations of one scope. */
typedef struct {
  gb_an_rank_scope scope;
  gb_language language;   /* LANGUAGE, LANG_ALG */
  gb_algorithm algorithm; /* LANG_ALG */
  uint64_t size;          /* SIZE */
  size_t k;               /* measured configurations in the scope */
  bool computed;          /* k >= 2 and every one has energy */
  gb_rho_interval rho;
} gb_an_rank;

/* Run-to-run coupling per language and algorithm: the median (and range)
 * of its configurations' defined coupling rhos. */
typedef struct {
  gb_language language;
  gb_algorithm algorithm;
  size_t n_defined;
  double median, min, max; /* NAN when n_defined is 0 */
} gb_an_coupling;

/* A group of ratios summarised: question 2's by language pair and
 * algorithm (family LANGUAGES), question 3's by language, algorithm and
 * order against random input (ORDERS), over the sizes and, for languages,
 * the orders. Medians and ranges are of the defined point ratios. */
typedef struct {
  gb_an_family family;
  gb_language la, lb; /* LANGUAGES: A / B; ORDERS: la is the language */
  gb_algorithm algorithm;
  gb_order order;  /* ORDERS: the order set against random */
  size_t n;        /* ratios in the group */
  size_t computed; /* of those, with both sides measured */
  /* median, min, max of the point ratios; NAN when none is defined
   * (energy and power: also when energy was not measured) */
  double time[3], energy[3], power[3];
  size_t used[3];          /* defined point ratios behind time, energy, power */
  size_t readings[4];      /* power readings, per gb_reading */
  size_t above, below;     /* differs with the interval above 1, below 1 */
  size_t time_excluding;   /* time intervals excluding 1 */
  double comparisons[3];   /* ORDERS: exact comparison ratios over the sizes; else NAN */
  size_t comparisons_used; /* sizes with counts on both sides */
} gb_an_group;

/* What the report says of the measurement traps (docs/methods.md): counts
 * over the ok sorting runs of runs.csv and the configurations. */
typedef struct {
  size_t sort_ok, with_cpu, with_counts, with_freq, high_outliers, low_outliers;
} gb_an_remedies;

typedef struct {
  size_t rows;                           /* runs.csv rows, both kinds */
  size_t by_status[GB_REC_STATUS_COUNT]; /* over those rows */
  size_t loops, loops_short;             /* over measured configurations */
  uint64_t shortest_loop_ns;             /* when loops > 0 */
  size_t plateau[3];                     /* configurations per gb_an_plateau */
  size_t freq_runs, throttled;
  bool has_temp; /* some ok sort run recorded a temperature */
  int64_t temp_min_mc, temp_max_mc;
  size_t configs, configs_measured, configs_without_rows;
  /* Configurations whose warm-up was extended past settings.warmups to
   * reach a plateau, and the most warm-ups any configuration ran. */
  size_t warmups_extended, warmups_most;
  size_t invalid; /* configurations whose records fail gb_validate_case */
  /* Measured configurations whose time or energy per sort is not above 0. */
  size_t nonpositive;
  /* The loop-time cross-check: measured configurations with a loop time,
   * of those disagreeing with time per sort, and those whose CPU per sort
   * exceeds time per sort x worker_cpus (the CPUs of pinning.cpus, or every
   * online CPU when the workers were not pinned). */
  size_t loop_checked, loop_disagrees, cpu_above_wall;
  uint64_t worker_cpus;
  bool all_energy_zero; /* energy is ok, and every ok reading is 0 uJ */
} gb_an_checks;

#define GB_AN_WARNING_MAX 320

typedef struct {
  char text[GB_AN_WARNING_MAX]; /* one line, no "warning:" prefix */
} gb_an_warning;

typedef struct {
  gb_analysis_opts opts;
  const gb_records *records; /* borrowed: must outlive the analysis */
  bool energy;               /* meta.json energy.status is ok */
  gb_an_startup *startups;   /* every startup trial of the settings, canonical order */
  size_t n_startups;
  gb_an_config *configs; /* every configuration of the settings, canonical order */
  size_t n_configs;
  gb_an_ratio *ratios; /* language ratios, then order ratios */
  size_t n_ratios, n_language_ratios;
  gb_an_tally tally_all, tally_languages, tally_orders;
  gb_an_rank *ranks;
  size_t n_ranks;
  gb_an_coupling *couplings; /* per language and algorithm of the settings */
  size_t n_couplings;
  gb_an_checks checks;
  gb_an_warning *warnings;
  size_t n_warnings;
  gb_an_group *groups; /* language groups (pairs x algorithms), then order groups */
  size_t n_groups, n_language_groups;
  gb_an_remedies remedies;
  /* Net power above idle over the configurations with energy: median, min,
   * max (NAN when none) and how many. */
  double net_power[3];
  size_t net_power_n;
  /* Question 1, decided once from tally_all (gb_analysis_verdict,
   * gb_analysis_noisy); meaningful only with energy. */
  gb_an_verdict verdict;
  bool noisy;
} gb_analysis;

/* Canonical order: languages, algorithms and orders as their enums order
 * them, sizes as settings.sizes lists them (the harness's plan order).
 * A configuration's bootstrap stream depends only on its key, never on
 * which other configurations the campaign holds:
 * ((language x 3 + algorithm) x 4 + order) x 2^32 + size mod 2^32
 * (gbi_analysis_stream, in analysis_internal.h). */

/* Analyses r. Errors: -EINVAL for bad options or a run the bootstrap
 * refuses (message naming the configuration), -ENOMEM. *out (release with
 * gb_analysis_free) is set only on success. Warnings (fewer runs than
 * planned or than 30, an unfinished campaign, energy not measured) are
 * collected, not printed. */
GB_MUST_USE int gb_analysis_run(const gb_records *r, const gb_analysis_opts *opts,
                                gb_analysis **out, gb_err *err);
void gb_analysis_free(gb_analysis *a);

/* a's verdict of question 1 as summary.json and compare.json name it:
 * "pending" without energy, else "cannot_answer", "yes",
 * "yes_within_margin_but_power_differs", "too_noisy" or "no". */
const char *gb_analysis_verdict_name(const gb_analysis *a);

/* The configuration with this key, or NULL. */
const gb_an_config *gb_analysis_find(const gb_analysis *a, gb_language l, gb_algorithm alg,
                                     gb_order o, uint64_t size);

/* "python/quick/random/250" into buf. */
void gb_an_config_label(const gb_an_config *c, char *buf, size_t len);

#endif
