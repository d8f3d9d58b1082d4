/* JUnit XML: golden files, validation by xmllint against the project's own
 * schema (stats/schema/greenbench-junit.xsd) and, when GB_JUNIT_XSD names
 * one, against another, verdicts (failure, skipped), and escaping.
 * GB_UPDATE_GOLDEN=1 rewrites the goldens (and fails). */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "greenbench/analysis.h"
#include "greenbench/numparse.h"
#include "greenbench/records_read.h"
#include "greenbench/report_junit.h"
#include "helper_locale.h"
#include "helper_report.h"
#include "stats_internal.h"

static char *junit_of(const char *fixture, size_t *len) {
  gbt_loaded l = gbt_load_analysed(fixture);
  char *out;
  gb_err err;
  cr_assert_eq(gb_report_junit(l.a, &out, len, &err), 0, "%s", err.msg);
  cr_assert_eq(strlen(out), *len);
  gbt_release(&l);
  return out;
}

static char *escaped(const char *s, bool attribute) {
  char *out;
  size_t len;
  gb_err err;
  cr_assert_eq(gbi_xml_escape(s, strlen(s), attribute, &out, &len, &err), 0);
  cr_assert_eq(strlen(out), len);
  return out;
}

/* ---- xmllint ---------------------------------------------------------------- */

static const char *xmllint(void) {
  static const char *const paths[] = {"/usr/bin/xmllint", "/usr/local/bin/xmllint"};
  for (size_t i = 0; i < 2; i++) {
    if (access(paths[i], X_OK) == 0) {
      return paths[i];
    }
  }
  return NULL;
}

