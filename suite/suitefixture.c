/* A suite file's CTest fixture and case tests (suitefixture.h): the
 * study's way (fixture.c) on the suite campaign, sharing its state file,
 * progress log and reading of ctest's selection (fixture_common.c). */
#include "suitefixture.h"
#include "fixture_common.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ctest_select.h"
#include "greenbench/files.h"
#include "greenbench/machine.h"
#include "greenbench/paths.h"
#include "greenbench/report.h"
#include "greenbench/suite_analysis.h"
#include "greenbench/suitecampaign.h"
#include "greenbench/suiteplan.h"
#include "greenbench/suiterecords.h"
#include "greenbench/text.h"
#include "greenbench/timefmt.h"

#define SKIPPED 77
#define NAME_MAX_LEN 512

/* The suite file: its bytes (suite.json is their copy) and the suite. */
typedef struct {
  char *text;
  size_t len;
  gb_suite s;
  size_t n;           /* configurations of the whole suite */
  gb_suite_config *c; /* each, in canonical order */
} loaded;

static void unload(loaded *l) {
  gb_suite_free(&l->s);
  free(l->text);
  free(l->c);
  *l = (loaded){0};
}

static int load(const char *path, loaded *l, gb_err *err) {
  gb_err e;
  *l = (loaded){0};
  if (!(l->text = malloc(GB_SUITE_FILE_MAX + 1)))
    return gb_err_set(err, ENOMEM, "out of memory");
  int rc = gb_read_small_file(path, l->text, GB_SUITE_FILE_MAX + 1, &l->len, &e);
  if (rc < 0)
    gb_err_set(err, -rc, "suite %s: %s", path, e.msg);
  else
    rc = gb_suite_parse(l->text, l->len, path, &l->s, err);
  gb_settings st = {.runs = 1};
  gb_suite_plan p;
  if (rc == 0 && (rc = gb_suite_plan_build(&l->s, &st, &p, err)) == 0) {
    l->c = p.configs; /* the plan's configurations, kept */
    l->n = p.nconfigs;
    p.configs = NULL;
    gb_suite_plan_free(&p);
  }
  if (rc < 0) {
    free(l->text);
    l->text = NULL;
  }
  return rc;
}

/* <profile>/<suite>/<language>/<workload>/<p>=<v>[,<p>=<v>...] */
static void case_name(const loaded *l, const char *profile, const gb_suite_config *c, char *buf,
                      size_t len) {
  const gb_suite_workload *w = &l->s.workloads[c->workload];
  size_t at = (size_t)snprintf(buf, len, "%s/%s/%s/%s/", profile, l->s.name,
                               l->s.languages[c->language].name, w->name);
  int rc = at < len ? gb_suite_params_join(w, c->values, ",", buf + at, len - at) : 0;
  (void)rc; /* cut short when buf is too small */
}

/* The width of the largest value of any numeric parameter named name (a
 * named parameter's values are not padded). */
static int width_of(const gb_suite *s, const char *name) {
  uint64_t largest = 0;
  for (size_t w = 0; w < s->n_workloads; w++)
    for (size_t p = 0; p < s->workloads[w].n_parameters; p++) {
      const gb_suite_parameter *q = &s->workloads[w].parameters[p];
      for (size_t v = 0; !q->named && !strcmp(q->name, name) && v < q->n_values; v++)
        largest = q->values[v] > largest ? q->values[v] : largest;
    }
  return snprintf(NULL, 0, "%" PRIu64, largest);
}

/* The label of parameter p's value v: a number zero-padded to the width of
 * the largest value of any parameter of its name (so that -L n=1000 cannot
 * select n=10000), a name as it is. */
static void value_label(const gb_suite *s, const gb_suite_parameter *p, uint64_t v) {
  char text[GB_SUITE_VALUE_TEXT_MAX];
  int n = gb_suite_value_text(p, v, text, sizeof text);
  int width = p->named ? 0 : width_of(s, p->name);
  printf(",%s=%.*s%s", p->name, n >= 0 && n < width ? width - n : 0, "0000000000000000",
         n >= 0 ? text : "?");
}

