/* summary.json: the analysis as JSON, one object per configuration, startup
 * trial, ratio and scope, in the analysis's canonical order. The keys and
 * what null means in each are documented in docs/records.md; the writer
 * reads every decision from the analysis and the validator. */
#include "stats_internal.h"

#include "json_out.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/validate.h"

/* Adds remember any failure, so a build is a flat list of adds checked once
 * at the end. */
typedef struct {
  const gb_analysis *a;
  const gbi_report_summary_opts *o;
  gbi_jb jb;
} sj;

/* ---- Shared shapes -------------------------------------------------------------- */

/* gbi_jb_interval and "point_outside_interval", the figures converted by
 * conv(figure, arg) unless conv is NULL (carbon); whether the point lies
 * outside is judged on the figures as estimated. */
static void put_interval(sj *s, cJSON *parent, const char *key, bool has, const gb_interval *iv,
                         double (*conv)(double, double), double arg) {
  gb_interval shown = *iv;
  if (conv) {
    shown.point = conv(iv->point, arg);
    shown.lo = conv(iv->lo, arg);
    shown.hi = conv(iv->hi, arg);
  }
  cJSON *o = gbi_jb_interval(&s->jb, parent, key, has, &shown);
  if (o) {
    put_bool(s, o, "point_outside_interval", gb_an_point_outside(iv));
  }
}

static void put_by_status(sj *s, cJSON *parent, const char *key, const size_t *by_status) {
  cJSON *o = put_obj(s, parent, key);
  for (int i = 0; i < GB_REC_STATUS_COUNT; i++) {
    put_u64(s, o, gb_rec_status_name((gb_rec_status)i), by_status[i]);
  }
}

static cJSON *name_array(sj *s, cJSON *parent, const char *key) {
  return put_arr(s, parent, key);
}

/* ---- The campaign and the options ---------------------------------------------------- */

static void put_settings(sj *s, cJSON *root) {
  const gb_settings *m = &s->a->records->meta.settings;
  cJSON *o = put_obj(s, root, "settings");
  cJSON *x = name_array(s, o, "languages");
  for (unsigned v = 0; gb_bits_next(m->languages, &v); v++) {
    put_str(s, x, NULL, gb_language_name(v));
  }
  x = name_array(s, o, "algorithms");
  for (unsigned v = 0; gb_bits_next(m->algorithms, &v); v++) {
    put_str(s, x, NULL, gb_algorithm_name(v));
  }
  x = name_array(s, o, "orders");
  for (unsigned v = 0; gb_bits_next(m->orders, &v); v++) {
    put_str(s, x, NULL, gb_order_name(v));
  }
  x = name_array(s, o, "sizes");
  for (size_t i = 0; i < m->nsizes; i++) {
    put_u64(s, x, NULL, m->sizes[i]);
  }
  put_u64(s, o, "runs_per_configuration", m->runs);
  put_u64(s, o, "warmups_per_configuration", m->warmups);
  put_u64(s, o, "target_loop_ms", m->target_ms);
  put_u64(s, o, "input_seed", m->seed);
  put_u64(s, o, "order_seed", m->order_seed);
}

static void put_campaign(sj *s, cJSON *root) {
  const gb_meta *m = &s->a->records->meta;
  cJSON *o = put_obj(s, root, "campaign");
  put_str(s, o, "profile", gb_profile_name(m->settings.profile));
  put_str(s, o, "machine_label", m->machine.has_label ? m->machine.label : NULL);
  put_str(s, o, "cpu_model", m->machine.cpu_model);
  put_str(s, o, "tool_version", m->tool_version);
  put_str(s, o, "git_commit", m->git_commit);
  put_str(s, o, "command", m->command_line);
  put_str(s, o, "started_at", m->started_at);
  put_str(s, o, "finished_at", m->has_finished_at ? m->finished_at : NULL);
  put_bool(s, o, "completed", m->completed);
  put_u64(s, o, "runs_done", m->runs_done);
  put_u64(s, o, "planned_runs", m->plan.measured_runs);
  put_u64(s, o, "configurations", s->a->n_configs);
  put_str(s, o, "energy_status", gb_rec_energy_name(m->energy.status));
  put_str(s, o, "energy_reason", m->energy.reason);
  put_bool(s, o, "pinning_rule_held", m->pinning.rule_held);
}

