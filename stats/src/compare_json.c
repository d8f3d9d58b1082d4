/* compare.json: the comparison as JSON (docs/records.md, "compare.json").
 * Figures are full-precision doubles with their unit in the key, null
 * where they do not exist; integers exact. Decides nothing: every flag is
 * the comparison's or the analyses'. Keys are only ever added within a
 * schema_version. */
#include "greenbench/compare.h"

#include "compare_internal.h"
#include "json_out.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdio.h>

/* Adds remember any failure, checked once at the end (as report_summary.c). */
typedef struct {
  const gb_comparison *c;
  gbi_jb jb;
} cj;

/* ---- Machines ----------------------------------------------------------------- */

/* A group of questions 2 and 3: medians and ranges of its point ratios. */
static void put_group(cj *s, cJSON *arr, const gb_an_group *g) {
  cJSON *o = put_obj(s, arr, NULL);
  gbi_jb_group_key(&s->jb, o, g);
  put_u64(s, o, "ratios", g->n);
  put_num(s, o, "time_ratio_median", g->time[0]);
  put_num(s, o, "energy_ratio_median", g->energy[0]);
  put_num(s, o, "power_ratio_median", g->power[0]);
  put_num(s, o, "power_ratio_min", g->power[1]);
  put_num(s, o, "power_ratio_max", g->power[2]);
  gbi_jb_readings(&s->jb, put_obj(s, o, "power_readings"), g->readings);
}

static void put_groups(cj *s, cJSON *parent, const char *key, const gb_analysis *a,
                       gb_an_family f) {
  cJSON *arr = put_arr(s, parent, key);
  for (size_t i = 0; i < a->n_groups; i++) {
    if (a->groups[i].family == f) {
      put_group(s, arr, &a->groups[i]);
    }
  }
}

static void put_machine(cj *s, cJSON *arr, const gb_cmp_machine *m) {
  const gb_analysis *a = m->a;
  const gb_meta *meta = &a->records->meta;
  cJSON *o = put_obj(s, arr, NULL);
  put_str(s, o, "name", m->name);
  put_str(s, o, "label", meta->machine.has_label ? meta->machine.label : NULL);
  put_str(s, o, "campaign_label", m->campaign);
  put_str(s, o, "path", m->path);
  put_str(s, o, "cpu_model", meta->machine.cpu_model);
  put_bool(s, o, "energy_measured", a->energy);
  put_bool(s, o, "completed", meta->completed);
  put_u64(s, o, "configurations", a->checks.configs);
  put_u64(s, o, "configurations_measured", a->checks.configs_measured);
  cJSON *left = put_arr(s, o, "configurations_left_out");
  for (size_t i = 0; i < m->n_left_out; i++) {
    char key[96];
    gb_an_config_label(m->left_out[i], key, sizeof key);
    put(s, left, NULL, cJSON_CreateString(key));
  }
  cJSON *q = put_obj(s, o, "question_1");
  put_str(s, q, "verdict", m->verdict);
  put_bool(s, q, "many_inconclusive", a->energy && a->noisy);
  gbi_jb_tallies(&s->jb, q, a);
  put_groups(s, o, "question_2", a, GB_AN_LANGUAGES);
  put_groups(s, o, "question_3", a, GB_AN_ORDERS);
}

/* ---- Agreement ------------------------------------------------------------------ */

/* The verdicts, each with the machines that reached it, by first appearance. */
static void put_verdicts(cj *s, cJSON *root) {
  const gb_comparison *c = s->c;
  cJSON *o = put_obj(s, root, "verdict_agreement");
  put_bool(s, o, "agree", c->verdicts_agree);
  cJSON *arr = put_arr(s, o, "verdicts");
  for (size_t m = 0; m < c->n; m++) {
    if (c->machines[m].same_verdict_as != m) {
      continue;
    }
    cJSON *v = put_obj(s, arr, NULL);
    put_str(s, v, "verdict", c->machines[m].verdict);
    cJSON *names = put_arr(s, v, "machines");
    for (size_t k = m; k < c->n; k++) {
      if (c->machines[k].same_verdict_as == m) {
        put(s, names, NULL, cJSON_CreateString(c->machines[k].name));
      }
    }
  }
}