int gbi_suite_fixture_list_tests(const char *suite_path, const gb_settings *profile) {
  loaded l;
  gb_err err;
  if (load(suite_path, &l, &err) < 0) {
    gb_str_put_line(stderr, "greenbench-suite: error: ", err.msg);
    return 2;
  }
  const char *pn = gb_profile_name(profile->profile);
  for (size_t i = 0; i < l.n; i++) {
    const gb_suite_config *c = &l.c[i];
    const gb_suite_workload *w = &l.s.workloads[c->workload];
    char name[NAME_MAX_LEN];
    case_name(&l, pn, c, name, sizeof name);
    printf("%s %s,suite=%s,language=%s,workload=%s", name, pn, l.s.name,
           l.s.languages[c->language].name, w->name);
    for (size_t p = 0; p < w->n_parameters; p++)
      value_label(&l.s, &w->parameters[p], c->values[p]);
    putchar('\n');
  }
  unload(&l);
  return 0;
}

/* ---- The fixture ---------------------------------------------------------------- */

typedef struct {
  const loaded *l;
  const char *profile;
  bool *chosen;
  size_t n_chosen;
} choice;

static void choose_one(const char *name, void *arg) {
  choice *ch = arg;
  char want[NAME_MAX_LEN];
  for (size_t i = 0; i < ch->l->n; i++) {
    case_name(ch->l, ch->profile, &ch->l->c[i], want, sizeof want);
    if (!ch->chosen[i] && !strcmp(want, name)) {
      ch->chosen[i] = true;
      ch->n_chosen++;
    }
  }
}

/* ---- The project JUnit file ------------------------------------------------- */

/* The JUnit file of a campaign without a report (gb_suite_report_junit_unrun):
 * every chosen configuration failed with why. A warning when it cannot be
 * written: the state and ctest's output still say why. */
static void write_unrun_junit(const gbi_suite_fixture_opts *o, const loaded *l,
                              const bool *chosen, const char *why) {
  gb_suite_junit_case *cases = calloc(l->n ? l->n : 1, sizeof *cases);
  size_t n = 0;
  char *xml = NULL;
  size_t len = 0;
  gb_err err;
  int rc = cases ? 0 : gb_err_set(&err, ENOMEM, "out of memory");
  for (size_t i = 0; rc == 0 && i < l->n; i++)
    if (chosen[i]) {
      cases[n].language = l->c[i].language;
      cases[n].workload = l->c[i].workload;
      memcpy(cases[n++].values, l->c[i].values, sizeof l->c[i].values);
    }
  if (rc == 0)
    rc = gb_suite_report_junit_unrun(&l->s, o->machine_label,
                                     gb_profile_name(o->settings.profile), cases, n, why, &xml,
                                     &len, &err);
  if (rc == 0)
    rc = gb_report_write_file(o->junit, xml, len, &err);
  if (rc < 0)
    gb_str_put_line(stderr,
                    "greenbench-suite: error: the JUnit file was not written: ", err.msg);
  free(xml);
  free(cases);
}

/* A suite file that cannot be read has no cases to fail: the JUnit file of
 * an earlier run is removed instead, so that no stale result is left. */
static void remove_old_junit(const gbi_suite_fixture_opts *o) {
  if (unlink(o->junit) < 0 && errno != ENOENT)
    fprintf(stderr, "greenbench-suite: error: cannot remove the old JUnit file %s: %s\n",
            o->junit, strerror(errno));
}

/* The report of the records (results.md and summary.json in the folder,
 * the JUnit file at o->junit), as the study's fixture writes its own; on
 * failure the state says why and the JUnit file fails every case. */
static void report(const gbi_suite_fixture_opts *o, const loaded *l, const bool *chosen,
                   gbi_fstate *st) {
  gb_err err;
  if (strcmp(st->status, "failed") != 0) {
    gb_report_opts ro = gb_report_opts_default();
    ro.dir = st->records;
    ro.junit_path = o->junit;
    ro.allow_partial = strcmp(st->status, "interrupted") == 0;
    if (gb_suite_report_write(&ro, &err) < 0) {
      gb_str_copy(st->status, sizeof st->status, "failed");
      snprintf(st->reason, sizeof st->reason, "the report was not written: %s", err.msg);
    }
  }
  if (!strcmp(st->status, "failed"))
    write_unrun_junit(o, l, chosen, st->reason);
}

/* The fixture stops before measuring anything, and fails: its line on its
 * own output and ctest's, the reason in the state for every case and in the
 * JUnit file for every configuration of the suite (l NULL: the suite file
 * could not be read; its old JUnit file is removed). */
