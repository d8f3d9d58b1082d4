/* gb_validate_case on the fixtures and on copies of report-energy with
 * one thing broken each. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "greenbench/numparse.h"
#include "greenbench/records_read.h"
#include "greenbench/validate.h"
#include "helper_report.h"

/* A copy of report-energy in a fresh temporary folder. */
static void copy_fixture(char *dir, size_t len) {
  gbt_copy_fixture("report-energy", "/tmp/gb-validate-XXXXXX", GBT_REQUIRE_ALL, dir, len);
}

static void remove_copy(const char *dir) {
  const char *files[] = {"meta.json", "runs.csv", "warmups.csv"};
  for (int i = 0; i < 3; i++) {
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", dir, files[i]);
    unlink(p);
  }
  rmdir(dir);
}

/* Field c (0-based) of a line, which has no quoted field. */
static void field(const char *line, int c, char *out, size_t len) {
  for (int i = 0; i < c; i++) {
    line = strchr(line, ',') + 1;
  }
  size_t n = strcspn(line, ",\n");
  snprintf(out, len, "%.*s", (int)(n < len ? n : len - 1), line);
}

static bool line_is(const char *line, const char *kind, const char *lang, const char *order,
                    const char *size) {
  char f[4][32];
  const int cols[4] = {GB_REC_COL_KIND, GB_REC_COL_LANGUAGE, GB_REC_COL_ORDER, GB_REC_COL_SIZE};
  const char *want[4] = {kind, lang, order, size};
  for (int i = 0; i < 4; i++) {
    field(line, cols[i], f[i], sizeof f[i]);
    if (strcmp(f[i], want[i]) != 0) {
      return false;
    }
  }
  return true;
}

/* Sets column c of the first `count` rows of the key (count 0: all) to v. */
static void set_field(const char *dir, const char *kind, const char *lang, const char *order,
                      const char *size, int c, const char *v, int count) {
  char path[4096];
  snprintf(path, sizeof path, "%s/runs.csv", dir);
  char *s = gbt_slurp_or_fail(path);
  size_t cap = strlen(s) + 4096, n = 0;
  char *out = malloc(cap);
  int done = 0;
  for (char *line = s; *line;) {
    char *end = strchr(line, '\n') + 1;
    if ((count == 0 || done < count) && line_is(line, kind, lang, order, size)) {
      const char *p = line;
      for (int i = 0; i < c; i++) {
        p = strchr(p, ',') + 1;
      }
      size_t keep = (size_t)(p - line), old = strcspn(p, ",\n");
      n += (size_t)snprintf(out + n, cap - n, "%.*s%s%.*s", (int)keep, line, v,
                            (int)(end - p - old), p + old);
      done++;
    } else {
      n += (size_t)snprintf(out + n, cap - n, "%.*s", (int)(end - line), line);
    }
    line = end;
  }
  cr_assert_gt(done, 0, "no row %s/%s/%s/%s", kind, lang, order, size);
  gbt_spit(path, out);
  free(out);
  free(s);
}

/* Sets comparisons, writes or input_hash of the first `count` rows of the
 * key (count 0: all) in records already read: the reader itself refuses a
 * row whose counts differ from the workload's, so gb_validate_case's own
 * parity check is reached only through records built in memory. */
static void set_loaded(gb_records *r, gb_rec_kind kind, gb_language l, gb_order o,
                       uint64_t size, gb_rec_col c, const char *v, int count) {
  int done = 0;
  for (size_t i = 0; i < r->runs.n_rows && (count == 0 || done < count); i++) {
    gb_run_row *row = &r->runs.rows[i];
    if (row->kind != kind || row->language != l || row->order != o || row->size != size) {
      continue;
    }
    if (c == GB_REC_COL_INPUT_HASH) {
      snprintf(row->input_hash, sizeof row->input_hash, "%s", v);
    } else {
      cr_assert_eq(
          gb_parse_u64(
              v, 0, UINT64_MAX,
              &(c == GB_REC_COL_COMPARISONS ? &row->comparisons : &row->writes)->value),
          0, "not a count: '%s'", v);
    }
    done++;
  }
  cr_assert_gt(done, 0, "no row to set");
}