static void put_options(sj *s, cJSON *root) {
  const gb_analysis_opts *p = &s->a->opts;
  cJSON *o = put_obj(s, root, "report_options");
  put_u64(s, o, "resamples", p->resamples);
  put_u64(s, o, "rank_resamples", p->rank_resamples);
  put_u64(s, o, "bootstrap_seed", p->seed);
  put_num(s, o, "level", p->level);
  put_num(s, o, "equivalence_margin", p->margin);
  put_str(s, o, "power_estimator", gb_power_estimator_name(p->power_estimator));
  put_bool(s, o, "startup_resampled", !p->startup_fixed);
}

/* ---- Question 1 and the tallies --------------------------------------------------------- */

static void put_question_1(sj *s, cJSON *root) {
  const gb_analysis *a = s->a;
  cJSON *o = put_obj(s, root, "question_1");
  put_str(s, o, "verdict", gb_analysis_verdict_name(a));
  put_bool(s, o, "many_inconclusive", a->energy && a->noisy);
  put_u64(s, o, "many_inconclusive_share_numerator", GB_ANALYSIS_NOISY_SHARE_NUM);
  put_u64(s, o, "many_inconclusive_share_denominator", GB_ANALYSIS_NOISY_SHARE_DEN);
  gbi_jb_tallies(&s->jb, root, a);
}

/* ---- Configurations ------------------------------------------------------------------- */

static double ug_co2e(double energy_uj, double g_per_kwh) {
  return gb_carbon_grams(energy_uj, g_per_kwh) * 1e6;
}

static void put_carbon(sj *s, cJSON *o, const gb_an_config *c) {
  cJSON *arr = put_arr(s, o, "carbon");
  bool has = c->measured && s->a->energy;
  for (size_t i = 0; i < s->o->n_intensities; i++) {
    const gb_intensity *x = &s->o->intensities[i];
    cJSON *e = put_obj(s, arr, NULL);
    put_str(s, e, "region", x->region);
    put_interval(s, e, "net_co2e_per_sort_ug", has, &c->boot.est[GB_EST_ENERGY_PER_SORT],
                 ug_co2e, x->g_per_kwh);
    put_interval(s, e, "with_idle_co2e_per_sort_ug", has,
                 &c->boot.est[GB_EST_GROSS_ENERGY_PER_SORT], ug_co2e, x->g_per_kwh);
  }
}

static void put_process(sj *s, cJSON *o, const gb_an_config *c) {
  if (!c->measured) {
    put_null(s, o, "process_wall_ns");
    return;
  }
  const gb_summary *p = &c->process;
  cJSON *x = put_obj(s, o, "process_wall_ns");
  put_u64(s, x, "runs", p->n);
  put_num(s, x, "min", p->min);
  put_num(s, x, "q1", p->q1);
  put_num(s, x, "median", p->median);
  put_num(s, x, "q3", p->q3);
  put_num(s, x, "p95", p->p95);
  put_num(s, x, "max", p->max);
  put_u64(s, x, "low_outliers", p->low_outliers);
  put_u64(s, x, "high_outliers", p->high_outliers);
}

static void put_estimates(sj *s, cJSON *o, const gb_an_config *c) {
  static const struct {
    const char *key;
    gb_estimate e;
  } est[] = {{"time_per_sort_ns", GB_EST_TIME_PER_SORT},
             {"cpu_time_per_sort_ns", GB_EST_CPU_PER_SORT},
             {"energy_per_sort_uj", GB_EST_ENERGY_PER_SORT},
             {"gross_energy_per_sort_uj", GB_EST_GROSS_ENERGY_PER_SORT},
             {"net_power_w", GB_EST_NET_POWER},
             {"process_time_ns", GB_EST_PROCESS_TIME}};
  for (size_t i = 0; i < sizeof est / sizeof est[0]; i++) {
    put_interval(s, o, est[i].key, c->measured, &c->boot.est[est[i].e], NULL, 0.0);
  }
  put_bool(s, o, "time_per_sort_not_above_zero", c->nonpositive_time);
  put_bool(s, o, "energy_per_sort_not_above_zero", c->nonpositive_energy);
  put_num(s, o, "loop_time_per_sort_ns", c->loop_per_sort_ns);
  put_bool(s, o, "loop_time_disagrees", c->loop_disagrees);
  put_bool(s, o, "cpu_per_sort_above_wall_times_cpus", c->cpu_above_wall);
}

static void put_warmup(sj *s, cJSON *o, const gb_an_config *c) {
  static const char *const plateau[] = {"unchecked", "reached", "missed"};
  put_u64(s, o, "warmups", c->n_warmups);
  put_str(s, o, "warmup_plateau", plateau[c->plateau]);
  put_num(s, o, "warmup_previous_loop_per_sort_ns", c->warmup_prev_ns);
  put_num(s, o, "warmup_last_loop_per_sort_ns", c->warmup_last_ns);
}

