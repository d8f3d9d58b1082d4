/* `greenbench suite check` on the fixture suites of data/suites, whose
 * programs are one shell script (line.sh) printing fixed contract lines: a
 * good suite passes with one row per process; a wrong hash, disagreeing
 * counters, a line that is not the contract, a failing program and a
 * missing one each give one error line naming the language, workload,
 * parameters and field, exit 1; a suite that breaks a rule exits 2. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "greenbench/cli.h"
#include "helper_cli_call.h"

typedef gbt_cli_result result;

static result call(int argc, const char **argv) {
  return gbt_cli_call(gb_cli_suite, NULL, argc, argv);
}

#define SUITE(...)                                                                             \
  call(sizeof((const char *[]){"suite", __VA_ARGS__}) / sizeof(char *),                        \
       (const char *[]){"suite", __VA_ARGS__})
#define DATA(name) GB_SUITE_DATA_DIR "/" name

/* A row of the table: a line starting with the first five columns, as
 * printed, and ending with the result (the wall time between varies). */
static bool has_row(const char *out, const char *lang, const char *workload, const char *params,
                    const char *step, const char *ok, const char *tail) {
  char head[128];
  snprintf(head, sizeof head, "%-12s %-16s %-16s %-8s %-4s ", lang, workload, params, step, ok);
  for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
    size_t n = strcspn(l, "\n"), t = strlen(tail);
    if (strncmp(l, head, strlen(head)) == 0 && n >= t && strncmp(l + n - t, tail, t) == 0)
      return true;
  }
  return false;
}

static size_t lines(const char *s) {
  size_t n = 0;
  for (; *s; s++)
    n += *s == '\n';
  return n;
}

Test(suite_check, a_good_suite_runs_every_process_once_and_agrees) {
  char tmp[] = "/tmp/gb-suite-check-XXXXXX", build[64];
  cr_assert_not_null(mkdtemp(tmp));
  snprintf(build, sizeof build, "%s/build", tmp);
  result r = SUITE("check", DATA("good.json"), "--builddir", build);
  cr_assert_eq(r.rc, 0, "exit %d: %s", r.rc, r.err);
  cr_assert_str_empty(r.err);
  /* A header, 1 build, 2 versions, 2 languages x 2 values x (run + startup). */
  cr_assert_eq(lines(r.out), 1 + 1 + 2 + 8, "%s", r.out);
  cr_assert(has_row(r.out, "a", "w", "-", "build", "ok", "  -"), "%s", r.out);
  cr_assert(has_row(r.out, "b", "-", "-", "version", "ok", "  sh 1.0"), "%s", r.out);
  cr_assert(
      has_row(r.out, "b", "w", "n=2", "run", "ok",
              "  input 0000000000000002 output 000000000000000e advances=2 pairs=20 (sh)"),
      "%s", r.out);
  cr_assert(has_row(r.out, "a", "w", "n=1", "startup", "ok", "  input 0000000000000001 (sh)"),
            "%s", r.out);
  /* The build step wrote into --builddir, which is kept. */
  char built[128];
  snprintf(built, sizeof built, "%s/w.sh", build);
  cr_assert_eq(access(built, R_OK), 0);
  unlink(built);
  rmdir(build);
  rmdir(tmp);
}

Test(suite_check, the_default_build_folder_is_removed) {
  char tmp[] = "/tmp/gb-suite-check-XXXXXX";
  cr_assert_not_null(mkdtemp(tmp));
  setenv("TMPDIR", tmp, 1);
  result r = SUITE("check", DATA("good.json"));
  cr_assert_eq(r.rc, 0, "exit %d: %s", r.rc, r.err);
  DIR *d = opendir(tmp);
  cr_assert_not_null(d);
  size_t entries = 0;
  for (struct dirent *e; (e = readdir(d));)
    entries += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
  closedir(d);
  cr_assert_eq(entries, 0, "the temporary build folder is left in %s", tmp);
  rmdir(tmp);
}

static void failed(const char *file, const char *err) {
  result r = SUITE("check", file);
  cr_assert_eq(r.rc, 1, "exit %d: %s", r.rc, r.err);
  cr_assert_str_eq(r.err, err);
}

Test(suite_check, a_wrong_output_hash_is_named_against_expect_and_the_first_language) {
  failed(DATA("wrong-hash.json"),
         "greenbench: error: suite check: b w n=1: output_hash ffffffffffffffff differs from "
         "expect 0000000000000007\n"
         "greenbench: error: suite check: b w n=2: output_hash ffffffffffffffff differs from "
         "a's 000000000000000e\n");
}

/* named.json: a named parameter, order (up, down), reaches the programs
 * as its name and names the rows and the error lines. */
