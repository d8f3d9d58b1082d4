/* The plan of a suite campaign (`greenbench run --suite`): its
 * configurations (language x workload x parameter set), one startup group
 * per configuration, and one shuffled order of every measured run. Pure
 * arithmetic, as the study's plan (plan.h), whose run type and shuffle it
 * shares: the same suite and settings always give the same plan. */
#ifndef GREENBENCH_SUITEPLAN_H
#define GREENBENCH_SUITEPLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "greenbench/error.h"
#include "greenbench/plan.h" /* gb_planned_run */
#include "greenbench/settings.h"
#include "greenbench/suitefile.h"

typedef struct {
  size_t language; /* index into the suite's languages */
  size_t workload; /* index into the suite's workloads */
  size_t set;      /* the parameter set's index within its workload */
  size_t kase;     /* the case (workload, parameter set) across the suite */
  uint64_t values[GB_SUITE_PARAMETERS_MAX]; /* one per parameter of the workload */
} gb_suite_config;

typedef struct {
  gb_suite_config *configs; /* canonical order: languages, workloads, sets */
  size_t nconfigs;
  size_t ncases; /* parameter sets of all workloads together */
  /* Every measured run, shuffled: kind GB_RUN_SORT is a work run of
   * configs[target], GB_RUN_STARTUP a startup batch of configs[target]'s
   * startup group (one group per configuration). */
  gb_planned_run *runs;
  size_t nruns;
} gb_suite_plan;

/* The parameter sets of workload w: the product of its parameters' value
 * counts. */
size_t gb_suite_sets(const gb_suite_workload *w);
/* The values of set i of w (the first parameter varies slowest) into
 * values[w->n_parameters]. */
void gb_suite_set_values(const gb_suite_workload *w, size_t i, uint64_t *values);

/* Builds the plan of suite s under settings st (its runs and order_seed):
 * every configuration in canonical order (the suite's languages, then its
 * workloads as the file lists them, then each workload's parameter sets),
 * st->runs work runs and st->runs startup batches for each, shuffled into one
 * order with the study's Fisher-Yates shuffle seeded by st->order_seed.
 * Returns 0, -EINVAL for runs 0 or a suite without languages or workloads,
 * -ENOMEM. */
GB_MUST_USE int gb_suite_plan_build(const gb_suite *s, const gb_settings *st,
                                    gb_suite_plan *out, gb_err *err);
/* The same for the configurations that selected marks: one flag per
 * configuration of the whole suite in canonical order (the order above,
 * gb_suite_config_count of them), or NULL for every one. The plan holds the
 * selected configurations only, in canonical order (kase stays the case's
 * index across the suite), and their runs shuffled as above: a selection
 * of every configuration gives gb_suite_plan_build's plan. -EINVAL also
 * when the selection marks none. (A CTest fixture measures what ctest
 * selected so: docs/suites.md, ADR 0023.) */
GB_MUST_USE int gb_suite_plan_select(const gb_suite *s, const gb_settings *st,
                                     const bool *selected, gb_suite_plan *out, gb_err *err);
/* How many configurations the whole suite has: its languages times its
 * parameter sets of all workloads. */
size_t gb_suite_config_count(const gb_suite *s);
void gb_suite_plan_free(gb_suite_plan *p);

/* "python/nbody/n=1000" and "python/startup/nbody/n=1000". */
void gb_suite_config_label(const gb_suite *s, const gb_suite_config *c, char *buf, size_t len);
void gb_suite_startup_label(const gb_suite *s, const gb_suite_config *c, char *buf, size_t len);

#endif
