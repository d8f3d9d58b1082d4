/* What the reader refuses beyond the schema (docs/records.md, "What the
 * reader refuses"): each test copies records-good, makes one change, and
 * expects gb_records_read (and so `greenbench report`) to refuse the folder
 * with the file, the line and the rule. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "greenbench/records_read.h"
#include "greenbench/report.h"
#include "helper_report.h"

/* ---- Helpers ------------------------------------------------------------------ */

static void copy_good(char *dir, size_t len) {
  gbt_copy_fixture("records-good", "/tmp/gb-rules-XXXXXX", GBT_REQUIRE_ALL, dir, len);
}

static void remove_copy(const char *dir) {
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  cr_assert_eq(system(cmd), 0);
}

/* Replaces the one occurrence of `from` in dir/file with `to`. */
static void replace_in(const char *dir, const char *file, const char *from, const char *to) {
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  char *s = gbt_slurp_or_fail(path), *at = strstr(s, from);
  cr_assert_not_null(at, "%s: no '%s'", path, from);
  cr_assert_null(strstr(at + 1, from), "%s: '%s' is not unique", path, from);
  char *out = malloc(strlen(s) + strlen(to) + 1);
  sprintf(out, "%.*s%s%s", (int)(at - s), s, to, at + strlen(from));
  gbt_spit(path, out);
  free(out);
  free(s);
}

/* Sets field col of line `line` of dir/file (a line without quoted fields). */
static void set_field(const char *dir, const char *file, size_t line, gb_rec_col col,
                      const char *to) {
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  char *s = gbt_slurp_or_fail(path), *p = s;
  for (size_t i = 1; i < line; i++) {
    p = strchr(p, '\n') + 1;
  }
  for (int i = 0; i < (int)col; i++) {
    p = strchr(p, ',') + 1;
  }
  size_t old = strcspn(p, ",\n");
  char *out = malloc(strlen(s) + strlen(to) + 1);
  sprintf(out, "%.*s%s%s", (int)(p - s), s, to, p + old);
  gbt_spit(path, out);
  free(out);
  free(s);
}

/* gb_records_read refuses dir with "<dir>/<want>". */
static void expect_refused(const char *dir, const char *want) {
  gb_records *r = NULL;
  gb_err err = {""};
  char full[4200];
  snprintf(full, sizeof full, "%s/%s", dir, want);
  cr_assert_eq(gb_records_read(dir, &r, &err), -EINVAL, "accepted, expected: %s", want);
  cr_assert_null(r);
  cr_assert_str_eq(err.msg, full);
}

static void expect_read(const char *dir) {
  gb_records_free(gbt_load_dir(dir));
}

/* One field of runs.csv set, then the refusal. */
static void runs_field(size_t line, gb_rec_col col, const char *to, const char *want) {
  char dir[64];
  copy_good(dir, sizeof dir);
  set_field(dir, "runs.csv", line, col, to);
  expect_refused(dir, want);
  remove_copy(dir);
}

/* ---- The good fixture ----------------------------------------------------------- */

Test(records_rules, the_good_fixture_passes_every_rule) {
  char dir[64];
  copy_good(dir, sizeof dir);
  expect_read(dir);
  remove_copy(dir);
}

/* ---- Times ------------------------------------------------------------------------ */

Test(records_rules, wall_longer_than_the_timeout) {
  runs_field(2, GB_REC_COL_WALL_NS, "18446744073709551615",
             "runs.csv:2: wall_ns: 18446744073709551615 ns, longer than 1 launch(es) x "
             "(settings.timeout_s 60 s + 1 s): a worker past its timeout is killed, never ok");
}

Test(records_rules, loop_longer_than_wall) {
  runs_field(2, GB_REC_COL_LOOP_NS, "262000001",
             "runs.csv:2: loop_ns: 262000001 ns, longer than wall_ns 262000000 ns: the sort "
             "loop runs inside the process the wall time encloses");
}

Test(records_rules, loop_of_zero) {
  runs_field(4, GB_REC_COL_LOOP_NS, "0",
             "runs.csv:4: loop_ns: 0, but a loop of at least one sort takes time");
}

