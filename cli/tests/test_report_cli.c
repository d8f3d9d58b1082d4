/* `greenbench report` through gb_cli_report and gb_report_write: the files
 * it writes (against the same goldens as the writers), its refusals, its
 * warnings, and one clear line for every bad argument or bad record. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "greenbench/cli.h"
#include "greenbench/report.h"
#include "greenbench/validate.h"
#include "helper_report.h"
#include "helper_suite.h"

/* A copy of a fixture folder in a fresh temporary folder; a fixture without
 * warmups.csv gives a copy without one. */
static void copy_fixture(const char *fixture, char *dir, size_t len) {
  gbt_copy_fixture(fixture, "/tmp/gb-report-XXXXXX", GBT_SKIP_MISSING, dir, len);
}

static void remove_tree(const char *dir) {
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  cr_assert_eq(system(cmd), 0);
}

/* The whole of a stream the command wrote, NUL-terminated, into buf; then
 * closes it. */
static void read_back(FILE *f, char *buf, size_t len) {
  rewind(f);
  buf[fread(buf, 1, len - 1, f)] = '\0';
  fclose(f);
}

/* gb_cli_report on argv, with its two streams captured into out and err
 * (NUL-terminated; out may be NULL to leave it out). */
static int run_report_to(char **argv, char *out, size_t out_len, char *err, size_t len) {
  int argc = 0;
  while (argv[argc]) {
    argc++;
  }
  gb_cli_env env = {.out = tmpfile(), .err = tmpfile()};
  cr_assert(env.out && env.err, "tmpfile");
  int status = gb_cli_report(argc, argv, &env);
  if (out) {
    read_back(env.out, out, out_len);
  } else {
    fclose(env.out);
  }
  read_back(env.err, err, len);
  return status;
}

/* gb_cli_report on argv, with its error stream captured into err. */
static int run_report(char **argv, char *err, size_t len) {
  return run_report_to(argv, NULL, 0, err, len);
}

static size_t lines(const char *s) {
  size_t n = 0;
  for (; *s; s++) {
    n += *s == '\n';
  }
  return n;
}

/* One line, "greenbench: error: ...", holding `want`. */
static void assert_one_error(const char *err, const char *want) {
  cr_assert_eq(lines(err), 1, "expected one line, got: %s", err);
  cr_assert_eq(strncmp(err, "greenbench: error: ", 19), 0, "%s", err);
  cr_assert(strstr(err, want), "expected '%s' in: %s", want, err);
}

/* ---- Writing ---------------------------------------------------------------- */

Test(report_cli, writes_every_file_into_the_folder) {
  char dir[64], err[4096];
  copy_fixture("report-energy", dir, sizeof dir);
  char *argv[] = {"report", dir, NULL};
  cr_assert_eq(run_report(argv, err, sizeof err), 0, "%s", err);
  gbt_assert_golden_file("energy", dir, "results.md");
  gbt_assert_golden_file("energy", dir, "junit.xml");
  gbt_assert_golden_file("energy", dir, "chart.svg");
  gbt_assert_golden_file("energy", dir, "summary.json");
  gbt_assert_golden_file("energy", dir, "datapackage.json");
  remove_tree(dir);
}

/* A folder without warmups.csv gets a data package without its resource. */
Test(report_cli, the_data_package_describes_the_files_present) {
  char dir[64], err[4096];
  copy_fixture("report-off", dir, sizeof dir);
  char *argv[] = {"report", dir, NULL};
  cr_assert_eq(run_report(argv, err, sizeof err), 0, "%s", err);
  gbt_assert_golden_file("off", dir, "datapackage.json");
  gbt_assert_golden_file("off", dir, "summary.json");
  remove_tree(dir);
}

Test(report_cli, summary_and_datapackage_options) {
  char dir[64], err[4096], sub[4200], summary[4200], pkg[4200];
  copy_fixture("report-energy", dir, sizeof dir);
  snprintf(sub, sizeof sub, "%s/out", dir);
  cr_assert_eq(mkdir(sub, 0755), 0);
  snprintf(summary, sizeof summary, "%s/out/summary.json", dir);
  snprintf(pkg, sizeof pkg, "%s/datapackage.json", dir);
  char *argv[] = {"report", dir, "--summary", summary, "--no-datapackage", NULL};
  cr_assert_eq(run_report(argv, err, sizeof err), 0, "%s", err);
  gbt_assert_golden_file("energy", sub, "summary.json");
  cr_assert_neq(access(pkg, F_OK), 0, "--no-datapackage wrote %s", pkg);
  snprintf(summary, sizeof summary, "%s/summary.json", dir);
  cr_assert_neq(access(summary, F_OK), 0, "--summary elsewhere wrote the default");
  remove_tree(dir);
}

