/* Warm-ups and calibration (study.md, "Enough work per process" and
 * "Startup cost"). They run before the shuffled runs, in canonical order,
 * and go to warmups.csv, never into the measured records. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "calibration.h"
#include "campaign_internal.h"
#include "greenbench/quantile.h"

static int failed_warmup(const gb_run_row *row, const char *label, unsigned w, gb_err *err) {
  return gb_err_set(err, row->status == GB_REC_STATUS_PARITY_MISMATCH ? EPROTO : ECHILD,
                    "warm-up %u of %s failed, so it cannot be calibrated: %s: %s", w + 1, label,
                    gb_rec_status_name(row->status), row->message);
}

/* One configuration (the rule is gb_calibration's, calibration.h):
 * the first warm-up runs the sorts predicted from the closest configuration
 * already calibrated (`done`, its last warm-up's loop, scaled by the work of a
 * sort), or sorts once where there is none; each later one runs the sorts its
 * predecessor predicts, with up to GB_CALIBRATION_EXTRA_WARMUPS more while the
 * loop misses its aim; the last sets the sorts of the measured runs. Returns
 * the wall time a measured run is expected to take, for the startup batches. */
static int calibrate_config(gb_campaign *c, size_t i, gb_calibration *done, bool *usable,
                            uint64_t *expected_wall, gb_err *err) {
  char label[64];
  gb_config_label(&c->plan.configs[i], label, sizeof label);
  uint64_t target_ns = (uint64_t)c->s.target_ms * 1000000u;
  const gb_config *k = &c->plan.configs[i];
  gb_meta_calibration cal = {
      .language = k->language, .algorithm = k->algorithm, .order = k->order, .size = k->size};
  for (size_t j = 0; j < c->plan.nconfigs; j++)
    usable[j] = gb_calibration_usable(&done[j]);
  size_t ref = gb_calibration_reference(&c->plan, i, usable);
  uint64_t predicted = 0;
  if (ref < c->plan.nconfigs)
    predicted =
        gb_predict_sorts(done[ref].last_sorts, done[ref].last_loop_ns,
                         gb_sort_work(c->expected[ref].counts, c->plan.configs[ref].size),
                         gb_sort_work(c->expected[i].counts, k->size), target_ns);
  gb_calibration *cb = &done[i];
  gb_calibration_start(cb, c->s.warmups, target_ns, predicted);
  gb_run_row row = {0};
  for (uint64_t sorts; (sorts = gb_calibration_next(cb)) != 0;) {
    unsigned w = cb->done;
    gb_job job = gb_campaign_sort_job(c, i, sorts);
    int rc = gb_campaign_measure_row(c, &job, i, false, w, &row, err);
    if (rc < 0 || (rc = gb_recorder_append(c->rec, GB_REC_FILE_WARMUPS, &row, err)) < 0)
      return rc;
    if (row.status != GB_REC_STATUS_OK)
      return failed_warmup(&row, label, w, err);
    gb_calibration_record(cb, sorts, row.loop_ns.value);
    if (cal.n_warmup_loop_ns < GB_META_MAX_WARMUPS)
      cal.warmup_loop_ns[cal.n_warmup_loop_ns++] = row.loop_ns.value;
  }
  c->sorts[i] = gb_calibration_sorts(cb);
  /* The last warm-up's start-up part, plus its loop scaled to the new sorts. */
  uint64_t loop = row.loop_ns.value, wall = row.wall_ns.value;
  uint64_t startup = wall > loop ? wall - loop : 0;
  *expected_wall =
      startup + (uint64_t)((double)loop * (double)c->sorts[i] / (double)cb->last_sorts);
  cal.sorts = c->sorts[i];
  return gb_meta_add_calibration(&c->meta, &cal, err);
}

/* One startup group: `warmups` single launches, then the batch size that
 * lasts about as long as the group's sorting runs (the median of their
 * expected walls). */