/* xmllint --noout --schema XSD FILE, by fork and exec; its exit status. */
static int validate(const char *tool, const char *xsd, const char *file) {
  pid_t pid = fork();
  cr_assert_geq(pid, 0);
  if (pid == 0) {
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    execl(tool, "xmllint", "--noout", "--schema", xsd, file, (char *)NULL);
    _exit(127);
  }
  int st;
  cr_assert_eq(waitpid(pid, &st, 0), pid);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A temporary file holding xml[0..len); its path in path (a mkstemp
 * template), for xmllint. */
static void write_temp(char *path, const char *xml, size_t len) {
  int fd = mkstemp(path);
  cr_assert_geq(fd, 0, "%s", path);
  cr_assert_eq(write(fd, xml, len), (ssize_t)len);
  close(fd);
}

/* xmllint is part of the test set-up (ci/setup installs it): without it the
 * check has not run, which is a failure, not a pass. */
static const char *xmllint_or_fail(void) {
  const char *tool = xmllint();
  cr_assert_not_null(tool, "xmllint is not installed (Debian package libxml2-utils; "
                           "bash ci/setup installs it)");
  return tool;
}

/* xml validates against the schema at xsd; on failure xmllint's own
 * message is on stderr, in the test's output. */
static void assert_valid_against(const char *xsd, const char *xml, size_t len) {
  const char *tool = xmllint_or_fail();
  char path[] = "/tmp/gb-junit-XXXXXX";
  write_temp(path, xml, len);
  int st = validate(tool, xsd, path);
  unlink(path);
  cr_assert_eq(st, 0, "xmllint rejects the JUnit XML against %s (status %d)", xsd, st);
}

/* The project's own schema of its JUnit dialect (stats/schema/). */
static void assert_valid(const char *xml, size_t len) {
  assert_valid_against(GB_JUNIT_SCHEMA, xml, len);
}

/* xmllint's verdict on doc against the project's schema, its messages
 * silenced. */
static int validate_quietly(const char *doc) {
  const char *tool = xmllint_or_fail();
  char path[] = "/tmp/gb-junit-XXXXXX";
  write_temp(path, doc, strlen(doc));
  int null = open("/dev/null", O_WRONLY), saved = dup(2);
  dup2(null, 2);
  int st = validate(tool, GB_JUNIT_SCHEMA, path);
  dup2(saved, 2);
  close(saved);
  close(null);
  unlink(path);
  return st;
}

/* ---- Tests ---------------------------------------------------------------------- */

Test(report_junit, golden_energy) {
  size_t len;
  char *xml = junit_of("report-energy", &len);
  gbt_golden("energy", "junit.xml", xml, len);
  free(xml);
}

Test(report_junit, golden_energy_off) {
  size_t len;
  char *xml = junit_of("report-off", &len);
  gbt_golden("off", "junit.xml", xml, len);
  free(xml);
}

Test(report_junit, golden_partial) {
  size_t len;
  char *xml = junit_of("report-partial", &len);
  gbt_golden("partial", "junit.xml", xml, len);
  free(xml);
}

Test(report_junit, valid_against_the_schema_energy) {
  size_t len;
  char *xml = junit_of("report-energy", &len);
  assert_valid(xml, len);
  free(xml);
}

Test(report_junit, valid_against_the_schema_off) {
  size_t len;
  char *xml = junit_of("report-off", &len);
  assert_valid(xml, len);
  free(xml);
}

Test(report_junit, valid_against_the_schema_partial) {
  size_t len;
  char *xml = junit_of("report-partial", &len);
  assert_valid(xml, len);
  free(xml);
}

/* The check itself must be able to fail: a valid document passes, and each
 * small change that breaks the contract is rejected. */
Test(report_junit, the_schema_check_can_fail) {
  size_t len;
  char *good = junit_of("report-partial", &len);
  cr_assert_eq(validate_quietly(good), 0, "the fixture itself must validate");
  static const struct {
    const char *from, *to, *why;
  } breaks[] = {
      {"name=\"random.100\"", "nom=\"random.100\"", "a testcase without a name"},
      {"time=\"0.820400\"", "time=\"0,820400\"", "a time with a decimal comma"},
      {"failures=\"3\"", "failures=\"three\"", "a count that is not a number"},
      {"name=\"bench-01.custom.c.quick\"", "name=\"bench-01.custom.cobol.quick\"",
       "an unknown language"},
      {"name=\"bench-01.custom.c.quick\"", "name=\"bench.01.custom.c.quick\"",
       "a machine label with a dot"},
      {"name=\"bench-01.custom.c.quick\"", "name=\"c.quick\"", "no machine and profile"},
      {"<system-out>", "<system-err>", "figures in the wrong element"},
      {"<property name=\"language\"", "<property name=\"colour\"", "an unknown property"},
      {"type=\"invalid-records\"", "type=\"other\"", "an unknown failure type"},
  };
  for (size_t i = 0; i < sizeof breaks / sizeof breaks[0]; i++) {
    const char *at = strstr(good, breaks[i].from);
    cr_assert_not_null(at, "the fixture has no %s", breaks[i].from);
    size_t head = (size_t)(at - good), from = strlen(breaks[i].from);
    size_t to = strlen(breaks[i].to);
    char *bad = malloc(len - from + to + 1);
    memcpy(bad, good, head);
    memcpy(bad + head, breaks[i].to, to);
    memcpy(bad + head + to, at + from, len - head - from + 1);
    cr_expect_neq(validate_quietly(bad), 0, "the schema accepts %s", breaks[i].why);
    free(bad);
  }
  free(good);
}

/* Where a user names another schema (GB_JUNIT_XSD, e.g. Jenkins'
 * junit-10.xsd), every fixture's JUnit validates against it too. */
Test(report_junit, valid_against_GB_JUNIT_XSD) {
  const char *xsd = getenv("GB_JUNIT_XSD");
  if (!xsd || !xsd[0]) {
    cr_skip_test("GB_JUNIT_XSD is not set: no outside schema to check against");
  }
  cr_assert_eq(access(xsd, R_OK), 0, "GB_JUNIT_XSD=%s cannot be read", xsd);
  static const char *const fixtures[] = {"report-energy", "report-off", "report-partial"};
  for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++) {
    size_t len;
    char *xml = junit_of(fixtures[i], &len);
    assert_valid_against(xsd, xml, len);
    free(xml);
  }
}

