/* The suite report (suite_analysis.h): its numbers on the synthetic suite
 * campaign (helper_suite.h) and results.md against goldens. */
#include <criterion/criterion.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc_fail.h"
#include "greenbench/suite_analysis.h"
#include "helper_report.h"
#include "helper_suite.h"

static gb_suite_analysis *analyse(const gb_srec_records *r) {
  gb_analysis_opts o = GB_ANALYSIS_OPTS_DEFAULT;
  gb_suite_analysis *a = NULL;
  gb_err err;
  cr_assert(gb_suite_analysis_run(r, &o, &a, &err) == 0, "%s", err.msg);
  return a;
}

static char *markdown(const gb_suite_analysis *a, size_t *len) {
  gb_intensity regions[2];
  gbt_default_intensities(regions);
  gb_suite_md_opts o = {.intensities = regions, .n_intensities = 2};
  char *md = NULL;
  gb_err err;
  cr_assert(gb_suite_report_md(a, &o, &md, len, &err) == 0, "%s", err.msg);
  return md;
}

static void golden(bool energy, const char *fixture) {
  gb_srec_records *r = strcmp(fixture, "suite-named") == 0 ? gbt_suite_synth_named(energy)
                                                           : gbt_suite_synth(energy);
  gb_suite_analysis *a = analyse(r);
  size_t len = 0;
  char *md = markdown(a, &len);
  gbt_golden(fixture, "results.md", md, len);
  free(md);
  gb_suite_analysis_free(a);
  gbt_suite_free(r);
}

/* With GB_SUITE_OUT set, writes <it>/<fixture>/runs.csv and results.md of
 * both campaigns, for the numpy recomputation (tests/suite_numpy_check.py),
 * and of the campaign with energy on suite-named (<it>/named); a no-op
 * otherwise. */
Test(suite_report, write_records) {
  const char *out = getenv("GB_SUITE_OUT");
  for (int energy = 2; out && energy >= 0; energy--) {
    char dir[4096], path[4200];
    snprintf(dir, sizeof dir, "%s/%s", out, energy == 2 ? "named" : energy ? "energy" : "off");
    cr_assert(mkdir(dir, 0777) == 0 || errno == EEXIST, "cannot make %s", dir);
    gb_srec_records *r = energy == 2 ? gbt_suite_synth_named(true) : gbt_suite_synth(energy);
    gbt_suite_write(r, dir);
    gb_suite_analysis *a = analyse(r);
    size_t len = 0;
    char *md = markdown(a, &len);
    snprintf(path, sizeof path, "%s/results.md", dir);
    gbt_spit(path, md);
    free(md);
    gb_err err;
    cr_assert(gb_suite_report_junit(a, &md, &len, &err) == 0, "%s", err.msg);
    snprintf(path, sizeof path, "%s/junit.xml", dir);
    gbt_spit(path, md);
    free(md);
    gb_suite_analysis_free(a);
    gbt_suite_free(r);
  }
}

/* stats/tests/data/suite-synth holds the campaign with energy as a records
 * folder (for `greenbench report` end to end, the numpy check and the
 * docs), and suite-named the same on the suite with a named parameter: the
 * files the generator writes, byte for byte. After a deliberate change to
 * the generator, copy them from GB_SUITE_OUT's energy/ and named/. */
static void fixture_folder_is_the_generators(bool named) {
  char dir[] = "/tmp/gb-suite-fixture-XXXXXX";
  cr_assert_not_null(mkdtemp(dir));
  gb_srec_records *r = named ? gbt_suite_synth_named(true) : gbt_suite_synth(true);
  gbt_suite_write(r, dir);
  gbt_suite_free(r);
  const char *files[] = {"suite.json", "meta.json", "runs.csv", "warmups.csv"};
  for (size_t i = 0; i < 4; i++) {
    char a[128], b[4096];
    snprintf(a, sizeof a, "%s/%s", dir, files[i]);
    snprintf(b, sizeof b, "%s/suite-%s/%s", GB_TEST_DATA_DIR, named ? "named" : "synth",
             files[i]);
    char *x = gbt_slurp_or_fail(a), *y = gbt_slurp_or_fail(b);
    cr_assert_str_eq(x, y, "%s differs from what the generator writes", b);
    free(x);
    free(y);
    unlink(a);
  }
  rmdir(dir);
}

