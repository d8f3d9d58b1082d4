/* A suite campaign end to end (suitecampaign.h) on a tiny suite of fake
 * programs (data/suite/fake.sh, a shell script that prints the contract's
 * line, or breaks it on cue): the records read back, parity against the
 * suite's expect and across languages, a program that prints garbage, one
 * that does not exist, a build and a version command that fail, and energy
 * off. Loops "take" 1 ms per repetition, so calibration converges at once. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "greenbench/suitecampaign.h"
#include "greenbench/suiterecords.h"
#include "helper_powercap.h"

#define FAKE GB_TEST_DATA_DIR "/suite/fake.sh"

typedef struct {
  char dir[64]; /* the suite file's folder */
  char out[96]; /* the records folder */
  char text[4096];
  gb_suite suite;
} fixture;

/* A language running fake.sh with tag; extra: more JSON keys ("" for none). */
static void language(char *buf, size_t len, const char *name, const char *tag,
                     const char *extra) {
  snprintf(buf, len,
           "{\"name\": \"%s\", \"command\": [\"/bin/sh\", \"" FAKE "\", \"%s\", \"{n}\", "
           "\"{reps}\"], \"startup\": [\"/bin/sh\", \"" FAKE "\", \"%s\", \"{n}\", "
           "\"--startup-only\"], \"version\": [\"/bin/echo\", \"fake %s 1.0\"]%s}",
           name, tag, tag, tag, extra);
}

static void setup_suite(fixture *f, const char *languages, bool expect) {
  char base[] = "/tmp/gb-suitecampaign-XXXXXX";
  cr_assert_not_null(mkdtemp(base));
  snprintf(f->dir, sizeof f->dir, "%s", base);
  snprintf(f->out, sizeof f->out, "%s/records", base);
  snprintf(f->text, sizeof f->text,
           "{\"format\": \"greenbench-suite-1\", \"name\": \"fake\",\n"
           " \"languages\": [%s],\n"
           " \"workloads\": [{\"name\": \"w\", \"parameters\": [{\"name\": \"n\", \"values\": "
           "[10, 20]}]%s}]}\n",
           languages,
           expect ? ", \"expect\": [{\"n\": 10, \"output_hash\": \"000000000000001e\", "
                    "\"counters\": {\"steps\": 10}}]"
                  : "");
  char path[128];
  snprintf(path, sizeof path, "%s/fake.json", f->dir);
  FILE *fp = fopen(path, "w");
  cr_assert_not_null(fp);
  fputs(f->text, fp);
  fclose(fp);
  gb_err err;
  cr_assert_eq(gb_suite_load(path, &f->suite, &err), 0, "%s", err.msg);
}

static void two_languages(fixture *f, const char *tag_a, const char *tag_b, bool expect) {
  char a[512], b[512], both[1100];
  language(a, sizeof a, "a", tag_a, "");
  language(b, sizeof b, "b", tag_b, "");
  snprintf(both, sizeof both, "%s, %s", a, b);
  setup_suite(f, both, expect);
}

/* The campaign on f: 2 runs and 1 warm-up each, 2 ms loops, energy as
 * given (rapl and sampler: NULL for the defaults). */
static int run_logged(fixture *f, gb_energy_mode energy, const gb_rapl_opts *rapl,
                      const gb_sampler_opts *sampler, FILE *log, gb_campaign_result *res,
                      gb_err *err) {
  gb_settings s;
  cr_assert_eq(gb_settings_profile("smoke", &s, err), 0, "%s", err->msg);
  s.runs = 2;
  s.warmups = 1;
  s.target_ms = 2;
  s.energy = energy;
  s.order_seed = 42;
  gb_suite_campaign_opts o = {.base = {.settings = s,
                                       .out_dir = f->out,
                                       .topology_xml = GB_TEST_DATA_DIR "/topo-desktop-smt.xml",
                                       .rapl = rapl,
                                       .sampler = sampler,
                                       .machine_root = GB_TEST_DATA_DIR "/sysfs-intel",
                                       .progress = log ? GB_PROGRESS_LINES : GB_PROGRESS_QUIET,
                                       .log = log},
                              .suite = &f->suite,
                              .suite_text = f->text,
                              .suite_len = strlen(f->text)};
  return gb_suite_campaign_run(&o, res, err);
}