Test(records_rules, loop_longer_than_wall_in_warmups) {
  char dir[64];
  copy_good(dir, sizeof dir);
  set_field(dir, "warmups.csv", 3, GB_REC_COL_WALL_NS, "30000001");
  expect_refused(dir, "warmups.csv:3: loop_ns: 214000000 ns, longer than wall_ns 30000001 ns: "
                      "the sort loop runs inside the process the wall time encloses");
  remove_copy(dir);
}

/* ---- Plausibility (docs/records.md, "Plausibility") -------------------------------- */

Test(records_rules, temperatures_outside_minus_50_to_150_c) {
  runs_field(2, GB_REC_COL_TEMP_START_MC, "-300000",
             "runs.csv:2: temp_start_mc: -300000 m°C, outside -50..150 °C, where no working "
             "processor runs");
  runs_field(2, GB_REC_COL_TEMP_END_MC, "1000000000",
             "runs.csv:2: temp_end_mc: 1000000000 m°C, outside -50..150 °C, where no working "
             "processor runs");
}

Test(records_rules, a_frequency_above_10_ghz) {
  runs_field(2, GB_REC_COL_FREQ_START_KHZ, "1000000000000",
             "runs.csv:2: freq_start_khz: 1000000000000 kHz, above 10 GHz, which no processor "
             "runs at");
}

Test(records_rules, a_max_rss_outside_1_mib_to_1_tib) {
  runs_field(2, GB_REC_COL_MAX_RSS_KIB, "1099511627776",
             "runs.csv:2: max_rss_kib: 1099511627776 KiB, outside 1 MiB..1 TiB (a process "
             "that ran a runtime holds at least 1 MiB)");
  runs_field(2, GB_REC_COL_MAX_RSS_KIB, "0",
             "runs.csv:2: max_rss_kib: 0 KiB, outside 1 MiB..1 TiB (a process that ran a "
             "runtime holds at least 1 MiB)");
}

Test(records_rules, start_times_outside_the_campaign) {
  static const char *const times[] = {"0", "17000000000000000000", "1796281600000000000"};
  for (size_t i = 0; i < 3; i++) {
    char want[256];
    snprintf(want, sizeof want,
             "runs.csv:2: started_unix_ns: %s, outside the campaign (meta.json started_at to "
             "finished_at, or to now while it runs)",
             times[i]);
    runs_field(2, GB_REC_COL_STARTED_UNIX_NS, times[i], want);
  }
}

Test(records_rules, start_times_that_decrease) {
  runs_field(3, GB_REC_COL_STARTED_UNIX_NS, "1796281200399999999",
             "runs.csv:3: started_unix_ns: 1796281200399999999, before the previous row's "
             "1796281200400000000: runs are written in the order they start");
}

static void meta_changed(const char *from, const char *to, const char *want) {
  char dir[64];
  copy_good(dir, sizeof dir);
  replace_in(dir, "meta.json", from, to);
  expect_refused(dir, want);
  remove_copy(dir);
}

Test(records_rules, finished_at_before_started_at) {
  meta_changed("\"finished_at\": \"2026-12-03T07:05:00Z\"",
               "\"finished_at\": \"2026-12-03T06:05:00Z\"",
               "meta.json: finished_at: '2026-12-03T06:05:00Z' is not a time from started_at "
               "'2026-12-03T07:00:00Z' to a day from now");
}

Test(records_rules, a_campaign_in_the_year_2500) {
  meta_changed("\"started_at\": \"2026-12-03T07:00:00Z\"",
               "\"started_at\": \"2500-12-03T07:00:00Z\"",
               "meta.json: started_at: '2500-12-03T07:00:00Z' is not a time from 2020-01-01 to "
               "a day from now");
}

/* gb_settings_check's bound, which the reader applies (issue 35). */
Test(records_rules, a_timeout_outside_1_to_86400_s) {
  meta_changed("\"timeout_s\": 60", "\"timeout_s\": 18446744073709551615",
               "meta.json: settings.timeout_s: 18446744073709551615 is outside 1..86400");
}

/* ---- CPU time ---------------------------------------------------------------------- */

