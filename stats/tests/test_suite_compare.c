/* greenbench compare of suite campaigns (suite_compare.h): the synthetic
 * suite campaign (helper_suite.h) against itself, against a copy with one
 * language 1.5 times slower at the same power, without energy, with a
 * language missing; the refusals, one line each; and the writers' goldens. */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "alloc_fail.h"
#include "greenbench/suite_compare.h"
#include "helper_report.h"
#include "helper_suite.h"

#define PYTHON 1 /* the suite's second language */

typedef struct {
  gb_srec_records *r[2];
  gb_suite_analysis *a[2];
  gb_scmp_input in[2];
} pair;

static void analyse(pair *p, size_t m, gb_srec_records *r, const char *path) {
  gb_analysis_opts o = GB_ANALYSIS_OPTS_DEFAULT;
  gb_err err;
  p->r[m] = r;
  cr_assert(gb_suite_analysis_run(r, &o, &p->a[m], &err) == 0, "%s", err.msg);
  p->in[m] = (gb_scmp_input){.path = path, .same_as = -1, .analysis = p->a[m]};
}

static void release(pair *p) {
  for (size_t m = 0; m < 2; m++) {
    gb_suite_analysis_free(p->a[m]);
    gbt_suite_free(p->r[m]);
  }
}

static gb_suite_comparison *build(pair *p) {
  gb_suite_comparison *c = NULL;
  gb_err err;
  cr_assert(gb_suite_compare_build(p->in, 2, &c, &err) == 0, "%s", err.msg);
  return c;
}

/* The refusal of campaigns a and b, which must be one line holding want. */
static void refused(gb_srec_records *a, gb_srec_records *b, const char *want) {
  pair p;
  analyse(&p, 0, a, "before");
  analyse(&p, 1, b, "after");
  gb_suite_comparison *c = NULL;
  gb_err err;
  cr_assert(gb_suite_compare_build(p.in, 2, &c, &err) == -EINVAL, "not refused");
  cr_assert_null(c);
  cr_expect(strstr(err.msg, want) != NULL, "message: %s", err.msg);
  cr_expect(strchr(err.msg, '\n') == NULL, "not one line: %s", err.msg);
  release(&p);
}

static bool covers(const gb_interval *iv, double x) {
  return iv->lo <= x && x <= iv->hi;
}

Test(suite_compare, python_slower_at_the_same_power) {
  pair p;
  analyse(&p, 0, gbt_suite_synth(true), "before");
  analyse(&p, 1, gbt_suite_synth_slower(true, PYTHON, 1.5), "after");
  gb_suite_comparison *c = build(&p);
  cr_assert_eq(c->n_configs, 12);
  size_t python = 0;
  for (size_t i = 0; i < c->n_configs; i++) {
    const gb_cmp_change *ch = &c->configs[i].change[1];
    const gb_ratio *r = &ch->ratio;
    char key[256];
    gb_scmp_config_label(p.a[0], c->configs[i].config[0], key, sizeof key);
    if (!c->configs[i].config[0]->measured) {
      cr_expect_not(ch->computed, "%s", key);
      continue;
    }
    cr_assert(ch->computed && ch->energy, "%s", key);
    double t = c->configs[i].config[0]->language == PYTHON ? 1.5 : 1.0;
    python += t > 1.0;
    cr_expect(fabs(r->time.point / t - 1.0) < 0.01, "%s: time %g", key, r->time.point);
    cr_expect(covers(&r->time, t), "%s: time [%g, %g]", key, r->time.lo, r->time.hi);
    cr_expect(fabs(r->power.point - 1.0) < 0.02, "%s: power %g", key, r->power.point);
    cr_expect_eq(r->reading, GB_READING_SAME, "%s: power reads %s", key,
                 gb_reading_name(r->reading));
    if (t > 1.0) {
      cr_expect(fabs(r->energy.point / t - 1.0) < 0.02, "%s: energy %g", key, r->energy.point);
      cr_expect_eq(ch->time_reading, GB_READING_DIFFERS, "%s", key);
      cr_expect_eq(ch->energy_reading, GB_READING_DIFFERS, "%s", key);
    } else {
      cr_expect_eq(ch->time_reading, GB_READING_SAME, "%s", key);
    }
  }
  cr_expect_eq(python, 4, "python's measured configurations: %zu", python);
  char *md = NULL;
  size_t len = 0;
  gb_err err;
  cr_assert(gb_suite_compare_md(c, &md, &len, &err) == 0, "%s", err.msg);
  cr_expect(strstr(md, "| python/spin/n=1000;m=2 | 1.50 [") != NULL, "%s", md);
  cr_expect(strstr(md, "differs | 1.0") != NULL, "%s", md);
  free(md);
  gb_suite_compare_free(c);
  release(&p);
}