static int calibrate_startup(gb_campaign *c, size_t g, const uint64_t *expected_wall,
                             gb_err *err) {
  char label[64];
  gb_startup_label(&c->plan.startups[g], label, sizeof label);
  double walls[64], runs[GB_ALGORITHM_COUNT * GB_MAX_SIZES];
  size_t n = 0, nruns = 0;
  for (unsigned w = 0; w < c->s.warmups && w < 64; w++) {
    gb_job job = gb_campaign_startup_job(c, g, 1);
    gb_run_row row;
    int rc = gb_campaign_measure_row(c, &job, g, false, w, &row, err);
    if (rc < 0 || (rc = gb_recorder_append(c->rec, GB_REC_FILE_WARMUPS, &row, err)) < 0)
      return rc;
    if (row.status != GB_REC_STATUS_OK)
      return failed_warmup(&row, label, w, err);
    walls[n++] = (double)row.wall_ns.value;
  }
  for (size_t i = 0; i < c->plan.nconfigs; i++)
    if (gb_plan_startup_of(&c->plan, &c->plan.configs[i]) == g)
      runs[nruns++] = (double)expected_wall[i];
  double single = 0, batch = 0;
  gb_err ignored;
  if (gb_median(walls, n, &single, &ignored) < 0 ||
      gb_median(runs, nruns, &batch, &ignored) < 0)
    return gb_err_set(err, EINVAL, "no warm-up to size the startup batches of %s", label);
  c->launches[g] = gb_startup_launches((uint64_t)single, (uint64_t)batch);
  const gb_startup_group *sg = &c->plan.startups[g];
  gb_meta_startup entry = {sg->language, sg->order, sg->size, c->launches[g]};
  return gb_meta_add_startup(&c->meta, &entry, err);
}

/* Calibration is all or nothing: the measured runs need every
 * configuration's sorts, so an interrupt here leaves nothing to resume. */
static int check_stop(const gb_campaign *c, gb_err *err) {
  if (c->o->stop && *c->o->stop)
    return gb_err_set(err, EINTR,
                      "interrupted while calibrating, before any measured run: nothing to "
                      "resume; start the campaign again in a new folder");
  return 0;
}

int gb_campaign_calibrate(gb_campaign *c, gb_err *err) {
  size_t total = c->plan.nconfigs + c->plan.nstartups;
  uint64_t *expected_wall = calloc(c->plan.nconfigs, sizeof *expected_wall);
  gb_calibration *done = calloc(c->plan.nconfigs, sizeof *done);
  bool *usable = calloc(c->plan.nconfigs, sizeof *usable);
  if (!expected_wall || !done || !usable) {
    free(expected_wall);
    free(done);
    free(usable);
    return gb_err_set(err, ENOMEM, "out of memory");
  }
  int rc = 0;
  char label[64];
  gb_progress_phase(&c->progress);
  for (size_t i = 0; i < c->plan.nconfigs && rc == 0; i++) {
    if ((rc = check_stop(c, err)) < 0)
      break;
    gb_config_label(&c->plan.configs[i], label, sizeof label);
    gb_progress_update(&c->progress, "calibrating", i, total, label);
    if ((rc = calibrate_config(c, i, done, usable, &expected_wall[i], err)) == 0)
      gb_progress_done(&c->progress, GB_ETA_WARMUPS,
                       c->estimate.config_warmups_ns[c->plan.configs[i].language]);
  }
  for (size_t g = 0; g < c->plan.nstartups && rc == 0; g++) {
    if ((rc = check_stop(c, err)) < 0)
      break;
    gb_startup_label(&c->plan.startups[g], label, sizeof label);
    gb_progress_update(&c->progress, "calibrating", c->plan.nconfigs + g, total, label);
    if ((rc = calibrate_startup(c, g, expected_wall, err)) == 0)
      gb_progress_done(&c->progress, GB_ETA_WARMUPS,
                       c->estimate.startup_warmups_ns[c->plan.startups[g].language]);
  }
  free(expected_wall);
  free(done);
  free(usable);
  if (rc == -EINTR) /* a warm-up cut short by the stop: the same words as between them */
    rc = check_stop(c, err);
  if (rc == 0)
    gb_progress_update(&c->progress, "calibrating", total, total, "done");
  gb_progress_break(&c->progress);
  return rc;
}