Test(suite_check, a_named_parameter_is_passed_and_shown_by_its_name) {
  result r = SUITE("check", DATA("named.json"));
  cr_assert_eq(r.rc, 0, "exit %d: %s", r.rc, r.err);
  cr_assert_str_empty(r.err);
  /* A header, 2 versions, 2 languages x 4 parameter sets x (run + startup). */
  cr_assert_eq(lines(r.out), 1 + 2 + 16, "%s", r.out);
  cr_assert(
      has_row(r.out, "b", "w", "order=down,n=1", "run", "ok",
              "  input 000000000000000b output 000000000000004d advances=11 pairs=110 (sh)"),
      "%s", r.out);
  cr_assert(has_row(r.out, "a", "w", "order=up,n=2", "startup", "ok",
                    "  input 0000000000000014 (sh)"),
            "%s", r.out);
  failed(DATA("named-wrong-hash.json"),
         "greenbench: error: suite check: a w order=down,n=2: output_hash 0000000000000093 "
         "differs from expect 0000000000000094\n"
         "greenbench: error: suite check: b w order=down,n=2: output_hash 0000000000000093 "
         "differs from expect 0000000000000094\n");
}

Test(suite_check, disagreeing_counters_are_named) {
  failed(DATA("counters.json"),
         "greenbench: error: suite check: b w n=1: counter pairs 11 differs from expect 10\n"
         "greenbench: error: suite check: b w n=2: counter pairs 21 differs from a's 20\n");
}

Test(suite_check, a_line_that_is_not_the_contract_is_named) {
  result r = SUITE("check", DATA("noncontract.json"));
  cr_assert_eq(r.rc, 1);
  cr_assert_str_eq(r.err, "greenbench: error: suite check: b w n=1: run: worker output: does "
                          "not start with '{': \"result: 42\"\n"
                          "greenbench: error: suite check: b w n=2: run: worker output: does "
                          "not start with '{': \"result: 42\"\n");
  cr_assert(has_row(r.out, "b", "w", "n=1", "run", "FAIL", "  -"), "%s", r.out);
}

Test(suite_check, a_program_that_fails_is_named_with_its_last_stderr_line) {
  failed(DATA("exit2.json"),
         "greenbench: error: suite check: b w n=1: run: exited with code 2: line.sh: bad "
         "arguments\n"
         "greenbench: error: suite check: b w n=2: run: exited with code 2: line.sh: bad "
         "arguments\n");
}

Test(suite_check, a_missing_program_is_named) {
  failed(DATA("missing.json"),
         "greenbench: error: suite check: b w n=1: run: program greenbench-no-such-program not "
         "found on PATH\n"
         "greenbench: error: suite check: b w n=1: startup: program greenbench-no-such-program "
         "not found on PATH\n"
         "greenbench: error: suite check: b w n=2: run: program greenbench-no-such-program not "
         "found on PATH\n"
         "greenbench: error: suite check: b w n=2: startup: program greenbench-no-such-program "
         "not found on PATH\n");
}

