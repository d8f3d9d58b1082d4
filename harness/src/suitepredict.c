#include "suitepredict.h"

#include <math.h>

/* The ratio beyond which the prediction is 1 repetition anyway. */
#define MAX_RATIO 1e12

double gbi_suite_distance(const uint64_t *a, const uint64_t *b, size_t n) {
  double d = 0;
  for (size_t k = 0; k < n; k++)
    d += fabs(log(((double)a[k] + 1) / ((double)b[k] + 1)));
  return d;
}

size_t gbi_suite_reference(const gb_suite *s, const gb_suite_plan *p, size_t i,
                           const gbi_calibration *done) {
  const gb_suite_config *c = &p->configs[i];
  const gb_suite_workload *w = &s->workloads[c->workload];
  size_t best = p->nconfigs;
  double best_d = 0;
  for (size_t j = 0; j < i; j++) {
    const gb_suite_config *o = &p->configs[j];
    if (o->language != c->language || o->workload != c->workload ||
        !gbi_calibration_usable(&done[j]))
      continue;
    bool same_names = true;
    for (size_t k = 0; k < w->n_parameters; k++)
      same_names = same_names && (!w->parameters[k].named || o->values[k] == c->values[k]);
    double d = gbi_suite_distance(o->values, c->values, w->n_parameters);
    if (same_names && (best == p->nconfigs || d <= best_d)) {
      best = j;
      best_d = d;
    }
  }
  return best;
}

uint64_t gbi_suite_predict_reps(const gb_suite *s, const gb_suite_plan *p, size_t i,
                                const gbi_calibration *done, uint64_t target_ns) {
  size_t j = gbi_suite_reference(s, p, i, done);
  if (j == p->nconfigs)
    return 0;
  const gb_suite_workload *w = &s->workloads[p->configs[i].workload];
  double ratio = 1;
  for (size_t k = 0; k < w->n_parameters; k++)
    if (!w->parameters[k].named)
      ratio *= ((double)p->configs[i].values[k] > 1 ? (double)p->configs[i].values[k] : 1) /
               ((double)p->configs[j].values[k] > 1 ? (double)p->configs[j].values[k] : 1);
  ratio = ratio < 1 ? 1 : ratio > MAX_RATIO ? MAX_RATIO : ratio;
  const uint64_t unit = 1000000; /* the reference's work; i's is unit x ratio */
  return gbi_predict_sorts(done[j].last_sorts, done[j].last_loop_ns, unit,
                           (uint64_t)ceil((double)unit * ratio), target_ns);
}