/* The reader refuses dir, naming runs.csv, a line and the column. */
static void expect_refused(const char *dir, const char *col) {
  gb_records *r = NULL;
  gb_err err = {""};
  cr_assert_eq(gb_records_read(dir, &r, &err), -EINVAL);
  cr_assert(strstr(err.msg, "/runs.csv:") && strstr(err.msg, col), "%s", err.msg);
}

static int check(const gb_records *r, gb_language l, gb_order o, uint64_t size, bool energy,
                 char *msg) {
  return gb_validate_case(r, l, GB_QUICK, o, size, energy, msg, 512);
}

Test(report_validate, a_complete_configuration_is_valid) {
  gb_records *r = gbt_load("report-energy");
  char msg[512] = "x";
  cr_assert_eq(check(r, GB_C, GB_RANDOM, 100, true, msg), 0, "%s", msg);
  cr_assert_str_eq(msg, "");
  cr_assert_eq(check(r, GB_NODE, GB_SORTED, 200, true, msg), 0, "%s", msg);
  gb_records_free(r);
}

Test(report_validate, a_run_that_failed) {
  gb_records *r = gbt_load("report-energy");
  char msg[512];
  cr_assert_eq(check(r, GB_PYTHON, GB_SORTED, 200, true, msg), 1);
  cr_assert(strstr(msg, "python/quick/sorted/200: the measured run at runs.csv line "), "%s",
            msg);
  cr_assert(strstr(msg, "has status timeout: worker ran past timeout_s 60"), "%s", msg);
  cr_assert_null(strchr(msg, '\n'));
  gb_records_free(r);
}

Test(report_validate, not_in_the_settings) {
  gb_records *r = gbt_load("report-energy");
  char msg[512];
  cr_assert_eq(gb_validate_case(r, GB_C, GB_BUBBLE, GB_RANDOM, 100, false, msg, sizeof msg), 1);
  cr_assert_str_eq(msg, "c/bubble/random/100: not a configuration of this campaign's settings");
  cr_assert_eq(check(r, GB_C, GB_RANDOM, 300, false, msg), 1);
  gb_records_free(r);
}

Test(report_validate, runs_missing_in_a_partial_campaign) {
  gb_records *r = gbt_load("report-partial");
  char msg[512];
  cr_assert_eq(check(r, GB_NODE, GB_SORTED, 200, true, msg), 1);
  cr_assert_str_eq(msg, "node/quick/sorted/200: 0 of 3 measured runs in runs.csv");
  gb_records_free(r);
}

Test(report_validate, energy_required_but_off) {
  gb_records *r = gbt_load("report-off");
  char msg[512];
  cr_assert_eq(check(r, GB_C, GB_RANDOM, 100, false, msg), 0, "%s", msg);
  cr_assert_eq(check(r, GB_C, GB_RANDOM, 100, true, msg), 1);
  cr_assert(strstr(msg, "has no energy reading (energy off)"), "%s", msg);
  gb_records_free(r);
}

Test(report_validate, counts_differ_between_runs) {
  char dir[64], msg[512];
  copy_fixture(dir, sizeof dir);
  set_field(dir, "sort", "c", "random", "100", GB_REC_COL_COMPARISONS, "691", 1);
  expect_refused(dir, "comparisons: 691, but the workload makes 690");
  gb_records *r = gbt_load("report-energy");
  set_loaded(r, GB_REC_KIND_SORT, GB_C, GB_RANDOM, 100, GB_REC_COL_COMPARISONS, "691", 1);
  cr_assert_eq(check(r, GB_C, GB_RANDOM, 100, true, msg), 1);
  /* The first row in execution order is the reference: the mutated one. */
  cr_assert(strstr(msg, "c/quick/random/100: 690 comparisons and 532 writes at runs.csv line "),
            "%s", msg);
  cr_assert(strstr(msg, "differ from its 691 and 532 at line "), "%s", msg);
  gb_records_free(r);
  remove_copy(dir);
}

