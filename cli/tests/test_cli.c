/* The run and check subcommands as the command line sees them: exit
 * statuses, one-line errors, the dry-run plan, check's verdict. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "greenbench/cli.h"
#include "helper_cli_call.h"
#include "helper_powercap.h"

typedef gbt_cli_result result;

static result call(int (*fn)(int, char **, const gb_cli_env *), int argc, const char **argv) {
  const gb_cli_env env = {.workers = {GB_WORKER_C_PATH, GB_PYTHON_PATH, GB_PYTHON_WORKER_PATH,
                                      GB_NODE_PATH, GB_NODE_WORKER_PATH}};
  return gbt_cli_call(fn, &env, argc, argv);
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
  /* The model of estimate.h (test_estimate.c has its parts). */
  cr_assert(strstr(r.out, "estimated duration: about 58m09s (warm-ups and calibration 3m07s, "
                          "measured runs with their idle windows 55m00s; longer on a busy "
                          "machine)\n"),
            "%s", r.out);
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

/* Runs check on a fake tree whose package zone has range max_uj and 20 W,
 * stalled for `stall` ticks from 20 ticks in when stall is not 0. */
static result check_on(uint64_t max_uj, uint64_t stall) {
  powercap_fake *f = powercap_fake_create();
  int pkg = powercap_fake_package(f, 0, 1234, max_uj);
  powercap_fake_power(f, pkg, 20000);
  powercap_fake_dram(f, 0, 0, 1, 65712999613u);
  if (stall)
    powercap_fake_stall(f, pkg, 20, stall);
  powercap_fake_start(f);
  setenv("GREENBENCH_POWERCAP_ROOT", powercap_fake_root(f), 1);
  result r = CHECK("check");
  unsetenv("GREENBENCH_POWERCAP_ROOT");
  powercap_fake_destroy(f);
  return r;
}

/* Per zone: the range, how soon it can wrap at 1 kW, whether it moved in
 * the probe and the longest standstill seen; then the sampling period. */
Test(cli_check, says_what_the_study_will_get_per_zone) {
  result r = check_on(262143328850u, 0);
  cr_assert_eq(r.rc, 0, "%s", r.out);
  cr_assert(strstr(r.out,
                   "package-0 (intel-rapl:0, socket 0): max_energy_range_uj 262143328850, "
                   "a wrap every 262 s at 1000 W; over 0.5 s: moved, longest standstill "),
            "%s", r.out);
  cr_assert(strstr(r.out, "dram (intel-rapl:0:0, socket 0): max_energy_range_uj 65712999613, a "
                          "wrap every 65 s at 1000 W; over 0.5 s: did not move"),
            "%s", r.out);
  cr_assert(strstr(r.out, "counters over 0.5 s: moving"), "%s", r.out);
  cr_assert(strstr(r.out, "sampling: every 10 ms, at least twice per wrap at 1000 W"), "%s",
            r.out);
}

/* 100 mJ: a wrap every 5 ms at 20 W, every 0.1 ms at 1 kW. */
Test(cli_check, a_counter_that_wraps_every_5_ms_means_exit_1) {
  result r = check_on(100000u, 0);
  cr_assert_eq(r.rc, 1, "%s", r.out);
  cr_assert(strstr(r.out, "max_energy_range_uj 100000, a wrap every 100 us at 1000 W"), "%s",
            r.out);
  cr_assert(strstr(r.out, "sampling: refused: package-0 "), "%s", r.out);
  cr_assert(
      strstr(r.out, "verdict: this machine cannot measure energy for the study: package-0"),
      "%s", r.out);
  cr_assert(strstr(r.out, "a missed wrap would go unseen"), "%s", r.out);
}

/* A 300 ms standstill in the 0.5 s probe: every window touching it would be
 * energy_stalled, so the user hears it before an hour-long run. */