/* The same records twice (one folder given twice): every ratio exactly 1,
 * read "same"; the columns named by the records' machine label, as the
 * study's compare names them, the second "<label>#2". */
Test(suite_compare, a_campaign_against_itself_reads_perfect_agreement) {
  pair p;
  analyse(&p, 0, gbt_suite_synth(true), "suite-synth");
  analyse(&p, 1, gbt_suite_synth(true), "./suite-synth");
  p.in[1].same_as = 0;
  gb_suite_comparison *c = build(&p);
  cr_expect(c->by_machine);
  cr_expect_str_eq(c->campaigns[0].name, "bench-01");
  cr_expect_str_eq(c->campaigns[1].name, "bench-01#2");
  for (size_t i = 0; i < c->n_configs; i++) {
    const gb_cmp_change *ch = &c->configs[i].change[1];
    if (!ch->computed) {
      continue;
    }
    cr_expect_eq(ch->ratio.time.point, 1.0);
    cr_expect_eq(ch->ratio.energy.point, 1.0);
    cr_expect_eq(ch->ratio.power.point, 1.0);
    cr_expect(covers(&ch->ratio.time, 1.0) && covers(&ch->ratio.power, 1.0));
    cr_expect_eq(ch->time_reading, GB_READING_SAME);
    cr_expect_eq(ch->energy_reading, GB_READING_SAME);
    cr_expect_eq(ch->ratio.reading, GB_READING_SAME);
  }
  gb_suite_compare_free(c);
  release(&p);
}

Test(suite_compare, without_energy_in_one_campaign_time_ratios_only) {
  pair p;
  analyse(&p, 0, gbt_suite_synth(true), "before");
  analyse(&p, 1, gbt_suite_synth(false), "after");
  gb_suite_comparison *c = build(&p);
  for (size_t i = 0; i < c->n_configs; i++) {
    const gb_cmp_change *ch = &c->configs[i].change[1];
    cr_expect_not(ch->energy);
    cr_expect_eq(ch->ratio.reading, GB_READING_UNDEFINED);
    cr_expect(!ch->computed || ch->time_reading == GB_READING_SAME);
  }
  char *js = NULL;
  size_t len = 0;
  gb_err err;
  cr_assert(gb_suite_compare_json(c, &js, &len, &err) == 0, "%s", err.msg);
  cJSON *root = cJSON_Parse(js);
  cJSON *ch = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "changes"), 0);
  cJSON *k0 = cJSON_GetArrayItem(cJSON_GetObjectItem(ch, "configurations"), 0);
  cr_expect(cJSON_IsNull(cJSON_GetObjectItem(k0, "power_ratio")));
  cr_expect(cJSON_IsNull(cJSON_GetObjectItem(k0, "energy_reading")));
  cr_expect(cJSON_IsObject(cJSON_GetObjectItem(k0, "time_ratio")));
  cr_expect(cJSON_IsFalse(cJSON_GetObjectItem(ch, "energy_measured_in_both")));
  cJSON_Delete(root);
  free(js);
  gb_suite_compare_free(c);
  release(&p);
}

/* A second campaign of the suite without its last language (lua): another
 * suite hash, the same workloads, so compared; lua's configurations left
 * out. */