Test(report_junit, one_suite_per_language_and_algorithm) {
  size_t len;
  char *xml = junit_of("report-energy", &len);
  cr_expect(strstr(xml, "<testsuites name=\"greenbench\" tests=\"12\" failures=\"1\" "
                        "errors=\"0\" time=\""));
  cr_expect(strstr(xml, "<testsuite name=\"bench-01.custom.c.quick\" tests=\"4\" "
                        "failures=\"0\" errors=\"0\" skipped=\"0\" time=\""));
  cr_expect(strstr(xml, "<testcase classname=\"bench-01.custom.c.quick\" name=\"random.100\" "
                        "time=\""));
  cr_expect(strstr(xml, "<property name=\"machine_label\" value=\"bench-01\"/>"));
  cr_expect(strstr(xml, "<property name=\"energy\" value=\"ok\"/>"));
  cr_expect(strstr(xml, "time per sort: 2.550 [2.499, 2.601] us (median [95% CI])"));
  cr_expect(strstr(xml, "energy per sort: 45.8 [44.8, 46.8] uJ"));
  cr_expect(strstr(xml, "sorts per process: 100000\n"));
  free(xml);
}

Test(report_junit, invalid_records_fail_with_an_escaped_message) {
  size_t len;
  char *xml = junit_of("report-energy", &len);
  const char *msg = "the measured run at runs.csv line 30 has status timeout: worker ran past "
                    "timeout_s 60 &amp; was killed &lt;SIGKILL&gt; &quot;hard&quot;";
  cr_expect(
      strstr(xml, "<failure type=\"invalid-records\" message=\"python/quick/sorted/200: "));
  cr_expect(strstr(xml, msg), "escaped message");
  free(xml);
}

Test(report_junit, energy_off_reads_pending) {
  size_t len;
  char *xml = junit_of("report-off", &len);
  cr_expect(strstr(xml, "energy per sort: not measured\n"));
  cr_expect(strstr(xml, "net power: not measured\n"));
  cr_expect(strstr(xml, "time per sort: 2.550 [2.499, 2.601] us"));
  /* Energy is not required when it was off: the complete cases pass. */
  cr_expect(strstr(xml, "<testsuite name=\"unlabelled.custom.c.quick\" tests=\"4\" "
                        "failures=\"0\""),
            "records without machine.label are unlabelled");
  free(xml);
}

Test(report_junit, only_what_did_not_run_is_skipped) {
  size_t len;
  char *xml = junit_of("report-partial", &len);
  /* No row in runs.csv: skipped, its time that of its warm-ups. */
  cr_expect(strstr(xml,
                   "<testcase classname=\"bench-01.custom.node.quick\" name=\"sorted.200\" "
                   "time=\"0.382363\">\n      <skipped message=\"not run: runs.csv has no "
                   "row of this configuration\"/>"));
  cr_expect(strstr(xml, "<testcase classname=\"bench-01.custom.c.quick\" name=\"random.200\" "
                        "time=\"0.306399\">\n      <skipped"));
  /* Some rows: it ran, and its records are incomplete, so it fails. */
  cr_expect(strstr(xml, "message=\"node/quick/random/100: 1 of 3 measured runs in runs.csv\""));
  cr_expect(strstr(xml, "skipped=\"1\""));
  free(xml);
}

Test(report_junit, numbers_use_a_dot_under_a_comma_locale) {
  gbt_use_comma_locale();
  size_t len;
  char *xml = junit_of("report-energy", &len);
  gbt_golden("energy", "junit.xml", xml, len);
  free(xml);
}

Test(report_junit, escapes_markup) {
  char *s = escaped("a & b < c > d \"e\" 'f'", true);
  cr_assert_str_eq(s, "a &amp; b &lt; c &gt; d &quot;e&quot; &apos;f&apos;");
  free(s);
}

Test(report_junit, multi_line_messages) {
  char *attr = escaped("line one\nline two\r\n\ttabbed", true);
  cr_assert_str_eq(attr, "line one&#10;line two&#13;&#10;&#9;tabbed");
  char *text = escaped("line one\nline two\r\n\ttabbed", false);
  cr_assert_str_eq(text, "line one\nline two&#13;\n\ttabbed");
  free(attr);
  free(text);
}