Test(report_cli, same_bytes_on_two_runs) {
  char dir[64], err[4096], a[4200], b[4200];
  copy_fixture("report-off", dir, sizeof dir);
  snprintf(a, sizeof a, "%s/a.md", dir);
  snprintf(b, sizeof b, "%s/b.md", dir);
  char *argv1[] = {"report", dir, "--out", a, NULL};
  cr_assert_eq(run_report(argv1, err, sizeof err), 0, "%s", err);
  char *argv3[] = {"report", dir, "--out", b, NULL};
  cr_assert_eq(run_report(argv3, err, sizeof err), 0, "%s", err);
  size_t la, lb;
  char *x = gbt_slurp(a, &la), *y = gbt_slurp(b, &lb);
  cr_assert(la == lb && memcmp(x, y, la) == 0);
  free(x);
  free(y);
  remove_tree(dir);
}

Test(report_cli, links_the_chart_relative_to_results_md) {
  char dir[64], err[4096], md[4200], chart[4200], sub[4200];
  copy_fixture("report-energy", dir, sizeof dir);
  snprintf(sub, sizeof sub, "%s/docs", dir);
  snprintf(md, sizeof md, "%s/docs/results.md", dir);
  snprintf(chart, sizeof chart, "%s/img/my chart.svg", dir);
  cr_assert_eq(mkdir(sub, 0755), 0);
  snprintf(sub, sizeof sub, "%s/img", dir);
  cr_assert_eq(mkdir(sub, 0755), 0);
  char *argv[] = {"report", dir, "--out", md, "--chart", chart, NULL};
  cr_assert_eq(run_report(argv, err, sizeof err), 0, "%s", err);
  size_t n;
  char *text = gbt_slurp(md, &n);
  cr_assert(strstr(text, "](../img/my%20chart.svg)"), "chart link");
  free(text);
  remove_tree(dir);
}

Test(report_cli, options_change_the_report) {
  char dir[64], err[4096], md[4200];
  copy_fixture("report-energy", dir, sizeof dir);
  snprintf(md, sizeof md, "%s/r.md", dir);
  char *argv[] = {"report",
                  dir,
                  "--out",
                  md,
                  "--resamples",
                  "200",
                  "--seed",
                  "7",
                  "--equivalence-margin",
                  "0.3",
                  "--power-estimator",
                  "study",
                  "--carbon",
                  "uk,FRA",
                  "--carbon-intensity",
                  "lab=123.5",
                  NULL};
  cr_assert_eq(run_report(argv, err, sizeof err), 0, "%s", err);
  size_t n;
  char *text = gbt_slurp(md, &n);
  cr_expect(strstr(text, "`greenbench report --resamples 200 --seed 7 --equivalence-margin "
                         "0.3 --power-estimator study`"));
  cr_expect(strstr(text, "net power is the power drawn above idle, by the study's estimator"));
  cr_expect(strstr(text, "*same power within 30%*"));
  cr_expect(strstr(text, "| United Kingdom | GBR |"));
  cr_expect(strstr(text, "| France | FRA |"));
  cr_expect(strstr(text, "| lab | custom | given | 123.5 |"));
  cr_expect_null(strstr(text, "United Arab Emirates"));
  free(text);
  remove_tree(dir);
}

/* Issue 32, item 1: --startup-fixed holds the startup medians fixed, as
 * the study first did, and the report says so; by default they are
 * resampled, and the intervals differ. */
Test(report_cli, startup_fixed_holds_the_startup) {
  char dir[64], err[4096], fixed[4200], resampled[4200];
  copy_fixture("report-noisy", dir, sizeof dir);
  snprintf(fixed, sizeof fixed, "%s/fixed.md", dir);
  snprintf(resampled, sizeof resampled, "%s/resampled.md", dir);
  char *argv1[] = {"report", dir, "--out", fixed, "--startup-fixed", "--allow-partial", NULL};
  char *argv2[] = {"report", dir, "--out", resampled, "--allow-partial", NULL};
  cr_assert_eq(run_report(argv1, err, sizeof err), 0, "%s", err);
  cr_assert_eq(run_report(argv2, err, sizeof err), 0, "%s", err);
  size_t n;
  char *a = gbt_slurp(fixed, &n), *b = gbt_slurp(resampled, &n);
  cr_expect(strstr(a, "--equivalence-margin 0.1 --power-estimator paired --startup-fixed`"));
  cr_expect(strstr(a, "The median startup cost per process subtracted is held fixed "
                      "(--startup-fixed), so its noise is not in the intervals."));
  cr_expect(strstr(a, "| c | quick | sorted | 100 | 3 of 3 | 1 | -50 [-300, 10] "));
  cr_expect_null(strstr(b, "--startup-fixed`"));
  cr_expect(strstr(b, "Each resample also resamples the startup trial's batches"));
  cr_expect(strstr(b, "| c | quick | sorted | 100 | 3 of 3 | 1 | -50 [-324, 28] "));
  free(a);
  free(b);
  remove_tree(dir);
}

