/* --resume of a suite campaign (suitecampaign.h) on a tiny suite of fake
 * programs (data/suite/fake.sh): a half-finished folder (a straight run's
 * runs.csv cut after its first rows, meta.json saying not complete) goes on
 * in the same order, its rows kept byte for byte; a complete folder, a
 * changed suite.json or suite file, an edited row, settings out of bounds
 * or different, an unfinished calibration are refused with one line, and
 * meta.json, runs.csv and warmups.csv stay byte-identical. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/suitecampaign.h"
#include "greenbench/suiterecords.h"
#include "helper_slurp.h"

#define FAKE GB_TEST_DATA_DIR "/suite/fake.sh"
#define LANG(name, tag)                                                                        \
  "{\"name\": \"" name "\", \"command\": [\"/bin/sh\", \"" FAKE "\", \"" tag                   \
  "\", \"{n}\", \"{reps}\"], \"startup\": [\"/bin/sh\", \"" FAKE "\", \"" tag                  \
  "\", \"{n}\", \"--startup-only\"], \"version\": [\"/bin/echo\", \"fake 1.0\"]}"
#define SUITE                                                                                  \
  "{\"format\": \"greenbench-suite-1\", \"name\": \"fake\",\n"                                 \
  " \"languages\": [" LANG("a", "good") ", " LANG(                                             \
      "b", "good") "],\n"                                                                      \
                   " \"workloads\": [{\"name\": \"w\", \"parameters\": [{\"name\": \"n\", "    \
                   "\"values\": [10, "                                                         \
                   "20]}]}]}\n"
/* b agrees for its first 6 launches (its 5 warm-ups and its first measured
 * run), then lies. */
#define LATE_SUITE                                                                             \
  "{\"format\": \"greenbench-suite-1\", \"name\": \"fake\",\n"                                 \
  " \"languages\": [" LANG(                                                                    \
      "a", "good") ", {\"name\": \"b\", \"command\": [\"/bin/sh\", \"" FAKE                    \
                   "\", \"late\", \"{n}\", \"{reps}\", \"{suitedir}\"], \"startup\": "         \
                   "[\"/bin/sh\", \"" FAKE "\", \"late\", \"{n}\", \"--startup-only\", "       \
                   "\"{suitedir}\"], \"version\": [\"/bin/echo\", "                            \
                   "\"late\"]}],\n"                                                            \
                   " \"workloads\": [{\"name\": \"w\", \"parameters\": [{\"name\": \"n\", "    \
                   "\"values\": [10, "                                                         \
                   "20]}]}]}\n"

typedef struct {
  char dir[64];
  char full[96]; /* a straight run */
  char half[96]; /* its copy, cut short */
  char file[96]; /* the suite file */
  const char *text;
  gb_suite suite;
  FILE *log; /* progress lines, or NULL: quiet */
} fixture;

/* Sets *stop after the process of call `at` (warm-ups count: 10 of them). */
typedef struct {
  volatile sig_atomic_t *stop;
  int calls, at;
} stopper;

static int stop_at(void *ctx, const gb_spawn_opts *o, gb_spawn_result *r, gb_err *err) {
  stopper *s = ctx;
  int rc = gb_spawn_run(o, r, err);
  if (++s->calls == s->at)
    *s->stop = 1;
  return rc;
}