static int refuse(const gbi_suite_fixture_opts *o, const loaded *l, bool *chosen,
                  const char *fixture, gbi_fstate *st, const char *why) {
  char line[2400];
  gb_err err;
  gb_str_copy(st->status, sizeof st->status, "failed");
  gb_str_copy(st->reason, sizeof st->reason, why);
  snprintf(line, sizeof line, "greenbench-suite: error: %s: %s", fixture, why);
  puts(line);
  fflush(stdout);
  if (st->ctest_pid)
    gbi_ctest_tell((pid_t)st->ctest_pid, line);
  if (l && chosen) {
    for (size_t i = 0; i < l->n; i++)
      chosen[i] = true;
    write_unrun_junit(o, l, chosen, why);
  } else {
    remove_old_junit(o);
  }
  if (gbi_fstate_write(o->state, st, &err) < 0)
    gb_str_put_line(stderr, "greenbench-suite: error: ", err.msg);
  return 1;
}

/* Which configurations this ctest run selected, into ch and the line how;
 * -1 with the reason and the way out in how. */
static int choose(const gbi_suite_fixture_opts *o, const char *fixture, choice *ch,
                  gbi_fstate *st, char *how, size_t len) {
  char why[1024] = "";
  char *json = NULL;
  pid_t pid = 0;
  long listed = -1;
  if (gbi_fixture_ctest_listing(fixture, &pid, &json, how, len, why, sizeof why) == 0 &&
      (listed = gbi_fixture_listed(json, choose_one, ch)) < 0)
    snprintf(why, sizeof why, "ctest --show-only=json-v1 gave no test list");
  st->ctest_pid = pid;
  free(json);
  if (listed >= 0)
    return 0;
  if (o->select) { /* "all": checked by the caller */
    for (size_t i = 0; i < ch->l->n; i++)
      ch->chosen[i] = true;
    ch->n_chosen = ch->l->n;
    snprintf(how, len,
             "the selection of the ctest run could not be read (%s): measuring "
             "GREENBENCH_SELECT=all, the whole suite %s",
             why, ch->l->s.name);
    return 0;
  }
  snprintf(how, len,
           "the selection of the ctest run cannot be read (%s), and nothing is measured that "
           "was not selected: set GREENBENCH_SELECT=all to measure the whole suite",
           why);
  return -1;
}

/* The configurations chosen, as labels, into buf ("..." when cut). */
static void chosen_text(const choice *ch, char *buf, size_t len) {
  size_t at = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < ch->l->n; i++) {
    if (!ch->chosen[i])
      continue;
    char label[NAME_MAX_LEN];
    gb_suite_config_label(&ch->l->s, &ch->l->c[i], label, sizeof label);
    if (at + strlen(label) + 5 >= len) {
      snprintf(buf + at, len - at, "%s...", at ? " " : "");
      return;
    }
    at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? " " : "", label);
  }
}

/* The campaign on the chosen configurations into st->records; the state's
 * status and reason say how it went. */
static void measure(const gbi_suite_fixture_opts *o, const loaded *l, const bool *chosen,
                    gbi_fstate *st) {
  FILE *log = gbi_fixture_open_tee(o->progress_log);
  if (!log)
    fprintf(stderr, "greenbench-suite: warning: cannot write the progress log %s: %s\n",
            o->progress_log, strerror(errno));
  gb_suite_campaign_opts co = {.base = {.settings = o->settings,
                                        .out_dir = st->records,
                                        .machine_label = o->machine_label,
                                        .argc = o->argc,
                                        .argv = o->argv,
                                        .stop = o->stop,
                                        .progress = GB_PROGRESS_LINES,
                                        .log = log ? log : stdout},
                               .suite = &l->s,
                               .suite_text = l->text,
                               .suite_len = l->len,
                               .selected = chosen};
  gb_campaign_result res = {0};
  gb_err err;
  int rc = gb_suite_campaign_run(&co, &res, &err);
  if (log)
    fclose(log);
  if (rc < 0) {
    gb_str_copy(st->status, sizeof st->status, "failed");
    snprintf(st->reason, sizeof st->reason, "the campaign stopped: %s", err.msg);
  } else {
    gb_str_copy(st->status, sizeof st->status, res.completed ? "finished" : "interrupted");
    snprintf(st->reason, sizeof st->reason, "%zu of %zu runs", res.runs_done, res.runs_total);
  }
}