Test(report_validate, counts_differ_between_languages) {
  char dir[64], msg[512];
  copy_fixture(dir, sizeof dir);
  set_field(dir, "sort", "python", "random", "200", GB_REC_COL_WRITES, "1", 0);
  expect_refused(dir, "writes: 1, but the workload makes 1262");
  gb_records *r = gbt_load("report-energy");
  set_loaded(r, GB_REC_KIND_SORT, GB_PYTHON, GB_RANDOM, 200, GB_REC_COL_WRITES, "1", 0);
  cr_assert_eq(check(r, GB_PYTHON, GB_RANDOM, 200, true, msg), 1);
  cr_assert(strstr(msg, "differ from c's 1366 and 1262 at line"), "%s", msg);
  cr_assert_eq(check(r, GB_C, GB_RANDOM, 200, true, msg), 1);
  cr_assert(strstr(msg, "differ from python's 1366 and 1 at line"), "%s", msg);
  cr_assert_eq(check(r, GB_C, GB_RANDOM, 100, true, msg), 0, "%s", msg);
  gb_records_free(r);
  remove_copy(dir);
}

Test(report_validate, input_hash_differs) {
  char dir[64], msg[512];
  copy_fixture(dir, sizeof dir);
  set_field(dir, "startup", "node", "sorted", "100", GB_REC_COL_INPUT_HASH, "0123456789abcdef",
            1);
  expect_refused(dir, "input_hash: 0123456789abcdef, but the workload's sorted input of 100");
  gb_records *r = gbt_load("report-energy");
  set_loaded(r, GB_REC_KIND_STARTUP, GB_NODE, GB_SORTED, 100, GB_REC_COL_INPUT_HASH,
             "0123456789abcdef", 1);
  cr_assert_eq(check(r, GB_NODE, GB_SORTED, 100, true, msg), 1);
  cr_assert(strstr(msg, "startup input_hash 0123456789abcdef at runs.csv line "), "%s", msg);
  gb_records_free(r);
  remove_copy(dir);
}

Test(report_validate, parity_mismatch_is_named) {
  char dir[64], msg[512];
  copy_fixture(dir, sizeof dir);
  set_field(dir, "sort", "node", "random", "100", GB_REC_COL_STATUS, "parity_mismatch", 1);
  gb_records *r = gbt_load_dir(dir);
  cr_assert_eq(check(r, GB_NODE, GB_RANDOM, 100, true, msg), 1);
  cr_assert(strstr(msg, "node/quick/random/100: parity mismatch in the measured run at "
                        "runs.csv line "),
            "%s", msg);
  gb_records_free(r);
  remove_copy(dir);
}

Test(report_validate, a_startup_batch_that_failed) {
  char dir[64], msg[512];
  copy_fixture(dir, sizeof dir);
  set_field(dir, "startup", "c", "sorted", "200", GB_REC_COL_STATUS, "crashed", 1);
  gb_records *r = gbt_load_dir(dir);
  cr_assert_eq(check(r, GB_C, GB_SORTED, 200, true, msg), 1);
  cr_assert(strstr(msg, "the startup batch at runs.csv line "), "%s", msg);
  cr_assert(strstr(msg, "has status crashed"), "%s", msg);
  cr_assert_eq(check(r, GB_C, GB_SORTED, 100, true, msg), 0, "%s", msg);
  gb_records_free(r);
  remove_copy(dir);
}

Test(report_validate, a_short_buffer_is_cut_and_terminated) {
  gb_records *r = gbt_load("report-energy");
  char msg[8];
  memset(msg, 'x', sizeof msg);
  cr_assert_eq(gb_validate_case(r, GB_PYTHON, GB_QUICK, GB_SORTED, 200, true, msg, sizeof msg),
               1);
  cr_assert_str_eq(msg, "python/");
  cr_assert_eq(gb_validate_case(r, GB_PYTHON, GB_QUICK, GB_SORTED, 200, true, NULL, 0), 1);
  gb_records_free(r);
}
