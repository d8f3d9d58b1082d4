/* The JUnit document of a suite campaign without records
 * (gb_suite_report_junit_unrun), which the suite's CTest fixture writes
 * while its campaign runs and when it cannot run: the chosen cases failed
 * with the reason, in the suite report's shape, read by junitparser as a
 * dashboard reads it and valid by schema/greenbench-suite-junit.xsd; and its
 * refusals. On the synthetic suite
 * (data/suite-synth/suite.json: c, python, lua; spin n x m, mix n x m). */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "greenbench/suite_analysis.h"

static gb_suite suite;

static void setup(void) {
  gb_err err;
  cr_assert_eq(gb_suite_load(GB_TEST_DATA_DIR "/suite-synth/suite.json", &suite, &err), 0, "%s",
               err.msg);
}

static void teardown(void) {
  gb_suite_free(&suite);
}

TestSuite(suite_junit_unrun, .init = setup, .fini = teardown);

/* c spin n=1000,m=2; c spin n=4000,m=2; lua mix n=500,m=1. */
static const gb_suite_junit_case cases[] = {
    {0, 0, {1000, 2}}, {0, 0, {4000, 2}}, {2, 1, {500, 1}}};

Test(suite_junit_unrun, fails_each_case_with_the_reason) {
  char *xml = NULL;
  size_t len = 0;
  gb_err err;
  cr_assert_eq(gb_suite_report_junit_unrun(&suite, "bench-01", "smoke", cases, 3,
                                           "the campaign stopped: a <bad> & \"odd\" reason",
                                           &xml, &len, &err),
               0, "%s", err.msg);
  cr_assert_eq(strlen(xml), len);
  cr_assert(
      strstr(xml, "<testsuites name=\"greenbench\" tests=\"3\" failures=\"3\" errors=\"0\""));
  cr_assert(strstr(
      xml, "<testsuite name=\"bench-01.synth.smoke.c.spin\" tests=\"2\" failures=\"2\""));
  cr_assert(strstr(
      xml, "<testsuite name=\"bench-01.synth.smoke.lua.mix\" tests=\"1\" failures=\"1\""));
  cr_assert_null(strstr(xml, "bench-01.synth.smoke.python"), "a language without a case");
  cr_assert_null(strstr(xml, "bench-01.synth.smoke.c.mix"), "a workload without a case");
  cr_assert(
      strstr(xml, "<testcase classname=\"bench-01.synth.smoke.c.spin\" name=\"n=4000;m=2\""));
  cr_assert(strstr(xml, "name=\"n=500;m=1\""));
  cr_assert(strstr(xml, "<failure type=\"campaign-not-run\" message=\"the campaign stopped: a "
                        "&lt;bad&gt; &amp; &quot;odd&quot; reason\">"),
            "%s", xml);
  cr_assert(strstr(xml, "<property name=\"campaign_completed\" value=\"false\"/>"));
  cr_assert(strstr(xml, "<property name=\"machine_label\" value=\"bench-01\"/>"));
  cr_assert(strstr(xml, "verdict: failed\nruns: 0 ok of 0 in runs.csv"));
  /* Read as a dashboard reads it. */
  char path[] = "/tmp/gb-test-unrun-XXXXXX", cmd[512];
  int fd = mkstemp(path);
  cr_assert_geq(fd, 0);
  cr_assert_eq(write(fd, xml, len), (ssize_t)len);
  close(fd);
  snprintf(cmd, sizeof cmd,
           "/usr/bin/python3 %s/tests/junit_check.py --suite-cases %s --tests 3 --failures 3 "
           "--skipped 0 >/dev/null",
           GB_TEST_SHARE_DIR, path);
  int rc = system(cmd);
  /* Valid by the suite JUnit contract, as the suite report's file is. */
  snprintf(cmd, sizeof cmd, "xmllint --noout --schema %s %s 2>/dev/null", GB_SUITE_JUNIT_SCHEMA,
           path);
  int valid = system(cmd);
  unlink(path);
  free(xml);
  cr_assert_eq(rc, 0, "junit_check refused it");
  cr_assert_eq(valid, 0, "greenbench-suite-junit.xsd refused it");
}

static void refused(const gb_suite_junit_case *c, size_t n, const char *label,
                    const char *profile, const char *reason) {
  char *xml = NULL;
  size_t len = 0;
  gb_err err;
  cr_assert_eq(
      gb_suite_report_junit_unrun(&suite, label, profile, c, n, reason, &xml, &len, &err),
      -EINVAL);
  cr_assert_null(xml);
  cr_assert(strstr(err.msg, "junit.xml: "), "%s", err.msg);
}

Test(suite_junit_unrun, refuses_no_case_no_reason_no_profile) {
  refused(cases, 0, NULL, "smoke", "why");
  refused(cases, 1, NULL, "smoke", "");
  refused(cases, 1, NULL, "", "why");
}

Test(suite_junit_unrun, refuses_a_case_that_is_not_the_suites) {
  gb_suite_junit_case bad[] = {{3, 0, {1000, 2}}};
  refused(bad, 1, NULL, "smoke", "why");
  gb_suite_junit_case workload[] = {{0, 2, {1000, 2}}};
  refused(workload, 1, NULL, "smoke", "why");
}

/* The machine label as the study's unrun file takes it: NULL is
 * "unlabelled", and one that is not a label is refused. */
Test(suite_junit_unrun, names_the_machine_unlabelled_without_one_and_refuses_a_bad_label) {
  char *xml = NULL;
  size_t len = 0;
  gb_err err;
  cr_assert_eq(
      gb_suite_report_junit_unrun(&suite, NULL, "smoke", cases, 1, "why", &xml, &len, &err), 0,
      "%s", err.msg);
  cr_assert(strstr(xml, "<testsuite name=\"unlabelled.synth.smoke.c.spin\""), "%s", xml);
  cr_assert(strstr(xml, "<property name=\"machine_label\" value=\"unlabelled\"/>"));
  free(xml);
  xml = NULL;
  cr_assert_eq(gb_suite_report_junit_unrun(&suite, "bench.example.org", "smoke", cases, 1,
                                           "why", &xml, &len, &err),
               -EINVAL);
  cr_assert_null(xml);
  cr_expect_str_eq(err.msg, "junit.xml: machine label 'bench.example.org' is not a label");
}