static void put_config(sj *s, cJSON *arr, const gb_an_config *c) {
  cJSON *o = put_obj(s, arr, NULL);
  char label[96];
  gb_an_config_label(c, label, sizeof label);
  gbi_jb_config_key(&s->jb, o, c);
  put_str(s, o, "label", label);
  put_u64(s, o, "rows", c->n_rows);
  put_u64(s, o, "ok_runs", c->n_ok);
  put_by_status(s, o, "runs_by_status", c->by_status);
  put_bool(s, o, "measured", c->measured);
  put_bool(s, o, "valid", c->valid);
  put_str(s, o, "invalid_reason", c->valid ? NULL : c->invalid_reason);
  put_u64_or_null(s, o, "sorts_per_process_min", c->n_ok > 0, c->sorts_min);
  put_u64_or_null(s, o, "sorts_per_process_max", c->n_ok > 0, c->sorts_max);
  put_u64_or_null(s, o, "comparisons_per_sort", c->has_counts, c->comparisons);
  put_u64_or_null(s, o, "writes_per_sort", c->has_counts, c->writes);
  put_estimates(s, o, c);
  put_process(s, o, c);
  put_num(s, o, "run_to_run_rho", s->a->energy && c->coupling.defined ? c->coupling.rho : NAN);
  put_u64(s, o, "loops", c->loops);
  put_u64(s, o, "loops_short", c->loops_short);
  put_u64_or_null(s, o, "shortest_loop_ns", c->loops > 0, c->shortest_loop_ns);
  put_u64(s, o, "frequency_runs", c->freq_runs);
  put_u64(s, o, "throttled_runs", c->throttled);
  put_warmup(s, o, c);
  put_carbon(s, o, c);
}

static void put_startup(sj *s, cJSON *arr, const gb_an_startup *t) {
  cJSON *o = put_obj(s, arr, NULL);
  put_str(s, o, "language", gb_language_name(t->language));
  put_str(s, o, "order", gb_order_name(t->order));
  put_u64(s, o, "size", t->size);
  put_u64(s, o, "rows", t->n_rows);
  put_u64(s, o, "ok_batches", t->n_ok);
  put_bool(s, o, "measured", t->measured);
  put_u64_or_null(s, o, "launches_per_batch", t->measured, t->launches);
  put_num(s, o, "time_per_process_ns", t->measured ? t->cost.time_ns : NAN);
  put_num(s, o, "cpu_time_per_process_ns", t->measured ? t->cost.cpu_ns : NAN);
  put_num(s, o, "energy_per_process_uj", t->measured ? t->cost.energy_uj : NAN);
}

/* ---- Ratios, ranks, coupling ----------------------------------------------------------------
 */

static void put_side(sj *s, cJSON *o, const char *key, const gb_an_config *c) {
  gbi_jb_config_key(&s->jb, put_obj(s, o, key), c);
}

static void put_ratio(sj *s, cJSON *arr, const gb_an_ratio *r) {
  const gb_analysis *a = s->a;
  cJSON *o = put_obj(s, arr, NULL);
  put_str(s, o, "family", r->family == GB_AN_LANGUAGES ? "languages" : "orders");
  put_side(s, o, "a", &a->configs[r->a]);
  put_side(s, o, "b", &a->configs[r->b]);
  put_bool(s, o, "computed", r->computed);
  put_interval(s, o, "time_ratio", r->computed, &r->ratio.time, NULL, 0.0);
  put_interval(s, o, "energy_ratio", r->computed && a->energy, &r->ratio.energy, NULL, 0.0);
  put_interval(s, o, "power_ratio", r->computed && a->energy, &r->ratio.power, NULL, 0.0);
  put_str(s, o, "reading", a->energy ? gb_reading_name(r->ratio.reading) : NULL);
  put_bool(s, o, "power_interval_excludes_one", a->energy && r->ratio.excludes_one);
}

