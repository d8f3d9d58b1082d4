/* A suite campaign's records folder read whole (gb_srec_read): a good
 * folder built with the writer, then one change to one of its files per
 * refusal, with the exact one-line message; and gb_srec_is_suite_folder. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "greenbench/suiterecords.h"

static const char suite_text[] =
    "{\"format\":\"greenbench-suite-1\",\"name\":\"demo\",\n"
    "\"languages\":[\n"
    "{\"name\":\"c\",\"command\":[\"./w\",\"{workload}\",\"{n}\",\"{k}\",\"{reps}\"],\n"
    " \"startup\":[\"./w\",\"{workload}\",\"{n}\",\"{k}\",\"--startup-only\"],\n"
    " \"version\":[\"cc\",\"--version\"]},\n"
    "{\"name\":\"python\",\"command\":[\"python3\",\"w.py\",\"{workload}\",\"{n}\",\"{k}\",\"{"
    "reps}\"],\n"
    " \"startup\":[\"python3\",\"w.py\",\"{workload}\",\"{n}\",\"{k}\",\"--startup-only\"],\n"
    " \"version\":[\"python3\",\"--version\"]}],\n"
    "\"workloads\":[\n"
    "{\"name\":\"nbody\",\"parameters\":[{\"name\":\"n\",\"values\":[1000,20000]},"
    "{\"name\":\"k\",\"values\":[1]}]},\n"
    "{\"name\":\"spectral-norm\",\"parameters\":[{\"name\":\"n\",\"values\":[100]},"
    "{\"name\":\"k\",\"values\":[1,2]}]}]}\n";

/* The configurations' parameter texts, by workload. */
static const struct {
  const char *workload, *params;
} configs[] = {{"nbody", "n=1000;k=1"},
               {"nbody", "n=20000;k=1"},
               {"spectral-norm", "n=100;k=1"},
               {"spectral-norm", "n=100;k=2"}};
static const char *const languages[] = {"c", "python"};

typedef struct {
  char *meta, *suite, *runs, *warmups;
} folder;

static void append(char **text, const char *s) {
  size_t n = *text ? strlen(*text) : 0;
  *text = realloc(*text, n + strlen(s) + 1);
  strcpy(*text + n, s);
}

static void row_of(gb_srec_row *r, uint64_t run, gb_srec_kind kind, const char *language,
                   size_t config) {
  memset(r, 0, sizeof *r);
  r->run = run;
  r->kind = kind;
  strcpy(r->language, language);
  strcpy(r->workload, configs[config].workload);
  strcpy(r->params, configs[config].params);
  r->seed = 7;
  r->reps = kind == GB_SREC_KIND_WORK ? 10 : 0;
  r->launches = kind == GB_SREC_KIND_WORK ? 1 : 4;
  r->status = GB_REC_STATUS_OK;
  r->wall_ns = (gb_rec_opt_u64){true, 5000000};
  r->user_ns = (gb_rec_opt_u64){true, 4000000};
  r->sys_ns = (gb_rec_opt_u64){true, 100000};
  r->max_rss_kib = (gb_rec_opt_u64){true, 4096};
  strcpy(r->input_hash, "00000000000000aa");
  if (kind == GB_SREC_KIND_WORK) {
    r->loop_ns = (gb_rec_opt_u64){true, 3000000};
    strcpy(r->counters, "advances=10;pairs=20");
    strcpy(r->output_hash, "00000000000000bb");
  }
  r->energy = GB_REC_ENERGY_OFF;
  r->started_unix_ns = UINT64_C(1765000000000000000) + run;
}

static void add_row(char **text, const gb_srec_row *r) {
  char line[GB_SREC_LINE_MAX];
  cr_assert_gt(gb_srec_format_row(r, line, sizeof line), 0);
  append(text, line);
}

/* The suite with spectral-norm's k named ("one", "two" for 1, 2): the
 * same folder otherwise (good_folder_of). */
