/* summary.json and datapackage.json against golden files
 * (stats/tests/data/report-golden/), the same bytes twice and under a comma
 * locale, nulls where a figure does not exist, and a data package that
 * describes every column of the records' schema. To regenerate the goldens
 * after a deliberate change, run the test binary with GB_UPDATE_GOLDEN=1
 * (the tests then fail), review the diff, and run it again without.
 * stats/tests/summary_check.py holds both files to results.md and to the
 * CSV files. */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/analysis.h"
#include "greenbench/carbon.h"
#include "greenbench/records.h"
#include "helper_locale.h"
#include "helper_report.h"
#include "stats_internal.h"

static char *render(const char *fixture, size_t *len) {
  gbt_loaded l = gbt_load_analysed(fixture);
  gb_err err;
  gb_intensity in[2];
  gbt_default_intensities(in);
  gbi_report_summary_opts so = {.intensities = in, .n_intensities = 2};
  char *out;
  cr_assert_eq(gbi_report_summary(l.a, &so, &out, len, &err), 0, "%s", err.msg);
  cr_assert_eq(strlen(out), *len);
  gbt_release(&l);
  return out;
}

static cJSON *parse(const char *text) {
  cJSON *j = cJSON_Parse(text);
  cr_assert_not_null(j, "not JSON near: %.60s", cJSON_GetErrorPtr());
  return j;
}

static cJSON *at(const cJSON *o, const char *key) {
  cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);
  cr_assert_not_null(x, "no key %s", key);
  return x;
}

Test(report_summary, golden_energy) {
  size_t len;
  char *s = render("report-energy", &len);
  gbt_golden("energy", "summary.json", s, len);
  free(s);
}

Test(report_summary, golden_energy_off) {
  size_t len;
  char *s = render("report-off", &len);
  gbt_golden("off", "summary.json", s, len);
  free(s);
}

Test(report_summary, golden_partial) {
  size_t len;
  char *s = render("report-partial", &len);
  gbt_golden("partial", "summary.json", s, len);
  free(s);
}

Test(report_summary, same_bytes_twice) {
  size_t a_len, b_len;
  char *a = render("report-energy", &a_len), *b = render("report-energy", &b_len);
  cr_assert_eq(a_len, b_len);
  cr_assert_eq(memcmp(a, b, a_len), 0);
  free(a);
  free(b);
}

Test(report_summary, numbers_use_a_dot_under_a_comma_locale) {
  gbt_use_comma_locale();
  size_t len;
  char *s = render("report-energy", &len);
  gbt_golden("energy", "summary.json", s, len);
  free(s);
}

Test(report_summary, figures_are_numbers_with_a_schema_version) {
  size_t len;
  char *s = render("report-energy", &len);
  cJSON *j = parse(s);
  cr_assert_eq(at(j, "schema_version")->valuedouble, GB_SUMMARY_SCHEMA_VERSION);
  const cJSON *c = cJSON_GetArrayItem(at(j, "configurations"), 0);
  cr_assert_str_eq(at(c, "label")->valuestring, "c/quick/random/100");
  cr_assert(cJSON_IsNumber(at(at(c, "time_per_sort_ns"), "point")));
  cr_assert(cJSON_IsNumber(at(at(c, "net_power_w"), "low")));
  cr_assert_str_eq(at(at(j, "question_1"), "verdict")->valuestring, "no");
  cr_assert_null(strstr(s, "nan"), "a NaN was printed");
  cJSON_Delete(j);
  free(s);
}

/* Energy off: every energy, power and carbon figure is null, never 0, and
 * question 1 waits for energy. */
Test(report_summary, energy_off_is_null_never_zero) {
  size_t len;
  char *s = render("report-off", &len);
  cJSON *j = parse(s);
  cr_assert(cJSON_IsFalse(at(j, "energy_measured")));
  cr_assert_str_eq(at(at(j, "question_1"), "verdict")->valuestring, "pending");
  const cJSON *c;
  cJSON_ArrayForEach(c, at(j, "configurations")) {
    cr_assert(cJSON_IsNull(at(c, "energy_per_sort_uj")));
    cr_assert(cJSON_IsNull(at(c, "net_power_w")));
    cr_assert(cJSON_IsNull(at(c, "run_to_run_rho")));
    const cJSON *x;
    cJSON_ArrayForEach(x, at(c, "carbon")) {
      cr_assert(cJSON_IsNull(at(x, "net_co2e_per_sort_ug")));
    }
  }
  const cJSON *r;
  cJSON_ArrayForEach(r, at(j, "ratios")) {
    cr_assert(cJSON_IsNull(at(r, "power_ratio")));
    cr_assert(cJSON_IsNull(at(r, "reading")));
  }
  cJSON_Delete(j);
  free(s);
}

