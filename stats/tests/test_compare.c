/* greenbench compare: three synthetic campaigns with known power models
 * (stats/tests/data/report-gen/make_compare.py) checked figure by figure in
 * compare.json, the refusals, and the writers' golden files. */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/compare.h"
#include "helper_report.h"

#define N3 3

typedef struct {
  gbt_loaded l[4];
  gb_cmp_input in[4];
  size_t n;
} set;

static void load(set *s, const char *const *names, size_t n) {
  s->n = n;
  for (size_t i = 0; i < n; i++) {
    s->l[i] = gbt_load_analysed(names[i]);
    s->in[i] = (gb_cmp_input){.path = names[i], .same_as = -1, .analysis = s->l[i].a};
  }
}

static void unload(set *s) {
  for (size_t i = 0; i < s->n; i++) {
    gbt_release(&s->l[i]);
  }
}

static const char *const abc[N3] = {"compare-machine-a", "compare-machine-b",
                                    "compare-machine-c"};

static cJSON *json_of(const gb_comparison *c) {
  char *text;
  size_t len;
  gb_err err;
  cr_assert_eq(gb_compare_json(c, &text, &len, &err), 0, "%s", err.msg);
  cJSON *root = cJSON_Parse(text);
  cr_assert_not_null(root);
  free(text);
  return root;
}

static cJSON *at(cJSON *o, const char *key) {
  cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  cr_assert_not_null(v, "no key %s", key);
  return v;
}

static double num(cJSON *o, const char *key) {
  cJSON *v = at(o, key);
  cr_assert(cJSON_IsNumber(v), "%s is not a number", key);
  return v->valuedouble;
}

static const char *str(cJSON *o, const char *key) {
  cJSON *v = at(o, key);
  cr_assert(cJSON_IsString(v), "%s is not a string", key);
  return v->valuestring;
}

/* Machine index by name in the known set. */
static size_t machine(const char *name) {
  return (size_t)(name[strlen(name) - 1] - 'a');
}