Test(report_cli, help) {
  char err[4096], out[4096];
  char *argv[] = {"report", "--help", NULL};
  int status = run_report_to(argv, out, sizeof out, err, sizeof err);
  cr_assert_eq(status, 0);
  cr_assert_str_eq(err, "");
  cr_assert(strncmp(out, "usage: greenbench report DIR [options]\n", 39) == 0, "%s", out);
  cr_assert(strstr(out, "--equivalence-margin M"));
  cr_assert(strstr(out, "--power-estimator E"));
  cr_assert(strstr(out, "--summary FILE"));
  cr_assert(strstr(out, "--no-datapackage"));
  cr_assert(strstr(out, "DIR/datapackage.json (always in DIR"));
}

/* ---- Refusals and warnings ---------------------------------------------------- */

Test(report_cli, refuses_an_unfinished_campaign) {
  char dir[64], err[4096];
  copy_fixture("report-partial", dir, sizeof dir);
  char *argv[] = {"report", dir, NULL};
  cr_assert_eq(run_report(argv, err, sizeof err), 1);
  assert_one_error(err, "/meta.json: the campaign did not complete (50 of 72 planned runs "
                        "done); pass --allow-partial");
  char md[4200];
  snprintf(md, sizeof md, "%s/results.md", dir);
  cr_assert_neq(access(md, F_OK), 0, "nothing written");
  remove_tree(dir);
}

Test(report_cli, allow_partial_reports_it) {
  char dir[64], err[4096];
  copy_fixture("report-partial", dir, sizeof dir);
  char *argv[] = {"report", dir, "--allow-partial", NULL};
  cr_assert_eq(run_report(argv, err, sizeof err), 0, "%s", err);
  cr_assert(strstr(err, "greenbench: warning: the campaign did not complete: 50 of 72"));
  gbt_assert_golden_file("partial", dir, "results.md");
  gbt_assert_golden_file("partial", dir, "junit.xml");
  remove_tree(dir);
}

/* Energy ok with 0 uJ is a reading the harness never writes: the reader
 * refuses it at its first row, before any figure is computed. */
Test(report_cli, refuses_energy_that_is_all_zero) {
  char dir[64], err[4096];
  copy_fixture("report-zero", dir, sizeof dir);
  char *argv[] = {"report", dir, NULL};
  cr_assert_eq(run_report(argv, err, sizeof err), 1);
  const char *last = strstr(err, "greenbench: error: ");
  cr_assert_not_null(last, "%s", err);
  assert_one_error(last, "/runs.csv:2: pkg_uj: 0 uJ with energy ok, but a package counter that "
                         "did not move is energy_stalled with no reading, never 0");
  remove_tree(dir);
}

Test(report_cli, warns_about_fewer_than_30_runs) {
  char dir[64], err[4096];
  copy_fixture("report-energy", dir, sizeof dir);
  char *argv[] = {"report", dir, NULL};
  cr_assert_eq(run_report(argv, err, sizeof err), 0, "%s", err);
  cr_assert_str_eq(err, "greenbench: warning: the campaign planned 3 runs per configuration, "
                        "fewer than the 30 that medians and intervals need "
                        "(docs/methods.md #3)\n"
                        "greenbench: warning: python/quick/sorted/200: 2 of 3 planned runs ok "
                        "(1 timeout)\n");
  remove_tree(dir);
}

Test(report_cli, write_api_silent_without_a_stream) {
  char dir[64];
  copy_fixture("report-energy", dir, sizeof dir);
  gb_report_opts o = gb_report_opts_default();
  o.dir = dir;
  o.warnings = NULL;
  gb_err err;
  cr_assert_eq(gb_report_write(&o, &err), 0, "%s", err.msg);
  gbt_assert_golden_file("energy", dir, "junit.xml");
  o.resamples = 0;
  cr_assert_eq(gb_report_write(&o, &err), -EINVAL);
  remove_tree(dir);
}

/* ---- Bad arguments: exit 2 ------------------------------------------------------ */

static void bad_args(char **argv, const char *want) {
  char err[4096];
  cr_assert_eq(run_report(argv, err, sizeof err), 2, "%s", err);
  assert_one_error(err, want);
}

Test(report_cli, bad_arguments) {
  char *none[] = {"report", NULL};
  bad_args(none, "report: no records folder given");
  char *two[] = {"report", "a", "b", NULL};
  bad_args(two, "report: one records folder expected, got 'a' and 'b'");
  char *unknown[] = {"report", "x", "--fast", NULL};
  bad_args(unknown, "report: unknown option '--fast'");
  char *missing[] = {"report", "x", "--seed", NULL};
  bad_args(missing, "report: option '--seed' needs a value");
  /* A repeated option was once the last one silently; one convention with
   * run and check (greenbench/options.h). */
  char *twice[] = {"report", "x", "--seed", "1", "--seed=2", NULL};
  bad_args(twice, "report: option '--seed' given twice");
  char *empty[] = {"report", "x", "--out=", NULL};
  bad_args(empty, "report: option '--out' needs a value, got an empty one");
  char *flag_value[] = {"report", "x", "--allow-partial=yes", NULL};
  bad_args(flag_value, "report: option '--allow-partial' takes no value");
  char *zero[] = {"report", "x", "--resamples", "0", NULL};
  bad_args(zero, "report: --resamples must be an integer from 1 to 1000000, got '0'");
  char *text[] = {"report", "x", "--resamples=10k", NULL};
  bad_args(text, "report: --resamples must be an integer from 1 to 1000000, got '10k'");
  char *neg[] = {"report", "x", "--seed", "-1", NULL};
  bad_args(neg, "report: --seed must be an integer from 0 to 18446744073709551615, got '-1'");
  char *margin[] = {"report", "x", "--equivalence-margin", "0,1", NULL};
  bad_args(margin, "--equivalence-margin: '0,1' is not a decimal number");
  char *margin0[] = {"report", "x", "--equivalence-margin", "0", NULL};
  bad_args(margin0, "--equivalence-margin: '0' is not a decimal number above 0");
  char *estimator[] = {"report", "x", "--power-estimator", "median", NULL};
  bad_args(estimator, "report: --power-estimator: 'median' is neither paired nor study");
  char *region[] = {"report", "x", "--carbon", "atlantis", NULL};
  bad_args(region, "--carbon: ");
  char *custom[] = {"report", "x", "--carbon-intensity", "lab", NULL};
  bad_args(custom, "--carbon-intensity: ");
}