Test(suite_report, the_fixture_folder_is_the_generators) {
  fixture_folder_is_the_generators(false);
}

Test(suite_report, the_named_fixture_folder_is_the_generators) {
  fixture_folder_is_the_generators(true);
}

Test(suite_report, golden_energy) {
  golden(true, "suite-energy");
}

/* summary.json and junit.xml of the campaign with energy (named: on
 * suite-named). */
static void golden_other_of(bool junit, bool named) {
  gb_srec_records *r = named ? gbt_suite_synth_named(true) : gbt_suite_synth(true);
  gb_suite_analysis *a = analyse(r);
  char *text = NULL;
  size_t len = 0;
  gb_err err;
  int rc = junit ? gb_suite_report_junit(a, &text, &len, &err)
                 : gb_suite_report_summary(a, &text, &len, &err);
  cr_assert(rc == 0, "%s", err.msg);
  gbt_golden(named ? "suite-named" : "suite-energy", junit ? "junit.xml" : "summary.json", text,
             len);
  free(text);
  gb_suite_analysis_free(a);
  gbt_suite_free(r);
}

static void golden_other(bool junit) {
  golden_other_of(junit, false);
}

Test(suite_report, golden_summary) {
  golden_other(false);
}

Test(suite_report, golden_junit) {
  golden_other(true);
}

/* A named parameter's values by name, in the file's order (reversed
 * before nearly-sorted), in results.md, summary.json and junit.xml. */
Test(suite_report, golden_named) {
  golden(true, "suite-named");
}

Test(suite_report, golden_named_summary) {
  golden_other_of(false, true);
}

Test(suite_report, golden_named_junit) {
  golden_other_of(true, true);
}

Test(suite_report, named_cases_in_the_files_order) {
  gb_srec_records *r = gbt_suite_synth_named(true);
  gb_suite_analysis *a = analyse(r);
  static const char *const want[] = {"n=1000, order=sorted", "n=4000, order=sorted",
                                     "n=500, order=reversed", "n=500, order=nearly-sorted"};
  cr_assert_eq(a->n_cases, 4);
  for (size_t k = 0; k < 4; k++) {
    char params[GB_SREC_PARAMS_MAX];
    gb_sa_case_params(a, &a->cases[k], params, sizeof params);
    cr_assert_str_eq(params, want[k]);
  }
  cr_assert_str_eq(a->configs[a->n_configs - 1].params, "n=500;order=nearly-sorted");
  gb_suite_analysis_free(a);
  gbt_suite_free(r);
}

Test(suite_report, golden_off) {
  golden(false, "suite-off");
}

/* The same records give the same bytes, on any run. */
Test(suite_report, deterministic) {
  gb_srec_records *r = gbt_suite_synth(true);
  gb_suite_analysis *a = analyse(r), *b = analyse(r);
  size_t la = 0, lb = 0;
  char *ma = markdown(a, &la), *mb = markdown(b, &lb);
  cr_assert(la == lb && memcmp(ma, mb, la) == 0);
  free(ma);
  free(mb);
  gb_suite_analysis_free(a);
  gb_suite_analysis_free(b);
  gbt_suite_free(r);
}

static const gb_sa_ratio *ratio_of(const gb_suite_analysis *a, size_t k, size_t l) {
  size_t nl = a->records->suite.n_languages;
  return &a->ratios[k * (nl - 1) + l - 1];
}

/* The cases in the suite's order (mix's m in its file order, 3 then 1),
 * the readings the model implies: Python slower everywhere, Lua slower on
 * spin and no clear difference on mix. */