Test(compare, known_answers_figure_by_figure) {
  set s;
  load(&s, abc, N3);
  gb_comparison *c = NULL;
  gb_err err;
  cr_assert_eq(gb_compare_build(s.in, N3, &c, &err), 0, "%s", err.msg);
  cJSON *root = json_of(c);
  cr_expect_eq(num(root, "schema_version"), 1);
  /* Per machine: names, verdicts and tallies. */
  static const char *const verdicts[N3] = {"yes", "yes", "no"};
  static const double same[N3] = {4, 4, 2}, differs[N3] = {0, 0, 2};
  cJSON *ms = at(root, "machines");
  cr_assert_eq(cJSON_GetArraySize(ms), N3);
  for (int m = 0; m < N3; m++) {
    cJSON *x = cJSON_GetArrayItem(ms, m);
    char want[16];
    snprintf(want, sizeof want, "machine-%c", 'a' + m);
    cr_expect_str_eq(str(x, "name"), want);
    cr_expect_str_eq(str(x, "label"), want);
    cJSON *q = at(x, "question_1");
    cr_expect_str_eq(str(q, "verdict"), verdicts[m]);
    cr_expect(cJSON_IsFalse(at(q, "many_inconclusive")));
    cJSON *all = at(at(q, "tallies"), "all");
    cr_expect_eq(num(all, "ratios"), 4);
    cr_expect_eq(num(all, "defined"), 4);
    cr_expect_eq(num(all, "same"), same[m], "%s", want);
    cr_expect_eq(num(all, "differs"), differs[m], "%s", want);
    cr_expect_eq(num(all, "excluding_one"), differs[m], "%s", want);
    cJSON *q2 = at(x, "question_2");
    cr_assert_eq(cJSON_GetArraySize(q2), 1);
    double p2 = num(cJSON_GetArrayItem(q2, 0), "power_ratio_median");
    cr_expect(fabs(p2 - (m == 2 ? 1.3 : 1.0)) < 0.01, "%s: question 2 power %g", want, p2);
    cJSON *q3 = at(x, "question_3");
    cr_assert_eq(cJSON_GetArraySize(q3), 2);
    for (int g = 0; g < 2; g++) {
      double p3 = num(cJSON_GetArrayItem(q3, g), "power_ratio_median");
      cr_expect(fabs(p3 - 1.0) < 0.01, "%s: question 3 power %g", want, p3);
    }
  }
  /* Verdict agreement: a and b agree, c differs. */
  cJSON *va = at(root, "verdict_agreement");
  cr_expect(cJSON_IsFalse(at(va, "agree")));
  cJSON *vs = at(va, "verdicts");
  cr_assert_eq(cJSON_GetArraySize(vs), 2);
  cr_expect_str_eq(str(cJSON_GetArrayItem(vs, 0), "verdict"), "yes");
  cr_expect_eq(cJSON_GetArraySize(at(cJSON_GetArrayItem(vs, 0), "machines")), 2);
  cr_expect_str_eq(str(cJSON_GetArrayItem(vs, 1), "verdict"), "no");
  cr_expect_str_eq(
      cJSON_GetArrayItem(at(cJSON_GetArrayItem(vs, 1), "machines"), 0)->valuestring,
      "machine-c");
  /* Pairs: verdicts agree only for a and b; time ranks agree everywhere. */
  cJSON *ps = at(root, "pairs");
  cr_assert_eq(cJSON_GetArraySize(ps), 3);
  for (int i = 0; i < 3; i++) {
    cJSON *p = cJSON_GetArrayItem(ps, i);
    const char *x = cJSON_GetArrayItem(at(p, "machines"), 0)->valuestring;
    const char *y = cJSON_GetArrayItem(at(p, "machines"), 1)->valuestring;
    bool ab = machine(x) != 2 && machine(y) != 2;
    cr_expect_eq(cJSON_IsTrue(at(p, "verdicts_agree")), ab, "%s, %s", x, y);
    cr_expect_eq(num(p, "configurations"), 4);
    cJSON *rho = at(p, "time_rank_rho");
    cr_expect_eq(num(rho, "point"), 1.0, "%s, %s", x, y);
    cr_expect_eq(num(rho, "low"), 1.0);
    cr_expect_eq(num(rho, "high"), 1.0);
    cr_expect_eq(num(rho, "resamples_used"), 2000);
  }
  /* Ratios: each power ratio near its true value, inside its interval. */
  cJSON *rs = at(root, "ratios");
  cr_assert_eq(cJSON_GetArraySize(rs), 4);
  cJSON *r;
  cJSON_ArrayForEach(r, rs) {
    bool lang = strcmp(str(r, "family"), "languages") == 0;
    cr_expect_eq(cJSON_IsTrue(at(r, "readings_agree")), !lang, "%s", str(r, "a"));
    cJSON *x;
    cJSON_ArrayForEach(x, at(r, "machines")) {
      size_t m = machine(str(x, "machine"));
      double truth = lang && m == 2 ? 1.3 : 1.0;
      cJSON *pw = at(x, "power_ratio");
      double p = num(pw, "point"), lo = num(pw, "low"), hi = num(pw, "high");
      cr_expect(fabs(p - truth) < 0.01, "%s %s: power %g, true %g", str(r, "a"),
                str(x, "machine"), p, truth);
      cr_expect(lo <= truth + 0.01 && truth - 0.01 <= hi, "%s %s: [%g, %g] vs %g", str(r, "a"),
                str(x, "machine"), lo, hi, truth);
      cr_expect(lo <= p && p <= hi);
      cr_expect_str_eq(str(x, "reading"), lang && m == 2 ? "differs" : "same");
      double t = num(at(x, "time_ratio"), "point");
      double want_t = lang ? 160.0 : 1.4; /* python / c: 400000 / 2500 ns */
      cr_expect(fabs(t / want_t - 1.0) < 0.03, "%s %s: time ratio %g, want %g", str(r, "a"),
                str(x, "machine"), t, want_t);
    }
  }
  /* Configurations: machine c is 20% faster. */
  cJSON *cs = at(root, "configurations");
  cr_assert_eq(cJSON_GetArraySize(cs), 4);
  cJSON *k;
  cJSON_ArrayForEach(k, cs) {
    cJSON *x = at(k, "machines");
    double ta = num(at(cJSON_GetArrayItem(x, 0), "time_per_sort_ns"), "point");
    double tc = num(at(cJSON_GetArrayItem(x, 2), "time_per_sort_ns"), "point");
    cr_expect(fabs(tc / ta - 0.8) < 0.02, "%s: c / a time %g", str(k, "language"), tc / ta);
  }
  cJSON_Delete(root);
  gb_compare_free(c);
  unload(&s);
}

