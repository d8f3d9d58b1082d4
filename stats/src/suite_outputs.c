/* summary.json and junit.xml of a suite campaign (suite_analysis.h), with
 * the study's JSON shapes (json_out.h) and XML escaping (report_junit.c). */
#include "greenbench/report_junit.h"
#include "greenbench/suite_analysis.h"

#include "json_out.h"
#include "stats_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- summary.json ------------------------------------------------------------ */

typedef struct {
  gbi_jb jb;
  const gb_suite_analysis *a;
} sj;

static void config_key(sj *s, cJSON *o, const gb_sa_config *c) {
  const gb_suite *su = &s->a->records->suite;
  put_str(s, o, "language", su->languages[c->language].name);
  put_str(s, o, "workload", su->workloads[c->workload].name);
  put_str(s, o, "params", c->params);
}

static void put_config(sj *s, cJSON *list, const gb_sa_config *c) {
  cJSON *o = put_obj(s, list, NULL);
  config_key(s, o, c);
  put_u64(s, o, "runs", c->n_rows);
  put_u64(s, o, "runs_ok", c->n_ok);
  put_u64_or_null(s, o, "reps_min", c->n_ok > 0, c->reps_min);
  put_u64_or_null(s, o, "reps_max", c->n_ok > 0, c->reps_max);
  put_u64(s, o, "startup_batches_ok", c->n_startup_ok);
  put_bool(s, o, "measured", c->measured);
  gbi_jb_interval(&s->jb, o, "time_per_rep_ns", c->measured,
                  &c->boot.est[GB_EST_TIME_PER_SORT]);
  gbi_jb_interval(&s->jb, o, "energy_per_rep_uj", c->measured,
                  &c->boot.est[GB_EST_ENERGY_PER_SORT]);
  gbi_jb_interval(&s->jb, o, "net_power_w", c->measured, &c->boot.est[GB_EST_NET_POWER]);
}

static void put_ratio(sj *s, cJSON *list, const gb_sa_ratio *r) {
  cJSON *o = put_obj(s, list, NULL);
  config_key(s, o, &s->a->configs[r->a]);
  const gb_suite *su = &s->a->records->suite;
  put_str(s, o, "against_language", su->languages[s->a->configs[r->b].language].name);
  put_bool(s, o, "computed", r->computed);
  gbi_jb_interval(&s->jb, o, "time", r->computed, &r->ratio.time);
  gbi_jb_interval(&s->jb, o, "energy", r->computed && s->a->energy, &r->ratio.energy);
  gbi_jb_interval(&s->jb, o, "power", r->computed && s->a->energy, &r->ratio.power);
  put_str(s, o, "time_reading", gb_sa_time_reading_name(r->time_reading));
  put_str(s, o, "power_reading",
          s->a->energy && r->computed ? gb_reading_name(r->ratio.reading) : NULL);
}

int gb_suite_report_summary(const gb_suite_analysis *a, char **out, size_t *len, gb_err *err) {
  sj s = {.jb = {.ok = true}, .a = a};
  const gb_srec_meta *m = &a->records->meta;
  cJSON *root = cJSON_CreateObject();
  s.jb.ok = root != NULL;
  put_str(&s, root, "format", GB_SUITE_SUMMARY_FORMAT);
  cJSON *suite = put_obj(&s, root, "suite");
  put_str(&s, suite, "name", m->suite_name);
  put_str(&s, suite, "hash", m->suite_hash);
  put_str(&s, root, "machine_label", m->has_label ? m->machine_label : NULL);
  cJSON *energy = put_obj(&s, root, "energy");
  put_str(&s, energy, "status", gb_rec_energy_name(m->energy_status));
  put_str(&s, energy, "reason", m->energy_reason);
  put_bool(&s, root, "campaign_completed", m->complete);
  cJSON *rep = put_obj(&s, root, "report");
  put_u64(&s, rep, "resamples", a->opts.resamples);
  put_u64(&s, rep, "seed", a->opts.seed);
  put_num(&s, rep, "level", a->opts.level);
  put_num(&s, rep, "equivalence_margin", a->opts.margin);
  put_str(&s, rep, "power_estimator", gb_power_estimator_name(a->opts.power_estimator));
  put_bool(&s, rep, "startup_fixed", a->opts.startup_fixed);
  put_list(&s, root, "configurations", put_config, a->configs, a->n_configs);
  put_list(&s, root, "ratios", put_ratio, a->ratios, a->n_ratios);
  cJSON *rank = put_obj(&s, root, "rank_agreement");
  put_u64(&s, rank, "configurations", a->rank_k);
  put_bool(&s, rank, "computed", a->rank_computed);
  if (a->rank_computed) {
    gbi_jb_rho(&s.jb, rank, "rho", &a->rank);
  } else {
    put_null(&s, rank, "rho");
  }
  return gbi_jb_take(&s.jb, root, "summary.json", out, len, err);
}

