/* The run and check subcommands as the command line sees them: exit
 * statuses, one-line errors, the dry-run plan, check's verdict. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/cli.h"
#include "helper_powercap.h"

typedef struct {
  int rc;
  char out[16384], err[4096];
} result;

static result call(int (*fn)(int, char **, const gb_cli_env *), int argc, const char **argv) {
  static result r;
  FILE *out = tmpfile(), *err = tmpfile();
  gb_cli_env env = {.workers = {GB_WORKER_C_PATH, GB_PYTHON_PATH, GB_PYTHON_WORKER_PATH,
                                GB_NODE_PATH, GB_NODE_WORKER_PATH},
                    .out = out,
                    .err = err};
  r.rc = fn(argc, (char **)argv, &env);
  rewind(out);
  rewind(err);
  r.out[fread(r.out, 1, sizeof r.out - 1, out)] = '\0';
  r.err[fread(r.err, 1, sizeof r.err - 1, err)] = '\0';
  fclose(out);
  fclose(err);
  return r;
}

#define RUN(...)                                                                               \
  call(gb_cli_run, sizeof((const char *[]){__VA_ARGS__}) / sizeof(char *),                     \
       (const char *[]){__VA_ARGS__})
#define CHECK(...)                                                                             \
  call(gb_cli_check, sizeof((const char *[]){__VA_ARGS__}) / sizeof(char *),                   \
       (const char *[]){__VA_ARGS__})

static void assert_one_error_line(const result *r, const char *expected) {
  cr_assert_eq(r->rc, 2, "exit %d, stderr: %s", r->rc, r->err);
  cr_assert_str_empty(r->out);
  cr_assert_eq(strncmp(r->err, "greenbench: error: ", 19), 0, "%s", r->err);
  cr_assert_eq(strchr(r->err, '\n'), r->err + strlen(r->err) - 1, "one line: %s", r->err);
  cr_assert(strstr(r->err, expected), "'%s' not in: %s", expected, r->err);
}

Test(cli_run, bad_arguments_exit_2_with_one_line) {
  result r = RUN("run", "--bogus");
  assert_one_error_line(&r, "unknown option '--bogus'");
  r = RUN("run", "--runs", "0");
  assert_one_error_line(&r, "--runs must be an integer from 1 to 10000, got '0'");
  r = RUN("run", "--runs", "-3");
  assert_one_error_line(&r, "--runs must be an integer from 1 to 10000, got '-3'");
  r = RUN("run", "--target-ms", "fast");
  assert_one_error_line(&r, "--target-ms must be an integer");
  r = RUN("run", "--seed", "0");
  assert_one_error_line(&r, "--seed must be an integer from 1 to 4294967295, got '0'");
  r = RUN("run", "--profile", "huge");
  assert_one_error_line(&r, "unknown profile 'huge' (expected smoke or study)");
  r = RUN("run", "--languages", "c,ruby");
  assert_one_error_line(&r, "unknown language 'ruby'");
  r = RUN("run", "--sizes", "250,,500");
  assert_one_error_line(&r, "bad size list '250,,500'");
  r = RUN("run", "--energy", "maybe");
  assert_one_error_line(&r, "unknown energy mode 'maybe' (expected auto, on or off)");
  r = RUN("run", "--runs", "3", "--runs=4");
  assert_one_error_line(&r, "option '--runs' given twice");
  r = RUN("run", "--out");
  assert_one_error_line(&r, "option '--out' needs a value");
  r = RUN("run", "stray");
  assert_one_error_line(&r, "unexpected argument 'stray'");
  r = RUN("run", "--resume", "a", "--out", "b");
  assert_one_error_line(&r, "--out and --resume name different folders");
}

Test(cli_run, dry_run_prints_the_study_plan) {
  result r = RUN("run", "--profile", "study", "--dry-run", "--order-seed", "7");
  cr_assert_eq(r.rc, 0, "%s", r.err);
  cr_assert(strstr(r.out, "profile study: 144 configurations, 48 startup groups"), "%s", r.out);
  cr_assert(strstr(r.out, "measured runs: 5760 (4320 sorting runs, 1440 startup batches)"),
            "%s", r.out);
  cr_assert(strstr(r.out, "order seed 7"), "%s", r.out);
  cr_assert(strstr(r.out, "energy: on"), "%s", r.out);
  cr_assert(strstr(r.out, "estimated duration: about "), "%s", r.out);
}

Test(cli_run, a_selection_keeps_the_profile_other_numbers_make_it_custom) {
  result r = RUN("run", "--profile", "study", "--languages", "c", "--algorithms", "bubble",
                 "--sizes", "2000", "--dry-run");
  cr_assert(strstr(r.out, "profile study: 4 configurations, 4 startup groups"), "%s", r.out);
  r = RUN("run", "--profile", "study", "--runs", "10", "--dry-run");
  cr_assert(strstr(r.out, "profile custom: 144 configurations"), "%s", r.out);
}

Test(cli_run, help_goes_to_stdout) {
  result r = RUN("run", "--help");
  cr_assert_eq(r.rc, 0);
  cr_assert(strstr(r.out, "usage: greenbench run"));
  cr_assert(strstr(r.out, "--resume DIR"));
}

Test(cli_check, no_counters_means_exit_1_and_why) {
  powercap_fake *f = powercap_fake_create();
  setenv("GREENBENCH_POWERCAP_ROOT", powercap_fake_root(f), 1);
  result r = CHECK("check");
  unsetenv("GREENBENCH_POWERCAP_ROOT");
  powercap_fake_destroy(f);
  cr_assert_eq(r.rc, 1, "%s%s", r.out, r.err);
  cr_assert(strstr(r.out, "energy: unavailable: no RAPL package zone under"), "%s", r.out);
  cr_assert(strstr(r.out, "pinning: CPUs "), "%s", r.out);
  cr_assert(strstr(r.out, "c: gcc "), "%s", r.out);
  cr_assert(strstr(r.out, "verdict: this machine cannot measure energy for the study"), "%s",
            r.out);
}

Test(cli_check, frozen_counters_mean_exit_1) {
  powercap_fake *f = powercap_fake_create();
  powercap_fake_package(f, 0, 1234, 262143328850u); /* never advances */
  setenv("GREENBENCH_POWERCAP_ROOT", powercap_fake_root(f), 1);
  result r = CHECK("check");
  unsetenv("GREENBENCH_POWERCAP_ROOT");
  powercap_fake_destroy(f);
  cr_assert_eq(r.rc, 1, "%s", r.out);
  cr_assert(
      strstr(r.out, "package-0 (intel-rapl:0, socket 0): max_energy_range_uj 262143328850"),
      "%s", r.out);
  cr_assert(strstr(r.out, "verdict: this machine cannot measure energy"), "%s", r.out);
}