/* The same, quiet. */
static int run_energy(fixture *f, gb_energy_mode energy, const gb_rapl_opts *rapl,
                      const gb_sampler_opts *sampler, gb_campaign_result *res, gb_err *err) {
  return run_logged(f, energy, rapl, sampler, NULL, res, err);
}

static int run(fixture *f, gb_campaign_result *res, gb_err *err) {
  return run_energy(f, GB_ENERGY_OFF, NULL, NULL, res, err);
}

static gb_srec_records *read_back(const fixture *f) {
  gb_srec_records *r;
  gb_err err;
  cr_assert_eq(gb_srec_read(f->out, &r, &err), 0, "%s", err.msg);
  return r;
}

static void done(fixture *f) {
  gb_suite_free(&f->suite);
}

Test(suitecampaign, smoke_run_records_read_back) {
  fixture f;
  two_languages(&f, "good", "good", true);
  gb_campaign_result res;
  gb_err err;
  cr_assert_eq(run(&f, &res, &err), 0, "%s", err.msg);
  cr_assert(res.completed && !res.interrupted && !res.energy);
  /* 2 languages x 2 values = 4 configurations: 2 work runs and 2 startup
   * batches each. */
  cr_assert_eq(res.runs_total, 16u);
  cr_assert_eq(res.runs_done, 16u);
  gb_srec_records *r = read_back(&f);
  cr_assert_str_eq(r->meta.suite_name, "fake");
  cr_assert_str_eq(r->meta.suite_hash, f.suite.hash);
  cr_assert(r->meta.complete);
  cr_assert_eq(r->meta.energy_status, GB_REC_ENERGY_OFF, "energy off is recorded");
  cr_assert_eq(r->meta.n_languages, 2u);
  cr_assert_str_eq(r->meta.languages[0].version, "fake good 1.0");
  cr_assert_eq(r->n_runs, 16u);
  size_t work = 0;
  for (size_t i = 0; i < r->n_runs; i++) {
    const gb_srec_row *row = &r->runs[i];
    cr_assert_eq(row->run, i);
    cr_assert_eq(row->status, GB_REC_STATUS_OK, "%s", row->message);
    cr_assert_eq(row->energy, GB_REC_ENERGY_OFF);
    cr_assert(row->idle_ns.present, "every measured run has its idle window");
    if (row->kind == GB_SREC_KIND_STARTUP) {
      cr_assert_eq(row->reps, 0u);
      cr_assert_geq(row->launches, 1u);
      cr_assert_str_eq(row->output_hash, "");
      continue;
    }
    work++;
    /* Calibrated: 1 ms per repetition, aiming at 2.4 ms: 3 repetitions. */
    cr_assert_eq(row->reps, 3u);
    cr_assert_eq(row->launches, 1u);
    cr_assert_eq(row->loop_ns.value, 3000000u);
    bool ten = strcmp(row->params, "n=10") == 0;
    cr_assert(ten || strcmp(row->params, "n=20") == 0, "%s", row->params);
    cr_assert_str_eq(row->counters, ten ? "steps=10" : "steps=20");
    cr_assert_str_eq(row->output_hash, ten ? "000000000000001e" : "000000000000003c");
    cr_assert_str_eq(row->input_hash, ten ? "000000000000000a" : "0000000000000014");
  }
  cr_assert_eq(work, 8u);
  /* Warm-ups: n=10 of each language 1 ms (probe) then 3 ms (on target);
   * n=20 predicted from its n=10 (3 reps, halved for a parameter twice as
   * large: 2, on target at once); and one startup launch each. */
  cr_assert_eq(r->n_warmups, 2u * (2u + 1u) + 4u);
  for (size_t i = 0; i < r->n_warmups; i++)
    cr_assert_eq(r->warmups[i].status, GB_REC_STATUS_OK);
  static const uint64_t reps[6] = {1, 3, 2, 1, 3, 2}; /* a/n=10, a/n=20, b/... */
  static const char *const params[6] = {"n=10", "n=10", "n=20", "n=10", "n=10", "n=20"};
  for (size_t i = 0; i < 6; i++) {
    cr_assert_eq(r->warmups[i].reps, reps[i], "warm-up row %zu", i);
    cr_assert_str_eq(r->warmups[i].params, params[i], "warm-up row %zu", i);
  }
  gb_srec_free(r);
  /* suite.json is the suite file byte for byte. */
  char path[160], copy[4096];
  snprintf(path, sizeof path, "%s/suite.json", f.out);
  FILE *fp = fopen(path, "r");
  cr_assert_not_null(fp);
  size_t n = fread(copy, 1, sizeof copy, fp);
  fclose(fp);
  cr_assert_eq(n, strlen(f.text));
  cr_assert_eq(memcmp(copy, f.text, n), 0);
  cr_assert(gb_srec_is_suite_folder(f.out));
  done(&f);
}

