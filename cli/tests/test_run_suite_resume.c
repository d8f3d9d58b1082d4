/* `greenbench run --resume DIR` on a suite campaign's folder (docs/suites.md,
 * "Resuming"): a half-finished folder (a straight run's runs.csv cut after
 * its first rows, meta.json saying not complete) goes on in the same order,
 * its rows kept byte for byte, from DIR alone or with --suite FILE (needed
 * for a suite that uses {suitedir}); a complete folder, a changed
 * suite.json or --suite FILE, and an edited row are refused with one line,
 * exit 1, and meta.json, runs.csv and warmups.csv stay byte-identical. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/cli.h"
#include "greenbench/suiterecords.h"
#include "helper_cli_call.h"
#include "helper_slurp.h"

#define DATA(name) GB_SUITE_DATA_DIR "/" name

typedef gbt_cli_result result;

static result call(int argc, const char **argv) {
  return gbt_cli_call(gb_cli_run, NULL, argc, argv);
}

typedef struct {
  char dir[64], file[128], full[96], half[96];
} folders;

/* A fake program and a suite that names it by its absolute path (no
 * {suitedir}), in a new folder. */
static void own_suite(folders *f) {
  char base[] = "/tmp/gb-run-resume-XXXXXX";
  cr_assert_not_null(mkdtemp(base));
  snprintf(f->dir, sizeof f->dir, "%s", base);
  snprintf(f->file, sizeof f->file, "%s/own.json", base);
  snprintf(f->full, sizeof f->full, "%s/full", base);
  snprintf(f->half, sizeof f->half, "%s/half", base);
  const char *prog =
      "n=$1\n"
      "if [ \"$2\" = --startup-only ]; then\n"
      "  printf '{\"startup_only\":true,\"input_hash\":\"%016x\",\"runtime\":\"sh\"}\\n' $n\n"
      "  exit 0\n"
      "fi\n"
      "printf '{\"loop_ns\":%d,\"counters\":{\"steps\":%d},\"input_hash\":\"%016x\","
      "\"output_hash\":\"%016x\",\"runtime\":\"sh\"}\\n' $(($2 * 1000000)) $n $n $((n * 3))\n";
  gbt_spit(base, "p.sh", prog, strlen(prog));
  char lang[2][512], text[2048];
  for (int i = 0; i < 2; i++)
    snprintf(lang[i], sizeof lang[i],
             "{\"name\": \"%s\", \"command\": [\"/bin/sh\", \"%s/p.sh\", \"{n}\", \"{reps}\"], "
             "\"startup\": [\"/bin/sh\", \"%s/p.sh\", \"{n}\", \"--startup-only\"], "
             "\"version\": [\"/bin/echo\", \"sh\"]}",
             i ? "b" : "a", base, base);
  snprintf(
      text, sizeof text,
      "{\"format\": \"greenbench-suite-1\", \"name\": \"own\",\n \"languages\": [%s, %s],\n"
      " \"workloads\": [{\"name\": \"w\", \"parameters\": [{\"name\": \"n\", \"values\": "
      "[1, 2]}]}]}\n",
      lang[0], lang[1]);
  gbt_spit(base, "own.json", text, strlen(text));
}

static result run_suite(const char *file, const char *out) {
  const char *argv[] = {"run", "--suite",      file, "--profile",   "smoke", "--runs",
                        "2",   "--warmups",    "1",  "--target-ms", "1",     "--energy",
                        "off", "--order-seed", "7",  "--out",       out,     "--quiet"};
  return call(sizeof argv / sizeof argv[0], argv);
}

/* f->full a straight run of file, f->half its copy cut after keep rows and
 * not complete. */
static void straight_and_cut(folders *f, const char *file, size_t keep) {
  result r = run_suite(file, f->full);
  cr_assert_eq(r.rc, 0, "exit %d: %s", r.rc, r.err);
  char cmd[256];
  snprintf(cmd, sizeof cmd, "cp -r %s %s", f->full, f->half);
  cr_assert_eq(system(cmd), 0);
  size_t len;
  char *runs = gbt_slurp(f->half, "runs.csv", &len), *p = runs;
  for (size_t i = 0; i <= keep; i++)
    p = strchr(p, '\n') + 1;
  gbt_spit(f->half, "runs.csv", runs, (size_t)(p - runs));
  free(runs);
  char *text = gbt_slurp(f->half, "meta.json", &len), *out;
  gb_srec_meta m;
  gb_err err;
  cr_assert_eq(gb_srec_meta_parse(text, len, &m, &err), 0, "%s", err.msg);
  m.complete = false;
  cr_assert_eq(gb_srec_meta_write(&m, &out, &err), 0, "%s", err.msg);
  gbt_spit(f->half, "meta.json", out, strlen(out));
  free(out);
  free(text);
}