Test(compare, agreeing_pair_agrees) {
  set s;
  load(&s, abc, 2);
  gb_comparison *c = NULL;
  gb_err err;
  cr_assert_eq(gb_compare_build(s.in, 2, &c, &err), 0, "%s", err.msg);
  cr_expect(c->verdicts_agree);
  cr_expect_eq(c->n_pairs, 1);
  cr_expect(c->pairs[0].verdicts_agree);
  for (size_t i = 0; i < c->n_ratios; i++) {
    cr_expect(c->ratios[i].readings_agree);
  }
  gb_compare_free(c);
  unload(&s);
}

Test(compare, refuses_another_workload) {
  static const char *const names[2] = {"compare-machine-a", "compare-other-seed"};
  set s;
  load(&s, names, 2);
  gb_comparison *c = NULL;
  gb_err err;
  cr_assert_eq(gb_compare_build(s.in, 2, &c, &err), -EINVAL);
  cr_expect_null(c);
  cr_expect(strstr(err.msg, "input seed 2463534242") && strstr(err.msg, "has 12345"), "%s",
            err.msg);
  unload(&s);
}

/* Two campaigns of one machine (the same machine label) are columns named
 * by their folders; two folders of the same name are refused, pointing
 * to --campaign-label, and campaign labels given name the columns. */
Test(compare, one_machine_twice_is_named_by_folder) {
  static const char *const names[2] = {"compare-machine-a", "compare-a-slower"};
  set s;
  load(&s, names, 2);
  s.in[1].path = "elsewhere/compare-a-slower.tar.gz";
  gb_comparison *c = NULL;
  gb_err err;
  cr_assert_eq(gb_compare_build(s.in, 2, &c, &err), 0, "%s", err.msg);
  cr_expect_not(c->by_machine);
  cr_expect_str_eq(c->machines[0].name, "compare-machine-a");
  cr_expect_str_eq(c->machines[1].name, "compare-a-slower");
  cr_expect_str_eq(c->machines[1].campaign, "compare-a-slower");
  gb_compare_free(c);
  s.in[1].path = "elsewhere/compare-machine-a/";
  cr_assert_eq(gb_compare_build(s.in, 2, &c, &err), -EINVAL);
  cr_expect_str_eq(err.msg,
                   "compare: compare-machine-a and elsewhere/compare-machine-a/ are both named "
                   "'compare-machine-a': give each campaign its own name with "
                   "--campaign-label NAME (once per path, in order)");
  s.in[0].campaign_label = "before";
  s.in[1].campaign_label = "after";
  cr_assert_eq(gb_compare_build(s.in, 2, &c, &err), 0, "%s", err.msg);
  cr_expect_str_eq(c->machines[0].name, "before");
  cr_expect_str_eq(c->machines[1].name, "after");
  gb_compare_free(c);
  s.in[1].campaign_label = "before";
  cr_assert_eq(gb_compare_build(s.in, 2, &c, &err), -EINVAL);
  cr_expect(strstr(err.msg, "both named 'before'"), "%s", err.msg);
  unload(&s);
}

/* Machines with labels of their own keep their names as columns, and a
 * label given to each campaign replaces them. */