/* The one wording of a bad whole number (cli_parse_u64), the whole line:
 * the same as run's and compare's. */
Test(report_cli, a_bad_whole_number_has_the_one_wording) {
  char err[4096];
  char *argv[] = {"report", "x", "--resamples", "+5", NULL};
  cr_assert_eq(run_report(argv, err, sizeof err), 2, "%s", err);
  cr_assert_str_eq(err, "greenbench: error: report: --resamples must be an integer from 1 to "
                        "1000000, got '+5'\n");
}

/* ---- Bad records: exit 1, naming the file and line ------------------------------- */

/* Sets field `col` (0-based) of line `line` of DIR/runs.csv to `to`; the
 * line must have no quoted field. */
static void edit_runs(const char *dir, size_t line, int col, const char *to) {
  char path[4200];
  size_t n;
  snprintf(path, sizeof path, "%s/runs.csv", dir);
  char *s = gbt_slurp(path, &n), *p = s;
  for (size_t i = 1; i < line; i++) {
    p = strchr(p, '\n') + 1;
  }
  for (int i = 0; i < col; i++) {
    p = strchr(p, ',') + 1;
  }
  size_t old = strcspn(p, ",\n");
  char *out = malloc(n + strlen(to) + 1);
  sprintf(out, "%.*s%s%s", (int)(p - s), s, to, p + old);
  gbt_spit(path, out);
  free(out);
  free(s);
}

static void bad_records(const char *dir, const char *want) {
  char err[4096];
  char *argv[] = {"report", (char *)dir, NULL};
  cr_assert_eq(run_report(argv, err, sizeof err), 1, "%s", err);
  assert_one_error(err, want);
  remove_tree(dir);
}

Test(report_cli, a_missing_column) {
  char dir[64];
  copy_fixture("report-energy", dir, sizeof dir);
  char path[4200];
  size_t n;
  snprintf(path, sizeof path, "%s/runs.csv", dir);
  char *s = gbt_slurp(path, &n), *at = strstr(s, ",max_rss_kib,");
  memmove(at, at + strlen(",max_rss_kib"), strlen(at + strlen(",max_rss_kib")) + 1);
  gbt_spit(path, s);
  free(s);
  bad_records(dir, "/runs.csv:1: missing column 'max_rss_kib' in the header");
}

Test(report_cli, a_truncated_last_line) {
  char dir[64], path[4200];
  copy_fixture("report-energy", dir, sizeof dir);
  snprintf(path, sizeof path, "%s/runs.csv", dir);
  size_t n;
  char *s = gbt_slurp(path, &n);
  s[n - 40] = '\0'; /* the harness died while appending */
  gbt_spit(path, s);
  free(s);
  bad_records(dir, "/runs.csv:73: ");
}

Test(report_cli, text_in_a_number) {
  char dir[64];
  copy_fixture("report-energy", dir, sizeof dir);
  edit_runs(dir, 5, 10, "23189a000");
  bad_records(dir, "/runs.csv:5: wall_ns: '23189a000' is not an integer");
}

Test(report_cli, a_negative_duration) {
  char dir[64];
  copy_fixture("report-energy", dir, sizeof dir);
  edit_runs(dir, 5, 10, "-231894000");
  bad_records(dir, "/runs.csv:5: wall_ns: ");
}

Test(report_cli, an_unknown_configuration) {
  char dir[64];
  copy_fixture("report-energy", dir, sizeof dir);
  edit_runs(dir, 5, 5, "300");
  bad_records(dir, "/runs.csv:5: ");
}

/* A row the records rules refuse (its counts are not the workload's): the
 * rule's message as the one error line (the rules' own tests are in
 * stats/tests/test_records_rules.c). */
Test(report_cli, a_records_rule_is_named) {
  char dir[64];
  copy_fixture("report-energy", dir, sizeof dir);
  edit_runs(dir, 2, GB_REC_COL_COMPARISONS, "1");
  bad_records(dir, "/runs.csv:2: comparisons: 1, but the workload makes 4950 per sort of "
                   "quick/sorted/100");
}

