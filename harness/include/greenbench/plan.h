/* The campaign's plan: which configurations, how many runs of each, the
 * startup groups, and the one shuffled order of every measured run. Pure
 * arithmetic, so it is tested without running anything. */
#ifndef GREENBENCH_PLAN_H
#define GREENBENCH_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "greenbench/error.h"
#include "greenbench/meta.h" /* gb_energy_mode and the records' limits */
#include "greenbench/workload.h"

/* A worker process that runs longer than this is killed and recorded. */
#define GB_DEFAULT_TIMEOUT_S 60
/* The algorithm argument startup-only launches are given (they never sort). */
#define GB_STARTUP_ALGORITHM GB_QUICK

/* What a campaign measures: sets are bitmasks over the enums (bit 1 << value),
 * sizes are kept in the order given. The configurations are the product of
 * the four lists less those omitted: bit z of omit[l][a][o] leaves out
 * language l, algorithm a, order o at sizes[z]. A selection that is not a
 * product ("C quicksort, and Python at 2000") is the smallest product that
 * holds it with the rest omitted. */
typedef struct {
  char profile[16]; /* "smoke", "study" or "custom" */
  unsigned languages, algorithms, orders;
  uint32_t sizes[GB_MAX_SIZES];
  size_t nsizes;
  unsigned runs;      /* measured runs per configuration and startup group */
  unsigned warmups;   /* warm-up runs per configuration, >= 1 */
  unsigned target_ms; /* shortest sort loop wanted per process */
  gb_energy_mode energy;
  uint32_t seed;       /* input seed */
  uint64_t order_seed; /* shuffle seed */
  unsigned timeout_s;  /* per process */
  uint16_t omit[GB_LANGUAGE_COUNT][GB_ALGORITHM_COUNT][GB_ORDER_COUNT];
} gb_settings;

_Static_assert(GB_MAX_SIZES <= 16, "a size index is a bit of gb_settings.omit");

/* The bounds of the settings, which `greenbench run`'s options give and
 * gb_settings_check holds (GB_MAX_SIZES and GB_MAX_TIMEOUT_S are the
 * records'). A campaign has 1 .. GB_MAX_RUNS runs per configuration, 1 ..
 * GB_MAX_WARMUPS warm-ups (each warm-up's loop time is recorded), a target
 * of 1 .. GB_MAX_TARGET_MS ms, an input seed from 1 and a timeout from 1 s. */
#define GB_MAX_RUNS 10000
#define GB_MAX_WARMUPS GB_META_MAX_WARMUPS
#define GB_MAX_TARGET_MS 60000

/* Whether s can be run: each list names at least one value and none that is
 * not in its set, 1 .. GB_MAX_SIZES sizes of 1 .. GB_MAX_SIZE, every number
 * inside its bounds above, the energy mode one of the modes. gb_campaign_run
 * checks its settings so, whoever built them. 0 or -EINVAL naming the
 * setting ("settings.runs: 0 is outside 1..10000"). */
GB_MUST_USE int gb_settings_check(const gb_settings *s, gb_err *err);

/* Whether s measures language l, algorithm a, order o at sizes[z]: each is
 * in its list and the configuration is not omitted. */
bool gb_settings_plans(const gb_settings *s, gb_language l, gb_algorithm a, gb_order o,
                       size_t z);

/* Fills *out with a profile's settings ("smoke" or "study"); order_seed is
 * left 0 for the caller. Returns 0 or -EINVAL for another name. */
GB_MUST_USE int gb_settings_profile(const char *name, gb_settings *out, gb_err *err);

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
