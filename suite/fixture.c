/* The campaign fixture and the case tests of the CTest suite (ADR 0009;
 * fixture.h). The fixture learns what CTest selected by asking the ctest
 * process that started it: it reads that process's command line from
 * /proc, keeps the options that select tests, and runs
 * `ctest --show-only=json-v1` with them in that process's folder. */
#include "fixture.h"
#include "ctest_select.h"
#include "fixture_common.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "greenbench/campaign.h"
#include "greenbench/entry.h"
#include "greenbench/files.h"
#include "greenbench/machine.h"
#include "greenbench/numparse.h"
#include "greenbench/paths.h"
#include "greenbench/privilege.h"
#include "greenbench/records_read.h"
#include "greenbench/report.h"
#include "greenbench/report_junit.h"
#include "greenbench/select.h"
#include "greenbench/text.h"
#include "greenbench/timefmt.h"
#include "greenbench/validate.h"

#define MAX_CASES (GB_LANGUAGE_COUNT * GB_ALGORITHM_COUNT * GB_ORDER_COUNT * GB_MAX_SIZES)

/* ---- Cases ---------------------------------------------------------------------- */

typedef struct {
  gb_config configs[MAX_CASES];
  bool chosen[MAX_CASES];
  size_t n, n_chosen;
} case_set;

static void test_name(const char *profile, const gb_config *c, char *buf, size_t len) {
  char label[64];
  gb_config_label(c, label, sizeof label);
  snprintf(buf, len, "%s/%s", profile, label);
}

/* Every case of the profile (s narrowed by nothing), none chosen. */
static int all_cases(const gb_settings *s, case_set *out, gb_err *err) {
  gb_plan p;
  if (gb_plan_build(s, &p, err) < 0)
    return -1;
  out->n = out->n_chosen = 0;
  for (size_t i = 0; i < p.nconfigs && i < MAX_CASES; i++) {
    out->configs[out->n] = p.configs[i];
    out->chosen[out->n++] = false;
  }
  gb_plan_free(&p);
  return 0;
}

/* Marks the case named name, if it is one of the set's. */
typedef struct {
  case_set *set;
  const char *profile;
} choose_arg;

static void choose_one(const char *name, void *arg) {
  choose_arg *a = arg;
  for (size_t i = 0; i < a->set->n; i++) {
    char want[96];
    test_name(a->profile, &a->set->configs[i], want, sizeof want);
    if (!a->set->chosen[i] && !strcmp(want, name)) {
      a->set->chosen[i] = true;
      a->set->n_chosen++;
    }
  }
}

/* Marks the cases whose test is in the JSON of --show-only. Returns the
 * number of tests listed, or -1 when the JSON has no test list. */
static long choose_listed(case_set *set, const char *profile, const char *json) {
  choose_arg a = {set, profile};
  return gbi_fixture_listed(json, choose_one, &a);
}

/* One product of a selection: bitmasks of languages, algorithms, orders
 * and size indexes. */
typedef struct {
  unsigned mask[4];
} product;

/* Merges products that differ in dimension d alone (their union is then a
 * product); true when any merged. */
static bool merge_along(product *p, size_t *n, int d) {
  bool merged = false;
  for (size_t i = 0; i < *n; i++)
    for (size_t j = i + 1; j < *n; j++) {
      bool same = true;
      for (int k = 0; k < 4; k++)
        same = same && (k == d || p[i].mask[k] == p[j].mask[k]);
      if (!same)
        continue;
      p[i].mask[d] |= p[j].mask[d];
      p[j--] = p[--*n];
      merged = true;
    }
  return merged;
}

/* " key=a,b" for the items of mask, named by names[bit]. */
static void put_mask(char *buf, size_t len, size_t *at, const char *key, unsigned mask,
                     const char *const *names) {
  *at += (size_t)snprintf(buf + *at, len - *at, "%s%s=", *at ? " " : "", key);
  const char *sep = "";
  for (unsigned i = 0; i < 32 && *at < len; i++)
    if (mask >> i & 1) {
      *at += (size_t)snprintf(buf + *at, len - *at, "%s%s", sep, names[i]);
      sep = ",";
    }
}

