/* A suite campaign (`greenbench run --suite FILE`, docs/suites.md): the
 * study's campaign for the programs of a suite file. The same machinery
 * (pinning, energy probe and sampler, idle windows, the calibration rule,
 * the shuffled order, the recorder) with the suite's languages, workloads
 * and parameter sets, the generic worker contract, and parity per case:
 *
 *   every build step (in out_dir/build, {builddir}) and version command;
 *   every configuration's warm-ups, calibrating {reps} as the study does its
 *   sorts; every startup group's warm-ups and batch size; then every
 *   measured run of the plan (suiteplan.h) in its shuffled order.
 *
 * For every case the first ok process fixes counters, input_hash and
 * output_hash, which every later one (in any language; startup batches:
 * input_hash) must report; the suite's expect entry is checked on every
 * process. A mismatch is recorded (parity_mismatch) and stops the campaign.
 * Records: suiterecords.h (suite.json, meta.json, runs.csv, warmups.csv). */
#ifndef GREENBENCH_SUITECAMPAIGN_H
#define GREENBENCH_SUITECAMPAIGN_H

#include <stdbool.h>
#include <stddef.h>

#include "greenbench/campaign.h"
#include "greenbench/error.h"
#include "greenbench/suitefile.h"

typedef struct {
  /* The study's options that a suite campaign shares: settings (runs,
   * warmups, target_ms, seed, order_seed, timeout_s, energy), out_dir, cpus,
   * topology_xml, rapl, perf, sampler, machine_root, stop, progress, log,
   * spawner (measured processes only), resume and settings_given (below).
   * workers, machine_label, source_dir and checkpoint_ns are not used. */
  gb_campaign_opts base;
  const gb_suite *suite;
  const char *suite_text; /* the suite file's bytes, copied into suite.json */
  size_t suite_len;
  /* NULL: every configuration. Else one flag per configuration of the
   * whole suite in canonical order (gb_suite_plan_select): only the marked
   * ones are measured, only their languages' version commands and their
   * (language, workload) build steps run, and meta.json lists only their
   * languages. */
  const bool *selected;
} gb_suite_campaign_opts;

/* Runs the campaign into base.out_dir (a missing or empty folder). Returns 0
 * when it completed or was interrupted (result says which); -errno with one
 * line when it could not start (the folder, a template, a program not
 * found, a build or version command that failed, energy required but
 * unavailable) or had to stop (a warm-up that failed, a parity mismatch, a
 * records write that failed). Rows written before an error stay, and
 * meta.json then says complete: false. */
GB_MUST_USE int gb_suite_campaign_run(const gb_suite_campaign_opts *o,
                                      gb_campaign_result *result, gb_err *err);
/* With base.resume, gb_suite_campaign_run continues the campaign recorded in
 * base.out_dir, as the study resumes (docs/suites.md, "Resuming"): suite
 * must be the recorded one (its hash meta.json's), the settings are the
 * records' (base.settings, when settings_given, must agree on runs,
 * warmups, target_ms, energy, seed and timeout_s), the plan is rebuilt from
 * them and the recorded order seed, the calibration is replayed from
 * warmups.csv, the rows recorded must be the plan's first runs and stay
 * byte for byte, and the rest of the same order is run, with parity from
 * the first ok process of each case recorded. The build steps run again;
 * the energy status, the pinning and every language's version must be the
 * recorded ones. A refusal writes nothing: meta.json, runs.csv and
 * warmups.csv stay as they were. */

/* The suite of the campaign recorded in dir, for --resume: DIR/suite.json,
 * whose XXH128 must be meta.json's suite hash. With file (--suite FILE, or
 * NULL), FILE's bytes must have that hash too, and {suitedir} is FILE's
 * folder; without it {suitedir} (the suite file's folder) is unknown, so a
 * suite whose commands use it is refused. A complete campaign is refused.
 * 0 with *s (gb_suite_free), *text (its bytes, malloc'd) and *len; else
 * -errno with one line "cannot resume DIR: ..." (a changed suite names
 * both hashes). Reads only. */
GB_MUST_USE int gb_suite_resume_load(const char *dir, const char *file, gb_suite *s,
                                     char **text, size_t *len, gb_err *err);

/* argv[0] as execve needs it, into buf: a name without '/' looked up on
 * $PATH (as a shell would, so that a suite may say "cc"), a path as given;
 * either must be a regular file this process may execute. 0, -ENOENT (none
 * such) or -ENAMETOOLONG. */
GB_MUST_USE int gb_suite_resolve_program(const char *name, char *buf, size_t len);

#endif
