#include "suiteeta.h"

#include <stdlib.h>

#include "greenbench/quantile.h"
#include "harness_internal.h"
#include "suitepredict.h"

void gbi_suite_cost_config(gbi_suite_cost *c, uint64_t warmups_ns, gbi_warmup_time last,
                           uint64_t expected_wall_ns, unsigned warmups) {
  uint64_t start = last.wall_ns > last.loop_ns ? last.wall_ns - last.loop_ns : 0;
  c->known = true;
  c->warmups_ns = warmups_ns;
  c->startup_warmups_ns = (uint64_t)warmups * (start + GB_ESTIMATE_PROCESS_NS);
  c->run_ns = 2 * expected_wall_ns + GB_ESTIMATE_PROCESS_NS;
  c->batch_ns = c->run_ns;
}

void gbi_suite_cost_startup(gbi_suite_cost *c, uint64_t launches, const double *single,
                            size_t n) {
  double one;
  if (gb_median(single, n, &one, NULL) == 0)
    c->batch_ns = 2 * launches * (uint64_t)one + GB_ESTIMATE_PROCESS_NS;
}

size_t gbi_suite_eta_reference(const gb_suite_plan *p, const gbi_suite_cost *cost, size_t i) {
  if (cost[i].known)
    return i;
  const gb_suite_config *c = &p->configs[i];
  size_t best = p->nconfigs;
  int best_rank = 3;
  double best_d = 0;
  for (size_t j = 0; j < p->nconfigs; j++) {
    if (!cost[j].known)
      continue;
    const gb_suite_config *o = &p->configs[j];
    int rank = o->language != c->language ? 2 : o->workload != c->workload ? 1 : 0;
    double d =
        rank == 0 ? gbi_suite_distance(c->values, o->values, GB_SUITE_PARAMETERS_MAX) : 0;
    if (rank < best_rank || (rank == best_rank && d < best_d)) {
      best = j;
      best_rank = rank;
      best_d = d;
    }
  }
  return best;
}

void gbi_suite_eta_ahead(gb_eta *e, const gb_suite_plan *p, const gbi_suite_cost *cost,
                         size_t configs_done, size_t startups_done, size_t runs_done) {
  size_t n = p->nconfigs;
  size_t *ref = malloc(n * sizeof *ref);
  if (!ref) /* the ETA stays as it was: a campaign never stops for it */
    return;
  for (size_t i = 0; i < n; i++)
    ref[i] = gbi_suite_eta_reference(p, cost, i);
  if (n > 0 && ref[0] < n) { /* one known, so every one has a reference */
    for (int k = 0; k < GB_ETA_KINDS; k++)
      e->ahead_ns[k] = 0;
    for (size_t i = configs_done; i < n; i++)
      gbi_eta_add(e, GB_ETA_WARMUPS, cost[ref[i]].warmups_ns);
    for (size_t i = startups_done; i < n; i++)
      gbi_eta_add(e, GB_ETA_WARMUPS, cost[ref[i]].startup_warmups_ns);
    for (size_t r = runs_done; r < p->nruns; r++) {
      const gbi_suite_cost *c = &cost[ref[p->runs[r].target]];
      bool startup = p->runs[r].kind == GB_RUN_STARTUP;
      gbi_eta_add(e, startup ? GB_ETA_STARTUP : GB_ETA_SORT, startup ? c->batch_ns : c->run_ns);
    }
  }
  free(ref);
}