Test(suite_report, cases_and_readings) {
  gb_srec_records *r = gbt_suite_synth(true);
  gb_suite_analysis *a = analyse(r);
  cr_assert_eq(a->n_cases, 4);
  cr_assert_eq(a->n_configs, 12);
  char p[64];
  gb_sa_case_params(a, &a->cases[2], p, sizeof p);
  cr_assert_str_eq(p, "n=500, m=3");
  gb_sa_case_params(a, &a->cases[3], p, sizeof p);
  cr_assert_str_eq(p, "n=500, m=1");
  for (size_t k = 0; k < 4; k++) {
    cr_assert_eq(ratio_of(a, k, 1)->time_reading, GB_SA_SLOWER, "case %zu", k);
    double t = ratio_of(a, k, 1)->ratio.time.point;
    cr_assert(fabs(t - 30.0) < 1.5, "case %zu: python / c %g", k, t);
    cr_assert_eq(ratio_of(a, k, 2)->time_reading, k < 2 ? GB_SA_SLOWER : GB_SA_NO_CLEAR,
                 "case %zu", k);
  }
  /* The timed-out run is counted, not measured. */
  const gb_sa_config *py = &a->configs[a->cases[2].first_config + 1];
  cr_assert_eq(py->n_rows, GBT_SUITE_RUNS);
  cr_assert_eq(py->n_ok, GBT_SUITE_RUNS - 1);
  cr_assert_eq(a->rows_by_status[GB_REC_STATUS_TIMEOUT], 1);
  cr_assert(a->rank_computed && a->rank_k == 12);
  gb_suite_analysis_free(a);
  gbt_suite_free(r);
}

/* Without energy: time alone, no rank agreement, no power. */
Test(suite_report, energy_off) {
  gb_srec_records *r = gbt_suite_synth(false);
  gb_suite_analysis *a = analyse(r);
  cr_assert(!a->energy && !a->rank_computed);
  cr_assert(!a->configs[0].boot.est[GB_EST_ENERGY_PER_SORT].available);
  cr_assert(a->configs[0].boot.est[GB_EST_TIME_PER_SORT].available);
  gb_suite_analysis_free(a);
  gbt_suite_free(r);
}

/* A configuration's time per repetition subtracts the startup medians of
 * its own batches: with every run and batch alike, exactly the model's. */
Test(suite_report, startup_subtracted) {
  gb_srec_records *r = gbt_suite_synth(false);
  for (size_t i = 0; i < r->n_runs; i++) {
    gb_srec_row *row = &r->runs[i];
    row->status = GB_REC_STATUS_OK;
    row->wall_ns = (gb_rec_opt_u64){
        true, row->kind == GB_SREC_KIND_STARTUP ? 4000000 : 1000000 + 1000 * row->reps};
  }
  gb_suite_analysis *a = analyse(r);
  const gb_interval *t = &a->configs[0].boot.est[GB_EST_TIME_PER_SORT];
  cr_assert_float_eq(t->point, 1000.0, 1e-9);
  cr_assert_float_eq(t->lo, 1000.0, 1e-9);
  cr_assert_float_eq(t->hi, 1000.0, 1e-9);
  gb_suite_analysis_free(a);
  gbt_suite_free(r);
}

/* A row the suite does not name is refused, naming it. */
Test(suite_report, unknown_row_refused) {
  gb_srec_records *r = gbt_suite_synth(true);
  snprintf(r->runs[3].params, sizeof r->runs[3].params, "n=7;m=2");
  gb_analysis_opts o = GB_ANALYSIS_OPTS_DEFAULT;
  gb_suite_analysis *a = NULL;
  gb_err err;
  cr_assert(gb_suite_analysis_run(r, &o, &a, &err) == -EINVAL);
  cr_assert(strstr(err.msg, "runs.csv: row 4:") && strstr(err.msg, "n=7;m=2") &&
                strstr(err.msg, "not in suite synth"),
            "%s", err.msg);
  cr_assert_null(a);
  gbt_suite_free(r);
}

/* ---- gb_suite_report_write_records ------------------------------------------------ */

static gb_report_opts write_opts(const char *dir) {
  gb_report_opts o = gb_report_opts_default();
  o.dir = dir;
  o.warnings = NULL;
  return o;
}

static char *temp_dir(void) {
  static char dir[64];
  snprintf(dir, sizeof dir, "/tmp/gb-suite-report-XXXXXX");
  cr_assert_not_null(mkdtemp(dir));
  return dir;
}