Test(cli_check, a_standstill_during_the_probe_means_exit_1) {
  result r = check_on(262143328850u, 300);
  cr_assert_eq(r.rc, 1, "%s", r.out);
  cr_assert(strstr(r.out, "over 0.5 s: moved, longest standstill "), "%s", r.out);
  cr_assert(strstr(r.out, "standstill: package-0 ("), "%s", r.out);
  cr_assert(strstr(r.out,
                   "during the probe; the study marks every window touching a standstill "
                   "of 100 ms energy_stalled"),
            "%s", r.out);
  cr_assert(strstr(r.out, "verdict: this machine cannot measure energy for the study"), "%s",
            r.out);
}

Test(cli_check, bad_arguments_exit_2) {
  result r = CHECK("check", "--bogus");
  assert_one_error_line(&r, "unknown option '--bogus'");
  r = CHECK("check", "--cpus");
  assert_one_error_line(&r, "option '--cpus' needs a value");
  /* One convention with run (greenbench/options.h). */
  r = CHECK("check", "--cpus=abc");
  assert_one_error_line(&r, "--cpus \"abc\": malformed entry \"abc\" (expected N or N-M)");
  r = CHECK("check", "--node", "a", "--node=b");
  assert_one_error_line(&r, "option '--node' given twice");
  r = CHECK("check", "--help=1");
  assert_one_error_line(&r, "option '--help' takes no value");
  r = CHECK("check", "stray");
  assert_one_error_line(&r, "unexpected argument 'stray'");
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

/* check starts the workers as run does: with the minimal environment only
 * (a PYTHONPATH of the caller's never reaches Python), and, under sudo, as
 * the user (the security label runs this as root with SUDO_UID set). */
Test(cli_check, workers_get_the_minimal_environment_as_run_gives_it) {
  char dir[] = "/tmp/gb-check-env-XXXXXX", wrapper[128], log[128], script[512];
  cr_assert(mkdtemp(dir));
  snprintf(wrapper, sizeof wrapper, "%s/python", dir);
  snprintf(log, sizeof log, "%s/log", dir);
  snprintf(script, sizeof script,
           "#!/bin/sh\n{ echo uid=$(id -u); env; } > %s\nexec /usr/bin/python3 \"$@\"\n", log);
  FILE *f = fopen(wrapper, "w");
  cr_assert(f);
  fputs(script, f);
  fclose(f);
  cr_assert_eq(chmod(dir, 0777), 0); /* a dropped worker writes its log here */
  cr_assert_eq(chmod(wrapper, 0755), 0);
  setenv("PYTHONPATH", dir, 1);
  result r = CHECK("check", "--python", wrapper);
  unsetenv("PYTHONPATH");
  FILE *l = fopen(log, "r");
  cr_assert(l, "the wrapper ran: %s", r.out);
  char text[8192];
  text[fread(text, 1, sizeof text - 1, l)] = '\0';
  fclose(l);
  cr_assert_null(strstr(text, "PYTHONPATH"), "%s", text);
  cr_assert(strstr(text, "PATH=/usr/local/bin:/usr/bin:/bin\n"), "%s", text);
  cr_assert(strstr(text, "LC_ALL=C\n"), "%s", text);
  const char *sudo_uid = getenv("SUDO_UID");
  if (geteuid() == 0 && sudo_uid && getenv("SUDO_GID")) {
    char want[64];
    snprintf(want, sizeof want, "uid=%s\n", sudo_uid);
    cr_assert(strncmp(text, want, strlen(want)) == 0, "the worker ran as root: %s", text);
  }
  char cmd[160];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  cr_assert_eq(system(cmd), 0);
}

/* Nothing in s but printable text and newlines. */
static void assert_printable(const char *s) {
  for (const char *p = s; *p; p++)
    cr_assert((unsigned char)*p >= 0x20 || *p == '\n', "raw control byte 0x%02x in: %s",
              (unsigned char)*p, s);
}

Test(cli_check, a_bad_cpu_list_exits_2_before_any_probe) {
  result r = CHECK("check", "--cpus", "abc");
  assert_one_error_line(&r, "--cpus \"abc\": malformed entry \"abc\" (expected N or N-M)");
  r = CHECK("check", "--cpus", "1048576");
  assert_one_error_line(&r, "is above the largest CPU number");
  r = CHECK("check", "--python", "");
  assert_one_error_line(&r, "option '--python' needs a value, got an empty one");
}

Test(cli_run, a_bad_cpu_list_exits_2_even_in_a_dry_run) {
  result r = RUN("run", "--cpus", "abc", "--profile", "smoke", "--energy", "off");
  assert_one_error_line(&r, "--cpus \"abc\": malformed entry \"abc\" (expected N or N-M)");
  r = RUN("run", "--dry-run", "--cpus", "abc");
  assert_one_error_line(&r, "--cpus \"abc\": malformed entry \"abc\"");
  r = RUN("run", "--dry-run", "--cpus", "0-99999");
  assert_one_error_line(&r, "--cpus \"0-99999\": ");
}

Test(cli_run, bad_paths_exit_2_before_anything_runs) {
  result r = RUN("run", "--out", "", "--profile", "smoke", "--energy", "off");
  assert_one_error_line(&r, "option '--out' needs a value, got an empty one");
  r = RUN("run", "--resume", "");
  assert_one_error_line(&r, "option '--resume' needs a value, got an empty one");
  r = RUN("run", "--python", "", "--dry-run");
  assert_one_error_line(&r, "option '--python' needs a value, got an empty one");
  r = RUN("run", "--out", "results/\033]0;pwned\a", "--dry-run");
  assert_one_error_line(&r, "--out: path holds the control byte \\x1b at byte 9");
}

Test(cli_run, a_bad_machine_label_exits_2_before_anything_runs) {
  result r = RUN("run", "--machine-label", "bench.example.org", "--dry-run");
  assert_one_error_line(&r, "--machine-label 'bench.example.org' is not a label: 1 to 63 "
                            "letters, digits, '_' or '-' (no dots)");
  r = RUN("run", "--machine-label", "", "--profile", "smoke", "--energy", "off");
  assert_one_error_line(&r, "option '--machine-label' needs a value, got an empty one");
  r = RUN("run", "--machine-label", "bench-01", "--dry-run");
  cr_assert_eq(r.rc, 0, "%s", r.err);
  r = RUN("run", "--help");
  cr_assert(strstr(r.out, "--machine-label NAME"), "%s", r.out);
}

/* The one wording of a bad whole number (cli_parse_u64) and the one error
 * line, whole: the same as report's and compare's. */
Test(cli_run, a_bad_whole_number_has_the_one_wording) {
  result r = RUN("run", "--warmups", "+5");
  cr_assert_eq(r.rc, 2, "%s", r.err);
  cr_assert_str_eq(r.err, "greenbench: error: run: --warmups must be an integer from 1 to 64, "
                          "got '+5'\n");
}

Test(cli_run, a_long_out_is_refused_not_cut) {
  size_t n = 5000;
  char *path = malloc(n + 1);
  memset(path, 'a', n);
  path[n] = '\0';
  result r = RUN("run", "--out", path, "--profile", "smoke", "--energy", "off");
  free(path);
  assert_one_error_line(&r, "--out: path longer than 4064 bytes (PATH_MAX 4096");
}

Test(cli_run, a_long_selection_list_is_read_whole) {
  /* 300 bytes, all of them one valid size: once refused as a "bad" list. */
  char sizes[301];
  memset(sizes, '0', 297);
  memcpy(sizes + 297, "100", 4);
  result r = RUN("run", "--profile", "smoke", "--sizes", sizes, "--languages", "c",
                 "--algorithms", "quick", "--orders", "random", "--dry-run");
  cr_assert_eq(r.rc, 0, "%s", r.err);
  cr_assert(strstr(r.out, "1 configurations"), "%s", r.out);
}

Test(cli_run, control_bytes_and_huge_arguments_are_escaped_and_cut) {
  result r = RUN("run", "--select", "\033]0;pwned\a");
  assert_one_error_line(&r, "unknown option '--select'");
  r = RUN("run", "--sel\033]0;pwned\a=x");
  assert_one_error_line(&r, "unknown option '--sel\\x1b]0;pwned\\x07'");
  assert_printable(r.err);
  r = RUN("run", "--languages", "c,\033[2J");
  assert_one_error_line(&r, "unknown language '\\x1b[2J'");
  assert_printable(r.err);
  r = RUN("run", "--runs", "\033[2J");
  assert_one_error_line(&r, "--runs must be an integer from 1 to 10000, got '\\x1b[2J'");
  size_t n = 100000;
  char *huge = malloc(n + 1);
  memset(huge, 'a', n);
  memcpy(huge, "--", 2);
  huge[n] = '\0';
  r = RUN("run", huge);
  free(huge);
  assert_one_error_line(&r, "...' (see greenbench run --help)");
  cr_assert_lt(strlen(r.err), 300, "not cut: %zu bytes", strlen(r.err));
}

/* Intel Xeon 6 registers intel-rapl-tpmi:N zones, which greenbench does not
 * read: check names them, alone (no energy) and beside intel-rapl:N. */
Test(cli_check, tpmi_zones_alone_are_named_and_mean_exit_1) {
  powercap_fake *f = powercap_fake_create();
  powercap_fake_zone(f, "intel-rapl-tpmi:0", "package-0", 1234, 262143328850u);
  setenv("GREENBENCH_POWERCAP_ROOT", powercap_fake_root(f), 1);
  result r = CHECK("check");
  unsetenv("GREENBENCH_POWERCAP_ROOT");
  powercap_fake_destroy(f);
  cr_assert_eq(r.rc, 1, "%s", r.out);
  cr_assert(strstr(r.out, "energy: unavailable: no RAPL package zone under"), "%s", r.out);
  cr_assert(strstr(r.out, "  tpmi: intel-rapl-tpmi:0 (package-0) present, not read: greenbench "
                          "reads only intel-rapl:N package zones"),
            "%s", r.out);
}

Test(cli_check, tpmi_zones_beside_msr_zones_are_named_and_the_msr_ones_read) {
  powercap_fake *f = powercap_fake_create();
  int pkg = powercap_fake_package(f, 0, 1234, 262143328850u);
  powercap_fake_power(f, pkg, 5000);
  powercap_fake_zone(f, "intel-rapl-tpmi:0", "package-0", 99, 262143328850u);
  powercap_fake_start(f);
  setenv("GREENBENCH_POWERCAP_ROOT", powercap_fake_root(f), 1);
  result r = CHECK("check");
  unsetenv("GREENBENCH_POWERCAP_ROOT");
  powercap_fake_destroy(f);
  cr_assert_eq(r.rc, 0, "%s", r.out);
  cr_assert(strstr(r.out, "energy: 1 RAPL zone(s) under"), "%s", r.out);
  cr_assert(strstr(r.out, "  tpmi: intel-rapl-tpmi:0 (package-0) present, not read"), "%s",
            r.out);
}

Test(cli_check, no_tpmi_line_without_tpmi_zones) {
  result r = check_on(262143328850u, 0);
  cr_assert_eq(r.rc, 0, "%s", r.out);
  cr_assert_null(strstr(r.out, "tpmi"), "%s", r.out);
}

/* Debian 12's nodejs is 18: check names the version found and the one the
 * Node.js worker is tested with (a real node whose runtime says 18). */
Test(cli_check, an_old_node_is_named_with_the_version_needed) {
  char node[] = "/tmp/gb-node18-XXXXXX";
  int fd = mkstemp(node);
  cr_assert_geq(fd, 0);
  FILE *f = fdopen(fd, "w");
  fprintf(f,
          "#!/bin/sh\n'%s' \"$@\" | sed 's/\"runtime\":\"Node.js [0-9.]*\"/"
          "\"runtime\":\"Node.js 18.20.4\"/'\n",
          GB_NODE_PATH);
  fclose(f);
  chmod(node, 0755);
  powercap_fake *pc = powercap_fake_create();
  setenv("GREENBENCH_POWERCAP_ROOT", powercap_fake_root(pc), 1);
  result r = CHECK("check", "--node", node);
  unsetenv("GREENBENCH_POWERCAP_ROOT");
  powercap_fake_destroy(pc);
  unlink(node);
  cr_assert(strstr(r.out, "node: Node.js 18.20.4 ("), "%s", r.out);
  cr_assert(strstr(r.out, "node: warning: Node.js 18.20.4 is older than Node.js 20, the oldest "
                          "the Node.js worker is tested with; install Node.js 20 or later"),
            "%s", r.out);
  cr_assert_null(strstr(CHECK("check").out, "node: warning:"), "not for the node built with");
}

/* Each way of reading the counters on its own line (gb_energy_probe, energy_probe.c). */
Test(cli_check, each_way_is_listed_with_why_not) {
  powercap_fake *f = powercap_fake_create();
  char pmu[1100];
  snprintf(pmu, sizeof pmu, "%s/no-power-pmu", powercap_fake_root(f));
  setenv("GREENBENCH_POWERCAP_ROOT", powercap_fake_root(f), 1);
  result r = CHECK("check");
  cr_assert(strstr(r.out, "\nperf_event: unavailable: not tried beside another powercap tree "
                          "(GREENBENCH_POWERCAP_ROOT): set GREENBENCH_PERF_POWER_DIR"),
            "%s", r.out);
  setenv("GREENBENCH_PERF_POWER_DIR", pmu, 1);
  r = CHECK("check");
  unsetenv("GREENBENCH_PERF_POWER_DIR");
  unsetenv("GREENBENCH_POWERCAP_ROOT");
  powercap_fake_destroy(f);
  cr_assert_eq(r.rc, 1);
  cr_assert_eq(strncmp(r.out, "powercap: unavailable: no RAPL package zone under ", 50), 0,
               "%s", r.out);
  cr_assert(strstr(r.out, "\nperf_event: unavailable: no perf_event power PMU: "), "%s", r.out);
  cr_assert(strstr(r.out, "/no-power-pmu does not exist"), "%s", r.out);
  cr_assert(strstr(r.out, "\nways: neither works: energy cannot be read\n"), "%s", r.out);
  cr_assert(strstr(r.out, "perf_event: no perf_event power PMU"), "the verdict's why: %s",
            r.out);
}

/* A PMU folder whose event the kernel will not open (no such PMU type). */
Test(cli_check, a_perf_event_that_cannot_be_opened_says_why) {
  powercap_fake *f = powercap_fake_create();
  int pkg = powercap_fake_package(f, 0, 1234, 262143328850u);
  powercap_fake_power(f, pkg, 5000);
  powercap_fake_start(f);
  mkdir(strcat(strcpy((char[1100]){0}, powercap_fake_root(f)), "/power"), 0755);
  mkdir(strcat(strcpy((char[1100]){0}, powercap_fake_root(f)), "/power/events"), 0755);
  powercap_fake_write(f, "power/type", "4000000000\n");
  powercap_fake_write(f, "power/cpumask", "0\n");
  powercap_fake_write(f, "power/events/energy-pkg", "event=0x02\n");
  powercap_fake_write(f, "power/events/energy-pkg.scale", "2.3283064365386962890625e-10\n");
  powercap_fake_write(f, "power/events/energy-pkg.unit", "Joules\n");
  char pmu[1100];
  snprintf(pmu, sizeof pmu, "%s/power", powercap_fake_root(f));
  setenv("GREENBENCH_POWERCAP_ROOT", powercap_fake_root(f), 1);
  setenv("GREENBENCH_PERF_POWER_DIR", pmu, 1);
  result r = CHECK("check");
  unsetenv("GREENBENCH_PERF_POWER_DIR");
  unsetenv("GREENBENCH_POWERCAP_ROOT");
  powercap_fake_destroy(f);
  cr_assert_eq(r.rc, 0, "powercap alone measures: %s", r.out);
  cr_assert(strstr(r.out, "powercap: works: 1 zone(s) under "), "%s", r.out);
  cr_assert(
      strstr(r.out, "\nperf_event: unavailable: perf_event_open(power/energy-pkg/, CPU 0)"),
      "%s", r.out);
  cr_assert(strstr(r.out, "\nways: the study reads powercap alone\n"), "%s", r.out);
  cr_assert(strstr(r.out, "(powercap), all readable"), "%s", r.out);
}
