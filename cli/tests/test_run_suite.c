/* `greenbench run --suite FILE` on the fixture suites of data/suites (whose
 * programs are line.sh, fixed contract lines): a good suite runs and its
 * records read back; --dry-run prints the plan and runs nothing; a wrong
 * output hash, disagreeing counters, a line that is not the contract, a
 * program that fails and one that is missing each stop the campaign with
 * one line, exit 1; a missing or invalid suite and the study's own options
 * exit 2. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "greenbench/cli.h"
#include "greenbench/machine.h"
#include "greenbench/suiterecords.h"
#include "helper_cli_call.h"

typedef gbt_cli_result result;

static result call(int argc, const char **argv) {
  return gbt_cli_call(gb_cli_run, NULL, argc, argv);
}

#define DATA(name) GB_SUITE_DATA_DIR "/" name

static const char *new_out(void) {
  static char dir[96];
  char base[] = "/tmp/gb-run-suite-XXXXXX";
  cr_assert_not_null(mkdtemp(base));
  snprintf(dir, sizeof dir, "%s/records", base);
  return dir;
}

/* run --suite file with small numbers, energy off, into out. */
static result run_suite(const char *file, const char *out) {
  const char *argv[] = {"run", "--suite",      file, "--profile",   "smoke", "--runs",
                        "2",   "--warmups",    "1",  "--target-ms", "1",     "--energy",
                        "off", "--order-seed", "7",  "--out",       out,     "--quiet"};
  return call(sizeof argv / sizeof argv[0], argv);
}

Test(run_suite, a_good_suite_runs_and_its_records_read_back) {
  const char *out = new_out();
  result r = run_suite(DATA("good.json"), out);
  cr_assert_eq(r.rc, 0, "exit %d: %s", r.rc, r.err);
  gb_srec_records *rec;
  gb_err err;
  cr_assert_eq(gb_srec_read(out, &rec, &err), 0, "%s", err.msg);
  /* 2 languages x 2 values: 4 configurations, 2 work runs and 2 startup
   * batches each. */
  cr_assert_eq(rec->n_runs, 16u);
  cr_assert(rec->meta.complete);
  cr_assert_eq(rec->meta.energy_status, GB_REC_ENERGY_OFF);
  cr_assert_str_eq(rec->meta.languages[0].version, "sh 1.0", "the version's first line");
  cr_assert_eq(rec->meta.settings.order_seed, 7u);
  for (size_t i = 0; i < rec->n_runs; i++)
    cr_assert_eq(rec->runs[i].status, GB_REC_STATUS_OK, "%s", rec->runs[i].message);
  gb_srec_free(rec);
  char path[160];
  struct stat st;
  snprintf(path, sizeof path, "%s/build/w.sh", out);
  cr_assert_eq(stat(path, &st), 0, "the build step ran in {builddir} = OUT/build");
}

Test(run_suite, dry_run_prints_the_plan_and_runs_nothing) {
  const char *out = new_out();
  const char *argv[] = {"run",          "--suite", DATA("good.json"), "--profile", "smoke",
                        "--order-seed", "7",       "--out",           out,         "--dry-run"};
  result r = call(sizeof argv / sizeof argv[0], argv);
  cr_assert_eq(r.rc, 0, "%s", r.err);
  cr_assert(strstr(r.out, "suite good (" DATA("good.json") ", hash "), "%s", r.out);
  cr_assert(strstr(r.out, "2 languages, 1 workloads, 2 cases, 4 configurations\n"), "%s",
            r.out);
  cr_assert(strstr(r.out, "measured runs: 40 (20 work runs, 20 startup batches), 5 per "
                          "configuration, one shuffled order (order seed 7)\n"),
            "%s", r.out);
  cr_assert(strstr(r.out, "configurations:\n  a/w/n=1\n  a/w/n=2\n  b/w/n=1\n  b/w/n=2\n"),
            "%s", r.out);
  struct stat st;
  cr_assert_neq(stat(out, &st), 0, "nothing made");
}

/* named.json: a named parameter, order (up, down), in the plan, the
 * records and the parity line, by name and in the file's order. */
