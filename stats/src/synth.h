/* Records with a known truth, for the coverage study (coverage.h): a
 * campaign's runs.csv drawn from a stated model, read back through the
 * records reader, with every figure the report estimates also computed
 * from the model itself. The row layout is that of the report benchmark's
 * generator (stats/bench/gen_records.c); the numbers are random draws.
 *
 * The model, per configuration (language l, algorithm, order, size n):
 *   per-sort time T (ns): as gen_records, cost(algorithm, order, n) x a
 *     language factor; sorts s = max(1, loop_ms / T);
 *   a process: startup part A = S_l x exp(sigma_s Z1) and loop part
 *     B = s T exp(sigma_c Z2) (lognormal, the median of each factor 1);
 *     wall = A + B; CPU = 0.99 wall;
 *   its energy above idle: (P_s A + P B) x exp(sigma_p Z3), with P the
 *     configuration's net power and P_s the power of a startup; the idle
 *     window after it lasts as long, at 5 W x exp(0.01 Z4);
 *   a startup batch: L_l launches, each S_l x exp(sigma_s Z), at P_s.
 * sigma_c, the run-to-run scatter, cycles through 0.10, 0.20, 0.30, 0.40
 * over the configurations (the committed study's 90% ranges span 0.46 to
 * 2.0 times the median, a sigma of about 0.14 to 0.6, median 0.24).
 *
 * The truth of a median is the population median of the study's per-run
 * value under the model (time per sort = (wall - S*) / s with S* the
 * population median of batch / L, and so on), from a large draw of its own
 * stream; the truth of net power is P, of a power ratio P_a / P_b. */
#ifndef GREENBENCH_SYNTH_H
#define GREENBENCH_SYNTH_H

#include "greenbench/error.h"
#include "greenbench/records_read.h"

#include <stddef.h>
#include <stdint.h>

typedef struct {
  gb_settings settings;              /* languages ... sizes and runs; the rest is filled in */
  double loop_ms;                    /* the loop each process aims for (calibration) */
  double power_w[GB_LANGUAGE_COUNT]; /* net power P of every loop of the language */
  double startup_power_w;            /* P_s */
  double startup_sigma;              /* sigma_s, per launch */
  double power_sigma;                /* sigma_p, per run */
  size_t truth_draws;                /* draws behind each truth (e.g. 200,000) */
} gbi_synth_design;

/* A configuration's model and the truth of every estimate. */
typedef struct {
  gb_language language;
  gb_algorithm algorithm;
  gb_order order;
  uint64_t size;
  double per_sort_ns, sorts, time_sigma, power_w; /* the model */
  double process_ns, time_per_sort_ns, cpu_per_sort_ns, energy_per_sort_uj,
      gross_energy_per_sort_uj;
} gbi_synth_config;

typedef struct {
  gbi_synth_design design;
  gbi_synth_config *configs; /* the analysis's canonical order */
  size_t n_configs;
} gbi_synth_truth;

/* The configurations of d and their truths. 0, -EINVAL (no configuration,
 * runs < 2, a power not > 0), -ENOMEM; release with gbi_synth_truth_free. */
GB_MUST_USE int gbi_synth_truth_of(const gbi_synth_design *d, gbi_synth_truth *out,
                                   gb_err *err);
void gbi_synth_truth_free(gbi_synth_truth *t);

/* One campaign drawn from t's model with this seed: runs.csv (settings.runs
 * sort runs per configuration, as many startup batches per startup trial,
 * energy ok, every run ok) as the reader reads it, no warmups.csv. The same
 * seed gives the same records. 0, -ENOMEM, -EINVAL (a row the reader
 * refuses: a bug); *out (gb_records_free) only on success. */
GB_MUST_USE int gbi_synth_records(const gbi_synth_truth *t, uint64_t seed, gb_records **out,
                                  gb_err *err);

/* The designs of the coverage study: net power 15 W for C and Node.js and
 * 18 W for Python (so Python's power ratios are 1.2, the others 1), a
 * startup at 10 W, startup scatter 0.20, power scatter 0.02 per run, 30
 * runs, loops of 240 ms, truths from 200,000 draws.
 *   small: quicksort on random and sorted input of size 1000, every
 *          language (6 configurations, 9 ratios): the default tests';
 *   study: the committed study's 144 configurations (252 ratios). */
gbi_synth_design gbi_synth_design_small(void);
gbi_synth_design gbi_synth_design_study(void);

/* The truth with this key, or NULL. */
const gbi_synth_config *gbi_synth_find(const gbi_synth_truth *t, gb_language l, gb_algorithm a,
                                       gb_order o, uint64_t size);

#endif