Test(records_rules, cpu_beyond_wall_times_pinned_cpus) {
  runs_field(2, GB_REC_COL_USER_NS, "26200000000",
             "runs.csv:2: user_ns + sys_ns: 26203100000 ns, more than wall_ns 262000000 ns x 2 "
             "pinned CPU(s) (meta.json pinning.cpus '2,4') + 1%");
}

/* Node.js's helper threads may use both pinned CPUs: up to 2 x wall is fine
 * on "2,4", not on one CPU. */
Test(records_rules, cpu_up_to_every_pinned_cpu) {
  char dir[64];
  copy_good(dir, sizeof dir);
  set_field(dir, "runs.csv", 2, GB_REC_COL_USER_NS, "520000000");
  expect_read(dir);
  replace_in(dir, "meta.json", "\"cpus\": \"2,4\"", "\"cpus\": \"2\"");
  expect_refused(dir, "runs.csv:2: user_ns + sys_ns: 523100000 ns, more than wall_ns "
                      "262000000 ns x 1 pinned CPU(s) (meta.json pinning.cpus '2') + 1%");
  remove_copy(dir);
}

Test(records_rules, pinned_cpus_that_are_no_list) {
  char dir[64];
  copy_good(dir, sizeof dir);
  replace_in(dir, "meta.json", "\"cpus\": \"2,4\"", "\"cpus\": \"2,,4\"");
  expect_refused(dir, "meta.json: pinning.cpus: '2,,4' is not a CPU list such as 2,4");
  remove_copy(dir);
}

/* ---- Power -------------------------------------------------------------------------- */

Test(records_rules, package_energy_of_an_impossible_power) {
  runs_field(2, GB_REC_COL_PKG_UJ, "18446744073709551615",
             "runs.csv:2: pkg_uj: 18446744073709551615 uJ in wall_ns 262000000 ns is "
             "70407420128662 W, more than 1 kW per package (1 in meta.json), the rate at which "
             "the harness stops a run");
}

/* 1 kW is 1 uJ per ns: exactly 1 kW passes, one uJ more does not. */
Test(records_rules, package_power_bound_is_1_kw_per_package) {
  char dir[64];
  copy_good(dir, sizeof dir);
  set_field(dir, "runs.csv", 2, GB_REC_COL_PKG_UJ, "262000000");
  expect_read(dir);
  set_field(dir, "runs.csv", 2, GB_REC_COL_PKG_UJ, "262000001");
  expect_refused(dir, "runs.csv:2: pkg_uj: 262000001 uJ in wall_ns 262000000 ns is 1000 W, "
                      "more than 1 kW per package (1 in meta.json), the rate at which the "
                      "harness stops a run");
  remove_copy(dir);
}

Test(records_rules, idle_energy_above_1_kw) {
  runs_field(2, GB_REC_COL_IDLE_PKG_UJ, "300000000",
             "runs.csv:2: idle_pkg_uj: 300000000 uJ in idle_ns 262002000 ns is 1145 W, more "
             "than 1 kW per package (1 in meta.json), the rate at which the harness stops a "
             "run");
}

/* Net power may be negative (a burst in the idle window, the counters'
 * steps on a short run); only the 1 kW bound limits it. */
Test(records_rules, idle_power_above_the_runs_is_not_refused) {
  char dir[64];
  copy_good(dir, sizeof dir);
  set_field(dir, "runs.csv", 2, GB_REC_COL_IDLE_PKG_UJ, "195000000");
  expect_read(dir);
  remove_copy(dir);
}

Test(records_rules, idle_window_of_zero) {
  runs_field(2, GB_REC_COL_IDLE_NS, "0",
             "runs.csv:2: idle_ns: 0, but the idle window lasts as long as its run and scales "
             "its energy");
}

/* ---- The calibration ------------------------------------------------------------------- */

Test(records_rules, sorts_other_than_calibrated) {
  runs_field(
      4, GB_REC_COL_SORTS, "91",
      "runs.csv:4: sorts: 91, but meta.json calibration gives python/quick/random/250 90 "
      "per process");
}