static const char *const k_names[] = {"n=100;k=one", "n=100;k=two"};

static char *named_suite_text(void) {
  const char *at = strstr(suite_text, "[1,2]");
  cr_assert_not_null(at);
  char *out = malloc(sizeof suite_text + 16);
  sprintf(out, "%.*s[\"one\",\"two\"]%s", (int)(at - suite_text), suite_text, at + 5);
  return out;
}

/* 2 languages x 4 configurations: 2 work and 2 startup rows each in
 * runs.csv (32 rows), 1 warm-up each in warmups.csv (8); with named, the
 * suite of named_suite_text and its params. */
static folder good_folder_of(bool named) {
  folder f = {0};
  char header[GB_SREC_LINE_MAX];
  gb_suite s = {0};
  gb_err err = {{0}};
  f.suite = named ? named_suite_text() : strdup(suite_text);
  cr_assert_eq(gb_suite_parse(f.suite, strlen(f.suite), "suite.json", &s, &err), 0, "%s",
               err.msg);
  gb_srec_meta m = {0};
  strcpy(m.suite_name, "demo");
  strcpy(m.suite_hash, s.hash);
  gb_suite_free(&s);
  strcpy(m.greenbench_version, "0.9.0");
  m.settings = (gb_settings){.profile = GB_PROFILE_SMOKE,
                             .runs = 2,
                             .warmups = 1,
                             .target_ms = 100,
                             .seed = 7,
                             .order_seed = 9,
                             .timeout_s = 60,
                             .energy = GB_ENERGY_OFF};
  m.energy_status = GB_REC_ENERGY_OFF;
  strcpy(m.energy_reason, "--energy off");
  m.cpus_online = 4;
  m.started_unix_ns = UINT64_C(1765000000000000000);
  m.finished_unix_ns = UINT64_C(1765000001000000000);
  m.complete = true;
  m.n_languages = 2;
  strcpy(m.languages[0].name, "c");
  strcpy(m.languages[0].title, "C");
  strcpy(m.languages[1].name, "python");
  strcpy(m.languages[1].title, "Python");
  cr_assert_eq(gb_srec_meta_write(&m, &f.meta, &err), 0, "%s", err.msg);
  cr_assert_gt(gb_srec_header(header, sizeof header), 0);
  append(&f.runs, header);
  append(&f.warmups, header);
  uint64_t run = 0;
  gb_srec_row r;
  for (size_t c = 0; c < 4; c++)
    for (size_t l = 0; l < 2; l++) {
      row_of(&r, 0, GB_SREC_KIND_WORK, languages[l], c);
      if (named && c >= 2)
        strcpy(r.params, k_names[c - 2]);
      add_row(&f.warmups, &r);
      for (int k = 0; k < 2; k++) {
        row_of(&r, run++, GB_SREC_KIND_WORK, languages[l], c);
        if (named && c >= 2)
          strcpy(r.params, k_names[c - 2]);
        add_row(&f.runs, &r);
        row_of(&r, run++, GB_SREC_KIND_STARTUP, languages[l], c);
        if (named && c >= 2)
          strcpy(r.params, k_names[c - 2]);
        add_row(&f.runs, &r);
      }
    }
  return f;
}

static folder good_folder(void) {
  return good_folder_of(false);
}

static void put(const char *dir, const char *name, const char *text) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  if (!text) {
    unlink(path);
    return;
  }
  FILE *fp = fopen(path, "w");
  cr_assert_not_null(fp);
  fputs(text, fp);
  fclose(fp);
}

/* f written into a fresh folder (dir gets its name). */
static void write_folder(const folder *f, char dir[64]) {
  strcpy(dir, "/tmp/gb-srec-XXXXXX");
  cr_assert_not_null(mkdtemp(dir));
  put(dir, "meta.json", f->meta);
  put(dir, "suite.json", f->suite);
  put(dir, "runs.csv", f->runs);
  put(dir, "warmups.csv", f->warmups);
}