Test(suite_compare, a_language_missing_is_left_out) {
  gb_srec_records *b = gbt_suite_synth(true);
  b->suite.n_languages = b->meta.n_languages = 2;
  size_t kept = 0;
  for (size_t i = 0; i < b->n_runs; i++) {
    if (strcmp(b->runs[i].language, "lua") != 0) {
      b->runs[kept++] = b->runs[i];
    }
  }
  b->n_runs = kept;
  snprintf(b->meta.suite_hash, sizeof b->meta.suite_hash, "%s",
           "0123456789abcdef0123456789abcdef");
  pair p;
  analyse(&p, 0, gbt_suite_synth(true), "before");
  analyse(&p, 1, b, "after");
  gb_suite_comparison *c = build(&p);
  cr_expect_eq(c->n_configs, 8);
  cr_expect_eq(c->campaigns[0].n_left_out, 4);
  cr_expect_eq(c->campaigns[1].n_left_out, 0);
  char key[256];
  gb_scmp_config_label(p.a[0], c->campaigns[0].left_out[0], key, sizeof key);
  cr_expect_str_eq(key, "lua/spin/n=1000;m=2");
  char *md = NULL;
  size_t len = 0;
  gb_err err;
  cr_assert(gb_suite_compare_md(c, &md, &len, &err) == 0, "%s", err.msg);
  cr_expect(strstr(md, "Left out, as not every one of the campaigns holds them:\n\n- before: "
                       "lua/spin/n=1000;m=2, ") != NULL,
            "%s", md);
  free(md);
  gb_suite_compare_free(c);
  b->suite.n_languages = 3; /* for gb_suite_free */
  release(&p);
}

Test(suite_compare, refuses_another_suite) {
  gb_srec_records *b = gbt_suite_synth(true);
  snprintf(b->meta.suite_name, sizeof b->meta.suite_name, "other");
  refused(gbt_suite_synth(true), b,
          "compare: before is a campaign of suite 'synth' but after of suite 'other': "
          "different suites cannot be compared");
}

/* a against b, whose suite hash is another and whose workload spin
 * differs. */
static void refused_spin(gb_srec_records *a, gb_srec_records *b) {
  char want[512];
  snprintf(want, sizeof want,
           "compare: before has suite hash %s but after has %s, and their workload 'spin' "
           "differs: not the same workloads",
           b->suite.hash, b->meta.suite_hash);
  refused(a, b, want);
}

Test(suite_compare, refuses_another_hash_with_other_workloads) {
  gb_srec_records *b = gbt_suite_synth(true);
  snprintf(b->meta.suite_hash, sizeof b->meta.suite_hash, "%s",
           "0123456789abcdef0123456789abcdef");
  gb_suite_parameter *n = &b->suite.workloads[0].parameters[0];
  n->values[n->n_values++] = 6000; /* a parameter set more: no rows, the same records */
  refused_spin(gbt_suite_synth(true), b);
}

/* A named parameter whose names changed (sorted renamed ascending, in the
 * suite and the rows) holds the same indexes but is another workload; the
 * same names compare. */
Test(suite_compare, refuses_another_hash_with_other_names) {
  gb_srec_records *b = gbt_suite_synth_named(true);
  snprintf(b->meta.suite_hash, sizeof b->meta.suite_hash, "%s",
           "0123456789abcdef0123456789abcdef");
  gb_suite_parameter *order = &b->suite.workloads[0].parameters[1];
  cr_assert(order->named);
  snprintf(order->names[0], sizeof order->names[0], "ascending");
  for (size_t i = 0; i < b->n_runs; i++) {
    char *at = strstr(b->runs[i].params, "order=sorted");
    if (at) {
      snprintf(at, sizeof b->runs[i].params - (size_t)(at - b->runs[i].params), "%s",
               "order=ascending");
    }
  }
  refused_spin(gbt_suite_synth_named(true), b);
  pair p;
  b = gbt_suite_synth_named(true);
  snprintf(b->meta.suite_hash, sizeof b->meta.suite_hash, "%s",
           "0123456789abcdef0123456789abcdef");
  analyse(&p, 0, gbt_suite_synth_named(true), "before");
  analyse(&p, 1, b, "after");
  gb_suite_comparison *c = build(&p);
  cr_expect_eq(c->n_configs, 12);
  gb_suite_compare_free(c);
  release(&p);
}

Test(suite_compare, refuses_another_input_seed) {
  gb_srec_records *b = gbt_suite_synth(true);
  b->meta.settings.seed = 7;
  refused(gbt_suite_synth(true), b,
          "compare: before has input seed 2463534242 but after has 7: different workloads "
          "cannot be compared");
}

/* Every row of case spin n=4000;m=2 in the second campaign says field
 * (as a campaign of another workload would, its own parity intact). */
static void refused_parity(const char *field, const char *value, const char *want) {
  gb_srec_records *b = gbt_suite_synth(true);
  for (size_t i = 0; i < b->n_runs; i++) {
    gb_srec_row *row = &b->runs[i];
    if (strcmp(row->params, "n=4000;m=2") != 0 || row->kind != GB_SREC_KIND_WORK) {
      continue;
    }
    char *dst = strcmp(field, "input_hash") == 0    ? row->input_hash
                : strcmp(field, "output_hash") == 0 ? row->output_hash
                                                    : row->counters;
    strcpy(dst, value);
  }
  refused(gbt_suite_synth(true), b, want);
}