static int campaign_with(fixture *f, const char *out, bool resume, const gb_settings *given,
                         const gb_spawner *spawner, volatile sig_atomic_t *stop,
                         gb_campaign_result *res, gb_err *err) {
  gb_settings s;
  cr_assert_eq(gb_settings_profile("smoke", &s, err), 0, "%s", err->msg);
  s.runs = 2;
  s.warmups = 1;
  s.target_ms = 2;
  s.energy = GB_ENERGY_OFF;
  s.order_seed = 42;
  gb_suite_campaign_opts o = {
      .base = {.settings = given ? *given : s,
               .settings_given = given != NULL,
               .resume = resume,
               .out_dir = out,
               .topology_xml = GB_TEST_DATA_DIR "/topo-desktop-smt.xml",
               .machine_root = GB_TEST_DATA_DIR "/sysfs-intel",
               .spawner = spawner,
               .stop = stop,
               .progress = f->log ? GB_PROGRESS_LINES : GB_PROGRESS_QUIET,
               .log = f->log},
      .suite = &f->suite,
      .suite_text = f->text,
      .suite_len = strlen(f->text)};
  return gb_suite_campaign_run(&o, res, err);
}

static int campaign(fixture *f, const char *out, bool resume, const gb_settings *given,
                    gb_campaign_result *res, gb_err *err) {
  return campaign_with(f, out, resume, given, NULL, NULL, res, err);
}

/* meta.json with complete as given. */
static void set_complete(const char *dir, bool complete) {
  size_t len;
  char *text = gbt_slurp(dir, "meta.json", &len), *out;
  gb_srec_meta m;
  gb_err err;
  cr_assert_eq(gb_srec_meta_parse(text, len, &m, &err), 0, "%s", err.msg);
  m.complete = complete;
  cr_assert_eq(gb_srec_meta_write(&m, &out, &err), 0, "%s", err.msg);
  gbt_spit(dir, "meta.json", out, strlen(out));
  free(out);
  free(text);
}

/* The suite file text in a new folder. */
static void prepare(fixture *f, const char *text) {
  char base[] = "/tmp/gb-suiteresume-XXXXXX";
  cr_assert_not_null(mkdtemp(base));
  snprintf(f->dir, sizeof f->dir, "%s", base);
  snprintf(f->full, sizeof f->full, "%s/full", base);
  snprintf(f->half, sizeof f->half, "%s/half", base);
  snprintf(f->file, sizeof f->file, "%s/fake.json", base);
  f->text = text;
  f->log = NULL;
  gbt_spit(base, "fake.json", text, strlen(text));
  gb_err err;
  cr_assert_eq(gb_suite_load(f->file, &f->suite, &err), 0, "%s", err.msg);
}

/* half: a copy of full with runs.csv cut after keep rows, not complete. */
static void cut(fixture *f, size_t keep) {
  char cmd[256];
  snprintf(cmd, sizeof cmd, "cp -r %s %s", f->full, f->half);
  cr_assert_eq(system(cmd), 0);
  size_t len;
  char *runs = gbt_slurp(f->half, "runs.csv", &len), *p = runs;
  for (size_t i = 0; i <= keep; i++) /* the header, then keep rows */
    p = strchr(p, '\n') + 1;
  gbt_spit(f->half, "runs.csv", runs, (size_t)(p - runs));
  free(runs);
  set_complete(f->half, false);
}

/* A straight run in full, and half: its copy cut after keep rows. */
static void setup(fixture *f, size_t keep) {
  prepare(f, SUITE);
  gb_campaign_result res;
  gb_err err;
  cr_assert_eq(campaign(f, f->full, false, NULL, &res, &err), 0, "%s", err.msg);
  cr_assert(res.completed);
  cut(f, keep);
}

static void done(fixture *f) {
  gb_suite_free(&f->suite);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", f->dir);
  cr_assert_eq(system(cmd), 0);
}