Test(cli_check, live_counters_mean_exit_0) {
  powercap_fake *f = powercap_fake_create();
  int pkg = powercap_fake_package(f, 0, 1234, 262143328850u);
  powercap_fake_power(f, pkg, 5000);
  powercap_fake_start(f);
  setenv("GREENBENCH_POWERCAP_ROOT", powercap_fake_root(f), 1);
  result r = CHECK("check");
  unsetenv("GREENBENCH_POWERCAP_ROOT");
  powercap_fake_destroy(f);
  cr_assert_eq(r.rc, 0, "%s", r.out);
  cr_assert(strstr(r.out, "counters over 0.5 s: moving"), "%s", r.out);
  cr_assert(strstr(r.out, "verdict: this machine can measure energy for the study"), "%s",
            r.out);
}

Test(cli_check, bad_arguments_exit_2) {
  result r = CHECK("check", "--bogus");
  assert_one_error_line(&r, "unknown option '--bogus'");
  r = CHECK("check", "--cpus");
  assert_one_error_line(&r, "option '--cpus' needs a value");
}

Test(cli_check, a_worker_that_does_not_run_means_exit_1) {
  powercap_fake *f = powercap_fake_create();
  int pkg = powercap_fake_package(f, 0, 1234, 262143328850u);
  powercap_fake_power(f, pkg, 5000);
  powercap_fake_start(f);
  setenv("GREENBENCH_POWERCAP_ROOT", powercap_fake_root(f), 1);
  result r = CHECK("check", "--python", GB_TEST_DATA_DIR "/workers/fail.sh");
  unsetenv("GREENBENCH_POWERCAP_ROOT");
  powercap_fake_destroy(f);
  cr_assert_eq(r.rc, 1, "%s", r.out);
  cr_assert(strstr(r.out, "python: " GB_TEST_DATA_DIR "/workers/fail.sh: does not run: exited"),
            "%s", r.out);
  cr_assert(strstr(r.out, "verdict: the study cannot run here: the python worker does not run"),
            "%s", r.out);
}