Test(report_junit, control_characters_and_bad_utf8_are_replaced) {
  char *s = escaped("bell\a esc\x1b del\x7f bad\xff\xfe end", false);
  /* U+FFFD for what XML 1.0 cannot hold; DEL is allowed. */
  cr_assert_str_eq(s,
                   "bell\xef\xbf\xbd esc\xef\xbf\xbd del\x7f bad\xef\xbf\xbd\xef\xbf\xbd end");
  free(s);
}

Test(report_junit, valid_utf8_is_kept) {
  char *s = escaped("µs °C \xe2\x82\xac \xf0\x9f\x98\x80", true);
  cr_assert_str_eq(s, "µs °C \xe2\x82\xac \xf0\x9f\x98\x80");
  free(s);
  /* Overlong, surrogate, truncated, beyond U+10FFFF, U+FFFE. */
  const char *bad[] = {"\xc0\xaf", "\xed\xa0\x80", "\xe2\x82", "\xf4\x90\x80\x80",
                       "\xef\xbf\xbe"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char *t = escaped(bad[i], false);
    cr_assert(strncmp(t, "\xef\xbf\xbd", 3) == 0, "case %zu kept", i);
    cr_assert_null(strstr(t, bad[i]), "case %zu kept", i);
    free(t);
  }
}

/* ---- Classnames, times and the system-out layout (issue 14) ---------------------- */

/* The decimal at the start of an attribute's value, up to its closing quote. */
static double attr_decimal(const char *value) {
  char text[64];
  snprintf(text, sizeof text, "%.*s", (int)strcspn(value, "\""), value);
  double v = -1;
  cr_assert_eq(gb_parse_decimal(text, 0, &v), 0, "not a decimal: '%s'", text);
  return v;
}

/* The time attribute of the testcase named `name` of suite `classname`. */
static double case_time(const char *xml, const char *classname, const char *name) {
  char head[256];
  snprintf(head, sizeof head, "<testcase classname=\"%s\" name=\"%s\" time=\"", classname,
           name);
  const char *at = strstr(xml, head);
  cr_assert_not_null(at, "no %s", head);
  return attr_decimal(at + strlen(head));
}

/* Sum of wall_ns of the kind-sort rows of one configuration in t. */
static uint64_t wall_sum(const gb_rec_table *t, gb_language l, gb_order o, uint64_t size) {
  uint64_t sum = 0;
  for (size_t i = 0; i < t->n_rows; i++) {
    const gb_run_row *r = &t->rows[i];
    if (r->kind == GB_REC_KIND_SORT && r->language == l && r->algorithm == GB_QUICK &&
        r->order == o && r->size == size && r->wall_ns.present) {
      sum += r->wall_ns.value;
    }
  }
  return sum;
}