Test(suitecampaign_resume, goes_on_in_the_same_order_keeping_the_rows) {
  fixture f;
  setup(&f, 5);
  size_t lfull, lhalf, lmeta;
  char *full = gbt_slurp(f.full, "runs.csv", &lfull);
  char *half = gbt_slurp(f.half, "runs.csv", &lhalf);
  char *warm = gbt_slurp(f.half, "warmups.csv", &lmeta);
  gb_campaign_result res;
  gb_err err;
  cr_assert_eq(campaign(&f, f.half, true, NULL, &res, &err), 0, "%s", err.msg);
  cr_assert(res.completed && !res.interrupted);
  cr_assert_eq(res.runs_done, 16u);
  cr_assert_eq(res.runs_total, 16u);
  size_t len;
  char *now = gbt_slurp(f.half, "runs.csv", &len);
  cr_assert_eq(memcmp(now, half, lhalf), 0, "the rows recorded before stay byte for byte");
  char *w = gbt_slurp(f.half, "warmups.csv", &len);
  cr_assert_eq(len, lmeta);
  cr_assert_eq(memcmp(w, warm, len), 0, "warmups.csv is not touched");
  gb_srec_records *a, *b;
  cr_assert_eq(gb_srec_read(f.full, &a, &err), 0, "%s", err.msg);
  cr_assert_eq(gb_srec_read(f.half, &b, &err), 0, "%s", err.msg);
  cr_assert(b->meta.complete);
  cr_assert_eq(b->meta.started_unix_ns, a->meta.started_unix_ns, "the recorded start stays");
  cr_assert_eq(b->n_runs, a->n_runs);
  for (size_t i = 0; i < a->n_runs; i++) {
    const gb_srec_row *x = &a->runs[i], *y = &b->runs[i];
    cr_assert_eq(y->run, i);
    cr_assert_eq(y->kind, x->kind, "run %zu", i);
    cr_assert_str_eq(y->language, x->language, "run %zu", i);
    cr_assert_str_eq(y->params, x->params, "run %zu", i);
    cr_assert_eq(y->reps, x->reps, "run %zu: the calibration replayed", i);
    cr_assert_eq(y->launches, x->launches, "run %zu", i);
    cr_assert_eq(y->status, GB_REC_STATUS_OK, "run %zu: %s", i, y->message);
    cr_assert_str_eq(y->output_hash, x->output_hash, "run %zu", i);
  }
  gb_srec_free(a);
  gb_srec_free(b);
  free(full);
  free(half);
  free(warm);
  free(now);
  free(w);
  done(&f);
}

/* A resumed campaign's progress line has an estimate from its first run
 * on: the calibration replayed prices the runs ahead. */
Test(suitecampaign_resume, progress_shows_an_estimate_from_the_replayed_calibration) {
  fixture f;
  setup(&f, 5);
  f.log = tmpfile();
  cr_assert_not_null(f.log);
  gb_campaign_result res;
  gb_err err;
  cr_assert_eq(campaign(&f, f.half, true, NULL, &res, &err), 0, "%s", err.msg);
  rewind(f.log);
  char line[512];
  bool first = false;
  while (fgets(line, sizeof line, f.log)) {
    cr_assert_null(strstr(line, "greenbench: calibrating"), "no calibration: %s", line);
    const char *eta = strstr(line, ", eta ");
    if (!strstr(line, "greenbench: run "))
      continue;
    cr_assert_not_null(eta, "%s", line);
    unsigned m, sec;
    cr_assert_eq(sscanf(eta, ", eta %um%us,", &m, &sec), 2, "no estimate: %s", line);
    first = first || strstr(line, "greenbench: run 5/16,") != NULL;
  }
  cr_assert(first, "the resumed campaign's first line");
  fclose(f.log);
  done(&f);
}

/* Replaces every `from` in line by `to`, of the same length. */
static void swap_all(char *line, const char *from, const char *to) {
  for (char *at = line; (at = strstr(at, from)) != NULL; at += strlen(to))
    memcpy(at, to, strlen(to));
}

/* dir's warmups.csv as a campaign recorded before first warm-ups were
 * predicted: each language's n=20 calibrated from a probe, as its n=10 (1
 * ms for 1 rep, then 3 ms for 3), not from 2 predicted reps. */