Test(report_cli, a_missing_meta_json) {
  char dir[64], path[4200];
  copy_fixture("report-energy", dir, sizeof dir);
  snprintf(path, sizeof path, "%s/meta.json", dir);
  cr_assert_eq(unlink(path), 0);
  bad_records(dir, "/meta.json: cannot open: No such file or directory");
}

Test(report_cli, an_unwritable_output) {
  char dir[64], err[4096];
  copy_fixture("report-energy", dir, sizeof dir);
  char *argv[] = {"report", dir, "--junit", "/nonexistent-folder/junit.xml", NULL};
  cr_assert_eq(run_report(argv, err, sizeof err), 1);
  cr_assert(
      strstr(err, "greenbench: error: report: /nonexistent-folder/junit.xml: cannot write: "),
      "%s", err);
  /* The set is written whole or not at all: no results.md, no stray
   * temporary file. */
  char md[4200];
  snprintf(md, sizeof md, "%s/results.md", dir);
  cr_assert_neq(access(md, F_OK), 0);
  char cmd[4300];
  snprintf(cmd, sizeof cmd, "ls '%s' | grep -q tmp-", dir);
  cr_assert_neq(system(cmd), 0, "a temporary file was left behind");
  remove_tree(dir);
}

/* ---- Records stay safe ------------------------------------------------------------- */

/* Fails unless DIR/file still holds exactly the bytes of the fixture's. */
static void assert_unchanged(const char *fixture, const char *dir, const char *file) {
  char a[4200], b[4200];
  snprintf(a, sizeof a, "%s/%s/%s", GB_TEST_DATA_DIR, fixture, file);
  snprintf(b, sizeof b, "%s/%s", dir, file);
  char *want = gbt_slurp_or_fail(a), *got = gbt_slurp_or_fail(b);
  cr_assert_str_eq(got, want, "%s changed", b);
  free(want);
  free(got);
}

static void assert_no_temporaries(const char *dir) {
  char cmd[4300];
  snprintf(cmd, sizeof cmd, "ls -a '%s' | grep -q tmp-", dir);
  cr_assert_neq(system(cmd), 0, "a temporary file was left behind in %s", dir);
}

/* Each output names something that is not a regular file: refused with
 * one line and exit 2 before any work, and the thing is what it was. */
static void assert_special_refused(const char *option, const char *name, mode_t type,
                                   const char *kind) {
  char dir[64], err[4096], path[200], want[600];
  copy_fixture("report-energy", dir, sizeof dir);
  snprintf(path, sizeof path, "%s/%s", dir, name);
  int made = type == S_IFIFO   ? mkfifo(path, 0666)
             : type == S_IFLNK ? symlink("/proc/self/fd/1", path)
                               : mknod(path, S_IFCHR | 0666, makedev(1, 3));
  if (made < 0 && type == S_IFCHR) {
    remove_tree(dir);
    cr_skip_test("mknod needs root (the security label runs this as root): %s",
                 strerror(errno));
  }
  cr_assert_eq(made, 0, "%s", strerror(errno));
  char *argv[] = {"report", dir, (char *)option, path, NULL};
  cr_assert_eq(run_report(argv, err, sizeof err), 2, "%s", err);
  snprintf(want, sizeof want, "report: %s %s: is %s; refusing to replace it", option, path,
           kind);
  assert_one_error(err, want);
  struct stat st;
  cr_assert_eq(lstat(path, &st), 0);
  cr_assert_eq(st.st_mode & S_IFMT, type, "%s is still %s", path, kind);
  char results[200];
  snprintf(results, sizeof results, "%s/summary.json", dir);
  cr_assert_neq(access(results, F_OK), 0, "nothing was written");
  assert_no_temporaries(dir);
  remove_tree(dir);
}

Test(report_cli, refuses_a_fifo_output_before_any_work) {
  assert_special_refused("--junit", "fifo", S_IFIFO, "a FIFO");
}

Test(report_cli, refuses_a_link_output_before_any_work) {
  assert_special_refused("--out", "stdout", S_IFLNK, "a symbolic link");
}

Test(report_cli, refuses_a_character_device_output_before_any_work) {
  assert_special_refused("--out", "null", S_IFCHR, "a character device");
}