static void put_pair(cj *s, cJSON *arr, const gb_cmp_pair *p) {
  const gb_comparison *c = s->c;
  cJSON *o = put_obj(s, arr, NULL);
  cJSON *names = put_arr(s, o, "machines");
  put(s, names, NULL, cJSON_CreateString(c->machines[p->i].name));
  put(s, names, NULL, cJSON_CreateString(c->machines[p->j].name));
  put_bool(s, o, "verdicts_agree", p->verdicts_agree);
  put_u64(s, o, "configurations", p->k);
  if (!p->time_rank.point.defined) {
    put(s, o, "time_rank_rho", cJSON_CreateNull());
    return;
  }
  gbi_jb_rho(&s->jb, o, "time_rank_rho", &p->time_rank);
}

/* ---- Configurations and ratios --------------------------------------------------- */

static void put_config(cj *s, cJSON *arr, const gb_cmp_config *x) {
  const gb_comparison *c = s->c;
  cJSON *o = put_obj(s, arr, NULL);
  gbi_jb_config_key(&s->jb, o, x->config[0]);
  cJSON *ms = put_arr(s, o, "machines");
  for (size_t m = 0; m < c->n; m++) {
    const gb_an_config *k = x->config[m];
    bool e = k->measured && c->machines[m].a->energy;
    cJSON *v = put_obj(s, ms, NULL);
    put_str(s, v, "machine", c->machines[m].name);
    gbi_jb_interval(&s->jb, v, "time_per_sort_ns", k->measured,
                    &k->boot.est[GB_EST_TIME_PER_SORT]);
    gbi_jb_interval(&s->jb, v, "energy_per_sort_uj", e, &k->boot.est[GB_EST_ENERGY_PER_SORT]);
    gbi_jb_interval(&s->jb, v, "net_power_w", e, &k->boot.est[GB_EST_NET_POWER]);
  }
}

static void put_ratio(cj *s, cJSON *arr, const gb_cmp_ratio *x) {
  const gb_comparison *c = s->c;
  char a[96], b[96];
  gb_an_config_label(x->a, a, sizeof a);
  gb_an_config_label(x->b, b, sizeof b);
  cJSON *o = put_obj(s, arr, NULL);
  put_str(s, o, "family", x->family == GB_AN_LANGUAGES ? "languages" : "orders");
  put_str(s, o, "a", a);
  put_str(s, o, "b", b);
  put_bool(s, o, "readings_agree", x->readings_agree);
  cJSON *ms = put_arr(s, o, "machines");
  for (size_t m = 0; m < c->n; m++) {
    const gb_an_ratio *r = x->ratio[m];
    cJSON *v = put_obj(s, ms, NULL);
    put_str(s, v, "machine", c->machines[m].name);
    gbi_jb_interval(&s->jb, v, "time_ratio", r->computed, &r->ratio.time);
    /* As summary.json says it: without energy, energy and power ratios and
     * the reading are pending (null), not undefined. */
    bool energy = c->machines[m].a->energy;
    gbi_jb_interval(&s->jb, v, "energy_ratio", r->computed && energy, &r->ratio.energy);
    gbi_jb_interval(&s->jb, v, "power_ratio", r->computed && energy, &r->ratio.power);
    put_str(s, v, "reading",
            !energy ? NULL
                    : gb_reading_name(r->computed ? r->ratio.reading : GB_READING_UNDEFINED));
  }
}

/* ---- Changes against the first campaign ------------------------------------ */