static void as_before_prediction(const char *dir) {
  size_t len;
  char *text = gbt_slurp(dir, "warmups.csv", &len), *out = calloc(1, 2 * len + 1);
  cr_assert_not_null(out);
  char *o = out, *save = NULL;
  for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    if (strstr(line, ",work,") && strstr(line, ",n=20,"))
      continue; /* the predicted warm-up */
    o += sprintf(o, "%s\n", line);
    if (strstr(line, ",work,") && strstr(line, ",n=10,") && strncmp(line, "1,", 2) == 0) {
      char *row0 = strstr(out, line) - 1; /* the line before: warm-up 0 of this n=10 */
      while (row0 > out && row0[-1] != '\n')
        row0--;
      char copy[2][1024];
      snprintf(copy[0], sizeof copy[0], "%.*s", (int)strcspn(row0, "\n"), row0);
      snprintf(copy[1], sizeof copy[1], "%s", line);
      for (int k = 0; k < 2; k++) {
        swap_all(copy[k], ",n=10,", ",n=20,");
        swap_all(copy[k], "steps=10", "steps=20");
        swap_all(copy[k], "000000000000000a", "0000000000000014");
        swap_all(copy[k], "000000000000001e", "000000000000003c");
        o += sprintf(o, "%s\n", copy[k]);
      }
    }
  }
  gbt_spit(dir, "warmups.csv", out, strlen(out));
  free(out);
  free(text);
}

/* Records of a campaign that calibrated every first warm-up from a probe
 * still resume: the replay takes a recorded probe for one. */
Test(suitecampaign_resume, a_calibration_from_probes_still_replays) {
  fixture f;
  setup(&f, 0); /* no run yet: its batch sizes follow from the walls copied */
  as_before_prediction(f.half);
  size_t len;
  char *w = gbt_slurp(f.half, "warmups.csv", &len);
  cr_assert_not_null(strstr(w, "0,work,a,w,n=20,"), "%s", w);
  cr_assert_not_null(strstr(w, "1,work,b,w,n=20,"), "%s", w);
  free(w);
  gb_campaign_result res;
  gb_err err;
  cr_assert_eq(campaign(&f, f.half, true, NULL, &res, &err), 0, "%s", err.msg);
  cr_assert(res.completed);
  done(&f);
}

/* A resume of dir refused with -want and a message holding what. */
static void refused(fixture *f, const char *dir, const gb_settings *given, int want,
                    const char *what) {
  gbt_snapshot s = gbt_snapshot_take(dir);
  gb_campaign_result res;
  gb_err err;
  cr_assert_eq(campaign(f, dir, true, given, &res, &err), -want, "%s", err.msg);
  cr_assert(strstr(err.msg, what), "%s", err.msg);
  cr_assert(strstr(err.msg, "cannot resume "), "%s", err.msg);
  cr_assert_null(strchr(err.msg, '\n'), "one line");
  gbt_snapshot_same(dir, &s);
}

Test(suitecampaign_resume, a_complete_folder_is_refused) {
  fixture f;
  setup(&f, 5);
  refused(&f, f.full, NULL, EALREADY, "the campaign is already complete");
  gb_suite s;
  char *text;
  size_t len;
  gb_err err;
  cr_assert_eq(gb_suite_resume_load(f.full, NULL, &s, &text, &len, &err), -EALREADY);
  cr_assert(strstr(err.msg, "the campaign is already complete"), "%s", err.msg);
  done(&f);
}

Test(suitecampaign_resume, an_edited_row_is_refused) {
  fixture f;
  setup(&f, 5);
  size_t len;
  char *runs = gbt_slurp(f.half, "runs.csv", &len);
  char *row = strchr(strchr(runs, '\n') + 1, '\n') + 1; /* line 3: run 1 */
  char *lang = strchr(row, ',') + 1;
  lang = strchr(lang, ',') + 1;
  *lang = *lang == 'a' ? 'b' : 'a';
  gbt_spit(f.half, "runs.csv", runs, len);
  free(runs);
  refused(&f, f.half, NULL, EINVAL,
          "runs.csv line 3 is not the plan's run 1 (were the records "
          "edited?)");
  done(&f);
}