Test(run_suite, a_named_parameter_runs_and_is_recorded_by_its_names) {
  const char *argv[] = {"run",       "--suite", DATA("named.json"),
                        "--profile", "smoke",   "--dry-run"};
  result r = call(sizeof argv / sizeof argv[0], argv);
  cr_assert_eq(r.rc, 0, "%s", r.err);
  cr_assert(strstr(r.out, "configurations:\n  a/w/order=up;n=2\n  a/w/order=up;n=1\n"
                          "  a/w/order=down;n=2\n  a/w/order=down;n=1\n  b/w/order=up;n=2\n"),
            "%s", r.out);
  const char *out = new_out();
  r = run_suite(DATA("named.json"), out);
  cr_assert_eq(r.rc, 0, "exit %d: %s", r.rc, r.err);
  gb_srec_records *rec;
  gb_err err;
  cr_assert_eq(gb_srec_read(out, &rec, &err), 0, "%s", err.msg);
  cr_assert_eq(rec->n_runs, 32u);
  size_t down_2 = 0;
  for (size_t i = 0; i < rec->n_runs; i++) {
    const gb_srec_row *row = &rec->runs[i];
    cr_assert_eq(row->status, GB_REC_STATUS_OK, "%s", row->message);
    if (strcmp(row->params, "order=down;n=2") == 0 && row->kind == GB_SREC_KIND_WORK) {
      cr_assert_str_eq(row->output_hash, "0000000000000093");
      cr_assert_str_eq(row->counters, "advances=21;pairs=210");
      down_2++;
    }
  }
  cr_assert_eq(down_2, 4, "2 languages x 2 work runs");
  gb_srec_free(rec);
}

Test(run_suite, a_named_parameter_names_a_parity_mismatch) {
  result r = run_suite(DATA("named-wrong-hash.json"), new_out());
  cr_assert_eq(r.rc, 1, "exit %d: %s", r.rc, r.err);
  cr_assert(strstr(r.err, "greenbench: error: run: parity mismatch: language a, workload w, "
                          "params order=down;n=2: output_hash 0000000000000093 differs from "
                          "expect 0000000000000094 (warm-up 0; the campaign stopped)\n"),
            "%s", r.err);
}

/* stderr ends with line, the one error line (warnings about this
 * machine's pinning or root may come before it). */
static void ends_with_error(const char *err, const char *line) {
  size_t n = strlen(err), k = strlen(line);
  cr_assert(n >= k && strcmp(err + n - k, line) == 0, "%s", err);
  cr_assert_eq(strstr(err, "error:"), strstr(err + n - k, "error:"), "one error line: %s", err);
}

/* The campaign stopped with one line: exit 1 and that line. */
static void stopped(const char *file, const char *line) {
  result r = run_suite(file, new_out());
  cr_assert_eq(r.rc, 1, "exit %d: %s", r.rc, r.err);
  ends_with_error(r.err, line);
}

Test(run_suite, a_wrong_output_hash_stops_the_campaign) {
  stopped(DATA("wrong-hash.json"),
          "greenbench: error: run: parity mismatch: language b, workload w, params n=1: "
          "output_hash ffffffffffffffff differs from expect 0000000000000007 (warm-up 0; the "
          "campaign stopped)\n");
}

Test(run_suite, disagreeing_counters_stop_the_campaign) {
  stopped(DATA("counters.json"),
          "greenbench: error: run: parity mismatch: language b, workload w, params n=1: "
          "counter pairs 11 differs from expect 10 (warm-up 0; the campaign stopped)\n");
}

Test(run_suite, a_line_that_is_not_the_contract_stops_the_campaign) {
  stopped(DATA("noncontract.json"),
          "greenbench: error: run: warm-up 1 of b/w/n=1 failed, so it cannot be calibrated: "
          "bad_output: worker output: does not start with '{': \"result: 42\"\n");
}

Test(run_suite, a_program_that_fails_stops_the_campaign) {
  stopped(DATA("exit2.json"),
          "greenbench: error: run: warm-up 1 of b/w/n=1 failed, so it cannot be calibrated: "
          "exit_nonzero: exited with code 2: line.sh: bad arguments\n");
}

Test(run_suite, a_missing_program_is_refused_before_anything_is_measured) {
  const char *out = new_out();
  result r = run_suite(DATA("missing.json"), out);
  cr_assert_eq(r.rc, 1);
  ends_with_error(r.err, "greenbench: error: run: b/w/n=1: command: program "
                         "greenbench-no-such-program not found on PATH\n");
  /* Nothing measured: warmups.csv holds its header only. */
  char path[160], text[4096];
  snprintf(path, sizeof path, "%s/warmups.csv", out);
  FILE *f = fopen(path, "r");
  cr_assert_not_null(f);
  text[fread(text, 1, sizeof text - 1, f)] = '\0';
  fclose(f);
  cr_assert_eq(strchr(text, '\n'), text + strlen(text) - 1, "%s", text);
}

