/* The campaign (study.md, Measurement): every selected configuration's
 * warm-ups and calibration, the startup trials' batch sizing, then every
 * measured run in one shuffled order, each appended to the records as it
 * finishes, with parity checked on every run. Interrupted campaigns resume
 * from the next run of the same order. */
#ifndef GREENBENCH_CAMPAIGN_H
#define GREENBENCH_CAMPAIGN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "greenbench/error.h"
#include "greenbench/measure.h"
#include "greenbench/perf_energy.h"
#include "greenbench/plan.h"
#include "greenbench/rapl.h"
#include "greenbench/sampler.h"

typedef enum { GB_PROGRESS_AUTO, GB_PROGRESS_LINES, GB_PROGRESS_QUIET } gb_progress_mode;

typedef struct {
  gb_settings settings; /* on resume: compared with the records' when settings_given */
  bool settings_given;  /* resume: the command line set settings of its own */
  const char *out_dir;  /* the records folder */
  bool resume;          /* continue the campaign recorded in out_dir */
  gb_workers workers;
  /* What starts every worker (runtime probes, warm-ups, measured runs);
   * NULL: gb_spawn_run, the real processes (tests: scripted workers). */
  const gb_spawner *spawner;
  const char *cpus;         /* --cpus override, or NULL for the rule */
  const char *topology_xml; /* NULL: this machine (tests: a synthetic topology, no binding) */
  const gb_rapl_opts *rapl; /* NULL: $GREENBENCH_POWERCAP_ROOT or /sys/class/powercap */
  /* perf_event, read where powercap cannot be and beside it where both can
   * (energy_ways.h); NULL: $GREENBENCH_PERF_POWER_DIR or the machine's. */
  const gb_perf_opts *perf;
  const gb_sampler_opts *sampler; /* NULL: the defaults (10 ms, 100 ms stall, 1 kW) */
  const char *machine_root;       /* NULL: "/" (tests: a fake sysfs/procfs tree) */
  const char *source_dir;         /* for the git commit in the records; NULL: not recorded */
  /* meta.json's machine.label, which JUnit classnames carry: 1 to 63 of
   * A-Z a-z 0-9 _ - (gb_machine_label); NULL: the host name and CPU model made a label.
   * On resume the recorded label is kept, and a different one is refused. */
  const char *machine_label;
  size_t argc; /* the command, recorded in meta.json */
  const char *const *argv;
  volatile sig_atomic_t *stop; /* set by SIGINT/SIGTERM: stop after the current run */
  gb_progress_mode progress;
  FILE *log; /* warnings and progress; NULL: stderr */
  /* meta.json's runs_done is rewritten after a measured run when it is this
   * many ns old; 0: GB_CAMPAIGN_CHECKPOINT_NS. runs.csv is the count that
   * counts; runs_done lags it by at most this much after a kill -9. */
  uint64_t checkpoint_ns;
} gb_campaign_opts;

/* 30 s: a study's meta.json (~100 kB) is rewritten some 120 times an hour. */
#define GB_CAMPAIGN_CHECKPOINT_NS 30000000000ull

typedef struct {
  size_t runs_done;  /* rows in runs.csv */
  size_t runs_total; /* planned measured runs */
  bool completed;
  bool interrupted;
  bool energy; /* energy was measured */
} gb_campaign_result;

/* Runs (or resumes) the campaign. Returns 0 when it completed or was
 * interrupted cleanly (result says which); -errno with a one-line message
 * when it could not start (a machine label that is not one, refused before
 * anything runs; energy required but unavailable, a folder that is not
 * empty, settings, a machine or its label that differ on resume, a worker
 * that does not start) or had to stop (a parity mismatch, a records write that
 * failed). Every row written before an error stays on disk, and meta.json
 * then says completed: false. */
GB_MUST_USE int gb_campaign_run(const gb_campaign_opts *o, gb_campaign_result *result,
                                gb_err *err);

/* What gb_campaign_run refuses of a new campaign's records folder (--out),
 * checked without creating anything, for a plan (run --dry-run): a symbolic
 * link, not a folder, or a folder that is not empty. 0 for a missing or
 * empty folder, else -errno with the message the run would give. */
GB_MUST_USE int gb_campaign_check_out(const char *out_dir, gb_err *err);

#endif