/* The ETA of a progress line: "?" or a duration such as "0m01s". */
static const char *eta_of(const char *line) {
  const char *at = strstr(line, ", eta ");
  cr_assert_not_null(at, "no eta in: %s", line);
  return at + strlen(", eta ");
}

static bool is_duration(const char *eta) {
  unsigned a, b;
  char unit;
  return sscanf(eta, "%um%2u%c", &a, &b, &unit) == 3 && unit == 's';
}

/* Calibration starts with no estimate ("?": nothing is known of the
 * suite's programs); once configurations are calibrated and through every
 * measured run, the line shows one. */
Test(suitecampaign, progress_shows_an_estimate_once_calibrated) {
  fixture f;
  two_languages(&f, "good", "good", true);
  FILE *log = tmpfile();
  cr_assert_not_null(log);
  gb_campaign_result res;
  gb_err err;
  cr_assert_eq(run_logged(&f, GB_ENERGY_OFF, NULL, NULL, log, &res, &err), 0, "%s", err.msg);
  rewind(log);
  char line[512];
  size_t calibrating = 0, runs = 0;
  while (fgets(line, sizeof line, log)) {
    if (!strstr(line, "greenbench: calibrating ") && !strstr(line, "greenbench: run "))
      continue;
    const char *eta = eta_of(line);
    if (strstr(line, "greenbench: calibrating 0/8,")) {
      cr_assert(strncmp(eta, "?,", 2) == 0, "an estimate before any data: %s", line);
      calibrating++;
    } else {
      cr_assert(is_duration(eta), "no estimate: %s", line);
      runs += strstr(line, "greenbench: run ") != NULL;
    }
  }
  fclose(log);
  cr_assert_eq(calibrating, 1u);
  cr_assert_geq(runs, 2u); /* run 0/16 and run 16/16 at least */
  done(&f);
}

Test(suitecampaign, wrong_output_hash_stops_at_its_first_process) {
  fixture f;
  two_languages(&f, "good", "badhash", true);
  gb_campaign_result res;
  gb_err err;
  cr_assert_eq(run(&f, &res, &err), -EPROTO);
  cr_assert_str_eq(err.msg,
                   "parity mismatch: language b, workload w, params n=10: output_hash "
                   "0000000000000032 differs from expect 000000000000001e (warm-up 0; the "
                   "campaign stopped)");
  cr_assert_not(res.completed);
  cr_assert_eq(res.runs_done, 0u);
  gb_srec_records *r = read_back(&f);
  cr_assert_not(r->meta.complete);
  cr_assert_eq(r->n_runs, 0u);
  /* a's two configurations (2 warm-ups, then 1 predicted) stay; b's first
   * process is the last. */
  cr_assert_eq(r->n_warmups, 4u);
  const gb_srec_row *last = &r->warmups[3];
  cr_assert_str_eq(last->language, "b");
  cr_assert_eq(last->status, GB_REC_STATUS_PARITY_MISMATCH);
  cr_assert_str_eq(last->message, "parity mismatch: output_hash 0000000000000032 differs from "
                                  "expect 000000000000001e");
  gb_srec_free(r);
  done(&f);
}