Test(records_rules, launches_other_than_calibrated) {
  runs_field(3, GB_REC_COL_LAUNCHES, "13",
             "runs.csv:3: launches: 13, but meta.json startup gives python/random/250 12 per "
             "process");
}

Test(records_rules, a_configuration_calibrated_twice) {
  char dir[64];
  copy_good(dir, sizeof dir);
  replace_in(dir, "meta.json", "{\"language\": \"python\", \"algorithm\"",
             "{\"language\": \"c\", \"algorithm\"");
  expect_refused(dir, "meta.json: calibration[1]: a second entry for c/quick/random/250");
  remove_copy(dir);
}

Test(records_rules, a_configuration_never_calibrated) {
  char *json = gbt_slurp_or_fail(GB_TEST_DATA_DIR "/records-good/meta.json");
  char *csv = gbt_slurp_or_fail(GB_TEST_DATA_DIR "/records-good/runs.csv");
  gb_meta m;
  gb_err err = {""};
  cr_assert_eq(gb_meta_parse(json, strlen(json), "meta.json", &m, &err), 0, "%s", err.msg);
  m.n_calibration = 1; /* c's only */
  gb_rec_table t = {0};
  cr_assert_eq(
      gb_records_parse_csv(csv, strlen(csv), "runs.csv", GB_REC_FILE_RUNS, &m, &t, &err),
      -EINVAL);
  cr_assert_str_eq(err.msg, "runs.csv:4: sorts: 90, but meta.json has no calibration entry for "
                            "python/quick/random/250, and measured runs start only after "
                            "calibration");
  gb_meta_free(&m);
  free(csv);
  free(json);
}

/* ---- The workload ------------------------------------------------------------------------ */

Test(records_rules, comparisons_other_than_the_workloads) {
  runs_field(2, GB_REC_COL_COMPARISONS, "1",
             "runs.csv:2: comparisons: 1, but the workload makes 1933 per sort of "
             "quick/random/250 with seed 2463534242");
}

/* Every row saying 1 agrees with every other: parity alone cannot see it. */
Test(records_rules, comparisons_of_1_on_every_row) {
  char dir[64];
  copy_good(dir, sizeof dir);
  const size_t sort_lines[] = {2, 4, 6, 7, 11};
  for (size_t i = 0; i < sizeof sort_lines / sizeof *sort_lines; i++) {
    set_field(dir, "runs.csv", sort_lines[i], GB_REC_COL_COMPARISONS, "1");
  }
  expect_refused(dir, "runs.csv:2: comparisons: 1, but the workload makes 1933 per sort of "
                      "quick/random/250 with seed 2463534242");
  remove_copy(dir);
}

Test(records_rules, writes_other_than_the_workloads) {
  runs_field(7, GB_REC_COL_WRITES, "1941",
             "runs.csv:7: writes: 1941, but the workload makes 1940 per sort of "
             "quick/random/250 with seed 2463534242");
}

Test(records_rules, input_hash_other_than_the_workloads) {
  runs_field(3, GB_REC_COL_INPUT_HASH, "0123456789abcdef",
             "runs.csv:3: input_hash: 0123456789abcdef, but the workload's random input of 250 "
             "with seed 2463534242 hashes to 586a23232437ac50");
}

Test(records_rules, warmup_counts_other_than_the_workloads) {
  char dir[64];
  copy_good(dir, sizeof dir);
  set_field(dir, "warmups.csv", 4, GB_REC_COL_WRITES, "7");
  expect_refused(dir, "warmups.csv:4: writes: 7, but the workload makes 1940 per sort of "
                      "quick/random/250 with seed 2463534242");
  remove_copy(dir);
}

/* A failed run's counts are what the worker said (a parity mismatch is
 * recorded as such); only ok rows must hold the workload's. */
Test(records_rules, failed_runs_keep_what_the_worker_said) {
  char dir[64];
  copy_good(dir, sizeof dir);
  set_field(dir, "runs.csv", 2, GB_REC_COL_STATUS, "parity_mismatch");
  set_field(dir, "runs.csv", 2, GB_REC_COL_COMPARISONS, "1");
  expect_read(dir);
  remove_copy(dir);
}