/* The campaign with the machine label made once (the given one, or the
 * host name and CPU model), as the study's fixture: its records and every
 * JUnit file it writes carry the same. */
static int campaign(const gbi_suite_fixture_opts *o);

int gbi_suite_fixture_campaign(const gbi_suite_fixture_opts *o) {
  char label[GB_META_NAME_MAX];
  gb_err err;
  if (gb_machine_label(o->machine_label, label, sizeof label, &err) < 0) {
    gb_str_put_line(stderr, "greenbench-suite: error: ", err.msg);
    return 1;
  }
  gbi_suite_fixture_opts labelled = *o;
  labelled.machine_label = label;
  return campaign(&labelled);
}

static int campaign(const gbi_suite_fixture_opts *o) {
  gbi_fstate st = {0};
  const char *profile = gb_profile_name(o->settings.profile);
  gb_str_copy(st.profile, sizeof st.profile, profile);
  loaded l;
  gb_err err;
  if (load(o->suite_path, &l, &err) < 0)
    return refuse(o, NULL, NULL, o->suite_path, &st, err.msg);
  char fixture[GB_SUITE_NAME_MAX + 32], how[2048];
  snprintf(fixture, sizeof fixture, "%s/%s/campaign", profile, l.s.name);
  choice ch = {&l, profile, calloc(l.n, sizeof(bool)), 0};
  int rc = 0;
  if (!ch.chosen) {
    rc = refuse(o, NULL, NULL, fixture, &st, "out of memory");
  } else if (o->select && strcmp(o->select, "all") != 0) {
    gb_excerpt_buf shown = {{0}};
    snprintf(how, sizeof how,
             "GREENBENCH_SELECT='%s' is a selection of the built-in study; a suite's fixture "
             "takes only GREENBENCH_SELECT=all (select its cases with ctest's -L, -R, -E)",
             gb_excerpt(&shown, o->select));
    rc = refuse(o, &l, ch.chosen, fixture, &st, how);
  } else if (choose(o, fixture, &ch, &st, how, sizeof how) < 0) {
    rc = refuse(o, &l, ch.chosen, fixture, &st, how);
  }
  if (rc != 0 || !ch.chosen) {
    free(ch.chosen);
    unload(&l);
    return rc;
  }
  printf("greenbench-suite: %s\n", how);
  chosen_text(&ch, st.selection, sizeof st.selection);
  if (ch.n_chosen == 0) {
    gb_str_copy(st.status, sizeof st.status, "empty");
    snprintf(st.reason, sizeof st.reason, "no case of suite %s is selected", l.s.name);
    printf("greenbench-suite: %s: nothing to measure\n", st.reason);
  } else {
    char stamp[GB_UTC_STAMP_SIZE];
    gb_utc_stamp_or_empty((int64_t)time(NULL), stamp);
    snprintf(st.records, sizeof st.records, "%s/%s-%s-%s-%d", o->results, profile, l.s.name,
             stamp, (int)getpid());
    gb_str_copy(st.status, sizeof st.status, "running");
    snprintf(st.reason, sizeof st.reason,
             "the campaign started at %s and has not finished: it is still running, or it was "
             "stopped before it finished",
             stamp);
    if (gbi_fstate_write(o->state, &st, &err) < 0) {
      gb_str_put_line(stderr, "greenbench-suite: error: ", err.msg);
      free(ch.chosen);
      unload(&l);
      return 1;
    }
    write_unrun_junit(o, &l, ch.chosen, st.reason);
    printf("greenbench-suite: measuring %zu configurations of suite %s: %s; progress in %s\n",
           ch.n_chosen, l.s.name, st.selection, o->progress_log);
    fflush(stdout);
    uint64_t t0 = (uint64_t)time(NULL);
    measure(o, &l, ch.chosen, &st);
    uint64_t took = (uint64_t)time(NULL) - t0;
    gbi_fixture_note_selection(st.records, how, st.selection);
    report(o, &l, ch.chosen, &st);
    char line[2400];
    if (!strcmp(st.status, "failed")) {
      snprintf(line, sizeof line, "greenbench-suite: error: %s: %s", fixture, st.reason);
      puts(line);
      if (st.ctest_pid)
        gbi_ctest_tell((pid_t)st.ctest_pid, line);
    } else {
      printf("greenbench-suite: %s %s: %zu configurations, %s in %" PRIu64 "m%02" PRIu64
             "s; records and report in %s; JUnit in %s\n",
             fixture, st.status, ch.n_chosen, st.reason, took / 60, took % 60, st.records,
             o->junit);
    }
  }
  free(ch.chosen);
  unload(&l);
  if (gbi_fstate_write(o->state, &st, &err) < 0) {
    gb_str_put_line(stderr, "greenbench-suite: error: ", err.msg);
    return 1;
  }
  return 0;
}

