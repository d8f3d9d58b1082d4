#include "greenbench/plan.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/rng.h"
#include "greenbench/text.h"
#include "harness_internal.h"

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
void gbi_plan_shuffle(gb_planned_run *runs, size_t n, uint64_t seed) {
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
  gbi_plan_shuffle(p.runs, p.nruns, s->order_seed);
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