Test(report_cli, refuses_an_output_that_is_an_input) {
  static const char *const inputs[][2] = {{"--out", "runs.csv"},
                                          {"--junit", "meta.json"},
                                          {"--chart", "warmups.csv"},
                                          {"--summary", "runs.csv"}};
  char dir[64], err[4096], path[200], want[600];
  copy_fixture("report-energy", dir, sizeof dir);
  for (int i = 0; i < 4; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, inputs[i][1]);
    char *argv[] = {"report", dir, (char *)inputs[i][0], path, NULL};
    snprintf(want, sizeof want, "%s '%s' is the records' %s; refusing to overwrite an input",
             inputs[i][0], path, path);
    cr_assert_eq(run_report(argv, err, sizeof err), 2, "%s", err);
    assert_one_error(err, want);
    assert_unchanged("report-energy", dir, inputs[i][1]);
  }
  /* The same file by another name: through "..", and a hard link. */
  snprintf(path, sizeof path, "%s/../%s/runs.csv", dir, strrchr(dir, '/') + 1);
  char *dotdot[] = {"report", dir, "--out", path, NULL};
  cr_assert_eq(run_report(dotdot, err, sizeof err), 2, "%s", err);
  assert_one_error(err, "refusing to overwrite an input");
  char link_path[4200];
  snprintf(path, sizeof path, "%s/meta.json", dir);
  snprintf(link_path, sizeof link_path, "%s/linked.json", dir);
  cr_assert_eq(link(path, link_path), 0);
  char *linked[] = {"report", dir, "--junit", link_path, NULL};
  cr_assert_eq(run_report(linked, err, sizeof err), 2, "%s", err);
  assert_one_error(err, "refusing to overwrite an input");
  assert_unchanged("report-energy", dir, "runs.csv");
  assert_unchanged("report-energy", dir, "meta.json");
  remove_tree(dir);
}

Test(report_cli, refuses_two_outputs_that_are_one_file) {
  char dir[64], err[4096], x[4200], want[8600];
  copy_fixture("report-energy", dir, sizeof dir);
  snprintf(x, sizeof x, "%s/x", dir);
  char *argv[] = {"report", dir, "--out", x, "--junit", x, NULL};
  cr_assert_eq(run_report(argv, err, sizeof err), 2, "%s", err);
  snprintf(want, sizeof want, "report: --out '%s' and --junit '%s' are the same file", x, x);
  assert_one_error(err, want);
  cr_assert_neq(access(x, F_OK), 0, "%s was written", x);
  /* An option naming another output's default file. */
  snprintf(x, sizeof x, "%s/chart.svg", dir);
  char *def[] = {"report", dir, "--out", x, NULL};
  cr_assert_eq(run_report(def, err, sizeof err), 2, "%s", err);
  snprintf(want, sizeof want, "--out '%s' and the default --chart '%s' are the same file", x,
           x);
  assert_one_error(err, want);
  /* An option naming the data package, which is always DIR's. */
  snprintf(x, sizeof x, "%s/datapackage.json", dir);
  char *pkg[] = {"report", dir, "--summary", x, NULL};
  cr_assert_eq(run_report(pkg, err, sizeof err), 2, "%s", err);
  snprintf(want, sizeof want, "--summary '%s' and the data package '%s' are the same file", x,
           x);
  assert_one_error(err, want);
  char *no_pkg[] = {"report", dir, "--summary", x, "--no-datapackage", NULL};
  cr_assert_eq(run_report(no_pkg, err, sizeof err), 0, "%s", err);
  remove_tree(dir);
}

/* Old results.md and junit.xml; the chart's path a folder (refused as a
 * bad argument before any work, exit 2), or in a folder that does not
 * exist (exit 1): nothing is replaced and no temporary file stays. */
static void assert_outputs_kept(const char *chart_in, int status) {
  char dir[64], err[4096], md[4200], xml[4200], chart[4200];
  copy_fixture("report-energy", dir, sizeof dir);
  snprintf(md, sizeof md, "%s/results.md", dir);
  snprintf(xml, sizeof xml, "%s/junit.xml", dir);
  snprintf(chart, sizeof chart, "%s/%s", dir, chart_in);
  gbt_spit(md, "old results\n");
  gbt_spit(xml, "old junit\n");
  if (!strchr(chart_in, '/')) {
    cr_assert_eq(mkdir(chart, 0755), 0);
  }
  char *argv[] = {"report", dir, "--chart", chart, NULL};
  cr_assert_eq(run_report(argv, err, sizeof err), status, "%s", err);
  cr_assert(strstr(err, "greenbench: error: "), "%s", err);
  cr_assert(strstr(err, dir), "the error names the path: %s", err);
  char *got_md = gbt_slurp_or_fail(md), *got_xml = gbt_slurp_or_fail(xml);
  cr_assert_str_eq(got_md, "old results\n");
  cr_assert_str_eq(got_xml, "old junit\n");
  free(got_md);
  free(got_xml);
  assert_no_temporaries(dir);
  remove_tree(dir);
}

Test(report_cli, outputs_are_replaced_all_or_none_when_the_chart_is_a_folder) {
  assert_outputs_kept("chart.svg", 2);
}

Test(report_cli, outputs_are_replaced_all_or_none_when_a_folder_is_missing) {
  assert_outputs_kept("missing-folder/chart.svg", 1);
}

/* A FIFO in place of a record file: an error naming it, at once. */
static void assert_fifo_refused(const char *file) {
  char dir[64], err[4096], path[4200];
  copy_fixture("report-energy", dir, sizeof dir);
  snprintf(path, sizeof path, "%s/%s", dir, file);
  unlink(path);
  cr_assert_eq(mkfifo(path, 0644), 0);
  char *argv[] = {"report", dir, NULL};
  cr_assert_eq(run_report(argv, err, sizeof err), 1, "%s", err);
  char want[4400];
  snprintf(want, sizeof want, "%s: not a regular file (a FIFO)", path);
  assert_one_error(err, want);
  remove_tree(dir);
}

