/* compare.json of suite campaigns (suite_compare.h; docs/suites.md,
 * "Comparing suite campaigns"): the study's compare.json head and change
 * ratios (compare_internal.h), keyed by language, workload and parameters.
 * Figures full-precision with their unit in the key, null where they do not
 * exist. */
#include "greenbench/suite_compare.h"

#include "compare_internal.h"
#include "json_out.h"

typedef struct {
  const gb_suite_comparison *c;
  gbi_jb jb;
} cj;

static void put_key(cj *s, cJSON *o, const gb_suite_analysis *a, const gb_sa_config *k) {
  const gb_suite *suite = &a->records->suite;
  put_str(s, o, "language", suite->languages[k->language].name);
  put_str(s, o, "workload", suite->workloads[k->workload].name);
  put_str(s, o, "params", k->params);
}

static void put_campaign(cj *s, cJSON *arr, const gb_scmp_campaign *x) {
  const gb_srec_meta *meta = &x->a->records->meta;
  cJSON *o = put_obj(s, arr, NULL);
  put_str(s, o, "name", x->name);
  put_str(s, o, "label", meta->has_label ? meta->machine_label : NULL);
  put_str(s, o, "campaign_label", x->campaign);
  put_str(s, o, "path", x->path);
  put_str(s, o, "suite_hash", meta->suite_hash);
  put_bool(s, o, "energy_measured", x->a->energy);
  put_bool(s, o, "completed", meta->complete);
  put_u64(s, o, "configurations", x->a->n_configs);
  cJSON *left = put_arr(s, o, "configurations_left_out");
  for (size_t i = 0; i < x->n_left_out; i++) {
    put_key(s, put_obj(s, left, NULL), x->a, x->left_out[i]);
  }
}

static void put_config(cj *s, cJSON *arr, const gb_scmp_config *q) {
  const gb_suite_comparison *c = s->c;
  cJSON *o = put_obj(s, arr, NULL);
  put_key(s, o, c->campaigns[0].a, q->config[0]);
  cJSON *ms = put_arr(s, o, "campaigns");
  for (size_t m = 0; m < c->n; m++) {
    const gb_sa_config *k = q->config[m];
    bool e = k->measured && c->campaigns[m].a->energy;
    cJSON *v = put_obj(s, ms, NULL);
    put_str(s, v, "campaign", c->campaigns[m].name);
    gbi_jb_interval(&s->jb, v, "time_per_rep_ns", k->measured,
                    &k->boot.est[GB_EST_TIME_PER_SORT]);
    gbi_jb_interval(&s->jb, v, "energy_per_rep_uj", e, &k->boot.est[GB_EST_ENERGY_PER_SORT]);
    gbi_jb_interval(&s->jb, v, "net_power_w", e, &k->boot.est[GB_EST_NET_POWER]);
  }
}

static void put_change(cj *s, cJSON *arr, size_t m) {
  const gb_suite_comparison *c = s->c;
  const gb_scmp_campaign *first = &c->campaigns[0], *x = &c->campaigns[m];
  cJSON *o = put_obj(s, arr, NULL);
  put_str(s, o, "campaign", x->name);
  put_str(s, o, "against", first->name);
  put_bool(s, o, "energy_measured_in_both", first->a->energy && x->a->energy);
  cJSON *cs = put_arr(s, o, "configurations");
  for (size_t i = 0; i < c->n_configs; i++) {
    const gb_cmp_change *ch = &c->configs[i].change[m];
    cJSON *k = put_obj(s, cs, NULL);
    put_key(s, k, first->a, c->configs[i].config[0]);
    gbi_cmp_json_change(&s->jb, k, ch);
  }
}

int gb_suite_compare_json(const gb_suite_comparison *c, char **out, size_t *len, gb_err *err) {
  cj s = {.c = c, .jb = {true}};
  cJSON *root = cJSON_CreateObject();
  s.jb.ok = root != NULL;
  gbi_cmp_json_head(&s.jb, root, &c->opts);
  put_str(&s, root, "format", GB_SUITE_COMPARE_FORMAT);
  put_str(&s, root, "suite", c->campaigns[0].a->records->meta.suite_name);
  put_list(&s, root, "campaigns", put_campaign, c->campaigns, c->n);
  put_list(&s, root, "configurations", put_config, c->configs, c->n_configs);
  cJSON *changes = put_arr(&s, root, "changes");
  for (size_t m = 1; m < c->n; m++) {
    put_change(&s, changes, m);
  }
  return gbi_jb_take(&s.jb, root, "compare.json", out, len, err);
}