Test(suitecampaign, counters_that_disagree_stop_naming_both) {
  fixture f;
  two_languages(&f, "good", "lie", false);
  gb_campaign_result res;
  gb_err err;
  cr_assert_eq(run(&f, &res, &err), -EPROTO);
  cr_assert_str_eq(err.msg, "parity mismatch: language b, workload w, params n=10: counter "
                            "steps 11 differs from a's 10 (warm-up 0; the campaign stopped)");
  done(&f);
}

Test(suitecampaign, startup_input_hash_is_checked) {
  fixture f;
  two_languages(&f, "good", "badstart", false);
  gb_campaign_result res;
  gb_err err;
  cr_assert_eq(run(&f, &res, &err), -EPROTO);
  cr_assert_str_eq(err.msg, "parity mismatch: language b, workload w, params n=10: input_hash "
                            "000000000000000b differs from a's 000000000000000a (warm-up 0; "
                            "the campaign stopped)");
  done(&f);
}

Test(suitecampaign, garbage_is_a_failed_warmup) {
  fixture f;
  two_languages(&f, "garbage", "good", false);
  gb_campaign_result res;
  gb_err err;
  cr_assert_eq(run(&f, &res, &err), -ECHILD);
  cr_assert(strstr(err.msg, "warm-up 1 of a/w/n=10 failed, so it cannot be calibrated: "
                            "bad_output: worker output: "),
            "%s", err.msg);
  done(&f);
}

static void one_language(fixture *f, const char *extra, const char *command) {
  char a[700];
  language(a, sizeof a, "a", "good", extra);
  if (command) {
    char *at = strstr(a, "\"command\": [");
    cr_assert_not_null(at);
    char rest[700];
    snprintf(rest, sizeof rest, "%s", strchr(at, ']') + 1);
    snprintf(at, sizeof a - (size_t)(at - a), "\"command\": %s%s", command, rest);
  }
  setup_suite(f, a, false);
}

Test(suitecampaign, missing_program_refused_before_anything_runs) {
  fixture f;
  one_language(&f, "", "[\"/nonexistent/fake\", \"{n}\", \"{reps}\"]");
  gb_campaign_result res;
  gb_err err;
  cr_assert_eq(run(&f, &res, &err), -ENOENT);
  cr_assert_str_eq(err.msg, "a/w/n=10: command: program /nonexistent/fake not found");
  char path[160];
  struct stat st;
  snprintf(path, sizeof path, "%s/meta.json", f.out);
  cr_assert_neq(stat(path, &st), 0, "nothing recorded");
  done(&f);
}

Test(suitecampaign, failed_build_and_version) {
  fixture f;
  one_language(&f, ", \"build\": [\"/bin/sh\", \"-c\", \"echo no compiler >&2; exit 3\"]",
               NULL);
  gb_campaign_result res;
  gb_err err;
  cr_assert_eq(run(&f, &res, &err), -ENOEXEC);
  cr_assert(strstr(err.msg, "the build step of a w failed: "), "%s", err.msg);
  cr_assert(strstr(err.msg, "no compiler"), "%s", err.msg);
  done(&f);
  fixture g;
  char a[700];
  language(a, sizeof a, "a", "good", "");
  char *v = strstr(a, "\"version\": [");
  cr_assert_not_null(v);
  snprintf(v, sizeof a - (size_t)(v - a), "\"version\": [\"/bin/false\"]}");
  setup_suite(&g, a, false);
  cr_assert_eq(run(&g, &res, &err), -ENOEXEC);
  cr_assert(strstr(err.msg, "the version command of a failed: "), "%s", err.msg);
  done(&g);
}

Test(suitecampaign, records_folder_not_empty_refused) {
  fixture f;
  two_languages(&f, "good", "good", false);
  cr_assert_eq(mkdir(f.out, 0755), 0);
  char path[160];
  snprintf(path, sizeof path, "%s/x", f.out);
  FILE *fp = fopen(path, "w");
  cr_assert_not_null(fp);
  fclose(fp);
  gb_campaign_result res;
  gb_err err;
  cr_assert_eq(run(&f, &res, &err), -EEXIST);
  cr_assert(strstr(err.msg, "is not empty"), "%s", err.msg);
  done(&f);
}