static result resume(const char *dir, const char *file) {
  const char *argv[] = {"run", "--resume", dir, "--quiet", "--suite", file};
  return call(file ? 6 : 4, argv);
}

/* half went on to full's plan: the same rows in the same order, those
 * recorded before byte for byte. */
static void same_plan(const folders *f, const char *before, size_t len) {
  size_t n;
  char *now = gbt_slurp(f->half, "runs.csv", &n);
  cr_assert_gt(n, len);
  cr_assert_eq(memcmp(now, before, len), 0, "the rows recorded stay byte for byte");
  free(now);
  gb_srec_records *a, *b;
  gb_err err;
  cr_assert_eq(gb_srec_read(f->full, &a, &err), 0, "%s", err.msg);
  cr_assert_eq(gb_srec_read(f->half, &b, &err), 0, "%s", err.msg);
  cr_assert(b->meta.complete);
  cr_assert_eq(b->n_runs, a->n_runs);
  for (size_t i = 0; i < a->n_runs; i++) {
    cr_assert_eq(b->runs[i].kind, a->runs[i].kind, "run %zu", i);
    cr_assert_str_eq(b->runs[i].language, a->runs[i].language, "run %zu", i);
    cr_assert_str_eq(b->runs[i].params, a->runs[i].params, "run %zu", i);
    cr_assert_eq(b->runs[i].reps, a->runs[i].reps, "run %zu", i);
    cr_assert_eq(b->runs[i].status, GB_REC_STATUS_OK, "run %zu", i);
  }
  gb_srec_free(a);
  gb_srec_free(b);
}

/* f->half resumed from the folder alone goes on to f->full's plan. */
static void goes_on_alone(const folders *f) {
  size_t len;
  char *before = gbt_slurp(f->half, "runs.csv", &len);
  result r = resume(f->half, NULL);
  cr_assert_eq(r.rc, 0, "exit %d: %s", r.rc, r.err);
  same_plan(f, before, len);
  free(before);
}

Test(run_suite_resume, goes_on_from_the_folder_alone) {
  folders f;
  own_suite(&f);
  straight_and_cut(&f, f.file, 6);
  goes_on_alone(&f);
}

/* good.json's build step copies {suitedir}/line.sh: the folder alone
 * cannot say where that is, the suite file can. */
Test(run_suite_resume, a_suite_that_uses_suitedir_goes_on_with_its_file) {
  folders f;
  own_suite(&f);
  straight_and_cut(&f, DATA("good.json"), 3);
  size_t len;
  char *before = gbt_slurp(f.half, "runs.csv", &len);
  result r = resume(f.half, NULL);
  cr_assert_eq(r.rc, 1, "exit %d: %s", r.rc, r.err);
  char want[512];
  snprintf(want, sizeof want,
           "greenbench: error: run: cannot resume %s: the suite's commands use {suitedir}, the "
           "suite file's folder, which the records do not hold: give the suite file too "
           "(--suite FILE)\n",
           f.half);
  cr_assert_str_eq(r.err, want);
  r = resume(f.half, DATA("good.json"));
  cr_assert_eq(r.rc, 0, "exit %d: %s", r.rc, r.err);
  same_plan(&f, before, len);
  free(before);
}

/* A resume refused, exit 1, with exactly the line want; nothing written. */
/* workers.json runs greenbench's workers ({workers}, here line.sh in a fake
 * workers' folder): the folder alone is enough, and {workers} is looked for
 * again; without one of the workers the resume is refused, writing nothing. */
Test(run_suite_resume, a_suite_that_uses_workers_goes_on_from_the_folder_alone) {
  folders f;
  own_suite(&f);
  char workers[64], cmd[256];
  cr_assert_eq(gbt_fake_workers(DATA("line.sh"), true, workers, sizeof workers), 0);
  straight_and_cut(&f, DATA("workers.json"), 6);
  snprintf(cmd, sizeof cmd, "cp -r %s %s/again", f.half, f.dir);
  cr_assert_eq(system(cmd), 0);
  goes_on_alone(&f);
  snprintf(cmd, sizeof cmd, "rm %s/node/worker.js", workers);
  cr_assert_eq(system(cmd), 0);
  char again[96], want[512];
  snprintf(again, sizeof again, "%s/again", f.dir);
  size_t len;
  char *meta = gbt_slurp(again, "meta.json", &len);
  result r = resume(again, NULL);
  cr_assert_eq(r.rc, 1, "exit %d: %s", r.rc, r.err);
  snprintf(want, sizeof want,
           "greenbench: error: run: the folder of greenbench's workers ({workers}) %s holds "
           "worker-c but not node/worker.js\n",
           workers);
  cr_assert_str_eq(r.err, want);
  size_t len2;
  char *meta2 = gbt_slurp(again, "meta.json", &len2);
  cr_assert(len2 == len && memcmp(meta, meta2, len) == 0, "meta.json stays byte for byte");
  free(meta);
  free(meta2);
  snprintf(cmd, sizeof cmd, "rm -r %s", workers);
  cr_assert_eq(system(cmd), 0);
  unsetenv("GREENBENCH_LIBEXEC_DIR");
}

