/* Calibration of the sorts per process (docs/methods.md #1; study.md,
 * "Enough work per process") and of the startup batches: the prediction of a
 * configuration's first warm-up from a configuration already calibrated, the
 * rule that says how many sorts each warm-up runs and when the warm-ups
 * stop, and gbi_calibrate_plan, which walks a plan with them. The rule is pure
 * arithmetic, tested on scripted loop times without running anything; the
 * walk measures through a callback (campaign_calibrate.c gives the one that
 * runs and records the warm-ups). Calibration uses the plan; the plan knows
 * nothing of it. */
#ifndef GREENBENCH_CALIBRATION_H
#define GREENBENCH_CALIBRATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "greenbench/error.h"
#include "greenbench/plan.h"
#include "greenbench/workload.h"

/* Warm-ups beyond --warmups, at most, while the loop misses its aim: a
 * runtime still tiering up misses it, and a fixed count is not taken on
 * faith. */
#define GB_CALIBRATION_EXTRA_WARMUPS 5u

/* Calibration (docs/methods.md: aim 20% above the target). From a warm-up that ran
 * `sorts` sorts in `loop_ns`, the sorts for the next process, so that its loop
 * lasts 6/5 x target_ns: ceil(sorts x 6 x target / (5 x loop)) in exact integer
 * arithmetic, at least 1 and at most GB_MAX_SORTS. A zero loop time counts as
 * 1 ns. */
uint64_t gbi_calibrate_sorts(uint64_t sorts, uint64_t loop_ns, uint64_t target_ns);
/* Startup batches: how many back-to-back launches of a process that takes
 * single_ns make a batch of about batch_ns: round(batch / single), >= 1. */
uint64_t gbi_startup_launches(uint64_t single_ns, uint64_t batch_ns);

/* The work of one sort in a worker's loop, in operations: its comparisons and
 * writes, plus the copy of the input before it and the check of the result
 * after it (2 x size). Time per sort is predicted in proportion to it. */
uint64_t gbi_sort_work(gb_counts counts, uint32_t size);

/* Whether a loop of loop_ns for `sorts` sorts is within 25% of the aim, 6/5 x
 * target_ns (0.75 x aim <= loop <= 1.25 x aim, exact), or cannot get closer:
 * a single sort that already lasts longer than 1.25 x aim. */
bool gbi_calibration_on_target(uint64_t loop_ns, uint64_t sorts, uint64_t target_ns);

/* The sorts predicted for a configuration whose sort is `work` operations,
 * from a calibrated one (the reference) whose last warm-up ran ref_sorts sorts
 * of ref_work operations each in ref_loop_ns, if time per sort is in
 * proportion to the work: the sorts for a loop of 6/5 x target_ns,
 * ceil(ref_sorts x ref_work x 6 x target / (5 x ref_loop x work)) in exact
 * integer arithmetic, at most GB_MAX_SORTS. Returns 0, no prediction, when
 * any argument is 0 (a loop too short to be timed predicts nothing). */
uint64_t gbi_predict_sorts(uint64_t ref_sorts, uint64_t ref_loop_ns, uint64_t ref_work,
                           uint64_t work, uint64_t target_ns);

/* The reference of configuration i of plan p: of the configurations j != i
 * with usable[j] (calibrated, their last loop on target) in i's language, the
 * closest: the same algorithm first, then the same order, then the nearest
 * size (by ratio), then the latest in the plan. usable has p->nconfigs
 * entries. Returns its index, or p->nconfigs when there is none. */
size_t gbi_calibration_reference(const gb_plan *p, size_t i, const bool *usable);

/* The warm-ups whose fastest time per sort sets the next sorts: one slow
 * episode in the last warm-up (a shared machine, a garbage collection) no
 * longer sets the sorts of every measured run (issue 32: Node.js loops of
 * 72 ms for a 240 ms aim). */
#define GB_CALIBRATION_RATE_WINDOW 3u

/* One configuration's warm-ups, one at a time. */
typedef struct {
  unsigned warmups;    /* --warmups, >= 1 */
  uint64_t target_ns;  /* the shortest loop wanted */
  unsigned done;       /* warm-ups recorded so far */
  uint64_t next;       /* the sorts of the next warm-up */
  uint64_t last_sorts; /* the last recorded warm-up's sorts and loop */
  uint64_t last_loop_ns;
  /* The last GB_CALIBRATION_RATE_WINDOW warm-ups' sorts and loops, the
   * latest at (done - 1) % GB_CALIBRATION_RATE_WINDOW. */
  uint64_t recent_sorts[GB_CALIBRATION_RATE_WINDOW];
  uint64_t recent_loop_ns[GB_CALIBRATION_RATE_WINDOW];
} gbi_calibration;

