#include "greenbench/plan.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/rng.h"
#include "greenbench/text.h"
#include "harness_internal.h"

/* value outside lo..hi: the message naming key. */
static int out_of(gb_err *err, const char *key, uint64_t value, uint64_t lo, uint64_t hi) {
  return gb_err_set(err, EINVAL, "settings.%s: %" PRIu64 " is outside %" PRIu64 "..%" PRIu64,
                    key, value, lo, hi);
}

int gb_settings_check(const gb_settings *s, gb_err *err) {
  const struct {
    const char *key;
    uint64_t value, lo, hi;
  } numbers[] = {
      {"languages", s->languages, 1, (1u << GB_LANGUAGE_COUNT) - 1},
      {"algorithms", s->algorithms, 1, (1u << GB_ALGORITHM_COUNT) - 1},
      {"orders", s->orders, 1, (1u << GB_ORDER_COUNT) - 1},
      {"sizes (the count)", s->nsizes, 1, GB_MAX_SIZES},
      {"runs", s->runs, 1, GB_MAX_RUNS},
      {"warmups", s->warmups, 1, GB_MAX_WARMUPS},
      {"target_ms", s->target_ms, 1, GB_MAX_TARGET_MS},
      {"seed", s->seed, 1, UINT32_MAX},
      {"timeout_s", s->timeout_s, 1, GB_MAX_TIMEOUT_S},
      {"energy", (unsigned)s->energy, 0, GB_ENERGY_MODE_COUNT - 1},
  };
  for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++)
    if (numbers[i].value < numbers[i].lo || numbers[i].value > numbers[i].hi)
      return out_of(err, numbers[i].key, numbers[i].value, numbers[i].lo, numbers[i].hi);
  for (size_t z = 0; z < s->nsizes; z++)
    if (s->sizes[z] < 1 || s->sizes[z] > GB_MAX_SIZE)
      return out_of(err, "sizes", s->sizes[z], 1, GB_MAX_SIZE);
  return 0;
}

/* What each profile sets; both measure every language, algorithm and order
 * with the default seed and timeout. */
static const gb_settings profiles[] = {
    /* The study's own numbers (study.md, Method). */
    {.profile = "study",
     .sizes = {250, 500, 1000, 2000},
     .nsizes = 4,
     .runs = 30,
     .warmups = 3,
     .target_ms = 200,
     .energy = GB_ENERGY_ON},
    /* Small enough to finish in well under three minutes on a 2-CPU machine. */
    {.profile = "smoke",
     .sizes = {100, 200},
     .nsizes = 2,
     .runs = 5,
     .warmups = 2,
     .target_ms = 20,
     .energy = GB_ENERGY_AUTO},
};

int gb_settings_profile(const char *name, gb_settings *out, gb_err *err) {
  for (size_t i = 0; i < sizeof profiles / sizeof profiles[0]; i++) {
    if (strcmp(name, profiles[i].profile) == 0) {
      gb_settings s = profiles[i];
      s.languages = (1u << GB_LANGUAGE_COUNT) - 1;
      s.algorithms = (1u << GB_ALGORITHM_COUNT) - 1;
      s.orders = (1u << GB_ORDER_COUNT) - 1;
      s.seed = GB_DEFAULT_SEED;
      s.timeout_s = GB_DEFAULT_TIMEOUT_S;
      *out = s;
      return 0;
    }
  }
  return gb_err_set(err, EINVAL, "unknown profile '%s' (expected smoke or study)",
                    gb_excerpt(&(gb_excerpt_buf){{0}}, name));
}

bool gb_settings_plans(const gb_settings *s, gb_language l, gb_algorithm a, gb_order o,
                       size_t z) {
  return (unsigned)l < GB_LANGUAGE_COUNT && (unsigned)a < GB_ALGORITHM_COUNT &&
         (unsigned)o < GB_ORDER_COUNT && z < s->nsizes && (s->languages >> l & 1) &&
         (s->algorithms >> a & 1) && (s->orders >> o & 1) && !(s->omit[l][a][o] >> z & 1);
}

bool gbi_settings_plans_startup(const gb_settings *s, gb_language l, gb_order o, size_t z) {
  for (gb_algorithm a = 0; a < GB_ALGORITHM_COUNT; a++)
    if (gb_settings_plans(s, l, a, o, z))
      return true;
  return false;
}