Test(report_cli, never_blocks_on_a_fifo_warmups_csv, .timeout = 20) {
  assert_fifo_refused("warmups.csv");
}

Test(report_cli, never_blocks_on_a_fifo_runs_csv, .timeout = 20) {
  assert_fifo_refused("runs.csv");
}

Test(report_cli, never_blocks_on_a_fifo_meta_json, .timeout = 20) {
  assert_fifo_refused("meta.json");
}

/* A path of n bytes under dir: folders of 200-byte names, then a file. */
static void long_path(const char *dir, size_t n, bool make, char *out, size_t len) {
  size_t used = (size_t)snprintf(out, len, "%s", dir);
  while (n - used > 210) {
    used += (size_t)snprintf(out + used, len - used, "/%0200d", 0);
    if (make) {
      cr_assert_eq(mkdir(out, 0755), 0, "%s", out);
    }
  }
  snprintf(out + used, len - used, "/%0*d", (int)(n - used - 1), 0);
  cr_assert_eq(strlen(out), n);
}

Test(report_cli, a_long_out_is_written_whole_or_refused) {
  char dir[64], err[4096], path[8192];
  copy_fixture("report-off", dir, sizeof dir);
  long_path(dir, 525, true, path, sizeof path);
  char *argv[] = {"report", dir, "--out", path, NULL};
  cr_assert_eq(run_report(argv, err, sizeof err), 0, "%s", err);
  cr_assert_eq(access(path, F_OK), 0, "the 525-byte --out was not written whole");
  long_path(dir, 5000, false, path, sizeof path);
  char *too_long[] = {"report", dir, "--out", path, NULL};
  bad_args(too_long, "report: --out: path longer than 4095 bytes (PATH_MAX 4096)");
  char *too_long_dir[] = {"report", path, NULL};
  bad_args(too_long_dir, "report: DIR: path longer than 4064 bytes (PATH_MAX 4096 less room "
                         "for the names of the files in it)");
  remove_tree(dir);
}

/* Nothing in err but printable text, tabs and newlines. */
static void assert_printable(const char *err) {
  for (const char *p = err; *p; p++) {
    cr_assert((unsigned char)*p >= 0x20 || *p == '\n', "raw control byte 0x%02x in: %s",
              (unsigned char)*p, err);
  }
}

Test(report_cli, control_bytes_in_arguments_are_escaped_and_cut) {
  char err[4096];
  char *osc[] = {"report", "x", "--\033]0;pwned\a", NULL};
  cr_assert_eq(run_report(osc, err, sizeof err), 2);
  assert_one_error(err, "report: unknown option '--\\x1b]0;pwned\\x07'");
  assert_printable(err);
  size_t n = 100000;
  char *huge = malloc(n + 1);
  memset(huge, 'a', n);
  memcpy(huge, "--", 2);
  huge[n] = '\0';
  char *argv[] = {"report", "x", huge, NULL};
  cr_assert_eq(run_report(argv, err, sizeof err), 2);
  assert_one_error(err, "...'");
  cr_assert_lt(strlen(err), 300, "not cut: %zu bytes", strlen(err));
  free(huge);
}

Test(report_cli, control_bytes_in_records_are_escaped_and_cut) {
  char dir[64], err[4096];
  copy_fixture("report-energy", dir, sizeof dir);
  char bad[600];
  snprintf(bad, sizeof bad, "12\033]0;pwned\a%0500d", 0);
  edit_runs(dir, 2, 10, bad); /* wall_ns */
  char *argv[] = {"report", dir, NULL};
  cr_assert_eq(run_report(argv, err, sizeof err), 1, "%s", err);
  assert_one_error(err, "wall_ns: '12\\x1b]0;pwned\\x07000");
  assert_one_error(err, "...' is not an integer");
  assert_printable(err);
  cr_assert_lt(strlen(err), 300, "not cut: %s", err);
  remove_tree(dir);
}

Test(report_cli, control_bytes_in_a_run_message_are_escaped) {
  char dir[64], err[4096], path[4200];
  copy_fixture("report-energy", dir, sizeof dir);
  snprintf(path, sizeof path, "%s/runs.csv", dir);
  char *s = gbt_slurp_or_fail(path), *at = strstr(s, "\"\"hard\"\"");
  cr_assert(at, "the fixture's timeout message moved");
  memcpy(at, "\033]0;pwn\a", 8); /* as long as ""hard"", without the NUL */
  gbt_spit(path, s);
  free(s);
  gb_records *r = gbt_load_dir(dir);
  char why[512];
  cr_assert_neq(
      gb_validate_case(r, GB_PYTHON, GB_QUICK, GB_SORTED, 200, false, why, sizeof why), 0);
  gb_records_free(r);
  cr_assert(strstr(why, "was killed <SIGKILL> \\x1b]0;pwn\\x07"), "%s", why);
  assert_printable(why);
  char *argv[] = {"report", dir, NULL};
  cr_assert_eq(run_report(argv, err, sizeof err), 0, "%s", err);
  snprintf(path, sizeof path, "%s/results.md", dir);
  char *md = gbt_slurp_or_fail(path);
  cr_assert_null(strchr(md, '\033'), "a raw ESC in results.md");
  free(md);
  remove_tree(dir);
}

