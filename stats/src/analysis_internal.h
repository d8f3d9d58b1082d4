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
uint64_t gb_analysis_stream(gb_language l, gb_algorithm a, gb_order o, uint64_t size);

/* The smallest k with P(X > k) <= 0.05 for X ~ Binomial(n, p), 0 < p < 1:
 * how many of n intervals chance alone exceeds at most one time in 20 when
 * each excludes 1 with probability p. 0 for n = 0. */
size_t gb_analysis_chance_bound(size_t n, double p);

/* Whether a configuration with this key lies in rank scope k (the
 * coverage study checks rank intervals against the truth of each scope). */
bool gb_an_rank_holds(const gb_an_rank *k, gb_language l, gb_algorithm a, uint64_t size);

/* An ok row of runs.csv as the bootstrap takes it (energy NAN when the row
 * has no reading). */
gb_run gb_analysis_run_of_row(const gb_run_row *r);

/* Calibrates a's three tallies' chance counts (gb_an_tally) by simulating
 * opts.chance_campaigns campaigns of a's own design under equal power
 * (chance.c); nothing when that is 0, energy was not measured or no power
 * ratio is defined. Needs the ratios and tallies. 0, -ENOMEM, or an error
 * of the analysis of a simulated campaign. */
GB_MUST_USE int gb_analysis_calibrate_chance(gb_analysis *a, gb_err *err);

/* Fills a's conclusions from its figures (analysis_summary.c): groups,
 * net_power, remedies, each configuration's validity and checks.invalid,
 * verdict and noisy. Needs the configurations, ratios and tallies. 0 or
 * -ENOMEM. */
GB_MUST_USE int gb_analysis_conclude(gb_analysis *a, gb_err *err);

#endif