Test(suitecampaign_resume, another_order_seed_in_meta_is_refused) {
  fixture f;
  setup(&f, 8);
  size_t len;
  char *text = gbt_slurp(f.half, "meta.json", &len), *out;
  gb_srec_meta m;
  gb_err err;
  cr_assert_eq(gb_srec_meta_parse(text, len, &m, &err), 0, "%s", err.msg);
  m.settings.order_seed = 43; /* another shuffle: the rows are not its first runs */
  cr_assert_eq(gb_srec_meta_write(&m, &out, &err), 0, "%s", err.msg);
  gbt_spit(f.half, "meta.json", out, strlen(out));
  free(out);
  free(text);
  refused(&f, f.half, NULL, EINVAL, "is not the plan's run");
  done(&f);
}

Test(suitecampaign_resume, settings_out_of_bounds_or_different_are_refused) {
  fixture f;
  setup(&f, 5);
  gb_settings given;
  gb_err err;
  cr_assert_eq(gb_settings_profile("smoke", &given, &err), 0);
  given.runs = 3;
  given.warmups = 1;
  given.target_ms = 2;
  given.energy = GB_ENERGY_OFF;
  refused(&f, f.half, &given, EINVAL, "the setting runs given on the command line differs");
  size_t len;
  char *text = gbt_slurp(f.half, "meta.json", &len);
  char *runs = strstr(text, "\"runs\":\t2");
  cr_assert_not_null(runs, "%s", text);
  runs[strlen("\"runs\":\t")] = '0';
  gbt_spit(f.half, "meta.json", text, len);
  free(text);
  refused(&f, f.half, NULL, EINVAL, "runs");
  done(&f);
}

Test(suitecampaign_resume, an_unfinished_calibration_is_refused) {
  fixture f;
  setup(&f, 0);
  size_t len;
  char *warm = gbt_slurp(f.half, "warmups.csv", &len);
  char *p = strchr(strchr(strchr(warm, '\n') + 1, '\n') + 1, '\n') + 1; /* 2 warm-ups */
  gbt_spit(f.half, "warmups.csv", warm, (size_t)(p - warm));
  free(warm);
  refused(&f, f.half, NULL, EINVAL, "calibration did not finish");
  done(&f);
}

Test(suitecampaign_resume, a_changed_suite_is_refused_naming_both_hashes) {
  fixture f;
  setup(&f, 5);
  gb_suite s;
  char *text;
  size_t len;
  gb_err err;
  /* Unchanged: from the folder alone, or with the suite file. */
  cr_assert_eq(gb_suite_resume_load(f.half, NULL, &s, &text, &len, &err), 0, "%s", err.msg);
  cr_assert_str_eq(s.hash, f.suite.hash);
  cr_assert_eq(len, strlen(SUITE));
  gb_suite_free(&s);
  free(text);
  cr_assert_eq(gb_suite_resume_load(f.half, f.file, &s, &text, &len, &err), 0, "%s", err.msg);
  cr_assert_str_eq(s.dir, f.dir, "{suitedir} is the suite file's folder");
  gb_suite_free(&s);
  free(text);
  /* A suite file that differs. */
  char other[128];
  snprintf(other, sizeof other, "%s/other.json", f.dir);
  gbt_spit(f.dir, "other.json", SUITE " ", strlen(SUITE) + 1);
  gbt_snapshot snap = gbt_snapshot_take(f.half);
  cr_assert_eq(gb_suite_resume_load(f.half, other, &s, &text, &len, &err), -EINVAL);
  char want[512];
  snprintf(want, sizeof want, "cannot resume %s: the suite changed: %s's XXH128 is ", f.half,
           other);
  cr_assert(strncmp(err.msg, want, strlen(want)) == 0, "%s", err.msg);
  cr_assert(strstr(err.msg, f.suite.hash), "%s", err.msg);
  gbt_snapshot_same(f.half, &snap);
  /* suite.json that differs from meta.json's hash. */
  gbt_spit(f.half, "suite.json", SUITE " ", strlen(SUITE) + 1);
  snap = gbt_snapshot_take(f.half);
  cr_assert_eq(gb_suite_resume_load(f.half, NULL, &s, &text, &len, &err), -EINVAL);
  snprintf(want, sizeof want, "cannot resume %s: the suite changed: %s/suite.json's XXH128 is ",
           f.half, f.half);
  cr_assert(strncmp(err.msg, want, strlen(want)) == 0, "%s", err.msg);
  cr_assert(strstr(err.msg, f.suite.hash), "%s", err.msg);
  cr_assert_eq(gb_suite_resume_load(f.half, f.file, &s, &text, &len, &err), -EINVAL);
  cr_assert(strncmp(err.msg, want, strlen(want)) == 0, "%s", err.msg);
  gbt_snapshot_same(f.half, &snap);
  /* And the campaign itself refuses it. */
  refused(&f, f.half, NULL, EINVAL, f.suite.hash);
  done(&f);
}