Test(suitecampaign, energy_from_a_live_counter, .timeout = 60) {
  powercap_fake *pc = powercap_fake_create();
  int pkg = powercap_fake_package(pc, 0, 1000, 262143328850u);
  powercap_fake_power(pc, pkg, 10000); /* 10 W */
  powercap_fake_start(pc);
  gb_rapl_opts ro = powercap_fake_rapl_opts(pc);
  gb_sampler_opts so = {.clock = powercap_fake_clock(pc)};
  fixture f;
  two_languages(&f, "good", "good", false);
  gb_campaign_result res;
  gb_err err;
  cr_assert_eq(run_energy(&f, GB_ENERGY_ON, &ro, &so, &res, &err), 0, "%s", err.msg);
  cr_assert(res.energy && res.completed);
  gb_srec_records *r = read_back(&f);
  cr_assert_eq(r->meta.energy_status, GB_REC_ENERGY_OK);
  cr_assert_str_eq(r->meta.energy_reason, "");
  size_t ok = 0;
  for (size_t i = 0; i < r->n_runs; i++) {
    const gb_srec_row *row = &r->runs[i];
    /* As the study's: a window that saw no tick of a starved fake is
     * energy_stalled with no energy, never ok with 0 uJ. */
    if (row->status != GB_REC_STATUS_OK) {
      cr_assert_eq(row->energy, GB_REC_ENERGY_UNAVAILABLE, "row %zu: %s", i, row->message);
      continue;
    }
    cr_assert_eq(row->energy, GB_REC_ENERGY_OK, "row %zu", i);
    cr_assert(row->pkg_uj.present && row->idle_pkg_uj.present, "row %zu", i);
    ok++;
  }
  cr_assert_gt(ok, 0u);
  for (size_t i = 0; i < r->n_warmups; i++)
    cr_assert_eq(r->warmups[i].energy, GB_REC_ENERGY_OFF, "warm-ups are time only");
  gb_srec_free(r);
  done(&f);
  powercap_fake_destroy(pc);
}

Test(suitecampaign, energy_without_counters) {
  powercap_fake *pc = powercap_fake_create();
  gb_rapl_opts ro = powercap_fake_rapl_opts(pc);
  fixture f;
  two_languages(&f, "good", "good", false);
  gb_campaign_result res;
  gb_err err;
  /* on: refused before anything is recorded. */
  cr_assert_eq(run_energy(&f, GB_ENERGY_ON, &ro, NULL, &res, &err), -ENODEV);
  cr_assert(strstr(err.msg, "energy is unavailable: no RAPL package zone"), "%s", err.msg);
  struct stat st;
  cr_assert_neq(stat(f.out, &st), 0, "nothing was recorded");
  /* auto: time only, and the records say why. */
  cr_assert_eq(run_energy(&f, GB_ENERGY_AUTO, &ro, NULL, &res, &err), 0, "%s", err.msg);
  cr_assert(res.completed && !res.energy);
  gb_srec_records *r = read_back(&f);
  cr_assert_eq(r->meta.energy_status, GB_REC_ENERGY_UNAVAILABLE);
  cr_assert(strstr(r->meta.energy_reason, "no RAPL package zone"), "%s", r->meta.energy_reason);
  for (size_t i = 0; i < r->n_runs; i++)
    cr_assert_eq(r->runs[i].energy, GB_REC_ENERGY_UNAVAILABLE);
  gb_srec_free(r);
  done(&f);
  powercap_fake_destroy(pc);
}

/* A language that agrees through calibration and disagrees in the measured
 * runs: its first measured process is recorded as parity_mismatch, every
 * row before it stays, and the campaign stops there. */