Test(report_junit, a_case_time_is_its_measuring_time) {
  gbt_loaded l = gbt_load_analysed("report-energy");
  char *xml;
  size_t len;
  gb_err err;
  cr_assert_eq(gb_report_junit(l.a, &xml, &len, &err), 0, "%s", err.msg);
  cr_assert(l.r->has_warmups);
  static const struct {
    gb_language l;
    gb_order o;
    uint64_t size;
    const char *classname, *name;
  } cases[] = {
      {GB_C, GB_RANDOM, 100, "bench-01.custom.c.quick", "random.100"},
      {GB_NODE, GB_SORTED, 200, "bench-01.custom.node.quick", "sorted.200"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    uint64_t runs = wall_sum(&l.r->runs, cases[i].l, cases[i].o, cases[i].size);
    uint64_t warm = wall_sum(&l.r->warmups, cases[i].l, cases[i].o, cases[i].size);
    cr_assert_gt(warm, 0u, "the fixture has warm-ups of %s", cases[i].name);
    double got = case_time(xml, cases[i].classname, cases[i].name);
    cr_expect_float_eq(got, (double)(runs + warm) * 1e-9, 1e-6, "%s %s: %.6f s",
                       cases[i].classname, cases[i].name, got);
  }
  /* The document's time is the sum over every case's rows. */
  uint64_t all = 0;
  const gb_rec_table *tables[] = {&l.r->runs, &l.r->warmups};
  for (size_t t = 0; t < 2; t++) {
    for (size_t i = 0; i < tables[t]->n_rows; i++) {
      const gb_run_row *r = &tables[t]->rows[i];
      all += r->kind == GB_REC_KIND_SORT && r->wall_ns.present ? r->wall_ns.value : 0;
    }
  }
  const char *at = strstr(strstr(xml, "<testsuites "), "time=\"");
  cr_expect_float_eq(attr_decimal(at + strlen("time=\"")), (double)all * 1e-9, 1e-5);
  free(xml);
  gbt_release(&l);
}

/* Every testcase's system-out has exactly these keys, in this order. */
static void assert_fixed_layout(const char *xml) {
  static const char *const keys[] = {
      "verdict",         "runs",          "sorts per process", "comparisons per sort",
      "writes per sort", "time per sort", "cpu time per sort", "energy per sort",
      "net power",       "process time",  "outliers"};
  size_t n_keys = sizeof keys / sizeof keys[0], cases = 0;
  for (const char *at = strstr(xml, "<system-out>"); at; at = strstr(at, "<system-out>")) {
    at += strlen("<system-out>");
    const char *end = strstr(at, "</system-out>");
    cr_assert_not_null(end);
    size_t k = 0;
    for (const char *line = at; line < end; line = strchr(line, '\n') + 1, k++) {
      cr_assert_lt(k, n_keys, "case %zu: more lines than keys", cases);
      size_t n = strlen(keys[k]);
      cr_assert(strncmp(line, keys[k], n) == 0 && line[n] == ':' && line[n + 1] == ' ',
                "case %zu: line %zu is not '%s: ...': %.60s", cases, k, keys[k], line);
      cr_assert(line[n + 2] != '\n', "case %zu: %s has no value", cases, keys[k]);
    }
    cr_assert_eq(k, n_keys, "case %zu: %zu of %zu keys", cases, k, n_keys);
    cases++;
  }
  cr_assert_gt(cases, 0u);
}

Test(report_junit, every_case_has_every_key_in_order) {
  static const char *const fixtures[] = {"report-energy", "report-off", "report-partial"};
  for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++) {
    size_t len;
    char *xml = junit_of(fixtures[i], &len);
    assert_fixed_layout(xml);
    free(xml);
  }
  size_t len;
  char *xml = junit_of("report-partial", &len);
  cr_expect(strstr(xml, "verdict: skipped\nruns: 0 ok of 0 in runs.csv, 3 planned\n"
                        "sorts per process: not measured\n"));
  cr_expect(strstr(xml, "verdict: failed\n"));
  cr_expect(strstr(xml, "verdict: passed\n"));
  cr_expect(strstr(xml, "process time: median 257.0 ms, p95 261.5 ms, min 252.0 ms, max "
                        "262.0 ms\noutliers: 0 low, 0 high\n"));
  free(xml);
}

/* The same records under another profile or machine: no classname in common. */
static char *junit_as(gbt_loaded *l, gb_profile profile, const char *label) {
  l->r->meta.settings.profile = profile;
  l->r->meta.machine.has_label = label != NULL;
  snprintf(l->r->meta.machine.label, sizeof l->r->meta.machine.label, "%s", label ? label : "");
  char *xml;
  size_t len;
  gb_err err;
  cr_assert_eq(gb_report_junit(l->a, &xml, &len, &err), 0, "%s", err.msg);
  assert_valid(xml, len);
  return xml;
}

Test(report_junit, two_profiles_or_two_machines_never_share_a_classname) {
  gbt_loaded l = gbt_load_analysed("report-energy");
  char *smoke = junit_as(&l, GB_PROFILE_SMOKE, "bench-01");
  char *study = junit_as(&l, GB_PROFILE_STUDY, "bench-01");
  char *other = junit_as(&l, GB_PROFILE_STUDY, "bench-02");
  char *none = junit_as(&l, GB_PROFILE_STUDY, NULL);
  cr_expect(strstr(smoke, "classname=\"bench-01.smoke.c.quick\""));
  cr_expect(strstr(study, "classname=\"bench-01.study.c.quick\""));
  cr_expect(strstr(other, "classname=\"bench-02.study.c.quick\""));
  cr_expect(strstr(none, "classname=\"unlabelled.study.c.quick\""));
  cr_expect(strstr(none, "<property name=\"machine_label\" value=\"unlabelled\"/>"));
  cr_expect_null(strstr(smoke, ".study."));
  cr_expect_null(strstr(study, ".smoke."));
  cr_expect_null(strstr(other, "bench-01."));
  free(smoke);
  free(study);
  free(other);
  free(none);
  gbt_release(&l);
}

