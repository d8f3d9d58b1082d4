/* State shared by the campaign's parts: campaign.c (set-up and the measured
 * runs), campaign_calibrate.c (warm-ups and startup batch sizing) and
 * campaign_meta.c (meta.json, environment.txt, resume). */
#ifndef GB_CAMPAIGN_INTERNAL_H
#define GB_CAMPAIGN_INTERNAL_H

#include <hwloc.h>

#include "greenbench/campaign.h"
#include "greenbench/error.h"
#include "greenbench/estimate.h"
#include "greenbench/machine.h"
#include "greenbench/meta.h"
#include "greenbench/pin.h"
#include "greenbench/rapl.h"
#include "greenbench/records.h"
#include "greenbench/sampler.h"
#include "greenbench/workerenv.h"
#include "progress.h"
#include "recorder.h"

typedef struct {
  const gb_campaign_opts *o;
  FILE *log;
  gb_settings s;
  gb_plan plan;
  gb_privilege owner;
  gb_privilege_fs fs; /* under sudo: files opened as owner, but for the counters */
  hwloc_topology_t topo;
  gb_pin_choice pin;
  gb_pin_binding binding;
  gb_machine_info info;
  gb_machine_sampler *machine;
  gb_rapl *rapl;  /* the way energy is read: powercap, or perf_event */
  gb_rapl *cross; /* perf_event beside powercap, checking every window; or NULL */
  gb_sampler *sampler;
  gb_rec_energy energy;
  char energy_reason[GB_META_TEXT_MAX];
  char runtimes[GB_LANGUAGE_COUNT][GB_META_TEXT_MAX];
  gbi_recorder *rec;
  gb_meta meta;
  char label[GB_META_NAME_MAX]; /* the machine label of a new campaign (gb_machine_label) */
  uint64_t *sorts;              /* per configuration, from calibration */
  uint64_t *launches;           /* per startup group */
  gb_expected *expected;        /* per configuration: what every worker must report */
  uint64_t *startup_hash;       /* per startup group: the input hash its launches must report */
  gb_measure_env env;
  gb_workerenv workerenv;    /* what every worker and helper command runs with */
  gb_plan_estimate estimate; /* the plan's model, for the progress line's ETA */
  gbi_progress progress;
  size_t runs_done;
  bool started;           /* the records are this campaign's: meta.json is kept current */
  uint64_t checkpoint_at; /* CLOCK_MONOTONIC_RAW ns of meta.json's last runs_done */
} gbi_campaign;

/* campaign.c */
GB_MUST_USE int gbi_campaign_setup_expected(gbi_campaign *c, gb_err *err);
void gbi_campaign_warn(gbi_campaign *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
gb_job gbi_campaign_sort_job(const gbi_campaign *c, size_t config, uint64_t sorts);
gb_job gbi_campaign_startup_job(const gbi_campaign *c, size_t group, uint64_t launches);
/* The machinery any campaign (the study's, a suite's) runs on. enter: the
 * workers' identity and environment, and files opened as the sudo user;
 * rig: pinning, the machine's readings, energy (c->energy, c->sampler) and
 * c->env from c->o and c->s; unrig: frees what rig and the recorder hold. */
GB_MUST_USE int gbi_campaign_enter(gbi_campaign *c, gb_err *err);
GB_MUST_USE int gbi_campaign_rig(gbi_campaign *c, gb_err *err);
void gbi_campaign_unrig(gbi_campaign *c);
/* A measured process's columns into a row whose own columns are set: idle
 * window, energy (by c->energy's rule) and message; then, from
 * gbi_campaign_fill_run, a warm-up's energy off (idle false), the start time
 * and the machine's readings. */
void gbi_campaign_fill_measured(const gbi_campaign *c, const gb_measurement *m,
                                gb_run_row *row);
void gbi_campaign_fill_run(const gbi_campaign *c, const gb_measurement *m, bool idle,
                           uint64_t started, gb_run_row *row);
/* Measures a job and turns it into a row (run index, parity checked). */
GB_MUST_USE int gbi_campaign_measure_row(gbi_campaign *c, const gb_job *job,
                                         size_t config_or_group, bool idle, uint64_t index,
                                         gb_run_row *row, gb_err *err);

/* campaign_calibrate.c: warm-ups into warmups.csv, then c->sorts and
 * c->launches. */
GB_MUST_USE int gbi_campaign_calibrate(gbi_campaign *c, gb_err *err);

/* campaign_meta.c */
/* What meta.json records besides the settings and the plan: the command,
 * the machine's facts and the campaign's set-up, as the campaign found
 * them. Pointers are borrowed; rapl and cross are NULL when not read. */
typedef struct {
  size_t argc;
  const char *const *argv; /* as given: "run ..." from the command line */
  const gb_workers *workers;
  gb_rec_energy energy;
  const char *energy_reason;
  const gb_rapl *rapl, *cross;
  const gb_machine_info *info;
  const char *label; /* the machine label */
  uint64_t cpus_online;
  const gb_pin_choice *pin;
  const gb_pin_binding *binding;
  const char (*runtimes)[GB_META_TEXT_MAX]; /* per language, "" when not probed */
  const gb_privilege *owner;                /* who the workers run as */
  const char *git_commit;
  const char *started_at; /* UTC, YYYY-MM-DDTHH:MM:SSZ */
} gbi_meta_facts;
/* Fills a gb_meta_init'ed m from the settings, their plan and the facts,
 * with the harness's own environment (harness_env) and euid (access):
 * everything meta.json holds before calibration. 0, -EINVAL for a pinned
 * CPU list that does not fit, or -ENOMEM. */
GB_MUST_USE int gbi_meta_fill(gb_meta *m, const gb_settings *s, const gb_plan *p,
                              const gbi_meta_facts *f, gb_err *err);
GB_MUST_USE int gbi_campaign_meta_new(gbi_campaign *c, gb_err *err);
GB_MUST_USE int gbi_campaign_meta_calibration(gbi_campaign *c, gb_err *err);
GB_MUST_USE int gbi_campaign_meta_finish(gbi_campaign *c, bool completed, gb_err *err);
/* Rewrites meta.json with the current runs_done when the last checkpoint is
 * o->checkpoint_ns old (default GB_CAMPAIGN_CHECKPOINT_NS); else nothing. */
GB_MUST_USE int gbi_campaign_meta_checkpoint(gbi_campaign *c, gb_err *err);
GB_MUST_USE int gbi_campaign_write_environment(gbi_campaign *c, gb_err *err);
/* The checkout's commit into buf ("unknown" outside one or without git),
 * with "-dirty" when tracked files changed. git runs as `as` when it drops
 * privileges (the sudo user), never through the checkout's config programs
 * (core.fsmonitor, hooks), in the workers' environment. */
void gbi_campaign_git_commit(const char *source_dir, const gb_privilege *as, char *buf,
                             size_t len);
/* --resume, before the machine is set up: the recorded settings (refusing
 * different ones given on the command line), their plan, the recorded
 * calibration, and the rows already done, which must follow the plan. */
GB_MUST_USE int gbi_campaign_resume_load(gbi_campaign *c, gb_err *err);
/* --resume, after set-up: refuses a machine, pinning, runtimes or energy
 * state that differ from the records'. */
GB_MUST_USE int gbi_campaign_resume_check(gbi_campaign *c, gb_err *err);

#endif