Test(compare, machine_labels_name_the_columns_unless_campaign_labels_are_given) {
  set s;
  load(&s, abc, 2);
  gb_comparison *c = NULL;
  gb_err err;
  cr_assert_eq(gb_compare_build(s.in, 2, &c, &err), 0, "%s", err.msg);
  cr_expect(c->by_machine);
  cr_expect_str_eq(c->machines[1].name, "machine-b");
  cr_expect_str_eq(c->machines[1].campaign, "compare-machine-b");
  gb_compare_free(c);
  s.in[0].campaign_label = "x1";
  s.in[1].campaign_label = "x2";
  cr_assert_eq(gb_compare_build(s.in, 2, &c, &err), 0, "%s", err.msg);
  cr_expect_not(c->by_machine);
  cr_expect_str_eq(c->machines[1].name, "x2");
  gb_compare_free(c);
  unload(&s);
}

/* Whether iv covers the truth, or misses it by less than 1% of it: a 95%
 * interval misses one time in 20, and these tests hold a dozen (as
 * known_answers_figure_by_figure allows 0.01). */
static bool covers(const gb_interval *iv, double truth) {
  return iv->lo <= truth * 1.01 && truth * 0.99 <= iv->hi;
}

/* B is A with every sort 1.5 times as long at the same power: the time and
 * energy ratios cover 1.5 and differ, net power reads same, and the answer
 * to question 1 does not change. */
Test(compare, before_after_slower_at_the_same_power) {
  static const char *const names[2] = {"compare-machine-a", "compare-a-slower"};
  set s;
  load(&s, names, 2);
  gb_comparison *c = NULL;
  gb_err err;
  cr_assert_eq(gb_compare_build(s.in, 2, &c, &err), 0, "%s", err.msg);
  cr_assert_eq(c->n_configs, 4);
  for (size_t i = 0; i < c->n_configs; i++) {
    const gb_cmp_change *ch = &c->configs[i].change[1];
    const gb_ratio *r = &ch->ratio;
    cr_assert(ch->computed && ch->energy);
    cr_expect(covers(&r->time, 1.5), "time [%g, %g]", r->time.lo, r->time.hi);
    cr_expect(fabs(r->time.point / 1.5 - 1.0) < 0.01, "time %g", r->time.point);
    cr_expect(covers(&r->energy, 1.5), "energy [%g, %g]", r->energy.lo, r->energy.hi);
    cr_expect(covers(&r->power, 1.0), "power [%g, %g]", r->power.lo, r->power.hi);
    cr_expect_eq(ch->time_reading, GB_READING_DIFFERS);
    cr_expect_eq(ch->energy_reading, GB_READING_DIFFERS);
    cr_expect_eq(r->reading, GB_READING_SAME);
  }
  cr_expect(c->machines[1].verdict_known);
  cr_expect_not(c->machines[1].verdict_changed);
  cJSON *root = json_of(c);
  cJSON *ch = cJSON_GetArrayItem(at(root, "changes"), 0);
  cr_expect_str_eq(str(ch, "campaign"), "compare-a-slower");
  cr_expect_str_eq(str(ch, "against"), "compare-machine-a");
  cr_expect(cJSON_IsFalse(at(at(ch, "question_1"), "changed")));
  cr_expect(cJSON_IsTrue(at(at(ch, "question_1"), "same_configurations")));
  cJSON *k0 = cJSON_GetArrayItem(at(ch, "configurations"), 0);
  cr_expect_str_eq(str(k0, "time_reading"), "differs");
  cr_expect_str_eq(str(k0, "power_reading"), "same");
  cr_expect(fabs(num(at(k0, "time_ratio"), "point") / 1.5 - 1.0) < 0.01);
  cJSON_Delete(root);
  gb_compare_free(c);
  unload(&s);
}

/* Machine c draws 30% more power in python (question 1: no) and sorts 20%
 * faster: against machine a the answer changed, python's power ratio
 * covers 1.3 and differs, c's covers 1 and reads same, time is 0.8. */
