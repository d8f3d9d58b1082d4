/* The campaign's plan: which configurations, how many runs of each, the
 * startup groups, and the one shuffled order of every measured run. Pure
 * arithmetic, so it is tested without running anything. */
#ifndef GREENBENCH_PLAN_H
#define GREENBENCH_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "greenbench/error.h"
#include "greenbench/settings.h" /* gb_settings, its bounds and gb_energy_mode */
#include "greenbench/workload.h"

/* The algorithm argument startup-only launches are given (they never sort). */
#define GB_STARTUP_ALGORITHM GB_QUICK

typedef struct {
  gb_language language;
  gb_algorithm algorithm;
  gb_order order;
  uint32_t size;
} gb_config;

/* Startup cost is measured per language, order and size. */
typedef struct {
  gb_language language;
  gb_order order;
  uint32_t size;
} gb_startup_group;

typedef enum { GB_RUN_SORT, GB_RUN_STARTUP } gb_run_kind;

typedef struct {
  gb_run_kind kind;
  uint32_t target; /* index into configs (sort) or startups (startup) */
  uint32_t rep;    /* 0 .. runs-1 within its configuration or group */
} gb_planned_run;

typedef struct {
  gb_config *configs;
  size_t nconfigs;
  gb_startup_group *startups;
  size_t nstartups;
  gb_planned_run *runs; /* in execution order once shuffled */
  size_t nruns;
} gb_plan;

/* Builds the plan in canonical order (languages, algorithms, orders, sizes as
 * their enums and the size list order them), then shuffles every measured run
 * into one order with a Fisher-Yates shuffle seeded by s->order_seed. Only
 * planned configurations (gb_settings_plans) and the startup groups they
 * subtract are in it. The same settings always give the same plan. Returns
 * 0, -EINVAL for an empty selection or -ENOMEM. */
GB_MUST_USE int gb_plan_build(const gb_settings *s, gb_plan *out, gb_err *err);
void gb_plan_free(gb_plan *p);
/* Index of the startup group a configuration subtracts; always found. */
size_t gb_plan_startup_of(const gb_plan *p, const gb_config *c);
/* "python/quick/random/2000" and "python/startup/random/2000". */
void gb_config_label(const gb_config *c, char *buf, size_t len);
void gb_startup_label(const gb_startup_group *g, char *buf, size_t len);

#endif