Test(run_suite, workers_is_greenbench_own_workers_folder) {
  char workers[64], cmd[128];
  cr_assert_eq(gbt_fake_workers(DATA("line.sh"), true, workers, sizeof workers), 0);
  const char *out = new_out();
  result r = run_suite(DATA("workers.json"), out);
  cr_assert_eq(r.rc, 0, "exit %d: %s", r.rc, r.err);
  gb_srec_records *rec;
  gb_err err;
  cr_assert_eq(gb_srec_read(out, &rec, &err), 0, "%s", err.msg);
  cr_assert_eq(rec->n_runs, 16u);
  for (size_t i = 0; i < rec->n_runs; i++)
    cr_assert_eq(rec->runs[i].status, GB_REC_STATUS_OK, "%s", rec->runs[i].message);
  gb_srec_free(rec);
  /* Without node/worker.js the campaign does not start: nothing made. */
  snprintf(cmd, sizeof cmd, "rm %s/node/worker.js", workers);
  cr_assert_eq(system(cmd), 0);
  out = new_out();
  r = run_suite(DATA("workers.json"), out);
  cr_assert_eq(r.rc, 1);
  char want[256];
  snprintf(want, sizeof want,
           "greenbench: error: run: the folder of greenbench's workers ({workers}) %s holds "
           "worker-c but not node/worker.js\n",
           workers);
  ends_with_error(r.err, want);
  struct stat st;
  cr_assert_neq(stat(out, &st), 0, "nothing made");
  snprintf(cmd, sizeof cmd, "rm -r %s", workers);
  cr_assert_eq(system(cmd), 0);
  unsetenv("GREENBENCH_LIBEXEC_DIR");
}

Test(run_suite, a_missing_or_invalid_suite_exits_2) {
  result r = run_suite(DATA("none.json"), new_out());
  cr_assert_eq(r.rc, 2);
  cr_assert_str_eq(r.err, "greenbench: error: suite " DATA("none.json") ": cannot open " DATA(
                              "none.json") ": No such file or directory\n");
  r = run_suite(DATA("unknown.json"), new_out());
  cr_assert_eq(r.rc, 2);
  cr_assert_str_eq(r.err, "greenbench: error: suite " DATA(
                              "unknown.json") ": languages[0].command[3]: unknown placeholder "
                                              "{size}\n");
}

Test(run_suite, the_study_options_are_refused) {
  const char *argv[] = {"run", "--suite", DATA("good.json"), "--languages", "c", "--dry-run"};
  result r = call(sizeof argv / sizeof argv[0], argv);
  cr_assert_eq(r.rc, 2);
  cr_assert_str_eq(r.err, "greenbench: error: run: --languages is the study's option; it "
                          "cannot be combined with --suite (see greenbench run --help)\n");
}

/* The machine label, as the study records it: --machine-label NAME in
 * meta.json's machine.label; by default the host name and CPU model made a
 * label (gb_machine_label); one that is not a label exits 2 with the
 * study's line, before anything runs. */
static void label_recorded(const char *given, const char *want) {
  const char *out = new_out();
  const char *argv[] = {"run",    "--suite", DATA("good.json"), "--profile", "smoke",
                        "--runs", "2",       "--energy",        "off",       "--quiet",
                        "--out",  out,       "--machine-label", given};
  result r = call(given ? 14 : 12, argv);
  cr_assert_eq(r.rc, 0, "exit %d: %s", r.rc, r.err);
  gb_srec_records *rec;
  gb_err err;
  cr_assert_eq(gb_srec_read(out, &rec, &err), 0, "%s", err.msg);
  cr_assert(rec->meta.has_label);
  cr_assert_str_eq(rec->meta.machine_label, want);
  gb_srec_free(rec);
}

Test(run_suite, the_machine_label_is_recorded_as_the_studys) {
  label_recorded("bench-07", "bench-07");
  char host[GB_META_NAME_MAX];
  gb_err err;
  cr_assert_eq(gb_machine_label(NULL, host, sizeof host, &err), 0, "%s", err.msg);
  label_recorded(NULL, host);
  const char *argv[] = {
      "run", "--suite", DATA("good.json"), "--machine-label", "bench.example.org", "--dry-run"};
  result r = call(sizeof argv / sizeof argv[0], argv);
  cr_assert_eq(r.rc, 2);
  cr_assert_str_eq(r.err,
                   "greenbench: error: run: --machine-label 'bench.example.org' is not a "
                   "label: 1 to 63 letters, digits, '_' or '-' (no dots) (see greenbench "
                   "run --help)\n");
}