/* ---- datapackage.json -------------------------------------------------------------- */

static char *package(bool has_warmups, size_t *len) {
  char *out;
  gb_err err;
  cr_assert_eq(gbi_report_datapackage(has_warmups, &out, len, &err), 0, "%s", err.msg);
  cr_assert_eq(strlen(out), *len);
  return out;
}

Test(report_summary, datapackage_golden_with_warmups) {
  size_t len;
  char *p = package(true, &len);
  gbt_golden("energy", "datapackage.json", p, len);
  free(p);
}

Test(report_summary, datapackage_golden_without_warmups) {
  size_t len;
  char *p = package(false, &len);
  gbt_golden("off", "datapackage.json", p, len);
  free(p);
}

/* Every column of the schema table, in file order, with its type and the
 * reader's bounds; the header the harness writes names the same columns. */
Test(report_summary, datapackage_describes_every_column) {
  size_t len;
  char *p = package(true, &len), header[GB_REC_LINE_MAX];
  cr_assert_gt(gb_records_header(header, sizeof header), 0);
  cJSON *j = parse(p);
  cr_assert_str_eq(at(j, "profile")->valuestring, "tabular-data-package");
  const cJSON *r;
  cJSON_ArrayForEach(r, at(j, "resources")) {
    const cJSON *fields = at(at(r, "schema"), "fields");
    cr_assert_eq(cJSON_GetArraySize(fields), GB_REC_COL_COUNT);
    char names[GB_REC_LINE_MAX] = "";
    for (int c = 0; c < GB_REC_COL_COUNT; c++) {
      const cJSON *f = cJSON_GetArrayItem(fields, c);
      const gb_rec_column *col = gb_records_column((gb_rec_col)c);
      cr_assert_str_eq(at(f, "name")->valuestring, col->name);
      cr_assert_eq(cJSON_IsTrue(at(at(f, "constraints"), "required")), !col->optional);
      cr_assert_gt(strlen(at(f, "description")->valuestring), 10);
      /* Only the instants go beyond 2^53, and they say so. */
      bool beyond = c == GB_REC_COL_STARTED_UNIX_NS;
      cr_assert_eq(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(f, "greenbench:exceeds_2^53")),
                   beyond, "%s", col->name);
      cr_assert_eq(strstr(at(f, "description")->valuestring, "exceed 2^53") != NULL, beyond);
      strcat(names, c ? "," : "");
      strcat(names, col->name);
    }
    strcat(names, "\n");
    cr_assert_str_eq(names, header);
  }
  const cJSON *seed = cJSON_GetArrayItem(
      at(at(cJSON_GetArrayItem(at(j, "resources"), 0), "schema"), "fields"), GB_REC_COL_SEED);
  cr_assert_eq(at(at(seed, "constraints"), "minimum")->valuedouble, 1);
  cr_assert_eq(at(at(seed, "constraints"), "maximum")->valuedouble, 4294967295.0);
  /* Issue 32, F: the message's bound is the reader's, < 256 bytes, and the
   * description says bytes where maxLength can only count characters. */
  const cJSON *msg =
      cJSON_GetArrayItem(at(at(cJSON_GetArrayItem(at(j, "resources"), 0), "schema"), "fields"),
                         GB_REC_COL_MESSAGE);
  cr_assert_eq(at(at(msg, "constraints"), "maxLength")->valuedouble, GB_REC_MESSAGE_MAX - 1);
  cr_assert_eq(GB_REC_MESSAGE_MAX, 256);
  cr_assert(strstr(at(msg, "description")->valuestring, "At most 255 bytes of UTF-8"));
  cJSON_Delete(j);
  free(p);
}