static void change_ratio(gbi_jb *jb, cJSON *o, const char *what, const gb_interval *iv,
                         gb_reading r, bool exists) {
  char key[32];
  snprintf(key, sizeof key, "%s_ratio", what);
  gbi_jb_interval(jb, o, key, exists && r != GB_READING_UNDEFINED, iv);
  snprintf(key, sizeof key, "%s_reading", what);
  gbi_jb_str(jb, o, key, exists ? gb_reading_name(r) : NULL);
}

void gbi_cmp_json_change(gbi_jb *jb, cJSON *o, const gb_cmp_change *ch) {
  change_ratio(jb, o, "time", &ch->ratio.time, ch->time_reading, ch->computed);
  change_ratio(jb, o, "energy", &ch->ratio.energy, ch->energy_reading,
               ch->computed && ch->energy);
  change_ratio(jb, o, "power", &ch->ratio.power, ch->ratio.reading, ch->computed && ch->energy);
}

void gbi_cmp_json_head(gbi_jb *jb, cJSON *root, const gb_analysis_opts *o) {
  gbi_jb_u64(jb, root, "schema_version", GB_COMPARE_SCHEMA_VERSION);
  cJSON *b = gbi_jb_obj(jb, root, "bootstrap");
  gbi_jb_u64(jb, b, "resamples", o->resamples);
  gbi_jb_u64(jb, b, "rank_resamples", o->rank_resamples);
  gbi_jb_u64(jb, b, "bootstrap_seed", o->seed);
  gbi_jb_num(jb, b, "level", o->level);
  gbi_jb_num(jb, b, "equivalence_margin", o->margin);
  gbi_jb_str(jb, b, "power_estimator", gb_power_estimator_name(o->power_estimator));
}

static void put_change(cj *s, cJSON *arr, size_t m) {
  const gb_comparison *c = s->c;
  const gb_cmp_machine *first = &c->machines[0], *x = &c->machines[m];
  cJSON *o = put_obj(s, arr, NULL);
  put_str(s, o, "campaign", x->name);
  put_str(s, o, "against", first->name);
  put_bool(s, o, "energy_measured_in_both", first->a->energy && x->a->energy);
  cJSON *q = put_obj(s, o, "question_1");
  put_str(s, q, "from", first->verdict);
  put_str(s, q, "to", x->verdict);
  if (x->verdict_known) {
    put_bool(s, q, "changed", x->verdict_changed);
  } else {
    put_null(s, q, "changed");
  }
  put_bool(s, q, "same_configurations", x->same_configs_as_first);
  cJSON *cs = put_arr(s, o, "configurations");
  for (size_t i = 0; i < c->n_configs; i++) {
    const gb_cmp_change *ch = &c->configs[i].change[m];
    cJSON *k = put_obj(s, cs, NULL);
    gbi_jb_config_key(&s->jb, k, c->configs[i].config[0]);
    gbi_cmp_json_change(&s->jb, k, ch);
  }
}

static cJSON *build_root(cj *s) {
  const gb_comparison *c = s->c;
  cJSON *root = cJSON_CreateObject();
  s->jb.ok = root != NULL;
  gbi_cmp_json_head(&s->jb, root, &c->opts);
  put_list(s, root, "machines", put_machine, c->machines, c->n);
  put_verdicts(s, root);
  put_list(s, root, "pairs", put_pair, c->pairs, c->n_pairs);
  put_list(s, root, "configurations", put_config, c->configs, c->n_configs);
  put_list(s, root, "ratios", put_ratio, c->ratios, c->n_ratios);
  cJSON *changes = put_arr(s, root, "changes");
  for (size_t m = 1; m < c->n; m++) {
    put_change(s, changes, m);
  }
  return root;
}

int gb_compare_json(const gb_comparison *c, char **out, size_t *len, gb_err *err) {
  cj s = {.c = c, .jb = {true}};
  cJSON *root = build_root(&s);
  return gbi_jb_take(&s.jb, root, "compare.json", out, len, err);
}
