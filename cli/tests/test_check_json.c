/* `greenbench check --json`: the check's findings as one JSON object (cJSON
 * parses it back); the schema is held to it by stats/tests/schema_check.py. */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_internal.h"
#include "greenbench/cli.h"
#include "helper_powercap.h"

static char out_text[32768], err_text[1024];

/* cli_check_json on f; its output parsed (NULL when it is not JSON). */
static cJSON *to_json(gb_findings *f, bool energy, bool workers, int status, int *rc) {
  FILE *out = fmemopen(out_text, sizeof out_text, "w"),
       *err = fmemopen(err_text, sizeof err_text, "w");
  *rc = cli_check_json(f, energy, workers, status, out, err);
  fclose(out);
  fclose(err);
  gb_findings_free(f);
  return cJSON_Parse(out_text);
}

static const char *str(const cJSON *o, const char *key) {
  return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
}

Test(check_json, findings_keep_their_details) {
  int rc;
  gb_findings in;
  gb_findings_init(&in, NULL);
  gb_findings_add(&in, GB_FINDING_INFO, "energy", "1 RAPL zone(s) under /x, all readable");
  gb_findings_detail(&in, GB_FINDING_OK, "counters over 0.5 s: moving");
  gb_findings_detail(&in, GB_FINDING_OK, "sampling: every 10 ms");
  gb_findings_add(&in, GB_FINDING_INFO, "cpu", "Intel(R) Xeon(R): 8 cores");
  gb_findings_add(&in, GB_FINDING_INFO, "node", "warning: Node.js 18 is old");
  gb_findings_add(&in, GB_FINDING_OK, "verdict",
                  "this machine can measure energy for the study");
  cJSON *j = to_json(&in, true, true, 0, &rc);
  cr_assert_eq(rc, 0);
  cr_assert_not_null(j, "not JSON: %s", out_text);
  cr_assert_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(j, "schema_version")), 1);
  cr_assert_str_eq(str(j, "generator"), "greenbench check");
  cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(j, "energy_measurable")));
  cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(j, "workers_run")));
  cr_assert_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(j, "exit_status")), 0);
  cr_assert_str_eq(str(j, "verdict"), "this machine can measure energy for the study");
  cJSON *f = cJSON_GetObjectItem(j, "findings");
  cr_assert_eq(cJSON_GetArraySize(f), 3, "%s", out_text);
  cJSON *energy = cJSON_GetArrayItem(f, 0);
  cr_assert_str_eq(str(energy, "topic"), "energy");
  cr_assert_str_eq(str(energy, "text"), "1 RAPL zone(s) under /x, all readable");
  cJSON *details = cJSON_GetObjectItem(energy, "details");
  cr_assert_eq(cJSON_GetArraySize(details), 2);
  cr_assert_str_eq(cJSON_GetStringValue(cJSON_GetArrayItem(details, 1)),
                   "sampling: every 10 ms");
  cr_assert_str_eq(str(cJSON_GetArrayItem(f, 1), "text"), "Intel(R) Xeon(R): 8 cores");
  cr_assert_str_eq(str(cJSON_GetArrayItem(f, 2), "text"), "warning: Node.js 18 is old");
  cJSON_Delete(j);
}

/* Control bytes are shown as the lines show them, \xHH. */
Test(check_json, control_bytes_are_escaped_as_in_the_lines) {
  int rc;
  gb_findings f;
  gb_findings_init(&f, NULL);
  gb_findings_add(&f, GB_FINDING_BAD, "python", "/x\033[2J: does not run");
  gb_findings_add(&f, GB_FINDING_BAD, "verdict", "no");
  cJSON *j = to_json(&f, false, false, 1, &rc);
  cr_assert_eq(rc, 1);
  cr_assert_not_null(j, "not JSON: %s", out_text);
  cr_assert_str_eq(str(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "findings"), 0), "text"),
                   "/x\\x1b[2J: does not run");
  cJSON_Delete(j);
}

Test(check_json, without_a_verdict_it_fails_with_one_error_line) {
  int rc;
  gb_findings f;
  gb_findings_init(&f, NULL);
  gb_findings_add(&f, GB_FINDING_BAD, "energy", "unavailable");
  cJSON *j = to_json(&f, false, true, 1, &rc);
  cr_assert_eq(rc, 1);
  cr_assert_null(j);
  cr_assert_str_eq(err_text,
                   "greenbench: error: check: --json: cannot build or write the JSON output\n");
}

/* The whole command on a fake powercap tree with moving counters: exit 0,
 * stdout one JSON object and nothing else. */
Test(check_json, the_command_prints_one_object) {
  powercap_fake *fake = powercap_fake_create();
  int pkg = powercap_fake_package(fake, 0, 1234, 262143328850u);
  powercap_fake_power(fake, pkg, 5000);
  powercap_fake_start(fake);
  setenv("GREENBENCH_POWERCAP_ROOT", powercap_fake_root(fake), 1);
  FILE *out = fmemopen(out_text, sizeof out_text, "w"),
       *err = fmemopen(err_text, sizeof err_text, "w");
  gb_cli_env env = {.workers = {GB_WORKER_C_PATH, GB_PYTHON_PATH, GB_PYTHON_WORKER_PATH,
                                GB_NODE_PATH, GB_NODE_WORKER_PATH},
                    .out = out,
                    .err = err};
  const char *argv[] = {"check", "--json"};
  int rc = gb_cli_check(2, (char **)argv, &env);
  fclose(out);
  fclose(err);
  unsetenv("GREENBENCH_POWERCAP_ROOT");
  powercap_fake_destroy(fake);
  cr_assert_eq(rc, 0, "%s%s", out_text, err_text);
  cJSON *j = cJSON_Parse(out_text);
  cr_assert_not_null(j, "not JSON: %s", out_text);
  cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(j, "energy_measurable")));
  /* The ways to read the counters come first (powercap, perf_event), then
   * the energy finding that sums them up. */
  const cJSON *f, *energy = NULL;
  cJSON_ArrayForEach(f, cJSON_GetObjectItem(j, "findings")) {
    if (!energy && str(f, "topic") && strcmp(str(f, "topic"), "energy") == 0)
      energy = f;
  }
  cr_assert_not_null(energy, "no energy finding: %s", out_text);
  cr_assert_str_eq(str(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "findings"), 0), "topic"),
                   "powercap");
  cr_assert_str_eq(str(j, "verdict"), "this machine can measure energy for the study");
  cJSON_Delete(j);
}