static void remove_folder(const char *dir) {
  const char *names[] = {"meta.json", "suite.json", "runs.csv", "warmups.csv"};
  for (size_t i = 0; i < 4; i++)
    put(dir, names[i], NULL);
  rmdir(dir);
}

static void free_folder(folder *f) {
  free(f->meta);
  free(f->suite);
  free(f->runs);
  free(f->warmups);
}

/* *text with its first occurrence of from (at or after line `line`, 1-based)
 * replaced by to. */
static void change(char **text, size_t line, const char *from, const char *to) {
  char *p = *text;
  for (size_t i = 1; i < line; i++) {
    p = strchr(p, '\n');
    cr_assert_not_null(p);
    p++;
  }
  char *at = strstr(p, from);
  cr_assert_not_null(at, "no '%s' after line %zu", from, line);
  char *out = malloc(strlen(*text) + strlen(to) + 1);
  sprintf(out, "%.*s%s%s", (int)(at - *text), *text, to, at + strlen(from));
  free(*text);
  *text = out;
}

static void refused(const folder *f, int code, const char *msg) {
  char dir[64];
  gb_srec_records *r = NULL;
  gb_err err = {{0}};
  write_folder(f, dir);
  cr_expect_eq(gb_srec_read(dir, &r, &err), code, "%s", err.msg);
  cr_expect_null(r);
  cr_expect_str_eq(err.msg, msg);
  cr_expect_null(strchr(err.msg, '\n'));
  remove_folder(dir);
}

/* The good folder (named: good_folder_of(true)) with one change to the
 * file `which` refused with msg. */
static void refused_change_of(bool named, int which, size_t line, const char *from,
                              const char *to, const char *msg) {
  folder f = good_folder_of(named);
  char **files[] = {&f.meta, &f.suite, &f.runs, &f.warmups};
  change(files[which], line, from, to);
  refused(&f, -EINVAL, msg);
  free_folder(&f);
}

static void refused_change(int which, size_t line, const char *from, const char *to,
                           const char *msg) {
  refused_change_of(false, which, line, from, to, msg);
}

enum { META, SUITE, RUNS, WARMUPS };

Test(suiterecords_read, a_good_folder_is_read_whole) {
  folder f = good_folder();
  char dir[64];
  gb_srec_records *r = NULL;
  gb_err err = {{0}};
  write_folder(&f, dir);
  cr_assert(gb_srec_is_suite_folder(dir));
  cr_assert_eq(gb_srec_read(dir, &r, &err), 0, "%s", err.msg);
  cr_assert_eq(r->n_runs, 32);
  cr_assert_eq(r->n_warmups, 8);
  cr_assert_eq(r->runs[31].run, 31);
  cr_assert_eq(r->runs[31].line, 33);
  cr_assert_str_eq(r->runs[31].params, "n=100;k=2");
  cr_assert_eq(r->runs[31].kind, GB_SREC_KIND_STARTUP);
  cr_assert_str_eq(r->warmups[1].language, "python");
  cr_assert_str_eq(r->meta.suite_name, "demo");
  cr_assert_str_eq(r->suite.hash, r->meta.suite_hash);
  cr_assert_eq(r->suite.n_workloads, 2);
  gb_srec_free(r);
  remove_folder(dir);
  free_folder(&f);
}

/* A named parameter's values are written and read back by name; the
 * names map back to the values (indexes) they stand for. */