static void put_rank(sj *s, cJSON *arr, const gb_an_rank *k) {
  static const char *const scopes[] = {"all", "size", "language", "language_algorithm"};
  cJSON *o = put_obj(s, arr, NULL);
  put_str(s, o, "scope", scopes[k->scope]);
  bool lang = k->scope == GB_AN_RANK_LANGUAGE || k->scope == GB_AN_RANK_LANG_ALG;
  put_str(s, o, "language", lang ? gb_language_name(k->language) : NULL);
  put_str(s, o, "algorithm",
          k->scope == GB_AN_RANK_LANG_ALG ? gb_algorithm_name(k->algorithm) : NULL);
  put_u64_or_null(s, o, "size", k->scope == GB_AN_RANK_SIZE, k->size);
  put_u64(s, o, "configurations", k->k);
  if (!s->a->energy || !k->computed || !k->rho.point.defined) {
    put_null(s, o, "rho");
    return;
  }
  gbi_jb_rho(&s->jb, o, "rho", &k->rho);
}

static void put_coupling(sj *s, cJSON *arr, const gb_an_coupling *c) {
  cJSON *o = put_obj(s, arr, NULL);
  bool e = s->a->energy;
  put_str(s, o, "language", gb_language_name(c->language));
  put_str(s, o, "algorithm", gb_algorithm_name(c->algorithm));
  put_u64(s, o, "configurations_defined", e ? c->n_defined : 0);
  put_num(s, o, "rho_median", e ? c->median : NAN);
  put_num(s, o, "rho_min", e ? c->min : NAN);
  put_num(s, o, "rho_max", e ? c->max : NAN);
}

/* ---- Carbon intensities, checks, warnings
 * ------------------------------------------------------ */

static void put_intensities(sj *s, cJSON *root) {
  cJSON *arr = put_arr(s, root, "carbon_intensities");
  for (size_t i = 0; i < s->o->n_intensities; i++) {
    const gb_intensity *x = &s->o->intensities[i];
    cJSON *o = put_obj(s, arr, NULL);
    put_str(s, o, "region", x->region);
    put_str(s, o, "code", x->code[0] ? x->code : NULL);
    put_u64_or_null(s, o, "year", x->year > 0, (uint64_t)x->year);
    put_num(s, o, "g_co2e_per_kwh", x->g_per_kwh);
  }
}

static void put_invalid(sj *s, cJSON *checks) {
  const gb_analysis *a = s->a;
  cJSON *arr = put_arr(s, checks, "invalid_configurations");
  char label[96];
  for (size_t i = 0; i < a->n_configs; i++) {
    const gb_an_config *c = &a->configs[i];
    if (c->valid) {
      continue;
    }
    cJSON *o = put_obj(s, arr, NULL);
    gb_an_config_label(c, label, sizeof label);
    put_str(s, o, "label", label);
    put_str(s, o, "reason", c->invalid_reason);
  }
  put_u64(s, checks, "configurations_valid", a->n_configs - a->checks.invalid);
}

static void put_checks(sj *s, cJSON *root) {
  const gb_an_checks *k = &s->a->checks;
  cJSON *o = put_obj(s, root, "checks");
  put_u64(s, o, "rows", k->rows);
  put_by_status(s, o, "rows_by_status", k->by_status);
  put_u64(s, o, "configurations", k->configs);
  put_u64(s, o, "configurations_measured", k->configs_measured);
  put_u64(s, o, "configurations_without_rows", k->configs_without_rows);
  put_invalid(s, o);
  put_u64(s, o, "loops", k->loops);
  put_u64(s, o, "loops_short", k->loops_short);
  put_u64_or_null(s, o, "shortest_loop_ns", k->loops > 0, k->shortest_loop_ns);
  put_u64(s, o, "configurations_not_above_zero", k->nonpositive);
  cJSON *l = put_obj(s, o, "loop_time");
  put_num(s, l, "tolerance", GB_ANALYSIS_LOOP_TOLERANCE);
  put_u64(s, l, "configurations_checked", k->loop_checked);
  put_u64(s, l, "configurations_disagreeing", k->loop_disagrees);
  put_u64(s, l, "worker_cpus", k->worker_cpus);
  put_u64(s, l, "configurations_cpu_above_wall_times_cpus", k->cpu_above_wall);
  cJSON *p = put_obj(s, o, "warmup_plateau");
  put_u64(s, p, "reached", k->plateau[GB_AN_PLATEAU_YES]);
  put_u64(s, p, "missed", k->plateau[GB_AN_PLATEAU_NO]);
  put_u64(s, p, "unchecked", k->plateau[GB_AN_PLATEAU_UNCHECKED]);
  put_bool(s, o, "warmups_csv_present", s->a->records->has_warmups);
  put_u64(s, o, "warmups_extended", k->warmups_extended);
  put_u64(s, o, "warmups_most", k->warmups_most);
  put_u64(s, o, "frequency_runs", k->freq_runs);
  put_u64(s, o, "throttled_runs", k->throttled);
  if (k->has_temp) {
    put_i64(s, o, "temperature_min_mc", k->temp_min_mc);
    put_i64(s, o, "temperature_max_mc", k->temp_max_mc);
  } else {
    put_null(s, o, "temperature_min_mc");
    put_null(s, o, "temperature_max_mc");
  }
}