static void add_configs(const gb_settings *s, gb_plan *p) {
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++)
    for (gb_algorithm a = 0; a < GB_ALGORITHM_COUNT; a++)
      for (gb_order o = 0; o < GB_ORDER_COUNT; o++)
        for (size_t z = 0; z < s->nsizes; z++)
          if (gb_settings_plans(s, l, a, o, z))
            p->configs[p->nconfigs++] = (gb_config){l, a, o, s->sizes[z]};
}

static void add_startups(const gb_settings *s, gb_plan *p) {
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++)
    for (gb_order o = 0; o < GB_ORDER_COUNT; o++)
      for (size_t z = 0; z < s->nsizes; z++)
        if (gbi_settings_plans_startup(s, l, o, z))
          p->startups[p->nstartups++] = (gb_startup_group){l, o, s->sizes[z]};
}

static void add_runs(const gb_settings *s, gb_plan *p) {
  for (size_t c = 0; c < p->nconfigs; c++)
    for (unsigned r = 0; r < s->runs; r++)
      p->runs[p->nruns++] = (gb_planned_run){GB_RUN_SORT, (uint32_t)c, r};
  for (size_t g = 0; g < p->nstartups; g++)
    for (unsigned r = 0; r < s->runs; r++)
      p->runs[p->nruns++] = (gb_planned_run){GB_RUN_STARTUP, (uint32_t)g, r};
}

/* Fisher-Yates (Durstenfeld): every permutation equally likely, given an
 * unbiased bounded draw. */
static void shuffle(gb_planned_run *runs, size_t n, uint64_t seed) {
  gb_rng rng;
  gb_rng_seed(&rng, seed);
  for (size_t i = n; i > 1; i--) {
    size_t j = (size_t)gb_rng_below(&rng, i);
    gb_planned_run t = runs[i - 1];
    runs[i - 1] = runs[j];
    runs[j] = t;
  }
}

int gb_plan_build(const gb_settings *s, gb_plan *out, gb_err *err) {
  size_t nconfigs = 0, nstartups = 0;
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++)
    for (gb_order o = 0; o < GB_ORDER_COUNT; o++)
      for (size_t z = 0; z < s->nsizes && z < GB_MAX_SIZES; z++) {
        nstartups += gbi_settings_plans_startup(s, l, o, z);
        for (gb_algorithm a = 0; a < GB_ALGORITHM_COUNT; a++)
          nconfigs += gb_settings_plans(s, l, a, o, z);
      }
  if (nconfigs == 0 || s->runs == 0)
    return gb_err_set(err, EINVAL, "the selection is empty: no configuration to measure");
  gb_plan p = {0};
  p.configs = calloc(nconfigs, sizeof *p.configs);
  p.startups = calloc(nstartups, sizeof *p.startups);
  p.runs = calloc((nconfigs + nstartups) * s->runs, sizeof *p.runs);
  if (!p.configs || !p.startups || !p.runs) {
    gb_plan_free(&p);
    return gb_err_set(err, ENOMEM, "out of memory planning %zu configurations", nconfigs);
  }
  add_configs(s, &p);
  add_startups(s, &p);
  add_runs(s, &p);
  shuffle(p.runs, p.nruns, s->order_seed);
  *out = p;
  return 0;
}

void gb_plan_free(gb_plan *p) {
  free(p->configs);
  free(p->startups);
  free(p->runs);
  *p = (gb_plan){0};
}

size_t gb_plan_startup_of(const gb_plan *p, const gb_config *c) {
  for (size_t g = 0; g < p->nstartups; g++)
    if (p->startups[g].language == c->language && p->startups[g].order == c->order &&
        p->startups[g].size == c->size)
      return g;
  return 0; /* unreachable: every configuration's group is planned */
}

void gb_config_label(const gb_config *c, char *buf, size_t len) {
  snprintf(buf, len, "%s/%s/%s/%u", gb_language_name(c->language),
           gb_algorithm_name(c->algorithm), gb_order_name(c->order), c->size);
}

void gb_startup_label(const gb_startup_group *g, char *buf, size_t len) {
  snprintf(buf, len, "%s/startup/%s/%u", gb_language_name(g->language), gb_order_name(g->order),
           g->size);
}