static void refused(const char *dir, const char *file, const char *want) {
  gbt_snapshot s = gbt_snapshot_take(dir);
  result r = resume(dir, file);
  cr_assert_eq(r.rc, 1, "exit %d: %s", r.rc, r.err);
  char line[1024];
  snprintf(line, sizeof line, "greenbench: error: run: cannot resume %s: %s\n", dir, want);
  size_t n = strlen(r.err), k = strlen(line);
  cr_assert(n >= k && strcmp(r.err + n - k, line) == 0, "%s", r.err);
  cr_assert_eq(strstr(r.err, "error:"), strstr(r.err + n - k, "error:"), "one line: %s", r.err);
  gbt_snapshot_same(dir, &s);
}

/* The bytes of ",kind,language,workload,params" at the start of t. */
static size_t key(const char *t) {
  const char *p = t;
  for (int i = 0; i < 5; i++)
    p = strchr(p + 1, ',');
  return (size_t)(p - t);
}

Test(run_suite_resume, refusals_write_nothing) {
  folders f;
  own_suite(&f);
  straight_and_cut(&f, f.file, 6);
  gb_srec_records *rec;
  gb_err err;
  cr_assert_eq(gb_srec_read(f.full, &rec, &err), 0, "%s", err.msg);
  char hash[64], want[1024];
  snprintf(hash, sizeof hash, "%s", rec->meta.suite_hash);
  gb_srec_free(rec);
  refused(f.full, NULL, "the campaign is already complete");
  /* A --suite FILE that is not the recorded suite. */
  snprintf(want, sizeof want, "the suite changed: %s's XXH128 is ", DATA("good.json"));
  gbt_snapshot s = gbt_snapshot_take(f.half);
  result r = resume(f.half, DATA("good.json"));
  cr_assert_eq(r.rc, 1);
  cr_assert(strstr(r.err, want), "%s", r.err);
  snprintf(want, sizeof want, ", meta.json records %s\n", hash);
  cr_assert(strstr(r.err, want), "%s", r.err);
  gbt_snapshot_free(&s);
  /* Two rows of different configurations swapped (their run numbers
   * kept): each count is right, the order is not the plan's. */
  size_t len;
  char *runs = gbt_slurp(f.half, "runs.csv", &len), *orig = malloc(len + 1);
  memcpy(orig, runs, len + 1);
  char *a = strchr(runs, '\n') + 1, *b = NULL;
  size_t line = 2;
  for (;; line++, a = b) {
    b = strchr(a, '\n') + 1;
    cr_assert_neq(*b, '\0', "two rows that differ");
    char *ta = strchr(a, ','), *tb = strchr(b, ',');
    if (strncmp(ta, tb, key(ta)) == 0 && key(ta) == key(tb))
      continue; /* the same configuration and kind */
    size_t na = (size_t)(strchr(a, '\n') - ta), nb = (size_t)(strchr(b, '\n') - tb);
    char ra[1024], rb[1024];
    snprintf(ra, sizeof ra, "%.*s", (int)(ta - a), a);
    snprintf(rb, sizeof rb, "%.*s", (int)(tb - b), b);
    char swapped[4096];
    int n =
        snprintf(swapped, sizeof swapped, "%s%.*s\n%s%.*s\n", ra, (int)nb, tb, rb, (int)na, ta);
    memcpy(a, swapped, (size_t)n); /* the same bytes in all */
    break;
  }
  gbt_spit(f.half, "runs.csv", runs, len);
  snprintf(want, sizeof want,
           "runs.csv line %zu is not the plan's run %zu (were the records "
           "edited?)",
           line, line - 2);
  refused(f.half, NULL, want);
  gbt_spit(f.half, "runs.csv", orig, len);
  free(orig);
  free(runs);
  /* suite.json changed: a space at its end. */
  char *suite = gbt_slurp(f.half, "suite.json", &len);
  suite[len] = ' ';
  gbt_spit(f.half, "suite.json", suite, len + 1);
  free(suite);
  char changed[160];
  snprintf(changed, sizeof changed, "%s/suite.json", f.half);
  gbt_snapshot t = gbt_snapshot_take(f.half);
  r = resume(f.half, NULL);
  cr_assert_eq(r.rc, 1);
  snprintf(want, sizeof want,
           "greenbench: error: run: cannot resume %s: the suite changed: %s's XXH128 is ",
           f.half, changed);
  cr_assert(strncmp(r.err, want, strlen(want)) == 0, "%s", r.err);
  snprintf(want, sizeof want, ", meta.json records %s\n", hash);
  cr_assert(strstr(r.err, want), "%s", r.err);
  gbt_snapshot_same(f.half, &t);
}