/* A selection expression (select.h) that selects exactly the chosen
 * cases: products joined by " | ", few because products that differ in one
 * dimension are merged. Returns -1 when it does not fit in len. */
static int expression_of(const case_set *set, const gb_settings *s, char *buf, size_t len) {
  product p[GB_LANGUAGE_COUNT * GB_ALGORITHM_COUNT * GB_ORDER_COUNT];
  size_t n = 0;
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++)
    for (gb_algorithm a = 0; a < GB_ALGORITHM_COUNT; a++)
      for (gb_order o = 0; o < GB_ORDER_COUNT; o++) {
        unsigned sizes = 0;
        for (size_t i = 0; i < set->n; i++) {
          const gb_config *c = &set->configs[i];
          for (size_t z = 0; set->chosen[i] && c->language == l && c->algorithm == a &&
                             c->order == o && z < s->nsizes;
               z++)
            sizes |= (unsigned)(s->sizes[z] == c->size) << z;
        }
        if (sizes)
          p[n++] = (product){{1u << l, 1u << a, 1u << o, sizes}};
      }
  while (merge_along(p, &n, 2) || merge_along(p, &n, 1) || merge_along(p, &n, 0) ||
         merge_along(p, &n, 3)) {
  }
  const char *names[4][GB_MAX_SIZES] = {{NULL}};
  char digits[GB_MAX_SIZES][12];
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++)
    names[0][l] = gb_language_name(l);
  for (gb_algorithm a = 0; a < GB_ALGORITHM_COUNT; a++)
    names[1][a] = gb_algorithm_name(a);
  for (gb_order o = 0; o < GB_ORDER_COUNT; o++)
    names[2][o] = gb_order_name(o);
  for (size_t z = 0; z < s->nsizes; z++) {
    snprintf(digits[z], sizeof digits[z], "%" PRIu64, s->sizes[z]);
    names[3][z] = digits[z];
  }
  static const char *const keys[4] = {"language", "algorithm", "order", "size"};
  size_t at = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < n && at < len; i++) {
    if (i)
      at += (size_t)snprintf(buf + at, len - at, " |");
    for (int k = 0; k < 4 && at < len; k++)
      put_mask(buf, len, &at, keys[k], p[i].mask[k], names[k]);
  }
  return at < len ? 0 : -1;
}

/* ---- Files ------------------------------------------------------------------------ */

/* The JUnit file of a campaign without a report: every chosen case failed
 * with why. */
static int write_unrun_junit(const gbi_fixture_opts *o, const char *label, const case_set *set,
                             const char *why, gb_err *err) {
  gb_junit_case cases[MAX_CASES];
  size_t n = 0;
  for (size_t i = 0; i < set->n; i++)
    if (set->chosen[i])
      cases[n++] = (gb_junit_case){set->configs[i].language, set->configs[i].algorithm,
                                   set->configs[i].order, set->configs[i].size};
  char *xml = NULL;
  size_t len = 0;
  int rc = gb_report_junit_unrun(label, gb_profile_name(o->settings.profile), cases, n, why,
                                 &xml, &len, err);
  if (rc == 0)
    rc = gb_report_write_file(o->junit, xml, len, err);
  free(xml);
  return rc;
}

/* ---- The fixture ---------------------------------------------------------------- */

/* Which cases this ctest run selected, into set and the line `how`. -1
 * when the selection cannot be read and no GREENBENCH_SELECT says what to
 * measure instead: how then holds the reason and the way out. */