Test(compare, a_verdict_that_changes) {
  static const char *const names[2] = {"compare-machine-a", "compare-machine-c"};
  set s;
  load(&s, names, 2);
  gb_comparison *c = NULL;
  gb_err err;
  cr_assert_eq(gb_compare_build(s.in, 2, &c, &err), 0, "%s", err.msg);
  cr_expect(c->machines[1].verdict_known);
  cr_expect(c->machines[1].verdict_changed);
  for (size_t i = 0; i < c->n_configs; i++) {
    const gb_an_config *k = c->configs[i].config[0];
    const gb_ratio *r = &c->configs[i].change[1].ratio;
    bool python = k->language == GB_PYTHON;
    cr_expect(covers(&r->power, python ? 1.3 : 1.0), "power [%g, %g]", r->power.lo,
              r->power.hi);
    cr_expect_eq(r->reading, python ? GB_READING_DIFFERS : GB_READING_SAME);
    cr_expect(fabs(r->time.point / 0.8 - 1.0) < 0.03, "time %g", r->time.point);
  }
  char *md;
  size_t len;
  cr_assert_eq(gb_compare_md(c, &md, &len, &err), 0, "%s", err.msg);
  cr_expect(strstr(md, "- machine-c: **changed**, from yes to no\n"), "%s", md);
  free(md);
  cJSON *root = json_of(c);
  cJSON *q = at(cJSON_GetArrayItem(at(root, "changes"), 0), "question_1");
  cr_expect(cJSON_IsTrue(at(q, "changed")));
  cr_expect_str_eq(str(q, "from"), "yes");
  cr_expect_str_eq(str(q, "to"), "no");
  cJSON_Delete(root);
  gb_compare_free(c);
  unload(&s);
}

/* A campaign against itself (the same folder given twice, or an identical
 * copy in another folder): every point ratio exactly 1, every interval
 * around it from two independent bootstraps (not the degenerate [1, 1] of
 * replicates paired with themselves), read same. */
static void against_itself(bool copy) {
  set s;
  load(&s, abc, 2);
  s.in[1] = s.in[0];
  s.in[1].same_as = copy ? -1 : 0;
  s.in[1].path = copy ? "elsewhere/copy-of-a" : s.in[0].path;
  gb_comparison *c = NULL;
  gb_err err;
  cr_assert_eq(gb_compare_build(s.in, 2, &c, &err), 0, "%s", err.msg);
  cr_expect_str_eq(c->machines[1].name, copy ? "copy-of-a" : "machine-a#2");
  for (size_t i = 0; i < c->n_configs; i++) {
    const gb_cmp_change *ch = &c->configs[i].change[1];
    const gb_interval *iv[3] = {&ch->ratio.time, &ch->ratio.energy, &ch->ratio.power};
    for (int k = 0; k < 3; k++) {
      cr_expect_eq(iv[k]->point, 1.0);
      cr_expect(iv[k]->lo < 1.0 && 1.0 < iv[k]->hi, "[%g, %g]", iv[k]->lo, iv[k]->hi);
    }
    cr_expect_eq(ch->ratio.reading, GB_READING_SAME);
    cr_expect_eq(ch->time_reading, GB_READING_SAME);
  }
  cr_expect_not(c->machines[1].verdict_changed);
  gb_compare_free(c);
  unload(&s);
}

Test(compare, a_campaign_against_itself_gives_ratios_of_one) {
  against_itself(false);
}

Test(compare, a_campaign_against_an_identical_copy_gives_ratios_of_one) {
  against_itself(true);
}

/* Campaigns of different configuration sets are compared on those they
 * share, and the rest are named as left out. */