Test(run_suite_resume, dry_run_and_another_out_are_usage_errors) {
  folders f;
  own_suite(&f);
  const char *argv[] = {"run", "--resume", f.dir, "--dry-run"};
  result r = call(4, argv);
  cr_assert_eq(r.rc, 2);
  cr_assert(
      strstr(r.err, "--dry-run plans a new campaign; it cannot be combined with --resume"),
      "%s", r.err);
  const char *argv2[] = {"run", "--resume", f.dir, "--suite", f.file, "--out", "/tmp/x"};
  r = call(7, argv2);
  cr_assert_eq(r.rc, 2);
  cr_assert(strstr(r.err, "--out and --resume name different folders"), "%s", r.err);
}

Test(run_suite_resume, the_study_options_are_refused) {
  folders f;
  own_suite(&f);
  straight_and_cut(&f, f.file, 6);
  const char *argv[] = {"run", "--resume", f.half, "--languages", "c"};
  result r = call(5, argv);
  cr_assert_eq(r.rc, 2);
  cr_assert_str_eq(r.err, "greenbench: error: run: --languages is the study's option; the "
                          "folder --resume names holds a suite campaign (see greenbench run "
                          "--help)\n");
}

/* On --resume the recorded machine label goes on; another one given is
 * refused as the study refuses it, and the same one is taken. */
Test(run_suite_resume, another_machine_label_is_refused) {
  folders f;
  own_suite(&f);
  const char *argv[] = {"run",
                        "--suite",
                        f.file,
                        "--profile",
                        "smoke",
                        "--runs",
                        "2",
                        "--warmups",
                        "1",
                        "--target-ms",
                        "1",
                        "--energy",
                        "off",
                        "--order-seed",
                        "7",
                        "--out",
                        f.full,
                        "--quiet",
                        "--machine-label",
                        "bench-07"};
  result r = call(sizeof argv / sizeof argv[0], argv);
  cr_assert_eq(r.rc, 0, "exit %d: %s", r.rc, r.err);
  char cmd[256];
  snprintf(cmd, sizeof cmd, "cp -r %s %s", f.full, f.half);
  cr_assert_eq(system(cmd), 0);
  size_t len;
  char *text = gbt_slurp(f.half, "meta.json", &len), *out;
  gb_srec_meta m;
  gb_err err;
  cr_assert_eq(gb_srec_meta_parse(text, len, &m, &err), 0, "%s", err.msg);
  m.complete = false;
  cr_assert_eq(gb_srec_meta_write(&m, &out, &err), 0, "%s", err.msg);
  gbt_spit(f.half, "meta.json", out, strlen(out));
  free(out);
  free(text);
  char *runs = gbt_slurp(f.half, "runs.csv", &len), *p = runs;
  for (size_t i = 0; i <= 6; i++)
    p = strchr(p, '\n') + 1;
  gbt_spit(f.half, "runs.csv", runs, (size_t)(p - runs));
  free(runs);
  gbt_snapshot s = gbt_snapshot_take(f.half);
  const char *other[] = {"run", "--resume", f.half, "--quiet", "--machine-label", "bench-08"};
  r = call(6, other);
  cr_assert_eq(r.rc, 1, "exit %d: %s", r.rc, r.err);
  char want[512];
  snprintf(want, sizeof want,
           "cannot resume %s: the machine label differs (recorded 'bench-07', now "
           "'bench-08')\n",
           f.half);
  cr_assert(strstr(r.err, want), "%s", r.err);
  gbt_snapshot_same(f.half, &s);
  const char *same[] = {"run", "--resume", f.half, "--quiet", "--machine-label", "bench-07"};
  r = call(6, same);
  cr_assert_eq(r.rc, 0, "exit %d: %s", r.rc, r.err);
  gb_srec_records *rec;
  cr_assert_eq(gb_srec_read(f.half, &rec, &err), 0, "%s", err.msg);
  cr_assert(rec->meta.complete);
  cr_assert_str_eq(rec->meta.machine_label, "bench-07");
  gb_srec_free(rec);
}