static int choose_cases(const gbi_fixture_opts *o, case_set *set, gbi_fstate *st, char *how,
                        size_t len) {
  char why[1024] = "", fixture[32];
  char *json = NULL;
  snprintf(fixture, sizeof fixture, "%s/campaign", gb_profile_name(o->settings.profile));
  pid_t pid = 0;
  long listed = -1;
  if (gbi_fixture_ctest_listing(fixture, &pid, &json, how, len, why, sizeof why) == 0 &&
      (listed = choose_listed(set, gb_profile_name(o->settings.profile), json)) < 0)
    snprintf(why, sizeof why, "ctest --show-only=json-v1 gave no test list");
  st->ctest_pid = pid;
  free(json);
  int rc = 0;
  if (listed >= 0) {
  } else if (o->select) {
    for (size_t i = 0; i < set->n; i++)
      set->chosen[i] = true;
    set->n_chosen = set->n;
    snprintf(how, len,
             "the selection of the ctest run could not be read (%s): measuring "
             "GREENBENCH_SELECT=%s of the %s profile",
             why, o->select, gb_profile_name(o->settings.profile));
  } else {
    snprintf(how, len,
             "the selection of the ctest run cannot be read (%s), and nothing is measured "
             "that was not selected: %s",
             why, GB_CTEST_WAY_OUT);
    rc = -1;
  }
  return rc;
}

/* The fixture stops before measuring anything, and fails: every case of
 * the profile fails with why, in the state, the JUnit file, this test's
 * output and ctest's own. */
static int refuse(const gbi_fixture_opts *o, const char *label, case_set *set, gbi_fstate *st,
                  const char *why) {
  char line[2200];
  gb_err err;
  for (size_t i = 0; i < set->n; i++)
    set->chosen[i] = true;
  set->n_chosen = set->n;
  gb_str_copy(st->status, sizeof st->status, "failed");
  gb_str_copy(st->reason, sizeof st->reason, why);
  snprintf(line, sizeof line, "greenbench-suite: error: %s/campaign: %s",
           gb_profile_name(o->settings.profile), why);
  puts(line);
  fflush(stdout);
  if (st->ctest_pid)
    gbi_ctest_tell((pid_t)st->ctest_pid, line);
  if (write_unrun_junit(o, label, set, why, &err) < 0)
    gb_str_put_line(stderr,
                    "greenbench-suite: error: the JUnit file was not written: ", err.msg);
  if (gbi_fstate_write(o->state, st, &err) < 0)
    gb_str_put_line(stderr, "greenbench-suite: error: ", err.msg);
  return 1;
}