/* ---- junit.xml ------------------------------------------------------------------ */

void gbi_junit_attr(gbi_textbuf *b, const char *name, const char *value) {
  gbi_tb_printf(b, " %s=\"", name);
  gbi_xml_put(b, value, strlen(value), true);
  gbi_tb_puts(b, "\"");
}

void gbi_junit_properties(gbi_textbuf *b, const char *const (*props)[2], size_t n) {
  gbi_tb_puts(b, "    <properties>\n");
  for (size_t i = 0; i < n; i++) {
    gbi_tb_puts(b, "      <property");
    gbi_junit_attr(b, "name", props[i][0]);
    gbi_junit_attr(b, "value", props[i][1]);
    gbi_tb_puts(b, "/>\n");
  }
  gbi_tb_puts(b, "    </properties>\n");
}

static void figure_line(gbi_textbuf *b, const char *name, const gb_sa_config *c, gb_estimate e,
                        double scale, const char *unit) {
  const gb_interval *iv = &c->boot.est[e];
  gbi_tb_printf(b, "\n%s: ", name);
  if (!c->measured || !iv->available || isnan(iv->point)) {
    gbi_tb_puts(b, "not measured");
    return;
  }
  gbi_tb_sig(b, iv->point * scale, 4);
  gbi_tb_puts(b, " [");
  gbi_tb_sig(b, iv->lo * scale, 4);
  gbi_tb_puts(b, ", ");
  gbi_tb_sig(b, iv->hi * scale, 4);
  gbi_tb_printf(b, "] %s (median [95%% CI])", unit);
}

static bool failed(const gb_sa_config *c) {
  return c->n_rows > 0 && (c->n_ok < c->n_rows || !c->measured);
}

static void testcase(gbi_textbuf *b, const gb_sa_config *c, const char *classname) {
  char msg[256];
  gbi_tb_puts(b, "    <testcase");
  gbi_junit_attr(b, "classname", classname);
  gbi_junit_attr(b, "name", c->params);
  gbi_tb_printf(b, " time=\"%.6f\">\n", c->work_seconds);
  const char *verdict = "passed";
  if (c->n_rows == 0) {
    verdict = "skipped";
    gbi_tb_puts(b, "      <skipped message=\"no run recorded\"/>\n");
  } else if (failed(c)) {
    verdict = "failed";
    snprintf(msg, sizeof msg, "%zu of %zu measured runs ok%s", c->n_ok, c->n_rows,
             c->n_startup_ok == 0 ? ", no ok startup batch" : "");
    gbi_tb_puts(b, "      <failure type=\"runs-not-ok\"");
    gbi_junit_attr(b, "message", msg);
    gbi_tb_puts(b, ">");
    gbi_xml_put(b, msg, strlen(msg), false);
    gbi_tb_puts(b, "</failure>\n");
  }
  gbi_textbuf out;
  gbi_tb_init(&out);
  gbi_tb_printf(&out, "verdict: %s\nruns: %zu ok of %zu in runs.csv", verdict, c->n_ok,
                c->n_rows);
  figure_line(&out, "time per rep", c, GB_EST_TIME_PER_SORT, 1e-3, "us");
  figure_line(&out, "energy per rep", c, GB_EST_ENERGY_PER_SORT, 1.0, "uJ");
  figure_line(&out, "net power", c, GB_EST_NET_POWER, 1.0, "W");
  gbi_tb_puts(b, "      <system-out>");
  if (out.data) {
    gbi_xml_put(b, out.data, out.len, false);
  }
  b->failed = b->failed || out.failed;
  gbi_tb_free(&out);
  gbi_tb_puts(b, "</system-out>\n    </testcase>\n");
}

