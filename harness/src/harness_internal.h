/* What the source files of gb_harness share with each other and with their
 * tests, and no other library sees (they use include/greenbench only).
 * Private functions and types carry the gbi_ prefix; the public API keeps
 * gb_. The calibration (calibration.h), the campaign's shared state
 * (campaign_internal.h), the progress line (progress.h) and the recorder
 * (recorder.h) keep headers of their own: each is the interface of one
 * module, with its own types. */
#ifndef GREENBENCH_HARNESS_INTERNAL_H
#define GREENBENCH_HARNESS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "greenbench/error.h"
#include "greenbench/estimate.h"
#include "greenbench/measure.h"
#include "greenbench/perf_energy.h"
#include "greenbench/plan.h"
#include "greenbench/privilege.h"
#include "greenbench/rapl.h"
#include "greenbench/sampler.h"
#include "greenbench/spawn.h"

/* ---- estimate.c ---- */
/* Private to estimate.c and its tests: adding one item to a remaining-time
 * estimate, which gb_eta_start (greenbench/estimate.h) does for a plan. */

/* Adds one item of kind k, model_ns long, to the items ahead. */
void gbi_eta_add(gb_eta *e, gb_eta_kind k, uint64_t model_ns);

/* ---- measure.c ---- */
/* Private to measure.c and its tests: the command line gb_measure starts a
 * worker with, which the scripted workers of the tests read back. */

/* Builds the worker's argv for a job into argv (at least 16 slots), with
 * decimal numbers in buf (at least 96 bytes). */
void gbi_job_argv(const gb_workers *w, const gb_job *job, char **argv, char *buf);

/* What gb_measure does for any program (a suite's too): `launches` launches
 * of argv (a batch when more than 1), with env's energy window, machine
 * readings and idle window, each launch that exits 0 judged by check (with
 * check_ctx; its stdout cut at GB_SPAWN_STDOUT_MAX is refused first). m as
 * gb_measure fills it, but for m->line: m->has_line says that check accepted
 * the last launch and the batch ended ok. Returns as gb_measure. */
GB_MUST_USE int gbi_measure_argv(const gb_measure_env *env, char *const *argv,
                                 unsigned launches, gb_spawn_check_fn check, void *check_ctx,
                                 gb_measurement *m, gb_err *err);

/* ---- plan.c ---- */
/* Private to plan.c and its tests: which startup groups settings plan,
 * which gb_plan_build (greenbench/plan.h) decides for the whole plan. */

/* Whether s measures the startup of language l, order o at sizes[z]: some
 * planned configuration subtracts it. */
bool gbi_settings_plans_startup(const gb_settings *s, gb_language l, gb_order o, size_t z);

/* Shuffles runs[0..n) in place, Fisher-Yates seeded by seed (gb_rng): the
 * one shuffle of the study's plan and of a suite's (suiteplan.c). */
void gbi_plan_shuffle(gb_planned_run *runs, size_t n, uint64_t seed);

/* ---- privilege.c ---- */
/* Private to privilege.c and its tests: the steps of gb_privilege_detect
 * (greenbench/privilege.h), with the identity and sudo's variables given
 * rather than read, so that the tests need neither root nor sudo. */

/* Sets *p to "keep the harness's identity". */
void gbi_privilege_keep(gb_privilege *p);

/* Sets *out to run as uid/gid with that user's supplementary groups (from the
 * user database; just gid when the uid has no entry). Returns 0, or -EINVAL
 * for uid or gid (uid_t)-1 or uid 0 (that is no drop; use gbi_privilege_keep). */
GB_MUST_USE int gbi_privilege_for_user(uid_t uid, gid_t gid, gb_privilege *out, gb_err *err);

/* gb_privilege_detect from sudo's variables as given (NULL when unset) and
 * euid as the effective uid: the same decisions, errors and messages. */
GB_MUST_USE int gbi_privilege_from_sudo(const char *sudo_uid, const char *sudo_gid, uid_t euid,
                                        gb_privilege *out, gb_err *err);

/* ---- rapl.c, perf_energy.c ---- */
/* Private to rapl.c and perf_energy.c: the zones of either way of reading
 * the counters, powercap files or perf_event events. */

struct gb_rapl {
  char root[GB_RAPL_PATH_MAX]; /* the powercap root, or the PMU folder */
  gb_rapl_pread_fn pread;
  void *pread_ctx;
  size_t n;
  gb_rapl_zone zone[GB_RAPL_MAX_ZONES];
  int fd[GB_RAPL_MAX_ZONES]; /* energy_uj, or the event's fd; -1 when none */
  /* perf_event: counts times scale[i] are Joules. */
  bool perf;
  gb_perf_reader perf_reader;
  long double scale[GB_RAPL_MAX_ZONES];
  char cpu_dir[512]; /* where each CPU's socket is read */
};

/* A zeroed gb_rapl with every fd -1, or NULL. */
gb_rapl *gbi_rapl_alloc(void);
/* gb_rapl_read of a perf_event zone. */
GB_MUST_USE int gbi_perf_read(gb_rapl *r, size_t i, uint64_t *uj, gb_err *err);

/* ---- sampler.c ---- */
/* Private to sampler.c and its tests: the name of an energy status, which
 * the records write through their own value set (gb_rec_status). */

/* "ok", "stalled", "jump", "vanished", "disagree" (runs.csv writes
 * energy_<name>; a disagreement as energy_jump, measure.c). */
const char *gbi_energy_status_name(gb_energy_status s);

/* Advances the simulated time by ns (a stepped sampler's sleep). */
typedef void (*gbi_sampler_wait_fn)(uint64_t ns, void *ctx);

/* For tests that simulate time: a sampler without its thread. Samples are
 * taken only by gbi_sampler_step (and by begin, end and settle, as always);
 * settle measures its second on opts->clock (required) and waits by calling
 * wait(0.2 ms, ctx). Otherwise as gb_sampler_create. */
GB_MUST_USE int gbi_sampler_create_stepped(gb_rapl *rapl, const gb_sampler_opts *opts,
                                           gbi_sampler_wait_fn wait, void *ctx,
                                           gb_sampler **out, gb_err *err);
/* One sample, as the thread takes it every period. */
void gbi_sampler_step(gb_sampler *s);

/* ---- spawn.c ---- */
/* Private to spawn.c and its tests: the name of a spawn status, which the
 * records write through their own value set (gb_rec_status). */

/* "ok", "exit_nonzero", "crashed", "timeout", "aborted", "spawn_failed",
 * "bad_output" (the records' status words), "interrupted"; "unknown"
 * otherwise. */
const char *gbi_spawn_status_name(gb_spawn_status s);

#endif
