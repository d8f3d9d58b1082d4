#include "greenbench/suiteplan.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness_internal.h"

size_t gb_suite_sets(const gb_suite_workload *w) {
  size_t n = 1;
  for (size_t i = 0; i < w->n_parameters; i++)
    n *= w->parameters[i].n_values;
  return n;
}

void gb_suite_set_values(const gb_suite_workload *w, size_t i, uint64_t *values) {
  for (size_t k = w->n_parameters; k-- > 0;) {
    const gb_suite_parameter *p = &w->parameters[k];
    values[k] = p->values[i % p->n_values];
    i /= p->n_values;
  }
}

size_t gb_suite_config_count(const gb_suite *s) {
  size_t ncases = 0;
  for (size_t w = 0; w < s->n_workloads; w++)
    ncases += gb_suite_sets(&s->workloads[w]);
  return s->n_languages * ncases;
}

int gb_suite_plan_build(const gb_suite *s, const gb_settings *st, gb_suite_plan *out,
                        gb_err *err) {
  return gb_suite_plan_select(s, st, NULL, out, err);
}

int gb_suite_plan_select(const gb_suite *s, const gb_settings *st, const bool *selected,
                         gb_suite_plan *out, gb_err *err) {
  size_t ncases = 0;
  for (size_t w = 0; w < s->n_workloads; w++)
    ncases += gb_suite_sets(&s->workloads[w]);
  size_t nconfigs = s->n_languages * ncases;
  if (nconfigs == 0 || st->runs == 0)
    return gb_err_set(err, EINVAL, "the plan is empty: no configuration to measure");
  gb_suite_plan p = {.ncases = ncases};
  p.configs = calloc(nconfigs, sizeof *p.configs);
  p.runs = calloc(2 * nconfigs * st->runs, sizeof *p.runs);
  if (!p.configs || !p.runs) {
    gb_suite_plan_free(&p);
    return gb_err_set(err, ENOMEM, "out of memory planning %zu configurations", nconfigs);
  }
  for (size_t l = 0, at = 0; l < s->n_languages; l++) {
    size_t kase = 0;
    for (size_t w = 0; w < s->n_workloads; w++)
      for (size_t i = 0, n = gb_suite_sets(&s->workloads[w]); i < n; i++, kase++, at++) {
        if (selected && !selected[at])
          continue;
        gb_suite_config *c = &p.configs[p.nconfigs++];
        *c = (gb_suite_config){.language = l, .workload = w, .set = i, .kase = kase};
        gb_suite_set_values(&s->workloads[w], i, c->values);
      }
  }
  if (p.nconfigs == 0) {
    gb_suite_plan_free(&p);
    return gb_err_set(err, EINVAL, "the selection leaves no configuration of suite %s",
                      s->name);
  }
  for (gb_run_kind k = GB_RUN_SORT; k <= GB_RUN_STARTUP; k++)
    for (size_t c = 0; c < p.nconfigs; c++)
      for (uint64_t r = 0; r < st->runs; r++)
        p.runs[p.nruns++] = (gb_planned_run){k, (uint32_t)c, (uint32_t)r};
  gbi_plan_shuffle(p.runs, p.nruns, st->order_seed);
  *out = p;
  return 0;
}

void gb_suite_plan_free(gb_suite_plan *p) {
  free(p->configs);
  free(p->runs);
  *p = (gb_suite_plan){0};
}

static void label(const gb_suite *s, const gb_suite_config *c, const char *mid, char *buf,
                  size_t len) {
  const gb_suite_workload *w = &s->workloads[c->workload];
  size_t o =
      (size_t)snprintf(buf, len, "%s/%s%s/", s->languages[c->language].name, mid, w->name);
  /* Cut short, as snprintf would, when buf is too small. */
  int rc = o < len ? gb_suite_params_join(w, c->values, ";", buf + o, len - o) : 0;
  (void)rc;
}

void gb_suite_config_label(const gb_suite *s, const gb_suite_config *c, char *buf, size_t len) {
  label(s, c, "", buf, len);
}

void gb_suite_startup_label(const gb_suite *s, const gb_suite_config *c, char *buf,
                            size_t len) {
  label(s, c, "startup/", buf, len);
}
