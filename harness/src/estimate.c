#include "greenbench/estimate.h"

#include <errno.h>
#include <stdio.h>

#include "greenbench/energy_probe.h"
#include "greenbench/meta.h"
#include "harness_internal.h"

static const uint64_t start_ns[GB_LANGUAGE_COUNT] = {
    GB_ESTIMATE_START_C_NS, GB_ESTIMATE_START_PYTHON_NS, GB_ESTIMATE_START_NODE_NS};
static const unsigned extra_warmups[GB_LANGUAGE_COUNT] = {GB_ESTIMATE_EXTRA_WARMUPS_C,
                                                          GB_ESTIMATE_EXTRA_WARMUPS_PYTHON,
                                                          GB_ESTIMATE_EXTRA_WARMUPS_NODE};

/* The calibrated loop: the sorts are chosen to last 1.2 x the target. */
static uint64_t loop_ns(const gb_settings *s) {
  return (uint64_t)s->target_ms * 1000000u * GB_META_CALIBRATION_HEADROOM_NUM /
         GB_META_CALIBRATION_HEADROOM_DEN;
}

static void per_item(const gb_settings *s, gb_plan_estimate *e) {
  uint64_t loop = loop_ns(s);
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++) {
    uint64_t process = start_ns[l] + loop; /* one sorting run's wall time */
    e->run_ns[l] = 2 * process + GB_ESTIMATE_PROCESS_NS;
    /* Every warm-up a loop of the run's length: the first is predicted
     * (calibration.h); the probe of a language's first configuration is
     * not told apart. */
    e->config_warmups_ns[l] =
        (uint64_t)(s->warmups + extra_warmups[l]) * (process + GB_ESTIMATE_PROCESS_NS);
    e->startup_warmups_ns[l] = (uint64_t)s->warmups * (start_ns[l] + GB_ESTIMATE_PROCESS_NS);
  }
}

static gb_language run_language(const gb_plan *p, const gb_planned_run *r) {
  return r->kind == GB_RUN_SORT ? p->configs[r->target].language
                                : p->startups[r->target].language;
}

static void totals(const gb_settings *s, const gb_plan *p, gb_plan_estimate *e) {
  e->setup_ns = GB_ESTIMATE_SETUP_NS + (s->energy == GB_ENERGY_OFF ? 0 : GB_ENERGY_PROBE_NS);
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++)
    if (s->languages >> l & 1)
      e->setup_ns += start_ns[l] + GB_ESTIMATE_PROCESS_NS; /* the runtime probe */
  for (size_t i = 0; i < p->nconfigs; i++)
    e->calibration_ns += e->config_warmups_ns[p->configs[i].language];
  for (size_t g = 0; g < p->nstartups; g++)
    e->calibration_ns += e->startup_warmups_ns[p->startups[g].language];
  for (size_t i = 0; i < p->nruns; i++)
    e->runs_ns += e->run_ns[run_language(p, &p->runs[i])];
  e->total_ns = e->setup_ns + e->calibration_ns + e->runs_ns;
}

int gb_estimate_plan(const gb_settings *s, const gb_plan *p, gb_plan_estimate *out,
                     gb_err *err) {
  if (p->nruns == 0 || p->nconfigs == 0)
    return gb_err_set(err, EINVAL, "the plan has no runs to estimate");
  if (s->warmups == 0)
    return gb_err_set(err, EINVAL, "a campaign has at least one warm-up per configuration");
  gb_plan_estimate e = {0};
  per_item(s, &e);
  totals(s, p, &e);
  *out = e;
  return 0;
}

void gb_estimate_format(uint64_t ns, char *buf, size_t len) {
  unsigned long long s = ns / 1000000000u;
  if (s >= 3600)
    snprintf(buf, len, "%lluh%02llum", s / 3600, s % 3600 / 60);
  else
    snprintf(buf, len, "%llum%02llus", s / 60, s % 60);
}

void gbi_eta_add(gb_eta *e, gb_eta_kind k, uint64_t model_ns) {
  e->ahead_ns[k] += model_ns;
  e->planned++;
}

void gb_eta_start(gb_eta *e, const gb_plan_estimate *m, const gb_plan *p,
                  bool calibration_ahead, size_t runs_done) {
  *e = (gb_eta){0};
  for (size_t i = 0; calibration_ahead && i < p->nconfigs; i++)
    gbi_eta_add(e, GB_ETA_WARMUPS, m->config_warmups_ns[p->configs[i].language]);
  for (size_t g = 0; calibration_ahead && g < p->nstartups; g++)
    gbi_eta_add(e, GB_ETA_WARMUPS, m->startup_warmups_ns[p->startups[g].language]);
  for (size_t i = runs_done; i < p->nruns; i++)
    gbi_eta_add(e, p->runs[i].kind == GB_RUN_SORT ? GB_ETA_SORT : GB_ETA_STARTUP,
                m->run_ns[run_language(p, &p->runs[i])]);
}

void gb_eta_done(gb_eta *e, gb_eta_kind k, uint64_t model_ns, uint64_t took_ns) {
  e->ahead_ns[k] -= model_ns < e->ahead_ns[k] ? model_ns : e->ahead_ns[k];
  e->done_model_ns[k] += model_ns;
  e->took_ns[k] += took_ns;
}

/* Shrinkage towards a prior (here: the model, or the pace of all kinds):
 * the measured ratio counts in proportion to how much modelled time is
 * behind it. */
uint64_t gb_eta_left_ns(const gb_eta *e) {
  const double prior = (double)GB_ETA_PRIOR_NS;
  double took = 0, model = 0;
  for (int k = 0; k < GB_ETA_KINDS; k++) {
    took += (double)e->took_ns[k];
    model += (double)e->done_model_ns[k];
  }
  double pace = (took + prior) / (model + prior), left = 0;
  for (int k = 0; k < GB_ETA_KINDS; k++)
    left += (double)e->ahead_ns[k] * ((double)e->took_ns[k] + prior * pace) /
            ((double)e->done_model_ns[k] + prior);
  return (uint64_t)(left + 0.5);
}