int gbi_fixture_campaign(const gbi_fixture_opts *o) {
  static case_set set;
  gbi_fstate st = {0};
  gb_err err;
  gb_str_copy(st.profile, sizeof st.profile, gb_profile_name(o->settings.profile));
  char label[GB_META_LABEL_MAX + 1];
  if (gb_machine_label(o->machine_label, label, sizeof label, &err) < 0 ||
      all_cases(&o->settings, &set, &err) < 0) {
    gb_str_put_line(stderr, "greenbench-suite: error: ", err.msg);
    return 1;
  }
  char how[2048];
  if (choose_cases(o, &set, &st, how, sizeof how) < 0)
    return refuse(o, label, &set, &st, how);
  printf("greenbench-suite: %s\n", how);
  if (set.n_chosen == 0) {
    gb_str_copy(st.status, sizeof st.status, "empty");
    snprintf(st.reason, sizeof st.reason, "no case of the %s profile is selected",
             gb_profile_name(o->settings.profile));
    printf("greenbench-suite: %s: nothing to measure\n", st.reason);
    if (gbi_fstate_write(o->state, &st, &err) < 0) {
      gb_str_put_line(stderr, "greenbench-suite: error: ", err.msg);
      return 1;
    }
    return 0;
  }
  if (expression_of(&set, &o->settings, st.selection, sizeof st.selection) < 0) {
    gb_str_put_line(stderr, "greenbench-suite: error: ",
                    "the selection does not fit in its expression buffer");
    return 1;
  }
  gb_settings s = o->settings;
  if (gb_settings_select(&s, st.selection, &err) < 0) {
    gb_str_put_line(stderr, "greenbench-suite: error: ", err.msg);
    return 1;
  }
  /* A fresh records folder for each invocation, named by time and pid. */
  char stamp[GB_UTC_STAMP_SIZE];
  gb_utc_stamp_or_empty((int64_t)time(NULL), stamp);
  snprintf(st.records, sizeof st.records, "%s/%s-%s-%d", o->results, gb_profile_name(s.profile),
           stamp, (int)getpid());
  gb_str_copy(st.status, sizeof st.status, "running");
  snprintf(st.reason, sizeof st.reason,
           "the campaign started at %s and has not finished: it is still running, or it was "
           "stopped before it wrote its report",
           stamp);
  if (gbi_fstate_write(o->state, &st, &err) < 0) {
    gb_str_put_line(stderr, "greenbench-suite: error: ", err.msg);
    return 1;
  }
  if (write_unrun_junit(o, label, &set, st.reason, &err) < 0)
    gb_str_put_line(stderr,
                    "greenbench-suite: error: the JUnit file was not written: ", err.msg);
  FILE *log = gbi_fixture_open_tee(o->progress_log);
  if (!log)
    fprintf(stderr, "greenbench-suite: warning: cannot write the progress log %s: %s\n",
            o->progress_log, strerror(errno));
  printf("greenbench-suite: measuring %s; progress in %s\n", st.selection, o->progress_log);
  fflush(stdout);
  const char *argv[] = {"greenbench-suite", "--profile", gb_profile_name(s.profile), "--select",
                        st.selection};
  static gb_entry_workers found; /* relative to this executable */
  int rc = gb_entry_find_workers(&found);
  if (rc < 0)
    (void)gb_err_set(&err, -rc, "%s", found.missing);
  gb_campaign_opts co = gb_entry_campaign_opts(&s, st.records, &found.workers, found.source_dir,
                                               5, argv, o->stop);
  co.machine_label = label;
  co.progress = GB_PROGRESS_LINES;
  co.log = log ? log : stdout;
  gb_campaign_result res = {0};
  uint64_t t0 = (uint64_t)time(NULL);
  if (rc == 0)
    rc = gb_campaign_run(&co, &res, &err);
  if (log)
    fclose(log);
  uint64_t took = (uint64_t)time(NULL) - t0;
  if (rc == 0)
    gbi_fixture_note_selection(st.records, how, st.selection);
  if (rc < 0) {
    gb_str_copy(st.status, sizeof st.status, "failed");
    snprintf(st.reason, sizeof st.reason, "the campaign did not run: %s", err.msg);
  } else {
    gb_report_opts ro = gb_report_opts_default();
    ro.dir = st.records;
    ro.junit_path = o->junit;
    ro.allow_partial = !res.completed;
    if (gb_report_write(&ro, &err) < 0) {
      gb_str_copy(st.status, sizeof st.status, "failed");
      snprintf(st.reason, sizeof st.reason, "the report was not written: %s", err.msg);
    } else {
      gb_str_copy(st.status, sizeof st.status, res.completed ? "finished" : "interrupted");
      snprintf(st.reason, sizeof st.reason, "%zu of %zu runs", res.runs_done, res.runs_total);
    }
  }
  if (!strcmp(st.status, "failed")) {
    char line[2200];
    snprintf(line, sizeof line, "greenbench-suite: error: %s/campaign: %s",
             gb_profile_name(s.profile), st.reason);
    puts(line);
    if (st.ctest_pid)
      gbi_ctest_tell((pid_t)st.ctest_pid, line);
    gb_err jerr;
    if (write_unrun_junit(o, label, &set, st.reason, &jerr) < 0)
      gb_str_put_line(stderr,
                      "greenbench-suite: error: the JUnit file was not written: ", jerr.msg);
  } else {
    printf("greenbench-suite: %s campaign %s: %zu cases, %zu of %zu runs in %" PRIu64
           "m%02" PRIu64 "s; records and report in %s; JUnit in %s\n",
           gb_profile_name(s.profile), st.status, set.n_chosen, res.runs_done, res.runs_total,
           took / 60, took % 60, st.records, o->junit);
  }
  if (gbi_fstate_write(o->state, &st, &err) < 0) {
    gb_str_put_line(stderr, "greenbench-suite: error: ", err.msg);
    return 1;
  }
  return 0;
}

/* ---- A case test ------------------------------------------------------------------ */