/* "median", "min", "max" of a summary, null each when none is defined. */
static void put_range(sj *s, cJSON *parent, const char *key, const double v[3], size_t used) {
  cJSON *o = put_obj(s, parent, key);
  put_num(s, o, "median", v[0]);
  put_num(s, o, "min", v[1]);
  put_num(s, o, "max", v[2]);
  put_u64(s, o, "defined", used);
}

/* The groups results.md summarises under questions 2 and 3. */
static void put_group(sj *s, cJSON *arr, const gb_an_group *g) {
  cJSON *o = put_obj(s, arr, NULL);
  bool lang = g->family == GB_AN_LANGUAGES;
  put_str(s, o, "family", lang ? "languages" : "orders");
  gbi_jb_group_key(&s->jb, o, g);
  put_u64(s, o, "ratios", g->n);
  put_u64(s, o, "computed", g->computed);
  put_range(s, o, "time_ratio", g->time, g->used[0]);
  put_range(s, o, "energy_ratio", g->energy, g->used[1]);
  put_range(s, o, "power_ratio", g->power, g->used[2]);
  gbi_jb_readings(&s->jb, put_obj(s, o, "power_readings"), g->readings);
  put_u64(s, o, "differs_above_1", g->above);
  put_u64(s, o, "differs_below_1", g->below);
  put_u64(s, o, "time_intervals_excluding_1", g->time_excluding);
  if (lang) {
    put_null(s, o, "comparisons_ratio");
  } else {
    put_range(s, o, "comparisons_ratio", g->comparisons, g->comparisons_used);
  }
}

static void put_conclusions(sj *s, cJSON *root) {
  const gb_analysis *a = s->a;
  put_list(s, root, "ratio_groups", put_group, a->groups, a->n_groups);
  put_range(s, root, "net_power_w", a->net_power, a->net_power_n);
  const gb_an_remedies *r = &a->remedies;
  cJSON *o = put_obj(s, root, "measurement_traps");
  put_u64(s, o, "ok_sort_runs", r->sort_ok);
  put_u64(s, o, "with_cpu_time", r->with_cpu);
  put_u64(s, o, "with_counts_and_hash", r->with_counts);
  put_u64(s, o, "with_frequency", r->with_freq);
  put_u64(s, o, "process_time_high_outliers", r->high_outliers);
  put_u64(s, o, "process_time_low_outliers", r->low_outliers);
}

static void put_warning(sj *s, cJSON *arr, const gb_an_warning *w) {
  put_str(s, arr, NULL, w->text);
}

static void put_lists(sj *s, cJSON *root) {
  const gb_analysis *a = s->a;
  put_list(s, root, "configurations", put_config, a->configs, a->n_configs);
  put_list(s, root, "startups", put_startup, a->startups, a->n_startups);
  put_list(s, root, "ratios", put_ratio, a->ratios, a->n_ratios);
  put_list(s, root, "rank_agreement", put_rank, a->ranks, a->n_ranks);
  put_list(s, root, "coupling", put_coupling, a->couplings, a->n_couplings);
  put_list(s, root, "warnings", put_warning, a->warnings, a->n_warnings);
}

static cJSON *build_root(sj *s) {
  cJSON *root = cJSON_CreateObject();
  if (!root) {
    s->jb.ok = false;
    return NULL;
  }
  put_u64(s, root, "schema_version", GB_SUMMARY_SCHEMA_VERSION);
  put_str(s, root, "generator", "greenbench report");
  put_campaign(s, root);
  put_settings(s, root);
  put_options(s, root);
  put_bool(s, root, "energy_measured", s->a->energy);
  put_question_1(s, root);
  put_intensities(s, root);
  put_lists(s, root);
  put_conclusions(s, root);
  put_checks(s, root);
  return root;
}

int gbi_report_summary(const gb_analysis *a, const gbi_report_summary_opts *opts, char **out,
                       size_t *len, gb_err *err) {
  static const gbi_report_summary_opts none = {0};
  sj s = {.a = a, .o = opts ? opts : &none, .jb = {true}};
  cJSON *root = build_root(&s);
  return gbi_jb_take(&s.jb, root, "summary.json", out, len, err);
}