Test(suitecampaign, a_mismatch_in_the_measured_runs_stops_there) {
  char a[512], b[700], both[1300];
  language(a, sizeof a, "a", "good", "");
  snprintf(b, sizeof b,
           "{\"name\": \"b\", \"command\": [\"/bin/sh\", \"" FAKE "\", \"late\", \"{n}\", "
           "\"{reps}\", \"{suitedir}\"], \"startup\": [\"/bin/sh\", \"" FAKE "\", \"late\", "
           "\"{n}\", \"--startup-only\", \"{suitedir}\"], \"version\": [\"/bin/echo\", "
           "\"late\"]}");
  snprintf(both, sizeof both, "%s, %s", a, b);
  fixture f;
  setup_suite(&f, both, true);
  gb_campaign_result res;
  gb_err err;
  cr_assert_eq(run(&f, &res, &err), -EPROTO);
  cr_assert(strstr(err.msg, "parity mismatch: language b, workload w, params n="), "%s",
            err.msg);
  cr_assert(strstr(err.msg, "; the campaign stopped)"), "%s", err.msg);
  gb_srec_records *r = read_back(&f);
  cr_assert_not(r->meta.complete);
  cr_assert_eq(r->n_warmups, 10u, "calibration went through");
  cr_assert_gt(r->n_runs, 0u);
  cr_assert_eq(r->n_runs, res.runs_done);
  for (size_t i = 0; i + 1 < r->n_runs; i++)
    cr_assert_eq(r->runs[i].status, GB_REC_STATUS_OK, "run %zu", i);
  const gb_srec_row *last = &r->runs[r->n_runs - 1];
  cr_assert_str_eq(last->language, "b");
  cr_assert_eq(last->status, GB_REC_STATUS_PARITY_MISMATCH);
  char run[64];
  snprintf(run, sizeof run, "(run %zu; the campaign stopped)", r->n_runs - 1);
  cr_assert(strstr(err.msg, run), "%s", err.msg);
  gb_srec_free(r);
  done(&f);
}

/* A selection (gb_suite_campaign_opts.selected): only a at n=20 is
 * measured; b, whose build step fails and whose version command does not
 * exist, is never run, and meta.json lists a alone. */
Test(suitecampaign, selection_measures_only_the_marked) {
  fixture f;
  char a[512], both[1200];
  language(a, sizeof a, "a", "good", "");
  snprintf(both, sizeof both,
           "%s, {\"name\": \"b\", \"build\": [\"/bin/false\"], \"command\": [\"/no/such/b\", "
           "\"{n}\", \"{reps}\"], \"startup\": [\"/no/such/b\", \"{n}\"], \"version\": "
           "[\"/no/such/b\", \"--version\"]}",
           a);
  setup_suite(&f, both, false);
  gb_settings s;
  gb_err err;
  cr_assert_eq(gb_settings_profile("smoke", &s, &err), 0, "%s", err.msg);
  s.runs = 2;
  s.warmups = 1;
  s.target_ms = 2;
  s.energy = GB_ENERGY_OFF;
  s.order_seed = 3;
  const bool selected[4] = {false, true, false, false}; /* a/w/n=10, a/w/n=20, b/... */
  gb_suite_campaign_opts o = {.base = {.settings = s,
                                       .out_dir = f.out,
                                       .topology_xml = GB_TEST_DATA_DIR "/topo-desktop-smt.xml",
                                       .machine_root = GB_TEST_DATA_DIR "/sysfs-intel",
                                       .progress = GB_PROGRESS_QUIET},
                              .suite = &f.suite,
                              .suite_text = f.text,
                              .suite_len = strlen(f.text),
                              .selected = selected};
  gb_campaign_result res;
  cr_assert_eq(gb_suite_campaign_run(&o, &res, &err), 0, "%s", err.msg);
  cr_assert(res.completed);
  cr_assert_eq(res.runs_total, 4u);
  gb_srec_records *r = read_back(&f);
  cr_assert_eq(r->n_runs, 4u);
  for (size_t i = 0; i < r->n_runs; i++) {
    cr_assert_str_eq(r->runs[i].language, "a");
    cr_assert_str_eq(r->runs[i].params, "n=20");
    cr_assert_eq(r->runs[i].status, GB_REC_STATUS_OK, "%s", r->runs[i].message);
  }
  for (size_t i = 0; i < r->n_warmups; i++)
    cr_assert_str_eq(r->warmups[i].params, "n=20");
  cr_assert_eq(r->meta.n_languages, 1u);
  cr_assert_str_eq(r->meta.languages[0].name, "a");
  cr_assert(r->meta.complete);
  gb_srec_free(r);
  done(&f);
}