Test(compare, only_the_shared_configurations_are_compared) {
  static const char *const names[2] = {"compare-machine-a", "compare-a-c-only"};
  set s;
  load(&s, names, 2);
  gb_comparison *c = NULL;
  gb_err err;
  cr_assert_eq(gb_compare_build(s.in, 2, &c, &err), 0, "%s", err.msg);
  cr_expect_eq(c->n_configs, 2);
  cr_assert_eq(c->machines[0].n_left_out, 2);
  cr_expect_eq(c->machines[1].n_left_out, 0);
  cr_expect_eq(c->machines[0].left_out[0]->language, GB_PYTHON);
  char *md;
  size_t len;
  cr_assert_eq(gb_compare_md(c, &md, &len, &err), 0, "%s", err.msg);
  cr_expect(strstr(md,
                   "- compare-a-c-only: **changed**, from yes to within the margin, yes, but "
                   "power differs; the two answers come from different sets of "
                   "configurations\n"),
            "%s", md);
  cr_expect(strstr(md, "Left out, as not every one of the campaigns holds them:\n\n"
                       "- compare-machine-a: python/quick/random/100, "
                       "python/quick/sorted/100\n"),
            "%s", md);
  free(md);
  cJSON *root = json_of(c);
  cJSON *left = at(cJSON_GetArrayItem(at(root, "machines"), 0), "configurations_left_out");
  cr_expect_eq(cJSON_GetArraySize(left), 2);
  cr_expect_str_eq(cJSON_GetArrayItem(left, 1)->valuestring, "python/quick/sorted/100");
  cJSON *q = at(cJSON_GetArrayItem(at(root, "changes"), 0), "question_1");
  cr_expect(cJSON_IsFalse(at(q, "same_configurations")));
  cJSON_Delete(root);
  gb_compare_free(c);
  unload(&s);
}

/* Energy measured in one campaign only: time ratios, and said so; the
 * energy and power ratios, their readings and the change of question 1's
 * answer are null, never a number. */
Test(compare, without_energy_in_one_campaign_time_ratios_only) {
  static const char *const names[2] = {"compare-machine-a", "compare-a-no-energy"};
  set s;
  load(&s, names, 2);
  gb_comparison *c = NULL;
  gb_err err;
  cr_assert_eq(gb_compare_build(s.in, 2, &c, &err), 0, "%s", err.msg);
  for (size_t i = 0; i < c->n_configs; i++) {
    const gb_cmp_change *ch = &c->configs[i].change[1];
    cr_expect(ch->computed && !ch->energy);
    cr_expect(covers(&ch->ratio.time, 1.5), "time [%g, %g]", ch->ratio.time.lo,
              ch->ratio.time.hi);
    cr_expect_eq(ch->ratio.reading, GB_READING_UNDEFINED);
  }
  cr_expect_not(c->machines[1].verdict_known);
  char *md;
  size_t len;
  cr_assert_eq(gb_compare_md(c, &md, &len, &err), 0, "%s", err.msg);
  cr_expect(strstr(md, "Energy was not measured in compare-a-no-energy: time ratios only."),
            "%s", md);
  cr_expect(strstr(md, "- compare-a-no-energy: not known, as energy was not measured in "
                       "compare-a-no-energy\n"),
            "%s", md);
  free(md);
  cJSON *root = json_of(c);
  cJSON *ch = cJSON_GetArrayItem(at(root, "changes"), 0);
  cr_expect(cJSON_IsFalse(at(ch, "energy_measured_in_both")));
  cr_expect(cJSON_IsNull(at(at(ch, "question_1"), "changed")));
  cJSON *k;
  cJSON_ArrayForEach(k, at(ch, "configurations")) {
    cr_expect(cJSON_IsObject(at(k, "time_ratio")));
    cr_expect(cJSON_IsNull(at(k, "energy_ratio")));
    cr_expect(cJSON_IsNull(at(k, "power_ratio")));
    cr_expect(cJSON_IsNull(at(k, "power_reading")));
  }
  cJSON_Delete(root);
  gb_compare_free(c);
  unload(&s);
}