Test(suite_compare, refuses_another_input_hash) {
  refused_parity("input_hash", "00000000000000ff",
                 "compare: spin/n=4000;m=2: input_hash '00000000ee6b56e2' in before but "
                 "'00000000000000ff' in after: not the same workload");
}

Test(suite_compare, refuses_another_output_hash) {
  refused_parity("output_hash", "00000000000000ff",
                 "compare: spin/n=4000;m=2: output_hash '0000000001e3569e' in before but "
                 "'00000000000000ff' in after: not the same workload");
}

Test(suite_compare, refuses_other_counters) {
  refused_parity("counters", "spins=1",
                 "compare: spin/n=4000;m=2: counters 'spins=8000' in "
                 "before but 'spins=1' in after: not the same workload");
}

Test(suite_compare, refuses_two_campaigns_of_one_name) {
  pair p;
  analyse(&p, 0, gbt_suite_synth(true), "a/synth");
  analyse(&p, 1, gbt_suite_synth(true), "b/synth");
  gb_suite_comparison *c = NULL;
  gb_err err;
  cr_assert(gb_suite_compare_build(p.in, 2, &c, &err) == -EINVAL);
  cr_expect(strstr(err.msg, "compare: a/synth and b/synth are both named 'synth'") != NULL,
            "%s", err.msg);
  release(&p);
}

/* compare.md and compare.json of the campaign against python 1.5 times
 * slower, against report-golden/suite-compare. */
static void golden(bool json) {
  pair p;
  analyse(&p, 0, gbt_suite_synth(true), "before");
  analyse(&p, 1, gbt_suite_synth_slower(true, PYTHON, 1.5), "after");
  gb_suite_comparison *c = build(&p);
  char *text = NULL;
  size_t len = 0;
  gb_err err;
  int rc = json ? gb_suite_compare_json(c, &text, &len, &err)
                : gb_suite_compare_md(c, &text, &len, &err);
  cr_assert(rc == 0, "%s", err.msg);
  gbt_golden("suite-compare", json ? "compare.json" : "compare.md", text, len);
  free(text);
  gb_suite_compare_free(c);
  release(&p);
}

Test(suite_compare, golden_md) {
  golden(false);
}

Test(suite_compare, golden_json) {
  golden(true);
}

/* With GB_SUITE_COMPARE_OUT set, writes <it>/slower, the records folder of
 * the campaign with python 1.5 times slower (tests/suite_compare_check.py
 * compares it with stats/tests/data/suite-synth), and <it>/partial, a
 * campaign that did not complete; a no-op otherwise. */
Test(suite_compare, write_records) {
  const char *out = getenv("GB_SUITE_COMPARE_OUT");
  if (out) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/slower", out);
    cr_assert(mkdir(dir, 0777) == 0 || errno == EEXIST, "cannot make %s", dir);
    gb_srec_records *r = gbt_suite_synth_slower(true, PYTHON, 1.5);
    gbt_suite_write(r, dir);
    gbt_suite_free(r);
    /* <it>/partial: the campaign stopped after its first round. */
    snprintf(dir, sizeof dir, "%s/partial", out);
    cr_assert(mkdir(dir, 0777) == 0 || errno == EEXIST, "cannot make %s", dir);
    r = gbt_suite_synth(true);
    r->meta.complete = false;
    r->meta.finished_unix_ns = 0;
    r->n_runs = 24;
    gbt_suite_write(r, dir);
    gbt_suite_free(r);
  }
}

/* ---- Out of memory (alloc_fail.h) ----------------------------------------------- */

typedef struct {
  const gb_scmp_input *in;
  char *want_md, *want_json; /* from a complete call */
} oom_case;

/* The comparison, compare.md and compare.json; a call that completes must
 * give the complete call's bytes (-EIO otherwise). */