Test(suiterecords_read, named_values_round_trip) {
  folder f = good_folder_of(true);
  char dir[64];
  gb_srec_records *r = NULL;
  gb_err err = {{0}};
  write_folder(&f, dir);
  cr_assert_eq(gb_srec_read(dir, &r, &err), 0, "%s", err.msg);
  cr_assert_eq(r->n_runs, 32);
  cr_assert_str_eq(r->runs[16].params, "n=100;k=one");
  cr_assert_str_eq(r->runs[31].params, "n=100;k=two");
  const gb_suite_workload *w = &r->suite.workloads[1];
  cr_assert(w->parameters[1].named);
  cr_assert(!w->parameters[0].named);
  char text[GB_SREC_PARAMS_MAX];
  for (size_t i = 0; i < 2; i++) {
    uint64_t values[] = {100, i};
    cr_assert_eq(gb_srec_params_text(w, values, text, sizeof text), 11);
    cr_assert_str_eq(text, k_names[i]);
    uint64_t back = 9;
    cr_assert_eq(gb_suite_value_parse(&w->parameters[1], text + 8, 3, &back), 0);
    cr_assert_eq(back, i);
  }
  uint64_t out_of_range[] = {100, 2};
  cr_assert_eq(gb_srec_params_text(w, out_of_range, text, sizeof text), -EINVAL);
  cr_assert_str_eq(text, "");
  gb_srec_free(r);
  remove_folder(dir);
  free_folder(&f);
}

Test(suiterecords_read, an_unknown_name_is_refused) {
  refused_change_of(true, RUNS, 20, "k=one", "k=three",
                    "runs.csv:20: params: k=three is not a value of workload spectral-norm");
  refused_change_of(true, RUNS, 20, "k=one", "k=1",
                    "runs.csv:20: params: k=1 is not a value of workload spectral-norm");
  refused_change_of(true, RUNS, 2, "n=1000", "n=big",
                    "runs.csv:2: params: n=big is not a value of workload nbody");
  refused_change_of(true, WARMUPS, 6, "k=one", "k=One",
                    "warmups.csv:6: params: k: 'One' is neither a plain decimal integer nor a "
                    "name");
  refused_change_of(true, RUNS, 20, "k=one",
                    "k=", "runs.csv:20: params: k: '' is not a plain decimal integer");
}

Test(suiterecords_read, a_campaign_cut_short_reads) {
  folder f = good_folder();
  change(&f.meta, 1, "\"complete\":\ttrue", "\"complete\":\tfalse");
  char *cut = strstr(f.runs, "\n30,") + 1; /* rows 30 and 31 left out */
  *cut = '\0';
  char dir[64];
  gb_srec_records *r = NULL;
  gb_err err = {{0}};
  write_folder(&f, dir);
  cr_assert_eq(gb_srec_read(dir, &r, &err), 0, "%s", err.msg);
  cr_assert_eq(r->n_runs, 30);
  gb_srec_free(r);
  remove_folder(dir);
  free_folder(&f);
}

Test(suiterecords_read, the_header_line_is_checked) {
  refused_change(RUNS, 1, "language,workload", "workload,language",
                 "runs.csv:1: column 3 is 'workload', expected 'language'");
  refused_change(WARMUPS, 1, ",reps,", ",sorts,",
                 "warmups.csv:1: unknown column 'sorts' in the header");
  refused_change(RUNS, 1, ",message", "", "runs.csv:1: missing column 'message' in the header");
}

Test(suiterecords_read, a_bad_field_names_file_line_and_column) {
  refused_change(RUNS, 4, ",work,", ",sort,",
                 "runs.csv:4: kind: unknown value 'sort' (expected work, startup)");
  refused_change(RUNS, 2, "n=1000", "n=01000",
                 "runs.csv:2: params: n: '01000' is not a plain decimal integer");
  refused_change(RUNS, 12, "n=20000;k=1,", "n=20000;n=1000,",
                 "runs.csv:12: params: n appears twice");
  refused_change(WARMUPS, 2, "advances=10;pairs=20", "pairs=20;advances=10",
                 "warmups.csv:2: counters: advances comes after pairs; the names are in byte "
                 "order");
}

