/* One measured run of the campaign: a sorting process, or a batch of
 * startup-only launches, with its energy window, its parsed worker line, and
 * the idle window that follows it (study.md, Measurement). */
#ifndef GREENBENCH_MEASURE_H
#define GREENBENCH_MEASURE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "greenbench/error.h"
#include "greenbench/machine.h"
#include "greenbench/plan.h"
#include "greenbench/privilege.h"
#include "greenbench/records.h"
#include "greenbench/sampler.h"
#include "greenbench/spawn.h"
#include "greenbench/workerline.h"

/* How to start each language's worker. Paths are used as given, never
 * looked up through a shell or PATH. */
typedef struct {
  const char *worker_c;      /* the C worker binary */
  const char *python;        /* the Python interpreter (Debian's /usr/bin/python3) */
  const char *python_worker; /* workers/python/worker.py */
  const char *node;          /* the Node.js binary */
  const char *node_worker;   /* workers/node/worker.js */
} gb_workers;

/* What starts the workers: gb_spawn_run, or a stand-in that tests script
 * (workers that answer from a script, fail or hang on cue). run keeps
 * gb_spawn_run's contract (spawn.h), called with ctx: o->before and o->after
 * once each around the launches, o->check on each launch that exited 0, a
 * stop at the first launch that does not end GB_SPAWN_OK, and *r filled with
 * its output malloc'd for gb_spawn_result_free; or -errno with *r untouched. */
typedef struct {
  int (*run)(void *ctx, const gb_spawn_opts *o, gb_spawn_result *r, gb_err *err);
  void *ctx;
} gb_spawner;

typedef struct {
  const gb_workers *workers;
  const gb_spawner *spawner;   /* NULL: gb_spawn_run, the real processes */
  gb_sampler *sampler;         /* NULL: energy off or unavailable; nothing is read */
  gb_machine_sampler *machine; /* NULL: no frequency or temperature readings */
  const gb_privilege *run_as;  /* NULL: keep the harness's identity */
  uint64_t timeout_ns;         /* per launch */
  bool idle;                   /* sleep as long as the run took and measure it */
  char *const *envp;           /* the workers' environment; NULL: the harness's own */
  /* NULL: none. Once a signal handler sets it, the running worker is killed
   * and the idle window skipped (gb_measurement.interrupted). */
  volatile sig_atomic_t *stop;
} gb_measure_env;

typedef struct {
  gb_run_kind kind;
  gb_language language;
  gb_algorithm algorithm; /* startup batches: GB_STARTUP_ALGORITHM */
  gb_order order;
  uint32_t size;
  uint32_t seed;
  uint64_t sorts;    /* sort runs: sorts per process; startup: 1 (ignored) */
  uint64_t launches; /* startup batches: launches; sort runs: 1 */
} gb_job;

typedef struct {
  gb_rec_status status;
  char message[GB_REC_MESSAGE_MAX]; /* why, when status is not ok */
  uint64_t wall_ns, user_ns, sys_ns, max_rss_kib;
  unsigned launches_done;
  bool has_line;
  gb_worker_line line; /* the last launch's line */
  bool energy_read;    /* a sampler was used: energy and idle_energy are set */
  gb_energy_reading energy;
  gb_energy_reading idle_energy;
  /* An idle window followed the run: idle_ns (which a sampler's clock that
   * did not advance leaves 0) and idle_energy are its. */
  bool idled;
  uint64_t idle_ns;
  /* *env->stop was set during the run or its idle window: the run is not a
   * result (status says nothing) and must not be recorded. */
  bool interrupted;
  /* Frequency and temperature just before the run and just after it, both
   * outside the measured interval and before the idle window. */
  gb_machine_sample machine_start, machine_end;
} gb_measurement;

/* A sorting run of configuration k: `sorts` sorts in one process. */
gb_job gb_job_sort(const gb_config *k, uint32_t seed, uint64_t sorts);
/* A startup batch of group g: `launches` startup-only launches (each asked
 * for GB_STARTUP_ALGORITHM and one sort, which it does not run). */
gb_job gb_job_startup(const gb_startup_group *g, uint32_t seed, uint64_t launches);

/* Measures one job and its idle window. Returns 0 when the run happened,
 * whatever became of it (m->status says: a crashed or lying worker is a
 * result, not a harness error; m->interrupted that it was stopped); -errno
 * when the harness itself failed. */
GB_MUST_USE int gb_measure(const gb_measure_env *env, const gb_job *job, gb_measurement *m,
                           gb_err *err);

#endif