static int parse_name(const char *name, char *profile, size_t plen, gb_config *c) {
  char copy[128], *save = NULL;
  uint64_t size;
  if (!gb_str_copy(copy, sizeof copy, name))
    return -1;
  char *p = strtok_r(copy, "/", &save), *l = strtok_r(NULL, "/", &save),
       *a = strtok_r(NULL, "/", &save), *o = strtok_r(NULL, "/", &save),
       *z = strtok_r(NULL, "/", &save), *extra = strtok_r(NULL, "/", &save);
  if (!z || extra || gb_language_parse(l, &c->language) < 0 ||
      gb_algorithm_parse(a, &c->algorithm) < 0 || gb_order_parse(o, &c->order) < 0 ||
      gb_parse_u64(z, 1, UINT32_MAX, &size) < 0)
    return -1;
  c->size = (uint32_t)size;
  gb_str_copy(profile, plen, p);
  return 0;
}

/* The rows of c in runs.csv, 0 when it has none; and whether meta.json's
 * settings plan c at all. */
static size_t rows_of(const gb_records *r, const gb_config *c) {
  const gb_rec_group *g =
      gb_rec_table_find_sort(&r->runs, c->language, c->algorithm, c->order, c->size);
  return g ? g->n_rows : 0;
}

static bool planned(const gb_meta *m, const gb_config *c) {
  return gb_meta_plans(m, c->language, c->algorithm, c->order, c->size);
}

int gbi_fixture_check_case(const char *name, const char *state_path) {
  gb_excerpt_buf shown = {{0}};
  char profile[16], why[1200];
  gb_config c;
  if (parse_name(name, profile, sizeof profile, &c) < 0) {
    fprintf(stderr,
            "greenbench-suite: error: '%s' is not a case name "
            "(<profile>/<language>/<algorithm>/<order>/<size>)\n",
            gb_excerpt(&shown, name));
    return 2;
  }
  char fixture[32];
  snprintf(fixture, sizeof fixture, "%s/campaign", profile);
  gbi_fstate st;
  if (gbi_fstate_for_case(name, state_path, profile, fixture, &st) != 0)
    return 1;
  gb_records *r;
  gb_err err;
  if (gb_records_read(st.records, &r, &err) < 0) {
    fprintf(stderr, "%s: %s\n", name, err.msg);
    return 1;
  }
  int rc = 0;
  if (!strcmp(st.status, "interrupted") && planned(&r->meta, &c) && rows_of(r, &c) == 0) {
    printf("%s: skipped: the campaign was interrupted before it measured this case\n", name);
    rc = GB_SUITE_SKIPPED;
  } else if (gb_validate_case(r, c.language, c.algorithm, c.order, c.size,
                              r->meta.settings.energy == GB_ENERGY_ON, why, sizeof why) != 0) {
    fprintf(stderr, "%s: %s (records in %s)\n", name, why, st.records);
    rc = 1;
  } else {
    printf("%s: valid (records in %s)\n", name, st.records);
  }
  gb_records_free(r);
  return rc;
}

/* ---- The test list ---------------------------------------------------------------- */

void gbi_fixture_list_tests(const gb_settings *profile) {
  static const char *const profiles[] = {"smoke", "study"};
  uint32_t largest = 0;
  for (size_t p = 0; p < sizeof profiles / sizeof profiles[0]; p++) {
    gb_settings s;
    if (gb_settings_profile(profiles[p], &s, NULL) < 0)
      continue;
    for (size_t z = 0; z < s.nsizes; z++)
      largest = s.sizes[z] > largest ? s.sizes[z] : largest;
  }
  int width = snprintf(NULL, 0, "%" PRIu32, largest);
  static case_set set;
  gb_err err;
  if (all_cases(profile, &set, &err) < 0)
    return;
  for (size_t i = 0; i < set.n; i++) {
    const gb_config *c = &set.configs[i];
    char name[96];
    test_name(gb_profile_name(profile->profile), c, name, sizeof name);
    printf("%s %s,language=%s,algorithm=%s,order=%s,size=%0*" PRIu32 "\n", name,
           gb_profile_name(profile->profile), gb_language_name(c->language),
           gb_algorithm_name(c->algorithm), gb_order_name(c->order), width, c->size);
  }
}