Test(suiterecords_read, a_row_is_checked_against_the_suite) {
  refused_change(RUNS, 2, ",c,", ",rust,",
                 "runs.csv:2: language: rust is not a language of suite demo");
  refused_change(RUNS, 2, ",nbody,", ",fannkuch,",
                 "runs.csv:2: workload: fannkuch is not a workload of suite demo");
  refused_change(RUNS, 2, "n=1000", "n=999",
                 "runs.csv:2: params: n=999 is not a value of workload nbody");
  refused_change(RUNS, 2, "n=1000;k=1", "k=1",
                 "runs.csv:2: params: 'k=1' does not give workload nbody's parameters n, k, in "
                 "that order");
  refused_change(RUNS, 20, "n=100;k=1", "k=1;n=100",
                 "runs.csv:20: params: 'k=1;n=100' does not give workload spectral-norm's "
                 "parameters n, k, in that order");
  refused_change(RUNS, 2, ",7,", ",8,",
                 "runs.csv:2: seed: 8, but meta.json settings.seed is 7");
}

/* Calibration records what it ran, as the study's: startup warm-ups, and
 * more work warm-ups than settings.warmups while a loop misses its aim. */
Test(suiterecords_read, warmups_hold_startup_and_extended_warmups) {
  folder f = good_folder();
  gb_srec_row r;
  row_of(&r, 0, GB_SREC_KIND_STARTUP, "c", 0);
  add_row(&f.warmups, &r);
  row_of(&r, 1, GB_SREC_KIND_WORK, "python", 3);
  add_row(&f.warmups, &r);
  char dir[64];
  write_folder(&f, dir);
  gb_srec_records *rec;
  gb_err err;
  cr_assert_eq(gb_srec_read(dir, &rec, &err), 0, "%s", err.msg);
  cr_assert_eq(rec->n_warmups, 10u);
  cr_assert_eq(rec->warmups[8].kind, GB_SREC_KIND_STARTUP);
  gb_srec_free(rec);
  remove_folder(dir);
  free_folder(&f);
}

Test(suiterecords_read, meta_json_languages_are_checked) {
  folder f = good_folder();
  change(&f.meta, 1, "\"python\",", "\"c\",");
  refused(&f, -EINVAL, "meta.json: languages[1].name: 'c' appears twice");
  free_folder(&f);
  f = good_folder();
  change(&f.meta, 1, "\"python\",", "\"rust\",");
  refused(&f, -EINVAL, "meta.json: languages[1].name: rust is not a language of suite.json");
  free_folder(&f);
}

/* meta.json lists only c: the python rows are refused. */
Test(suiterecords_read, a_language_not_in_meta_is_refused) {
  folder f = good_folder();
  char *second = strstr(f.meta, "}, {");
  char *end = strstr(f.meta, "}]");
  cr_assert(second && end && second < end);
  memmove(second, end, strlen(end) + 1);
  refused(&f, -EINVAL, "runs.csv:6: language: python is not in meta.json's languages");
  free_folder(&f);
}

Test(suiterecords_read, a_changed_suite_is_refused_by_its_hash) {
  folder f = good_folder();
  gb_suite before = {0}, after = {0};
  gb_err err = {{0}};
  cr_assert_eq(gb_suite_parse(f.suite, strlen(f.suite), "suite.json", &before, &err), 0);
  change(&f.suite, 1, "\"name\":\"demo\"", "\"name\": \"demo\"");
  cr_assert_eq(gb_suite_parse(f.suite, strlen(f.suite), "suite.json", &after, &err), 0);
  char msg[256];
  snprintf(msg, sizeof msg,
           "meta.json: suite.hash: %s, but suite.json's XXH128 is %s (the suite file was "
           "changed after the campaign)",
           before.hash, after.hash);
  refused(&f, -EINVAL, msg);
  gb_suite_free(&before);
  gb_suite_free(&after);
  free_folder(&f);
}