/* ---- A suite campaign's records folder (issue 38) ------------------------------ */

/* `greenbench report DIR` on a suite records folder: told from a study's by
 * its meta.json (gb_srec_is_suite_folder); its three files are the suite
 * report's goldens; a folder the reader or the report refuses gets one
 * line. The synthetic campaign is stats/tests/helper_suite.c's. */

/* The synthetic campaign (energy measured) as a records folder in a fresh
 * temporary folder. */
static void suite_folder(char *dir, size_t len) {
  snprintf(dir, len, "/tmp/gb-suite-cli-XXXXXX");
  cr_assert_not_null(mkdtemp(dir));
  gb_srec_records *r = gbt_suite_synth(true);
  gbt_suite_write(r, dir);
  gbt_suite_free(r);
}

Test(report_cli, suite_writes_the_suite_report) {
  char dir[64], out[4096], err[4096];
  suite_folder(dir, sizeof dir);
  char *argv[] = {"report", dir, NULL};
  cr_assert_eq(run_report_to(argv, out, sizeof out, err, sizeof err), 0, "%s", err);
  cr_assert_str_empty(err);
  char want[512];
  snprintf(want, sizeof want, "wrote:\n  %s/results.md\n  %s/junit.xml\n  %s/summary.json\n",
           dir, dir, dir);
  cr_assert_str_eq(out, want);
  const char *files[] = {"results.md", "junit.xml", "summary.json"};
  for (size_t i = 0; i < 3; i++) {
    gbt_assert_golden_file("suite-energy", dir, files[i]);
  }
  char path[128];
  snprintf(path, sizeof path, "%s/datapackage.json", dir);
  cr_assert(access(path, F_OK) != 0, "a suite report writes no data package");
  remove_tree(dir);
}

/* Replaces the first occurrence of `from` in DIR/file with `to`. */
static void edit_file(const char *dir, const char *file, const char *from, const char *to) {
  char path[256];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  size_t n;
  char *s = gbt_slurp(path, &n), *at = strstr(s, from);
  cr_assert(at, "%s: no '%s'", path, from);
  char *t = malloc(n + strlen(to) + 1);
  cr_assert(t);
  snprintf(t, n + strlen(to) + 1, "%.*s%s%s", (int)(at - s), s, to, at + strlen(from));
  gbt_spit(path, t);
  free(s);
  free(t);
}

static void suite_refused(const char *dir, int status, const char *want) {
  char out[4096], err[4096];
  char *argv[] = {"report", (char *)dir, NULL};
  cr_assert_eq(run_report_to(argv, out, sizeof out, err, sizeof err), status, "%s", err);
  assert_one_error(err, want);
  char path[128];
  snprintf(path, sizeof path, "%s/results.md", dir);
  cr_assert(access(path, F_OK) != 0, "nothing written on a refusal");
}

/* A folder broken in one place, and what its one line names. */
static const struct {
  const char *file, *from, *to, *want;
} suite_breaks[] = {
    {"runs.csv", ",work,python,", ",work,julia,", "runs.csv:"},
    {"suite.json", "a synthetic suite", "a changed suite", "suite.json"},
    {"meta.json", "\"complete\":\ttrue", "\"complete\":\tfalse",
     "meta.json: the campaign did not complete; pass --allow-partial"},
};

Test(report_cli, suite_refuses_a_broken_folder) {
  for (size_t i = 0; i < sizeof suite_breaks / sizeof *suite_breaks; i++) {
    char dir[64];
    suite_folder(dir, sizeof dir);
    edit_file(dir, suite_breaks[i].file, suite_breaks[i].from, suite_breaks[i].to);
    suite_refused(dir, 1, suite_breaks[i].want);
    remove_tree(dir);
  }
}

Test(report_cli, suite_refuses_a_missing_runs_csv) {
  char dir[64], path[128];
  suite_folder(dir, sizeof dir);
  snprintf(path, sizeof path, "%s/runs.csv", dir);
  cr_assert_eq(unlink(path), 0);
  suite_refused(dir, 1, "runs.csv");
  remove_tree(dir);
}

Test(report_cli, suite_refuses_a_chart_as_a_bad_argument) {
  char dir[64], out[4096], err[4096];
  suite_folder(dir, sizeof dir);
  char *argv[] = {"report", dir, "--chart", "c.svg", NULL};
  cr_assert_eq(run_report_to(argv, out, sizeof out, err, sizeof err), 2, "%s", err);
  assert_one_error(err, "--chart: a suite campaign's report has no chart");
  remove_tree(dir);
}