/* Removes the folder temp_dir made, with what a test wrote into it. */
static void remove_dir(const char *dir) {
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  cr_assert_eq(system(cmd), 0);
}

/* Writes results.md, junit.xml and summary.json into DIR, the goldens'
 * bytes. */
Test(suite_report, writes_the_three_files) {
  gb_srec_records *r = gbt_suite_synth(true);
  char *dir = temp_dir();
  gbt_suite_write(r, dir);
  gb_report_opts o = write_opts(dir);
  gb_err err;
  cr_assert(gb_suite_report_write_records(r, &o, &err) == 0, "%s", err.msg);
  const char *files[] = {"results.md", "junit.xml", "summary.json"};
  for (size_t i = 0; i < 3; i++) {
    gbt_assert_golden_file("suite-energy", dir, files[i]);
  }
  char path[128];
  snprintf(path, sizeof path, "%s/chart.svg", dir);
  cr_assert(access(path, F_OK) != 0, "a suite report writes no chart");
  remove_dir(dir);
  gbt_suite_free(r);
}

static void refused(gb_srec_records *r, gb_report_opts *o, const char *want) {
  gb_err err;
  cr_assert(gb_suite_report_write_records(r, o, &err) == -EINVAL);
  cr_assert(strstr(err.msg, want), "%s", err.msg);
  cr_assert_null(strchr(err.msg, '\n'), "one line: %s", err.msg);
  char path[256];
  snprintf(path, sizeof path, "%s/results.md", o->dir);
  cr_assert(access(path, F_OK) != 0, "nothing written on a refusal");
}

Test(suite_report, refuses_an_unfinished_campaign) {
  gb_srec_records *r = gbt_suite_synth(true);
  r->meta.complete = false;
  gb_report_opts o = write_opts(temp_dir());
  refused(r, &o, "meta.json: the campaign did not complete; pass --allow-partial");
  o.allow_partial = true;
  gb_err err;
  cr_assert(gb_suite_report_write_records(r, &o, &err) == 0, "%s", err.msg);
  remove_dir(o.dir);
  gbt_suite_free(r);
}

Test(suite_report, refuses_all_zero_energy) {
  gb_srec_records *r = gbt_suite_synth(true);
  for (size_t i = 0; i < r->n_runs; i++) {
    r->runs[i].pkg_uj.value = 0;
    r->runs[i].dram_uj.value = 0;
  }
  gb_report_opts o = write_opts(temp_dir());
  refused(r, &o, "runs.csv: every energy reading is 0 uJ");
  remove_dir(o.dir);
  gbt_suite_free(r);
}

Test(suite_report, refuses_a_chart_and_the_suite_file_as_outputs) {
  gb_srec_records *r = gbt_suite_synth(true);
  char *dir = temp_dir();
  gbt_suite_write(r, dir);
  gb_report_opts o = write_opts(dir);
  o.chart_path = "chart.svg";
  refused(r, &o, "--chart: a suite campaign's report has no chart");
  o.chart_path = NULL;
  char suite[128];
  snprintf(suite, sizeof suite, "%s/suite.json", dir);
  o.summary_path = suite;
  refused(r, &o, "--summary");
  o.summary_path = NULL;
  char meta[128];
  snprintf(meta, sizeof meta, "%s/meta.json", dir);
  o.md_path = meta;
  refused(r, &o, "refusing to overwrite an input");
  remove_dir(dir);
  gbt_suite_free(r);
}

/* ---- Out of memory (alloc_fail.h) ----------------------------------------------- */

typedef struct {
  const gb_srec_records *r;
  char *want_md, *want_junit; /* from a complete call */
} oom_case;

/* The analysis, results.md and junit.xml with 200 resamples; a call that
 * completes must give the complete call's bytes (-EIO otherwise). */
