/* See helper_report.h. */
#include "helper_report.h"

#include <criterion/criterion.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The whole of an open file, which it closes. */
static char *read_all(FILE *f, size_t *len) {
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  cr_assert_eq(fread(s, 1, (size_t)n, f), (size_t)n);
  s[n] = '\0';
  fclose(f);
  *len = (size_t)n;
  return s;
}

char *gbt_slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    return NULL;
  }
  return read_all(f, len);
}

char *gbt_slurp_or_fail(const char *path) {
  FILE *f = fopen(path, "rb");
  cr_assert_not_null(f, "%s", path);
  size_t len;
  return read_all(f, &len);
}

void gbt_spit(const char *path, const char *s) {
  FILE *f = fopen(path, "wb");
  cr_assert_not_null(f, "%s", path);
  fputs(s, f);
  fclose(f);
}

/* report-golden/<fixture>/<file>, under GB_GOLDEN_DIR when set (the test
 * that proves an update fails works on a copy), else under the test data. */
static void golden_path(char *path, size_t len, const char *fixture, const char *file) {
  const char *dir = getenv("GB_GOLDEN_DIR");
  if (dir && dir[0]) {
    snprintf(path, len, "%s/%s/%s", dir, fixture, file);
  } else {
    snprintf(path, len, "%s/report-golden/%s/%s", GB_TEST_DATA_DIR, fixture, file);
  }
}

void gbt_golden(const char *fixture, const char *file, const char *got, size_t len) {
  char path[4096];
  golden_path(path, sizeof path, fixture, file);
  size_t want_len;
  char *want = gbt_slurp(path, &want_len);
  bool same = want && want_len == len && memcmp(want, got, len) == 0;
  if (getenv("GB_UPDATE_GOLDEN")) {
    /* An update is never a pass: the run that rewrites a golden fails, so
     * accepting new output is always a deliberate second run. */
    if (!same) {
      FILE *f = fopen(path, "wb");
      cr_assert_not_null(f, "%s", path);
      cr_assert_eq(fwrite(got, 1, len, f), len, "%s", path);
      cr_assert_eq(fclose(f), 0, "%s", path);
    }
    free(want);
    cr_assert_fail("GB_UPDATE_GOLDEN is set: %s %s; review the diff and run again without it",
                   path, same ? "already matched" : "rewritten");
  }
  cr_assert_not_null(want, "%s: missing golden file", path);
  size_t line = 1, i = 0;
  for (; i < len && i < want_len && got[i] == want[i]; i++) {
    line += got[i] == '\n';
  }
  cr_assert(same, "%s: differs from the output at line %zu", path, line);
  free(want);
}

void gbt_assert_golden_file(const char *fixture, const char *dir, const char *file) {
  char got_path[4096], want_path[4096];
  size_t got_len, want_len;
  snprintf(got_path, sizeof got_path, "%s/%s", dir, file);
  golden_path(want_path, sizeof want_path, fixture, file);
  char *got = gbt_slurp(got_path, &got_len), *want = gbt_slurp(want_path, &want_len);
  cr_assert_not_null(got, "%s not written", got_path);
  cr_assert_not_null(want, "%s missing", want_path);
  cr_assert(got_len == want_len && memcmp(got, want, got_len) == 0, "%s differs from %s",
            got_path, want_path);
  free(got);
  free(want);
}

void gbt_copy_fixture(const char *fixture, const char *tmpl, gbt_missing missing, char *dir,
                      size_t len) {
  static const char *const files[] = {"meta.json", "runs.csv", "warmups.csv"};
  snprintf(dir, len, "%s", tmpl);
  cr_assert_not_null(mkdtemp(dir));
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    char src[4096], dst[4096];
    snprintf(src, sizeof src, "%s/%s/%s", GB_TEST_DATA_DIR, fixture, files[i]);
    snprintf(dst, sizeof dst, "%s/%s", dir, files[i]);
    size_t n;
    char *s = missing == GBT_REQUIRE_ALL ? gbt_slurp_or_fail(src) : gbt_slurp(src, &n);
    if (s) {
      gbt_spit(dst, s);
      free(s);
    }
  }
}

gb_records *gbt_load_dir(const char *dir) {
  gb_records *r = NULL;
  gb_err err;
  int rc = gb_records_read(dir, &r, &err);
  cr_assert_eq(rc, 0, "%s: %s", dir, err.msg);
  return r;
}

gb_records *gbt_load(const char *name) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/%s", GB_TEST_DATA_DIR, name);
  return gbt_load_dir(dir);
}

gb_analysis *gbt_analyse_with(const gb_records *r, const gb_analysis_opts *o) {
  gb_analysis *a = NULL;
  gb_err err;
  int rc = gb_analysis_run(r, o, &a, &err);
  cr_assert_eq(rc, 0, "%s", err.msg);
  return a;
}

gb_analysis *gbt_analyse(const gb_records *r) {
  gb_analysis_opts o = GB_ANALYSIS_OPTS_DEFAULT;
  return gbt_analyse_with(r, &o);
}

gbt_loaded gbt_load_analysed(const char *name) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/%s", GB_TEST_DATA_DIR, name);
  gbt_loaded l = {0};
  gb_err err;
  cr_assert_eq(gb_records_read(dir, &l.r, &err), 0, "%s", err.msg);
  l.a = gbt_analyse(l.r);
  return l;
}

void gbt_release(gbt_loaded *l) {
  gb_analysis_free(l->a);
  gb_records_free(l->r);
}

void gbt_default_intensities(gb_intensity out[2]) {
  gb_carbon_table t = {0};
  gb_err err;
  char path[PATH_MAX];
  cr_assert_eq(gb_carbon_default_path(path, sizeof path, &err), 0, "%s", err.msg);
  cr_assert_eq(gb_carbon_load(path, &t, &err), 0, "%s", err.msg);
  cr_assert_eq(gb_carbon_find(&t, "ARE", &out[0], &err), 0, "%s", err.msg);
  cr_assert_eq(gb_carbon_find(&t, "GBR", &out[1], &err), 0, "%s", err.msg);
  gb_carbon_free(&t);
}