Test(suitecampaign_resume, a_suite_using_suitedir_needs_its_file) {
  fixture f;
  setup(&f, 5);
  const char *text = "{\"format\": \"greenbench-suite-1\", \"name\": \"fake\",\n"
                     " \"languages\": [{\"name\": \"a\", \"command\": [\"{suitedir}/p\", "
                     "\"{n}\", \"{reps}\"], \"startup\": [\"{suitedir}/p\", \"{n}\"], "
                     "\"version\": [\"/bin/echo\"]}],"
                     "\n \"workloads\": [{\"name\": \"w\", \"parameters\": [{\"name\": \"n\", "
                     "\"values\": [1]}]}]}\n";
  gb_suite s;
  gb_err err;
  cr_assert_eq(gb_suite_parse(text, strlen(text), "x.json", &s, &err), 0, "%s", err.msg);
  size_t len;
  char *meta = gbt_slurp(f.half, "meta.json", &len), *out;
  gb_srec_meta m;
  cr_assert_eq(gb_srec_meta_parse(meta, len, &m, &err), 0, "%s", err.msg);
  snprintf(m.suite_hash, sizeof m.suite_hash, "%s", s.hash);
  cr_assert_eq(gb_srec_meta_write(&m, &out, &err), 0, "%s", err.msg);
  gbt_spit(f.half, "meta.json", out, strlen(out));
  gbt_spit(f.half, "suite.json", text, strlen(text));
  char *got;
  gb_suite t;
  cr_assert_eq(gb_suite_resume_load(f.half, NULL, &t, &got, &len, &err), -EINVAL);
  cr_assert(strstr(err.msg, "use {suitedir}"), "%s", err.msg);
  cr_assert(strstr(err.msg, "(--suite FILE)"), "%s", err.msg);
  gb_suite_free(&s);
  free(out);
  free(meta);
  done(&f);
}

/* Parity goes on from the rows recorded: b agreed through calibration, so
 * the straight run stopped at b's first measured process; resumed from the
 * rows before it, b's next process (still lying) is held to a's recorded
 * work, not taken as the case's reference. A folder whose last row is the
 * mismatch is refused. */