static int analyse_and_write(void *arg, gb_err *err) {
  oom_case *k = arg;
  gb_analysis_opts o = GB_ANALYSIS_OPTS_DEFAULT;
  o.resamples = 200;
  gb_suite_analysis *a = NULL;
  char *md = NULL, *junit = NULL;
  size_t len = 0;
  gb_suite_md_opts mo = {0};
  int rc = gb_suite_analysis_run(k->r, &o, &a, err);
  if (rc == 0) {
    rc = gb_suite_report_md(a, &mo, &md, &len, err);
  }
  if (rc == 0) {
    rc = gb_suite_report_junit(a, &junit, &len, err);
  }
  if (rc == 0 && k->want_md &&
      (strcmp(md, k->want_md) != 0 || strcmp(junit, k->want_junit) != 0)) {
    rc = gb_err_set(err, EIO, "a call that coped with a failed allocation wrote other bytes");
  }
  if (rc == 0 && !k->want_md) {
    k->want_md = md;
    k->want_junit = junit;
    md = junit = NULL;
  }
  free(md);
  free(junit);
  gb_suite_analysis_free(a);
  return rc;
}

/* Every allocation of the analysis and the Markdown and JUnit writers, made
 * to fail in turn, gives -ENOMEM and one "out of memory" line, or (where the
 * bootstrap falls back, bootstrap.c) the same bytes; either way it releases
 * what it held (under ASan, nothing leaks). */
Test(suite_report, each_allocation_fails_cleanly) {
  gb_srec_records *r = gbt_suite_synth(true);
  oom_case k = {.r = r};
  gb_err err;
  cr_assert(analyse_and_write(&k, &err) == 0, "%s", err.msg);
  size_t n = gbt_each_allocation_fails_or_copes(analyse_and_write, &k, true);
  cr_assert(n > 40, "%zu allocations", n);
  free(k.want_md);
  free(k.want_junit);
  gbt_suite_free(r);
}

/* ---- The study's statistics, reused ------------------------------------------------ */

/* The study's fixture report-energy (C, Python, Node.js; quick on random
 * and sorted input; sizes 100 and 200) as a suite: a workload per order,
 * its parameter n the size. */
static const char study_suite[] =
    "{\"format\": \"greenbench-suite-1\", \"name\": \"study\", \"languages\": ["
    "{\"name\": \"c\", \"command\": [\"w\", \"{n}\", \"{reps}\"],"
    " \"startup\": [\"w\", \"{n}\", \"--startup-only\"], \"version\": [\"w\"]},"
    "{\"name\": \"python\", \"command\": [\"w\", \"{n}\", \"{reps}\"],"
    " \"startup\": [\"w\", \"{n}\", \"--startup-only\"], \"version\": [\"w\"]},"
    "{\"name\": \"node\", \"command\": [\"w\", \"{n}\", \"{reps}\"],"
    " \"startup\": [\"w\", \"{n}\", \"--startup-only\"], \"version\": [\"w\"]}],"
    " \"workloads\": ["
    "{\"name\": \"quick-random\", \"parameters\": [{\"name\": \"n\", \"values\": [100, 200]}]},"
    "{\"name\": \"quick-sorted\", \"parameters\": [{\"name\": \"n\", \"values\": [100, "
    "200]}]}]}";

static gb_srec_records *as_suite(const gb_records *study) {
  gb_srec_records *r = calloc(1, sizeof *r);
  cr_assert(r);
  gb_err err;
  cr_assert(gb_suite_parse(study_suite, strlen(study_suite), "study.json", &r->suite, &err) ==
                0,
            "%s", err.msg);
  r->meta.energy_status = study->meta.energy.status;
  r->meta.complete = true;
  r->runs = calloc(study->runs.n_rows, sizeof *r->runs);
  cr_assert(r->runs);
  for (size_t i = 0; i < study->runs.n_rows; i++) {
    const gb_run_row *s = &study->runs.rows[i];
    gb_srec_row *t = &r->runs[r->n_runs++];
    t->kind = s->kind == GB_REC_KIND_SORT ? GB_SREC_KIND_WORK : GB_SREC_KIND_STARTUP;
    snprintf(t->language, sizeof t->language, "%s", gb_language_name(s->language));
    snprintf(t->workload, sizeof t->workload, "quick-%s", gb_order_name(s->order));
    snprintf(t->params, sizeof t->params, "n=%" PRIu64, s->size);
    t->reps = s->sorts;
    t->launches = s->launches;
    t->status = s->status;
    t->energy = s->energy;
    t->wall_ns = s->wall_ns;
    t->user_ns = s->user_ns;
    t->sys_ns = s->sys_ns;
    t->pkg_uj = s->pkg_uj;
    t->dram_uj = s->dram_uj;
    t->idle_ns = s->idle_ns;
    t->idle_pkg_uj = s->idle_pkg_uj;
    t->idle_dram_uj = s->idle_dram_uj;
  }
  return r;
}

