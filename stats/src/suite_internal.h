/* What a suite comparison (suite_compare.c) needs of a suite analysis
 * beyond suite_analysis.h. */
#ifndef GREENBENCH_SUITE_INTERNAL_H
#define GREENBENCH_SUITE_INTERNAL_H

#include "greenbench/suite_analysis.h"

/* Configuration c (measured) of a bootstrapped again as the analysis draws
 * it, its streams xor'ed with offset: *boot (release with gb_boot_free)
 * and, by the paired estimator with energy, *power (opts.resamples
 * replicates, malloc'd; NULL otherwise). 0, -ENOMEM, or the bootstrap's
 * refusal naming the configuration. */
GB_MUST_USE int gbi_sa_draw(const gb_suite_analysis *a, const gb_sa_config *c, uint64_t offset,
                            gb_boot *boot, double **power, gb_err *err);

#endif
