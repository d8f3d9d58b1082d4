/* A suite configuration's first warm-up predicted from a configuration
 * already calibrated, as the study predicts a size's from its neighbour's
 * (calibration.h, gbi_predict_sorts). Only the first warm-up's {reps}
 * change: the rule that follows (at least --warmups, then until a loop is
 * on target, at most GB_CALIBRATION_EXTRA_WARMUPS more) is the study's.
 * Pure arithmetic, tested on known calibrations; a resume replays it on
 * the recorded warm-ups. */
#ifndef GB_SUITEPREDICT_H
#define GB_SUITEPREDICT_H

#include <stddef.h>
#include <stdint.h>

#include "calibration.h"
#include "greenbench/suiteplan.h"

/* How far apart two parameter sets are: the sum over their n values of
 * |log((a + 1) / (b + 1))| (equal values, named ones included, add 0). */
double gbi_suite_distance(const uint64_t *a, const uint64_t *b, size_t n);

/* The reference of configuration i of plan p (of suite s): of the
 * configurations j < i whose calibration done[j] is usable
 * (gbi_calibration_usable), those of i's language and workload with every
 * named parameter equal to i's; the nearest values (gbi_suite_distance),
 * the latest in the plan on a tie. p->nconfigs
 * when there is none. */
size_t gbi_suite_reference(const gb_suite *s, const gb_suite_plan *p, size_t i,
                           const gbi_calibration *done);

/* The {reps} of configuration i's first warm-up: 0 (a probe of one
 * repetition) without a reference; else what the reference's last warm-up
 * predicts for a loop of 6/5 x target_ns with the time of a repetition
 * unchanged (gbi_predict_sorts), divided by how much larger i's numeric
 * parameters are (the product of the ratios, where above 1). A suite says
 * nothing of how work grows with its parameters, so the prediction only
 * ever assumes a repetition no cheaper: a first warm-up too short costs one
 * more warm-up, one too long could outlast the timeout. */
uint64_t gbi_suite_predict_reps(const gb_suite *s, const gb_suite_plan *p, size_t i,
                                const gbi_calibration *done, uint64_t target_ns);

#endif