/* Before the first warm-up: it runs `predicted` sorts (gbi_predict_sorts), or
 * sorts once, a probe, when predicted is 0. */
void gbi_calibration_start(gbi_calibration *k, unsigned warmups, uint64_t target_ns,
                           uint64_t predicted);
/* The sorts of the next warm-up, or 0 when the warm-ups are over: never
 * before `warmups` of them, then as soon as the last loop is on target
 * (gbi_calibration_on_target), and at the latest after
 * GB_CALIBRATION_EXTRA_WARMUPS more. */
uint64_t gbi_calibration_next(const gbi_calibration *k);
/* Records a warm-up that ran `sorts` sorts in loop_ns; the next one runs the
 * sorts that the fastest time per sort of the last
 * GB_CALIBRATION_RATE_WINDOW warm-ups (this one included) predicts,
 * gbi_calibrate_sorts(its sorts, its loop_ns, target_ns). */
void gbi_calibration_record(gbi_calibration *k, uint64_t sorts, uint64_t loop_ns);
/* The measured runs' sorts: what the last warm-ups predict (1 before any). */
uint64_t gbi_calibration_sorts(const gbi_calibration *k);
/* Whether the configuration may serve as a reference: at least one warm-up,
 * and the last one's loop on target. */
bool gbi_calibration_usable(const gbi_calibration *k);

/* What one warm-up took: its sort loop and its whole process (wall). */
typedef struct {
  uint64_t loop_ns, wall_ns;
} gbi_warmup_time;

/* What a measured run of `count` sorts (or repetitions) is expected to
 * last, from its configuration's last warm-up `last` of last_count: the
 * warm-up's start-up part (wall - loop) plus its loop scaled to count. */
uint64_t gbi_expected_wall(gbi_warmup_time last, uint64_t last_count, uint64_t count);
/* The startup batch of a group: gbi_startup_launches(median of single, the
 * walls of its warm-ups of one launch; median of runs, the expected walls
 * of the runs it is subtracted from). 0, or -EINVAL when either is empty.
 */
GB_MUST_USE int gbi_startup_batch(const double *single, size_t n, const double *runs,
                                  size_t nruns, uint64_t *launches);

/* How gbi_calibrate_plan measures, and whom it tells. An item is a
 * configuration (item < p->nconfigs) or a startup group (item - nconfigs). */
typedef struct {
  void *ctx;
  /* Before item: 0 to go on, or -errno (an interrupt) to stop. */
  int (*begin)(void *ctx, size_t item, gb_err *err);
  /* Warm-up w of item with count sorts (a configuration) or launches (a
   * startup group: always 1), measured and recorded: its times into *t.
   * 0, or -errno with err set (a failed warm-up included). */
  int (*measure)(void *ctx, size_t item, unsigned w, uint64_t count, gbi_warmup_time *t,
                 gb_err *err);
  /* Item calibrated: its sorts or launches, and (a configuration) the loop
   * of each warm-up, n of them. 0, or -errno with err set. */
  int (*end)(void *ctx, size_t item, uint64_t count, const uint64_t *loops_ns, size_t n,
             gb_err *err);
} gbi_calibration_io;

/* Calibrates plan p: each configuration in order (the first warm-up
 * predicted from the closest configuration already calibrated, scaled by
 * the work of a sort, counts[i] being what configuration i's sort does;
 * then the rule above, at least `warmups` of them, aiming at 6/5 x
 * target_ns), then each startup group (`warmups` single launches, and the
 * batch that lasts about as long as the median of the group's sorting runs,
 * each expected as its last warm-up's start-up plus its loop scaled to the
 * new sorts). Fills sorts[p->nconfigs] and launches[p->nstartups]. Returns
 * 0, or the first -errno of io's callbacks or of the sizing (-ENOMEM,
 * -EINVAL), with err set. */
GB_MUST_USE int gbi_calibrate_plan(const gb_plan *p, const gb_counts *counts, unsigned warmups,
                                   uint64_t target_ns, const gbi_calibration_io *io,
                                   uint64_t *sorts, uint64_t *launches, gb_err *err);

#endif