Test(suiterecords_read, meta_json_must_not_repeat_a_key) {
  refused_change(META, 1, "\"complete\":", "\"complete\":\ttrue,\n\t\"complete\":",
                 "meta.json: complete: the key appears twice in one object; a JSON reader "
                 "keeps only one of them, so meta.json must not repeat a key");
}

Test(suiterecords_read, row_counts_are_bounded_by_the_settings) {
  folder f = good_folder();
  gb_srec_row r;
  row_of(&r, 32, GB_SREC_KIND_WORK, "c", 0);
  add_row(&f.runs, &r);
  refused(&f, -EINVAL,
          "runs.csv:34: run 3 of work c nbody n=1000;k=1, but meta.json settings.runs is 2");
  free_folder(&f);
  refused_change(RUNS, 3, "\n2,", "\n7,", "runs.csv:4: run: 7 out of sequence, expected 2");
  refused_change(WARMUPS, 2, "\n0,work,python", "\n3,work,python",
                 "warmups.csv:3: run 3 out of sequence, expected 0 (warm-ups count from 0 per "
                 "configuration)");
}

Test(suiterecords_read, a_complete_campaign_has_every_run) {
  folder f = good_folder();
  *(strstr(f.runs, "\n31,") + 1) = '\0';
  refused(&f, -EINVAL,
          "runs.csv:31: startup python spectral-norm n=100;k=2 ends after 1 runs, but "
          "meta.json is complete with settings.runs 2");
  free_folder(&f);
}

Test(suiterecords_read, a_line_too_long_or_cut_short_is_refused) {
  folder f = good_folder();
  char *big = malloc(GB_SREC_LINE_MAX + 2);
  memset(big, 'x', GB_SREC_LINE_MAX);
  strcpy(big + GB_SREC_LINE_MAX, "\n");
  append(&f.runs, big);
  free(big);
  refused(&f, -EINVAL, "runs.csv:34: longer than 4095 bytes");
  free_folder(&f);
  f = good_folder();
  f.runs[strlen(f.runs) - 1] = '\0';
  refused(&f, -EINVAL, "runs.csv:33: truncated last line (no newline at the end)");
  free_folder(&f);
  refused_change(RUNS, 6, "4,work,python,nbody", "4,work\n",
                 "runs.csv:6: truncated line: 2 of 29 fields");
  refused_change(RUNS, 2, "\n", "\n\n", "runs.csv:3: empty line");
}

Test(suiterecords_read, a_missing_file_is_refused) {
  folder f = good_folder();
  free(f.warmups);
  f.warmups = NULL;
  char dir[64], msg[160];
  write_folder(&f, dir);
  gb_srec_records *r = NULL;
  gb_err err = {{0}};
  cr_assert_eq(gb_srec_read(dir, &r, &err), -ENOENT);
  snprintf(msg, sizeof msg, "%s/warmups.csv: cannot open: No such file or directory", dir);
  cr_assert_str_eq(err.msg, msg);
  remove_folder(dir);
  free_folder(&f);
}

Test(suiterecords_read, a_suite_folder_is_told_from_others) {
  folder f = good_folder();
  char dir[64];
  write_folder(&f, dir);
  cr_assert(gb_srec_is_suite_folder(dir));
  put(dir, "meta.json", "{\"format\": \"greenbench-records-1\", \"tool_version\": \"0.9\"}\n");
  cr_assert_not(gb_srec_is_suite_folder(dir), "a study folder");
  put(dir, "meta.json", "{\"format\": \"greenbench-suite-records-1\"");
  cr_assert_not(gb_srec_is_suite_folder(dir), "malformed JSON");
  put(dir, "meta.json", "[\"greenbench-suite-records-1\"]");
  cr_assert_not(gb_srec_is_suite_folder(dir), "not an object");
  put(dir, "meta.json", NULL);
  cr_assert_not(gb_srec_is_suite_folder(dir), "no meta.json");
  remove_folder(dir);
  cr_assert_not(gb_srec_is_suite_folder(dir), "no folder");
  free_folder(&f);
}