/* Names from the command line and folders reach compare.md escaped. */
Test(compare, names_are_escaped_in_markdown) {
  set s;
  load(&s, abc, 2);
  s.in[0].path = "x/a|b*c";
  s.in[1].path = "x/d_e";
  s.l[1].r->meta.machine.has_label = false; /* no machine label names the columns */
  gb_comparison *c = NULL;
  gb_err err;
  cr_assert_eq(gb_compare_build(s.in, 2, &c, &err), 0, "%s", err.msg);
  char *md;
  size_t len;
  cr_assert_eq(gb_compare_md(c, &md, &len, &err), 0, "%s", err.msg);
  cr_expect(strstr(md, "| a\\|b\\*c | machine-a | a\\|b\\*c | `x/a|b*c` |"), "%s", md);
  cr_expect(strstr(md, "| d\\_e | (none) | d\\_e |"), "%s", md);
  cr_expect_null(strstr(md, "| a|b"), "%s", md);
  free(md);
  gb_compare_free(c);
  unload(&s);
}

Test(compare, the_same_folder_twice_is_a_self_comparison) {
  set s;
  load(&s, abc, 2);
  s.in[1] = s.in[0];
  s.in[1].same_as = 0;
  gb_comparison *c = NULL;
  gb_err err;
  cr_assert_eq(gb_compare_build(s.in, 2, &c, &err), 0, "%s", err.msg);
  cr_expect_str_eq(c->machines[0].name, "machine-a");
  cr_expect_str_eq(c->machines[1].name, "machine-a#2");
  cr_expect(c->verdicts_agree);
  cr_expect_eq(c->pairs[0].time_rank.point.rho, 1.0);
  for (size_t i = 0; i < c->n_ratios; i++) {
    cr_expect_eq(c->ratios[i].ratio[0]->ratio.power.point,
                 c->ratios[i].ratio[1]->ratio.power.point);
  }
  gb_compare_free(c);
  unload(&s);
}

/* Issue 32, C: a campaign without energy reads "pending" in compare.md and
 * null in compare.json, as results.md and summary.json say it, never
 * "undefined" or "0 / 0 / 0 / N". */
Test(compare, without_energy_pending_as_report_says) {
  static const char *const names[2] = {"report-off", "report-off"};
  set s;
  load(&s, names, 2);
  s.in[1].same_as = 0;
  gb_comparison *c = NULL;
  gb_err err;
  cr_assert_eq(gb_compare_build(s.in, 2, &c, &err), 0, "%s", err.msg);
  cr_assert_gt(c->n_ratios, 0);
  cJSON *root = json_of(c);
  cJSON *ratio;
  cJSON_ArrayForEach(ratio, at(root, "ratios")) {
    cJSON *m;
    cJSON_ArrayForEach(m, at(ratio, "machines")) {
      cr_expect(cJSON_IsNull(at(m, "reading")));
      cr_expect(cJSON_IsNull(at(m, "power_ratio")));
      cr_expect(cJSON_IsNull(at(m, "energy_ratio")));
      cr_expect(cJSON_IsObject(at(m, "time_ratio")));
    }
  }
  cJSON_Delete(root);
  char *md;
  size_t len;
  cr_assert_eq(gb_compare_md(c, &md, &len, &err), 0, "%s", err.msg);
  cr_expect(strstr(md, "pending (energy not measured) | pending | pending |"), "%s", md);
  cr_expect_null(strstr(md, " / 0 / 0 / "), "%s", md);
  free(md);
  gb_compare_free(c);
  unload(&s);
}

/* No configuration in common is nothing to compare: refused, never "the
 * verdicts agree". */
Test(compare, refuses_campaigns_with_no_configuration_in_common) {
  set s;
  load(&s, abc, 2);
  gb_analysis *b = s.l[1].a;
  for (size_t i = 0; i < b->n_configs; i++) {
    b->configs[i].size += 1; /* no size of a matches any of b's now */
  }
  gb_comparison *c = NULL;
  gb_err err;
  cr_assert_eq(gb_compare_build(s.in, 2, &c, &err), -EINVAL);
  cr_expect_null(c);
  cr_expect(strstr(err.msg, "no configuration (language, algorithm, order, size) in common"),
            "%s", err.msg);
  cr_expect_null(strchr(err.msg, '\n'));
  unload(&s);
}