/* ---- The plan and completed ------------------------------------------------------------- */

Test(records_rules, sizes_the_plan_does_not_hold) {
  char dir[64];
  copy_good(dir, sizeof dir);
  replace_in(dir, "meta.json", "\"sizes\": [250]",
             "\"sizes\": [250, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]");
  expect_refused(dir, "meta.json: plan.configurations: 2, but the settings select 32 (2 "
                      "languages x 1 algorithms x 1 orders x 16 sizes)");
  remove_copy(dir);
}

/* Issue 35: one limit of sizes (GB_MAX_SIZES) for the harness and the
 * records; the harness never wrote more. */
Test(records_rules, more_sizes_than_a_campaign_can_list) {
  char dir[64];
  copy_good(dir, sizeof dir);
  replace_in(dir, "meta.json", "\"sizes\": [250]",
             "\"sizes\": [250, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]");
  expect_refused(dir, "meta.json: settings.sizes: too many entries");
  remove_copy(dir);
}

Test(records_rules, sort_runs_the_plan_does_not_hold) {
  char dir[64];
  copy_good(dir, sizeof dir);
  replace_in(dir, "meta.json", "\"sort_runs\": 6, \"startup_runs\": 6, \"measured_runs\": 12",
             "\"sort_runs\": 8, \"startup_runs\": 4, \"measured_runs\": 12");
  expect_refused(dir, "meta.json: plan.sort_runs: 8, but 2 configurations x settings.runs 3 is "
                      "6");
  remove_copy(dir);
}

/* With completed true, each trial has exactly settings.runs rows: here the
 * row count is right but one startup trial has four. */
Test(records_rules, completed_with_a_configuration_over_its_runs) {
  char dir[64];
  copy_good(dir, sizeof dir);
  replace_in(dir, "runs.csv", "1,startup,python,quick,random,250,2463534242,0,12,",
             "1,startup,c,quick,random,250,2463534242,0,400,");
  expect_refused(dir, "runs.csv:13: run 4 of startup trial c/random/250, but meta.json "
                      "settings.runs is 3");
  remove_copy(dir);
}

/* settings.omit: configurations of the lists' product that were not
 * measured (a CTest selection that is not a product). */
static void omit_refused(const char *omit, const char *want) {
  char dir[64], to[512];
  copy_good(dir, sizeof dir);
  snprintf(to, sizeof to, "\"timeout_s\": 60, \"omit\": %s", omit);
  replace_in(dir, "meta.json", "\"timeout_s\": 60", to);
  expect_refused(dir, want);
  remove_copy(dir);
}

Test(records_rules, omitted_configurations_lie_inside_the_lists_once) {
  omit_refused("[{\"language\": \"node\", \"algorithm\": \"quick\", \"order\": \"random\", "
               "\"size\": 250}]",
               "meta.json: settings.omit[0]: a configuration not in the settings' lists");
  omit_refused("[{\"language\": \"c\", \"algorithm\": \"quick\", \"order\": \"random\", "
               "\"size\": 500}]",
               "meta.json: settings.omit[0]: a configuration not in the settings' lists");
  omit_refused("{\"language\": \"c\"}", "meta.json: settings.omit: expected an array, got an "
                                        "object");
  omit_refused("[{\"language\": \"c\", \"algorithm\": \"quick\", \"order\": \"random\"}]",
               "meta.json: settings.omit[0].size: missing");
}

Test(records_rules, omitting_every_configuration_of_a_listed_item) {
  omit_refused("[{\"language\": \"python\", \"algorithm\": \"quick\", \"order\": "
               "\"random\", \"size\": 250}]",
               "meta.json: settings.omit: omits every configuration of language python");
}

/* Languages c, python x orders random, sorted, less c/sorted and
 * python/random: two configurations and two startup trials, as the plan
 * says, so only the rows of python/random (omitted) are wrong. */