Test(suite_check, a_process_past_the_timeout_is_killed_and_named) {
  char dir[] = "/tmp/gb-suite-check-XXXXXX", path[64];
  cr_assert_not_null(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/slow.json", dir);
  FILE *f = fopen(path, "w");
  cr_assert_not_null(f);
  fputs(
      "{\"format\":\"greenbench-suite-1\",\"name\":\"slow\",\"languages\":[{\"name\":\"a\","
      "\"command\":[\"/bin/sleep\",\"{n}\",\"{reps}\"],\"startup\":[\"/bin/sh\",\"-c\",\"exit "
      "0\",\"{n}\"],"
      "\"version\":[\"/bin/echo\",\"sleep\"]}],\"workloads\":[{\"name\":\"w\","
      "\"parameters\":[{\"name\":\"n\",\"values\":[30]}]}]}\n",
      f);
  fclose(f);
  result r = SUITE("check", path, "--timeout", "1");
  cr_assert_eq(r.rc, 1);
  const char *want =
      "greenbench: error: suite check: a w n=30: run: timed out after 1.0 s; killed "
      "process group ";
  cr_assert_eq(strncmp(r.err, want, strlen(want)), 0, "%s", r.err);
  cr_assert(strstr(r.err, "greenbench: error: suite check: a w n=30: startup: worker output: "
                          "nothing on stdout; expected one line of JSON\n"),
            "%s", r.err);
  unlink(path);
  rmdir(dir);
}

/* The fake workers' folder of gbt_fake_workers, removed. */
static void remove_workers(const char *dir) {
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -r %s", dir);
  cr_assert_eq(system(cmd), 0);
  unsetenv("GREENBENCH_LIBEXEC_DIR");
}

Test(suite_check, workers_is_greenbench_own_workers_folder) {
  char tmp[64];
  cr_assert_eq(gbt_fake_workers(DATA("line.sh"), true, tmp, sizeof tmp), 0);
  result r = SUITE("check", DATA("workers.json"));
  cr_assert_eq(r.rc, 0, "exit %d: %s", r.rc, r.err);
  cr_assert_str_empty(r.err);
  cr_assert(has_row(r.out, "a", "w", "-", "build", "ok", "  -"), "%s", r.out);
  cr_assert(
      has_row(r.out, "a", "-", "-", "version", "ok",
              "  {\"loop_ns\":1,\"counters\":{\"advances\":1,\"pairs\":10},\"input_hash\":"
              "\"0000000000000001\",\"output_hash\":\"0000000000000007\",\"runtime\":\"sh\"}"),
      "%s", r.out);
  cr_assert(
      has_row(r.out, "b", "w", "n=2", "run", "ok",
              "  input 0000000000000002 output 000000000000000e advances=2 pairs=20 (sh)"),
      "%s", r.out);
  cr_assert(has_row(r.out, "b", "w", "n=1", "startup", "ok", "  input 0000000000000001 (sh)"),
            "%s", r.out);
  remove_workers(tmp);
}

Test(suite_check, a_workers_folder_without_a_worker_is_refused_before_anything_runs) {
  char tmp[64], want[256];
  cr_assert_eq(gbt_fake_workers(DATA("line.sh"), false, tmp, sizeof tmp), 0);
  result r = SUITE("check", DATA("workers.json"));
  cr_assert_eq(r.rc, 1, "exit %d: %s", r.rc, r.err);
  snprintf(
      want, sizeof want,
      "greenbench: error: suite check: the folder of greenbench's workers ({workers}) %s holds "
      "worker-c but not node/worker.js\n",
      tmp);
  cr_assert_str_eq(r.err, want);
  cr_assert_str_empty(r.out, "nothing ran");
  /* A suite that does not name {workers} does not look for them. */
  r = SUITE("check", DATA("good.json"));
  cr_assert_eq(r.rc, 0, "exit %d: %s", r.rc, r.err);
  remove_workers(tmp);
}

Test(suite_check, a_suite_that_breaks_a_rule_exits_2_before_anything_runs) {
  result r = SUITE("check", DATA("unknown.json"));
  cr_assert_eq(r.rc, 2);
  cr_assert_str_empty(r.out);
  cr_assert_str_eq(r.err,
                   "greenbench: error: suite " DATA("unknown.json") ": languages[0]."
                                                                    "command[3]: unknown "
                                                                    "placeholder {size}\n");
  r = SUITE("check", DATA("none.json"));
  cr_assert_eq(r.rc, 2);
  cr_assert_str_eq(r.err, "greenbench: error: suite " DATA("none.json") ": cannot open " DATA(
                              "none.json") ": No such file or directory\n");
}

Test(suite_check, bad_arguments_exit_2_with_one_line) {
  static const struct {
    int argc;
    const char *argv[5];
    const char *err;
  } cases[] = {
      {1,
       {"suite"},
       "suite: no subcommand given (expected check; see greenbench suite --help)"},
      {2,
       {"suite", "run"},
       "suite: unknown subcommand 'run' (expected check; see greenbench suite --help)"},
      {2,
       {"suite", "check"},
       "suite check: no suite file given (see greenbench suite check --help)"},
      {4,
       {"suite", "check", "a", "b"},
       "suite check: one suite file expected, got 'a' and 'b'"},
      {4,
       {"suite", "check", "--timeout", "0"},
       "suite check: --timeout must be an integer from 1 to 86400, got '0'"},
      {3,
       {"suite", "check", "--bogus"},
       "suite check: unknown option '--bogus' (see greenbench suite check --help)"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    result r = call(cases[i].argc, (const char **)cases[i].argv);
    char want[256];
    snprintf(want, sizeof want, "greenbench: error: %s\n", cases[i].err);
    cr_assert_eq(r.rc, 2, "%s", cases[i].err);
    cr_assert_str_eq(r.err, want);
  }
  result r = SUITE("--help");
  cr_assert_eq(r.rc, 0);
  cr_assert_eq(strncmp(r.out, "usage: greenbench suite check FILE", 34), 0, "%s", r.out);
  r = SUITE("--help", "extra");
  cr_assert_eq(r.rc, 0);
  cr_assert_eq(strncmp(r.out, "usage: greenbench suite check FILE", 34), 0, "%s", r.out);
  r = SUITE("--version");
  cr_assert_eq(r.rc, 0);
  cr_assert_eq(strncmp(r.out, "greenbench ", 11), 0, "%s", r.out);
  r = SUITE("check", "--help");
  cr_assert_eq(r.rc, 0);
  cr_assert_eq(strncmp(r.out, "usage: greenbench suite check FILE", 34), 0, "%s", r.out);
}