/* On the study's own records, the suite analysis gives the study's point
 * estimates and point ratios bit for bit (same startup subtraction, same
 * medians, same paired power); only the intervals' streams differ. */
Test(suite_report, the_study_records_give_the_study_points) {
  gbt_loaded study = gbt_load_analysed("report-energy");
  gb_srec_records *r = as_suite(study.r);
  gb_suite_analysis *a = analyse(r);
  size_t compared = 0;
  for (size_t i = 0; i < a->n_configs; i++) {
    const gb_sa_config *c = &a->configs[i];
    const gb_sa_case *k = &a->cases[c->case_index];
    gb_language l;
    gb_order o;
    cr_assert(gb_language_parse(r->suite.languages[c->language].name, &l) == 0);
    cr_assert(gb_order_parse(r->suite.workloads[c->workload].name + 6, &o) == 0);
    const gb_an_config *s = gb_analysis_find(study.a, l, GB_QUICK, o, k->values[0]);
    cr_assert(s && s->measured && c->measured);
    for (gb_estimate e = GB_EST_TIME_PER_SORT; e <= GB_EST_NET_POWER; e++) {
      if (e == GB_EST_TIME_PER_SORT || e == GB_EST_ENERGY_PER_SORT || e == GB_EST_NET_POWER) {
        cr_assert(c->boot.est[e].point == s->boot.est[e].point, "%zu/%d: %.17g vs %.17g", i, e,
                  c->boot.est[e].point, s->boot.est[e].point);
        compared++;
      }
    }
  }
  cr_assert_eq(compared, 36);
  gb_suite_analysis_free(a);
  gbt_suite_free(r);
  gbt_release(&study);
}

/* A partial campaign: Lua never ran on spin n=4000;m=2, and Python's startup
 * batches of mix n=500;m=1 all failed. Their rows say so, their ratios are
 * not measured, JUnit skips the one and fails the other. */
Test(suite_report, unmeasured_configurations) {
  gb_srec_records *r = gbt_suite_synth(true);
  size_t kept = 0;
  for (size_t i = 0; i < r->n_runs; i++) {
    gb_srec_row *row = &r->runs[i];
    bool lua_spin = strcmp(row->language, "lua") == 0 && strcmp(row->params, "n=4000;m=2") == 0;
    if (strcmp(row->language, "python") == 0 && strcmp(row->params, "n=500;m=1") == 0 &&
        row->kind == GB_SREC_KIND_STARTUP) {
      row->status = GB_REC_STATUS_CRASHED;
    }
    if (!lua_spin) {
      r->runs[kept++] = *row;
    }
  }
  r->n_runs = kept;
  r->meta.complete = false;
  gb_suite_analysis *a = analyse(r);
  size_t len = 0;
  char *md = markdown(a, &len);
  cr_assert(strstr(md, "> **Partial campaign.**"));
  cr_assert(strstr(md,
                   "| Lua | 0 of 0 | n/a | no ok run | no ok run | no ok run | not measured "
                   "| not measured | undefined |"),
            "%s", md);
  cr_assert(strstr(md, "| Python | 6 of 6 | 83 | no ok startup batch | no ok startup batch | "
                       "no ok startup batch | not measured | not measured | undefined |"),
            "%s", md);
  cr_assert(strstr(md, "over the 10 measured configurations"), "%s", md);
  free(md);
  gb_err err;
  char *junit = NULL;
  cr_assert(gb_suite_report_junit(a, &junit, &len, &err) == 0);
  cr_assert(strstr(junit, "tests=\"12\" failures=\"2\""), "%s", junit);
  cr_assert(strstr(junit, "<skipped message=\"no run recorded\"/>"));
  cr_assert(strstr(junit, "6 of 6 measured runs ok, no ok startup batch"));
  free(junit);
  gb_suite_analysis_free(a);
  gbt_suite_free(r);
}