Test(records_rules, rows_of_an_omitted_configuration) {
  char dir[64];
  copy_good(dir, sizeof dir);
  replace_in(dir, "meta.json", "\"orders\": [\"random\"]",
             "\"orders\": [\"random\", \"sorted\"]");
  replace_in(dir, "meta.json", "\"python\", \"algorithm\": \"quick\", \"order\": \"random\"",
             "\"python\", \"algorithm\": \"quick\", \"order\": \"sorted\"");
  replace_in(dir, "meta.json", "\"python\", \"order\": \"random\"",
             "\"python\", \"order\": \"sorted\"");
  replace_in(dir, "meta.json", "\"timeout_s\": 60",
             "\"timeout_s\": 60, \"omit\": [{\"language\": \"c\", \"algorithm\": \"quick\", "
             "\"order\": \"sorted\", \"size\": 250}, {\"language\": \"python\", \"algorithm\": "
             "\"quick\", \"order\": \"random\", \"size\": 250}]");
  gb_records *r = NULL;
  gb_err err = {""};
  char want[4200];
  snprintf(
      want, sizeof want,
      "unknown startup trial python/random/250 at %s/runs.csv:3: not in meta.json settings",
      dir);
  cr_assert_eq(gb_records_read(dir, &r, &err), -EINVAL);
  cr_assert_str_eq(err.msg, want);
  remove_copy(dir);
}

/* The same omission twice is refused, not merged. */
Test(records_rules, an_omitted_configuration_listed_twice) {
  char dir[64];
  copy_good(dir, sizeof dir);
  replace_in(dir, "meta.json", "\"orders\": [\"random\"]",
             "\"orders\": [\"random\", \"sorted\"]");
  replace_in(dir, "meta.json", "\"timeout_s\": 60",
             "\"timeout_s\": 60, \"omit\": [{\"language\": \"c\", \"algorithm\": \"quick\", "
             "\"order\": \"sorted\", \"size\": 250}, {\"language\": \"c\", \"algorithm\": "
             "\"quick\", \"order\": \"sorted\", \"size\": 250}]");
  expect_refused(dir,
                 "meta.json: settings.omit[1]: the same configuration as an earlier entry");
  remove_copy(dir);
}

/* gb_settings_check's bound, which the reader applies (issue 35). */
Test(records_rules, sizes_above_the_workers_limit) {
  meta_changed("\"sizes\": [250]", "\"sizes\": [20000000]",
               "meta.json: settings.sizes: 20000000 is outside 1..10000000");
}

/* ---- Duplicate keys ------------------------------------------------------------------------
 */

Test(records_rules, a_repeated_key_changes_nothing_silently) {
  char dir[64];
  copy_good(dir, sizeof dir);
  replace_in(dir, "meta.json", "\"completed\": true,",
             "\"completed\": false, \"completed\": true,");
  expect_refused(dir,
                 "meta.json: completed: the key appears twice in one object; a JSON reader "
                 "keeps only one of them, so meta.json must not repeat a key");
  remove_copy(dir);
}

Test(records_rules, a_repeated_key_is_named_by_its_place) {
  char dir[64];
  copy_good(dir, sizeof dir);
  replace_in(dir, "meta.json", "\"sorts\": 90,", "\"sorts\": 90, \"sorts\": 91,");
  expect_refused(dir, "meta.json: calibration[1].sorts: the key appears twice in one object; a "
                      "JSON reader keeps only one of them, so meta.json must not repeat a key");
  remove_copy(dir);
}

/* ---- Through the report ------------------------------------------------------------------ */

/* gb_report_write, which `greenbench report` runs, stops at the rule with
 * its message (cli/tests/test_report_cli.c has the command's line). */
Test(records_rules, greenbench_report_refuses_with_the_rule) {
  char dir[64];
  copy_good(dir, sizeof dir);
  set_field(dir, "runs.csv", 2, GB_REC_COL_COMPARISONS, "1");
  gb_report_opts o = gb_report_opts_default();
  o.dir = dir;
  o.warnings = NULL;
  gb_err err;
  cr_assert_lt(gb_report_write(&o, &err), 0);
  char want[4200];
  snprintf(want, sizeof want,
           "%s/runs.csv:2: comparisons: 1, but the workload makes 1933 per sort of "
           "quick/random/250 with seed 2463534242",
           dir);
  cr_assert_str_eq(err.msg, want);
  remove_copy(dir);
}