/* The testsuite of language l and workload w: its cases in the suite's order. */
static void testsuite(gbi_textbuf *b, const gb_suite_analysis *a, size_t l, size_t w) {
  const gb_suite *su = &a->records->suite;
  const gb_srec_meta *m = &a->records->meta;
  const char *machine = m->has_label ? m->machine_label : GB_JUNIT_UNLABELLED;
  char name[GB_META_NAME_MAX + 4 * GB_SUITE_NAME_MAX + 16];
  snprintf(name, sizeof name, "%s.%s.%s.%s.%s", machine, m->suite_name,
           gb_profile_name(m->settings.profile), su->languages[l].name, su->workloads[w].name);
  size_t n = 0, f = 0, s = 0;
  double t = 0.0;
  for (size_t k = 0; k < a->n_cases; k++) {
    const gb_sa_config *c = &a->configs[a->cases[k].first_config + l];
    if (c->workload == w) {
      n++;
      s += c->n_rows == 0;
      f += failed(c);
      t += c->work_seconds;
    }
  }
  gbi_tb_puts(b, "  <testsuite");
  gbi_junit_attr(b, "name", name);
  gbi_tb_printf(b,
                " tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" "
                "time=\"%.6f\">\n",
                n, f, s, t);
  const char *const props[][2] = {{"suite", m->suite_name},
                                  {"suite_hash", m->suite_hash},
                                  {"language", su->languages[l].name},
                                  {"workload", su->workloads[w].name},
                                  {"machine_label", machine},
                                  {"energy", gb_rec_energy_name(m->energy_status)},
                                  {"energy_reason", m->energy_reason}};
  gbi_junit_properties(b, props, sizeof props / sizeof *props);
  for (size_t k = 0; k < a->n_cases; k++) {
    const gb_sa_config *c = &a->configs[a->cases[k].first_config + l];
    if (c->workload == w) {
      testcase(b, c, name);
    }
  }
  gbi_tb_puts(b, "  </testsuite>\n");
}

int gb_suite_report_junit(const gb_suite_analysis *a, char **out, size_t *len, gb_err *err) {
  const gb_suite *su = &a->records->suite;
  size_t nl = su->n_languages, failures = 0;
  double total = 0.0;
  for (size_t i = 0; i < a->n_configs; i++) {
    failures += failed(&a->configs[i]);
    total += a->configs[i].work_seconds;
  }
  gbi_textbuf b;
  gbi_tb_init(&b);
  gbi_tb_numeric loc;
  gbi_tb_c_numeric(&loc);
  gbi_tb_printf(&b,
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"greenbench\" "
                "tests=\"%zu\" failures=\"%zu\" errors=\"0\" time=\"%.6f\">\n",
                a->n_configs, failures, total);
  for (size_t l = 0; l < nl; l++) {
    for (size_t w = 0; w < su->n_workloads; w++) {
      testsuite(&b, a, l, w);
    }
  }
  gbi_tb_puts(&b, "</testsuites>\n");
  gbi_tb_restore_numeric(&loc);
  return gbi_tb_take(&b, out, len, "junit.xml", err);
}