/* The report's options reach the suite analysis as the study's: held
 * startup (ADR 0014) changes the intervals, never the points; the study's
 * power estimator is median energy over median time. */
Test(suite_report, startup_fixed_and_the_study_estimator) {
  gb_srec_records *r = gbt_suite_synth(true);
  gb_analysis_opts o = GB_ANALYSIS_OPTS_DEFAULT;
  gb_suite_analysis *a = analyse(r), *b = NULL, *c = NULL;
  gb_err err;
  o.startup_fixed = true;
  cr_assert(gb_suite_analysis_run(r, &o, &b, &err) == 0, "%s", err.msg);
  o.startup_fixed = false;
  o.power_estimator = GB_POWER_STUDY;
  cr_assert(gb_suite_analysis_run(r, &o, &c, &err) == 0, "%s", err.msg);
  bool some_differ = false;
  for (size_t i = 0; i < a->n_configs; i++) {
    const gb_interval *x = &a->configs[i].boot.est[GB_EST_TIME_PER_SORT];
    const gb_interval *y = &b->configs[i].boot.est[GB_EST_TIME_PER_SORT];
    cr_assert(x->point == y->point);
    some_differ = some_differ || x->lo != y->lo || x->hi != y->hi;
    const gb_boot *s = &c->configs[i].boot;
    double want =
        s->est[GB_EST_ENERGY_PER_SORT].point / s->est[GB_EST_TIME_PER_SORT].point * 1e3;
    cr_assert(fabs(s->est[GB_EST_NET_POWER].point - want) <= 1e-12 * want, "%zu", i);
  }
  cr_assert(some_differ, "holding the startup fixed changed no interval");
  gb_suite_analysis_free(a);
  gb_suite_analysis_free(b);
  gb_suite_analysis_free(c);
  gbt_suite_free(r);
}

/* Each configuration's stream is a hash of its own key: a suite without the
 * workload mix gives spin's configurations the very same intervals. */
Test(suite_report, streams_do_not_depend_on_the_rest_of_the_suite) {
  gb_srec_records *full = gbt_suite_synth(true), *part = gbt_suite_synth(true);
  char path[4096];
  snprintf(path, sizeof path, "%s/suite-synth/suite.json", GB_TEST_DATA_DIR);
  char *text = gbt_slurp_or_fail(path);
  char *cut = strstr(text, ",\n    {\"name\": \"mix\"");
  cr_assert(cut);
  strcpy(cut, "\n  ]\n}\n");
  gb_suite_free(&part->suite);
  gb_err err;
  cr_assert(gb_suite_parse(text, strlen(text), "spin.json", &part->suite, &err) == 0, "%s",
            err.msg);
  free(text);
  size_t kept = 0;
  for (size_t i = 0; i < part->n_runs; i++) {
    if (strcmp(part->runs[i].workload, "spin") == 0) {
      part->runs[kept++] = part->runs[i];
    }
  }
  part->n_runs = kept;
  gb_suite_analysis *a = analyse(full), *b = analyse(part);
  cr_assert_eq(b->n_configs, 6);
  for (size_t i = 0; i < b->n_configs; i++) {
    for (gb_estimate e = GB_EST_TIME_PER_SORT; e <= GB_EST_ENERGY_PER_SORT; e++) {
      const gb_interval *x = &a->configs[i].boot.est[e], *y = &b->configs[i].boot.est[e];
      cr_assert(x->lo == y->lo && x->hi == y->hi && x->point == y->point, "%zu", i);
    }
  }
  gb_suite_analysis_free(a);
  gb_suite_analysis_free(b);
  gbt_suite_free(full);
  gbt_suite_free(part);
}
