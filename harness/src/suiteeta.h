/* The progress line's ETA for a suite campaign (suitecampaign.c). A suite's
 * programs are anyone's, so there is no model of them as the study has
 * (estimate.h): each configuration's costs come from its own calibration,
 * and a configuration not yet calibrated is priced as the nearest one that
 * is (gbi_suite_eta_reference). Before any configuration is calibrated nothing is
 * ahead, and the line reads "?". The items and their kinds are the study's
 * (gb_eta), so gb_eta_left_ns blends them with the measured pace alike.
 * Pure arithmetic, tested on known plans and costs. */
#ifndef GB_SUITEETA_H
#define GB_SUITEETA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "calibration.h"
#include "greenbench/estimate.h"
#include "greenbench/suiteplan.h"

/* What one configuration's items take, ns. */
typedef struct {
  bool known;                  /* its warm-ups are done (or replayed, on resume) */
  uint64_t warmups_ns;         /* its warm-ups, as measured (0 on resume: behind) */
  uint64_t startup_warmups_ns; /* its startup group's warm-ups: `warmups` launches */
  uint64_t run_ns;             /* one measured work run: doubled by the idle window */
  uint64_t batch_ns;           /* one measured startup batch: likewise */
} gbi_suite_cost;

/* Configuration c's costs once it is calibrated: its warm-ups took
 * warmups_ns; the last of them `last`, whose start-up part (wall - loop)
 * each of the group's `warmups` single launches is expected to take; a
 * measured run expected_wall_ns (gbi_expected_wall) plus as long idle plus
 * GB_ESTIMATE_PROCESS_NS, and a startup batch (until
 * gbi_suite_cost_startup) as long as a run, as the study's model has it. */
void gbi_suite_cost_config(gbi_suite_cost *c, uint64_t warmups_ns, gbi_warmup_time last,
                           uint64_t expected_wall_ns, unsigned warmups);
/* Its startup group calibrated: a batch is `launches` launches of the
 * median of single[n] (the walls of its warm-ups), doubled by the idle
 * window, plus GB_ESTIMATE_PROCESS_NS; unchanged when n is 0. */
void gbi_suite_cost_startup(gbi_suite_cost *c, uint64_t launches, const double *single,
                            size_t n);

/* The configuration whose costs stand for configuration i's: i itself when
 * known, else of the known ones the same language and workload with the
 * nearest parameter values (gbi_suite_distance), then
 * the same language, then any; the first in the plan on a tie. p->nconfigs
 * when none is known. */
size_t gbi_suite_eta_reference(const gb_suite_plan *p, const gbi_suite_cost *cost, size_t i);

/* Sets e's items ahead (its measured items stay): the warm-ups of every
 * configuration from configs_done on and of every startup group from
 * startups_done on, and the runs from runs_done on, each at the cost of its
 * reference. Leaves e untouched when no configuration is known: no
 * estimate before there is data for one. */
void gbi_suite_eta_ahead(gb_eta *e, const gb_suite_plan *p, const gbi_suite_cost *cost,
                         size_t configs_done, size_t startups_done, size_t runs_done);

#endif