static int compare_and_write(void *arg, gb_err *err) {
  oom_case *k = arg;
  gb_suite_comparison *c = NULL;
  char *md = NULL, *js = NULL;
  size_t len = 0;
  int rc = gb_suite_compare_build(k->in, 2, &c, err);
  if (rc == 0) {
    rc = gb_suite_compare_md(c, &md, &len, err);
  }
  if (rc == 0) {
    rc = gb_suite_compare_json(c, &js, &len, err);
  }
  if (rc == 0 && k->want_md && (strcmp(md, k->want_md) != 0 || strcmp(js, k->want_json) != 0)) {
    rc = gb_err_set(err, EIO, "a call that coped with a failed allocation wrote other bytes");
  }
  if (rc == 0 && !k->want_md) {
    k->want_md = md;
    k->want_json = js;
    md = js = NULL;
  }
  free(md);
  free(js);
  gb_suite_compare_free(c);
  return rc;
}

/* Every allocation of the comparison and its two writers, made to fail in
 * turn, gives -ENOMEM and one "out of memory" line, or (where the bootstrap
 * falls back) the same bytes; either way it releases what it held. */
Test(suite_compare, each_allocation_fails_cleanly) {
  pair p;
  gb_analysis_opts o = GB_ANALYSIS_OPTS_DEFAULT;
  o.resamples = 200;
  gb_err err;
  for (size_t m = 0; m < 2; m++) {
    p.r[m] = m ? gbt_suite_synth_slower(true, PYTHON, 1.5) : gbt_suite_synth(true);
    cr_assert(gb_suite_analysis_run(p.r[m], &o, &p.a[m], &err) == 0, "%s", err.msg);
    p.in[m] =
        (gb_scmp_input){.path = m ? "after" : "before", .same_as = -1, .analysis = p.a[m]};
  }
  oom_case k = {.in = p.in};
  cr_assert(compare_and_write(&k, &err) == 0, "%s", err.msg);
  size_t n = gbt_each_allocation_fails_or_copes(compare_and_write, &k, true);
  cr_assert(n > 20, "%zu allocations", n);
  free(k.want_md);
  free(k.want_json);
  release(&p);
}

/* Columns by machine, as the study's compare: two machines' campaigns are
 * named by their labels; one campaign without a label (records written
 * before the field), a campaign label given, or two records of one label
 * name them by campaign. */
static gb_srec_records *labelled(gb_srec_records *r, const char *label) {
  r->meta.has_label = label != NULL;
  snprintf(r->meta.machine_label, sizeof r->meta.machine_label, "%s", label ? label : "");
  return r;
}

static void columns(const char *la, const char *lb, const char *campaign, const char *want0,
                    const char *want1, bool machine) {
  pair p;
  analyse(&p, 0, labelled(gbt_suite_synth(true), la), "before");
  analyse(&p, 1, labelled(gbt_suite_synth(true), lb), "after");
  p.in[1].campaign_label = campaign;
  gb_suite_comparison *c = build(&p);
  cr_expect_eq(c->by_machine, machine, "%s %s", want0, want1);
  cr_expect_str_eq(c->campaigns[0].name, want0);
  cr_expect_str_eq(c->campaigns[1].name, want1);
  gb_suite_compare_free(c);
  release(&p);
}

Test(suite_compare, machine_labels_name_the_columns_as_the_studys_compare) {
  columns("node-a", "node-b", NULL, "node-a", "node-b", true);
  columns("node-a", NULL, NULL, "before", "after", false);
  columns("node-a", "node-a", NULL, "before", "after", false);
  columns("node-a", "node-b", "new", "before", "new", false);
}

/* compare.md and compare.json show each campaign's label, "(none)" and
 * null without one. */
Test(suite_compare, the_outputs_show_the_machine_labels) {
  pair p;
  analyse(&p, 0, labelled(gbt_suite_synth(true), "node-a"), "before");
  analyse(&p, 1, labelled(gbt_suite_synth(true), NULL), "after");
  gb_suite_comparison *c = build(&p);
  char *md = NULL, *json = NULL;
  size_t len = 0;
  gb_err err;
  cr_assert(gb_suite_compare_md(c, &md, &len, &err) == 0, "%s", err.msg);
  cr_assert(gb_suite_compare_json(c, &json, &len, &err) == 0, "%s", err.msg);
  cr_expect(strstr(md, "| before | node-a | before | `before` |"), "%s", md);
  cr_expect(strstr(md, "| after | (none) | after | `after` |"), "%s", md);
  cr_expect(strstr(json, "\"label\":\t\"node-a\""), "%s", json);
  cr_expect(strstr(json, "\"label\":\tnull"), "%s", json);
  free(md);
  free(json);
  gb_suite_compare_free(c);
  release(&p);
}