/* ---- A campaign without records ---------------------------------------------- */

static const gb_junit_case two_cases[] = {
    {GB_PYTHON, GB_QUICK, GB_RANDOM, 2000},
    {GB_C, GB_BUBBLE, GB_NEARLY, 250},
};
static const char not_run[] = "the campaign did not start: energy is unavailable: no RAPL "
                              "package zone under /sys/class/powercap & \"greenbench check\"";

Test(report_junit, golden_unrun) {
  char *xml;
  size_t len;
  gb_err err;
  cr_assert_eq(
      gb_report_junit_unrun("bench-01", "study", two_cases, 2, not_run, &xml, &len, &err), 0,
      "%s", err.msg);
  cr_assert_eq(strlen(xml), len);
  gbt_golden("unrun", "junit.xml", xml, len);
  free(xml);
}

Test(report_junit, unrun_is_valid_against_the_schema_and_fails_every_case) {
  char *xml;
  size_t len;
  gb_err err;
  cr_assert_eq(gb_report_junit_unrun(NULL, "smoke", two_cases, 2, not_run, &xml, &len, &err), 0,
               "%s", err.msg);
  assert_valid(xml, len);
  assert_fixed_layout(xml);
  cr_expect(strstr(xml,
                   "<testsuites name=\"greenbench\" tests=\"2\" failures=\"2\" errors=\"0\" "
                   "time=\"0.000000\">"));
  /* Suites in language and algorithm order, whatever the order given. */
  const char *c = strstr(xml, "<testsuite name=\"unlabelled.smoke.c.bubble\" tests=\"1\" "
                              "failures=\"1\" errors=\"0\" skipped=\"0\" time=\"0.000000\">");
  const char *py = strstr(xml, "<testsuite name=\"unlabelled.smoke.python.quick\"");
  cr_expect(c && py && c < py);
  cr_expect(strstr(xml, "<testcase classname=\"unlabelled.smoke.python.quick\" "
                        "name=\"random.2000\" time=\"0.000000\">\n      <failure "
                        "type=\"campaign-not-run\" message=\"the campaign did not start: "));
  cr_expect(strstr(xml, "verdict: failed\nruns: not measured\n"));
  free(xml);
}

Test(report_junit, unrun_refuses_what_it_cannot_write) {
  char *xml = NULL;
  size_t len;
  gb_err err;
  cr_assert_eq(
      gb_report_junit_unrun("bench-01", "study", two_cases, 0, not_run, &xml, &len, &err),
      -EINVAL);
  cr_expect_str_eq(err.msg, "junit.xml: no case to report");
  cr_assert_eq(gb_report_junit_unrun("bench.example.org", "study", two_cases, 2, not_run, &xml,
                                     &len, &err),
               -EINVAL);
  cr_expect_str_eq(err.msg, "junit.xml: machine label 'bench.example.org' is not a label");
  cr_assert_eq(
      gb_report_junit_unrun("bench-01", "huge", two_cases, 2, not_run, &xml, &len, &err),
      -EINVAL);
  cr_assert_eq(gb_report_junit_unrun("bench-01", "study", two_cases, 2, "", &xml, &len, &err),
               -EINVAL);
  const gb_junit_case twice[] = {two_cases[0], two_cases[0]};
  cr_assert_eq(gb_report_junit_unrun("bench-01", "study", twice, 2, not_run, &xml, &len, &err),
               -EINVAL);
  cr_expect_str_eq(err.msg, "junit.xml: cases 0 and 1 are the same");
  cr_assert_null(xml, "nothing is returned on failure");
}