Test(suitecampaign_resume, parity_goes_on_from_the_rows_recorded) {
  fixture f;
  prepare(&f, LATE_SUITE);
  gb_campaign_result res;
  gb_err err;
  cr_assert_eq(campaign(&f, f.full, false, NULL, &res, &err), -EPROTO, "%s", err.msg);
  cr_assert_gt(res.runs_done, 0u);
  size_t keep = res.runs_done - 1; /* the rows before the mismatch */
  refused(&f, f.full, NULL, EINVAL, "is a parity mismatch, which stopped the campaign");
  cut(&f, keep);
  size_t lhalf;
  char *half = gbt_slurp(f.half, "runs.csv", &lhalf);
  cr_assert_eq(campaign(&f, f.half, true, NULL, &res, &err), -EPROTO, "%s", err.msg);
  cr_assert(strstr(err.msg, "parity mismatch: language b, workload w, params n="), "%s",
            err.msg);
  cr_assert(strstr(err.msg, "from a's"), "held to a's recorded process: %s", err.msg);
  cr_assert_eq(res.runs_done, keep + 1, "stopped at b's first process");
  size_t len;
  char *now = gbt_slurp(f.half, "runs.csv", &len);
  cr_assert_gt(len, lhalf);
  cr_assert_eq(memcmp(now, half, lhalf), 0);
  free(now);
  free(half);
  done(&f);
}

/* A campaign interrupted (the stop flag set after its 20th process, the
 * 10th measured run) resumes to the straight run's plan. */
Test(suitecampaign_resume, an_interrupted_campaign_resumes) {
  fixture f;
  setup(&f, 0);
  volatile sig_atomic_t stop = 0;
  stopper st = {.stop = &stop, .at = 20};
  gb_spawner sp = {.run = stop_at, .ctx = &st};
  char out[128];
  snprintf(out, sizeof out, "%s/cut", f.dir);
  gb_campaign_result res;
  gb_err err;
  cr_assert_eq(campaign_with(&f, out, false, NULL, &sp, &stop, &res, &err), 0, "%s", err.msg);
  cr_assert(res.interrupted && !res.completed);
  cr_assert_gt(res.runs_done, 0u);
  cr_assert_lt(res.runs_done, 16u);
  size_t lcut;
  char *cut = gbt_slurp(out, "runs.csv", &lcut);
  cr_assert_eq(campaign(&f, out, true, NULL, &res, &err), 0, "%s", err.msg);
  cr_assert(res.completed);
  size_t len;
  char *now = gbt_slurp(out, "runs.csv", &len);
  cr_assert_eq(memcmp(now, cut, lcut), 0, "the rows recorded stay byte for byte");
  gb_srec_records *a, *b;
  cr_assert_eq(gb_srec_read(f.full, &a, &err), 0, "%s", err.msg);
  cr_assert_eq(gb_srec_read(out, &b, &err), 0, "%s", err.msg);
  cr_assert(b->meta.complete);
  cr_assert_eq(b->n_runs, a->n_runs);
  for (size_t i = 0; i < a->n_runs; i++) {
    cr_assert_eq(b->runs[i].kind, a->runs[i].kind, "run %zu", i);
    cr_assert_str_eq(b->runs[i].language, a->runs[i].language, "run %zu", i);
    cr_assert_str_eq(b->runs[i].params, a->runs[i].params, "run %zu", i);
  }
  gb_srec_free(a);
  gb_srec_free(b);
  free(cut);
  free(now);
  done(&f);
}

/* Another language version than the records' (here: the record edited). */
Test(suitecampaign_resume, another_version_is_refused) {
  fixture f;
  setup(&f, 5);
  size_t len;
  char *text = gbt_slurp(f.half, "meta.json", &len), *out;
  gb_srec_meta m;
  gb_err err;
  cr_assert_eq(gb_srec_meta_parse(text, len, &m, &err), 0, "%s", err.msg);
  snprintf(m.languages[1].version, sizeof m.languages[1].version, "fake 0.9");
  cr_assert_eq(gb_srec_meta_write(&m, &out, &err), 0, "%s", err.msg);
  gbt_spit(f.half, "meta.json", out, strlen(out));
  free(out);
  free(text);
  refused(&f, f.half, NULL, EINVAL,
          "the version of b differs (recorded 'fake 0.9', now 'fake 1.0')");
  done(&f);
}
