/* Private to the analysis: its steps in other files. */
#ifndef GREENBENCH_ANALYSIS_INTERNAL_H
#define GREENBENCH_ANALYSIS_INTERNAL_H

#include "greenbench/analysis.h"

/* Fills a's conclusions from its figures (analysis_summary.c): groups,
 * net_power, remedies, each configuration's validity and checks.invalid,
 * verdict and noisy. Needs the configurations, ratios and tallies. 0 or
 * -ENOMEM. */
int gb_analysis_conclude(gb_analysis *a, gb_err *err);

#endif