Test(compare, refuses_fewer_than_two) {
  set s;
  load(&s, abc, 1);
  gb_comparison *c = NULL;
  gb_err err;
  cr_expect_eq(gb_compare_build(s.in, 1, &c, &err), -EINVAL);
  unload(&s);
}

/* One writer's output of the n campaigns names[] against its golden file
 * report-golden/<dir>/<file> (one per test: an update run stops at the
 * first gbt_golden). */
static void golden_of(const char *const *names, size_t n, int which, const char *dir,
                      const char *file) {
  set s;
  load(&s, names, n);
  gb_comparison *c = NULL;
  gb_err err;
  cr_assert_eq(gb_compare_build(s.in, n, &c, &err), 0, "%s", err.msg);
  char *out;
  size_t len;
  int (*const writers[3])(const gb_comparison *, char **, size_t *,
                          gb_err *) = {gb_compare_json, gb_compare_md, gb_compare_svg};
  cr_assert_eq(writers[which](c, &out, &len, &err), 0, "%s", err.msg);
  gb_compare_free(c);
  unload(&s);
  gbt_golden(dir, file, out, len);
  free(out);
}

static void golden(int which, const char *file) {
  golden_of(abc, N3, which, "compare", file);
}

Test(compare, golden_json) {
  golden(0, "compare.json");
}

Test(compare, golden_md) {
  golden(1, "compare.md");
}

Test(compare, golden_svg) {
  golden(2, "compare.svg");
}

/* Before and after on one machine: every sort 1.5 times as long. */
static const char *const before_after[2] = {"compare-machine-a", "compare-a-slower"};

Test(compare, golden_before_after_json) {
  golden_of(before_after, 2, 0, "compare-before-after", "compare.json");
}

Test(compare, golden_before_after_md) {
  golden_of(before_after, 2, 1, "compare-before-after", "compare.md");
}

Test(compare, golden_before_after_svg) {
  golden_of(before_after, 2, 2, "compare-before-after", "compare.svg");
}

/* A run the bootstrap refuses when a change is drawn (here made so after
 * the analysis had accepted it) fails the comparison with one line naming
 * the campaign and the configuration; nothing is returned. */
Test(compare, a_refused_run_in_a_change_names_campaign_and_configuration) {
  set s;
  load(&s, before_after, 2);
  gb_run_row *bad = NULL;
  for (size_t i = 0; i < s.l[1].r->runs.n_rows && !bad; i++) {
    gb_run_row *r = &s.l[1].r->runs.rows[i];
    bool sort = r->kind == GB_REC_KIND_SORT && r->status == GB_REC_STATUS_OK;
    bad = sort && r->language == GB_PYTHON ? r : NULL;
  }
  cr_assert_not_null(bad);
  bad->sorts = 0;
  gb_comparison *c = NULL;
  gb_err err;
  cr_assert_eq(gb_compare_build(s.in, 2, &c, &err), -EINVAL);
  cr_expect_null(c);
  cr_expect(strstr(err.msg, "compare: compare-a-slower: python/quick/") &&
                strstr(err.msg, "sorts is 0"),
            "%s", err.msg);
  cr_expect_null(strchr(err.msg, '\n'));
  unload(&s);
}

/* A folder's name is text in compare.svg, never markup. */
Test(compare, names_are_escaped_in_the_chart) {
  set s;
  load(&s, before_after, 2);
  s.in[1].path = "x/<b>&amp";
  gb_comparison *c = NULL;
  gb_err err;
  cr_assert_eq(gb_compare_build(s.in, 2, &c, &err), 0, "%s", err.msg);
  char *svg;
  size_t len;
  cr_assert_eq(gb_compare_svg(c, &svg, &len, &err), 0, "%s", err.msg);
  cr_expect(strstr(svg, ">&lt;b&gt;&amp;amp</text>"), "%s", svg);
  cr_expect_null(strstr(svg, "<b>"), "%s", svg);
  free(svg);
  gb_compare_free(c);
  unload(&s);
}