/* ---- A case test ------------------------------------------------------------------ */

/* The verdict on configuration c from its rows in r: 0, 1 (why), SKIPPED. */
static int verdict(const loaded *l, const gb_suite_config *c, const gb_srec_records *r,
                   bool interrupted, char *why, size_t len) {
  const char *lang = l->s.languages[c->language].name, *wl = l->s.workloads[c->workload].name;
  char params[GB_SREC_PARAMS_MAX];
  if (gb_srec_params_text(&l->s.workloads[c->workload], c->values, params, sizeof params) < 0) {
    snprintf(why, len, "its parameters do not fit a record");
    return 1;
  }
  size_t n[GB_SREC_KIND_COUNT] = {0};
  for (size_t i = 0; i < r->n_runs; i++) {
    const gb_srec_row *row = &r->runs[i];
    if (strcmp(row->language, lang) || strcmp(row->workload, wl) || strcmp(row->params, params))
      continue;
    n[row->kind]++;
    if (row->status != GB_REC_STATUS_OK) {
      snprintf(why, len, "run %" PRIu64 " (%s) is %s: %s", row->run,
               gb_srec_kind_name(row->kind), gb_rec_status_name(row->status), row->message);
      return 1;
    }
  }
  if (n[GB_SREC_KIND_WORK] == 0 && n[GB_SREC_KIND_STARTUP] == 0 && interrupted) {
    snprintf(why, len, "skipped: the campaign was interrupted before it measured this case");
    return SKIPPED;
  }
  for (gb_srec_kind k = 0; k < GB_SREC_KIND_COUNT; k++)
    if (n[k] != r->meta.settings.runs && !interrupted) {
      snprintf(why, len, "%zu %s runs recorded, %" PRIu64 " planned", n[k],
               gb_srec_kind_name(k), r->meta.settings.runs);
      return 1;
    }
  return 0;
}

int gbi_suite_fixture_check_case(const char *suite_path, const char *name, const char *state) {
  loaded l;
  gb_err err;
  if (load(suite_path, &l, &err) < 0) {
    fprintf(stderr, "%s: %s\n", name, err.msg);
    return 1;
  }
  const gb_suite_config *c = NULL;
  char profile[16] = "";
  for (size_t i = 0; i < l.n && !c; i++)
    for (gb_profile p = GB_PROFILE_SMOKE; p < GB_PROFILE_CUSTOM && !c; p++) {
      char want[NAME_MAX_LEN];
      case_name(&l, gb_profile_name(p), &l.c[i], want, sizeof want);
      if (!strcmp(want, name)) {
        c = &l.c[i];
        gb_str_copy(profile, sizeof profile, gb_profile_name(p));
      }
    }
  if (!c) {
    gb_excerpt_buf shown = {{0}};
    fprintf(stderr,
            "greenbench-suite: error: '%s' is not a case of suite %s "
            "(<profile>/%s/<language>/<workload>/<parameters>)\n",
            gb_excerpt(&shown, name), l.s.name, l.s.name);
    unload(&l);
    return 2;
  }
  char fixture[GB_SUITE_NAME_MAX + 32], why[1200];
  snprintf(fixture, sizeof fixture, "%s/%s/campaign", profile, l.s.name);
  gbi_fstate st;
  int rc = gbi_fstate_for_case(name, state, profile, fixture, &st);
  gb_srec_records *r = NULL;
  if (rc == 0 && gb_srec_read(st.records, &r, &err) < 0) {
    fprintf(stderr, "%s: %s\n", name, err.msg);
    rc = 1;
  }
  if (rc == 0) {
    rc = verdict(&l, c, r, !strcmp(st.status, "interrupted"), why, sizeof why);
    if (rc == SKIPPED)
      printf("%s: %s\n", name, why);
    else if (rc)
      fprintf(stderr, "%s: %s (records in %s)\n", name, why, st.records);
    else
      printf("%s: valid: its runs ok, parity held (records in %s)\n", name, st.records);
  }
  gb_srec_free(r);
  unload(&l);
  return rc;
}
