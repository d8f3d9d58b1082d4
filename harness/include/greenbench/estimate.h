/* How long a campaign takes: the model behind `greenbench run --dry-run`
 * and the progress line's ETA, and the ETA's blend of that model with the
 * time measured so far. Pure arithmetic, so it is tested on known plans
 * without running anything. docs/performance.md ("Estimated and measured
 * campaign durations") compares the model with measured campaigns. */
#ifndef GREENBENCH_ESTIMATE_H
#define GREENBENCH_ESTIMATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "greenbench/error.h"
#include "greenbench/plan.h"

/* A worker's typical start, ns: the launch, the interpreter, generating and
 * hashing the input (wall time less the sort loop, in the smoke and study
 * records of a shared 2-CPU virtual machine). */
#define GB_ESTIMATE_START_C_NS 3000000ull
#define GB_ESTIMATE_START_PYTHON_NS 45000000ull
#define GB_ESTIMATE_START_NODE_NS 90000000ull
/* Warm-ups a configuration is expected to add to --warmups while its loop
 * misses its aim (at most 5): about one per configuration on a busy machine
 * since the first warm-up is predicted (docs/performance.md, section 8);
 * Node.js's JIT still needs most. */
#define GB_ESTIMATE_EXTRA_WARMUPS_C 1u
#define GB_ESTIMATE_EXTRA_WARMUPS_PYTHON 1u
#define GB_ESTIMATE_EXTRA_WARMUPS_NODE 2u
/* The harness's own time per worker process (records, checkpoints), ns. */
#define GB_ESTIMATE_PROCESS_NS 1000000ull
/* Set-up before the first warm-up besides the runtime probes (topology,
 * machine facts, git, environment.txt), ns. */
#define GB_ESTIMATE_SETUP_NS 500000000ull
/* The energy counters are watched GB_ENERGY_PROBE_NS (energy_probe.h)
 * before a campaign that may read them (--energy auto or on). */

/* A plan's expected duration, in ns, per item and in total. */
typedef struct {
  /* One measured run of a language, sorting run or startup batch alike (a
   * batch lasts about as long as a sorting run): its start plus a loop of
   * 1.2 x target, doubled by the idle window, plus the harness's time. */
  uint64_t run_ns[GB_LANGUAGE_COUNT];
  /* One configuration's warm-ups: warmups plus the expected extra ones,
   * each at the run's length (the first runs predicted sorts), with no idle
   * window. */
  uint64_t config_warmups_ns[GB_LANGUAGE_COUNT];
  /* One startup group's warm-ups: `warmups` single launches. */
  uint64_t startup_warmups_ns[GB_LANGUAGE_COUNT];
  uint64_t setup_ns; /* GB_ESTIMATE_SETUP_NS, one probe launch per language, energy probe */
  uint64_t calibration_ns; /* every configuration's and startup group's warm-ups */
  uint64_t runs_ns;        /* every measured run of the plan */
  uint64_t total_ns;       /* setup_ns + calibration_ns + runs_ns */
} gb_plan_estimate;

/* The model of how long plan p of settings s takes on an idle machine like
 * the one the constants above come from (a busy one takes longer). Uses
 * s->languages, s->warmups, s->target_ms and s->energy, and p's
 * configurations, startup groups and runs. No sum overflows within the
 * settings' bounds (gb_settings_check: GB_MAX_TARGET_MS, GB_MAX_RUNS,
 * GB_MAX_WARMUPS).
 * Returns 0, or -EINVAL for a plan without runs or s->warmups of 0. */
GB_MUST_USE int gb_estimate_plan(const gb_settings *s, const gb_plan *p, gb_plan_estimate *out,
                                 gb_err *err);

/* "1m30s" below an hour, "1h02m" from an hour on, rounded down; into buf of
 * len bytes (16 hold any value). */
void gb_estimate_format(uint64_t ns, char *buf, size_t len);

/* The remaining time of a running campaign: the model's time of every item
 * still ahead, scaled per kind by how the items done so far compare with the
 * model. An item is a configuration's or startup group's warm-ups, or one
 * measured run. */
typedef enum { GB_ETA_WARMUPS, GB_ETA_SORT, GB_ETA_STARTUP, GB_ETA_KINDS } gb_eta_kind;

/* The measured time weighs against the model as if the model had already
 * been right for this much modelled time, ns: an estimate that moves with
 * the first slow run would be no better than the model. */
#define GB_ETA_PRIOR_NS 5000000000ull

typedef struct {
  uint64_t ahead_ns[GB_ETA_KINDS];      /* model time of the items still ahead */
  uint64_t done_model_ns[GB_ETA_KINDS]; /* model time of the items done */
  uint64_t took_ns[GB_ETA_KINDS];       /* measured time of the items done */
  size_t planned;                       /* items ever added */
} gb_eta;

/* The items still ahead of plan p: every configuration's and startup
 * group's warm-ups when calibration is ahead, and the runs from runs_done
 * on, each at its cost in model m. *e is replaced. */
void gb_eta_start(gb_eta *e, const gb_plan_estimate *m, const gb_plan *p,
                  bool calibration_ahead, size_t runs_done);
/* Moves one item of kind k from ahead to done, model_ns by the model, and
 * took_ns measured (from the previous item's end to this one's, so the
 * harness's time between items counts). */
void gb_eta_done(gb_eta *e, gb_eta_kind k, uint64_t model_ns, uint64_t took_ns);
/* The time left, ns: the sum over kinds of ahead x ratio, where ratio is
 * (took + P x r) / (done_model + P) with P = GB_ETA_PRIOR_NS, and r the same
 * blend over all kinds done against 1 ((took + P) / (done_model + P)). So
 * the model stands while little is done, the measured pace takes over as
 * items finish, and a kind not yet started (the runs, while calibrating)
 * follows the pace of the others. 0 when nothing is ahead. */
uint64_t gb_eta_left_ns(const gb_eta *e);

#endif
