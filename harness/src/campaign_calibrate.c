/* Warm-ups and calibration (study.md, "Enough work per process" and
 * "Startup cost"). They run before the shuffled runs, in canonical order,
 * and go to warmups.csv, never into the measured records. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "calibration.h"
#include "campaign_internal.h"

static int failed_warmup(const gb_run_row *row, const char *label, unsigned w, gb_err *err) {
  return gb_err_set(err, row->status == GB_REC_STATUS_PARITY_MISMATCH ? EPROTO : ECHILD,
                    "warm-up %u of %s failed, so it cannot be calibrated: %s: %s", w + 1, label,
                    gb_rec_status_name(row->status), row->message);
}

/* Calibration is all or nothing: the measured runs need every
 * configuration's sorts, so an interrupt here leaves nothing to resume. */
static int check_stop(const gbi_campaign *c, gb_err *err) {
  if (c->o->stop && *c->o->stop)
    return gb_err_set(err, EINTR,
                      "interrupted while calibrating, before any measured run: nothing to "
                      "resume; start the campaign again in a new folder");
  return 0;
}

/* The item's label: "c/quick/random/100" or "c/startup/random/100". */
static void item_label(const gbi_campaign *c, size_t item, char *buf, size_t len) {
  if (item < c->plan.nconfigs)
    gb_config_label(&c->plan.configs[item], buf, len);
  else
    gb_startup_label(&c->plan.startups[item - c->plan.nconfigs], buf, len);
}

static int begin(void *ctx, size_t item, gb_err *err) {
  gbi_campaign *c = ctx;
  char label[64];
  int rc = check_stop(c, err);
  if (rc < 0)
    return rc;
  item_label(c, item, label, sizeof label);
  gbi_progress_update(&c->progress, "calibrating", item, c->plan.nconfigs + c->plan.nstartups,
                      label);
  return 0;
}

/* One warm-up run, recorded into warmups.csv; a failed one ends the
 * calibration. */
static int measure(void *ctx, size_t item, unsigned w, uint64_t count, gbi_warmup_time *t,
                   gb_err *err) {
  gbi_campaign *c = ctx;
  bool config = item < c->plan.nconfigs;
  size_t index = config ? item : item - c->plan.nconfigs;
  gb_job job = config ? gbi_campaign_sort_job(c, index, count)
                      : gbi_campaign_startup_job(c, index, count);
  gb_run_row row;
  char label[64];
  int rc = gbi_campaign_measure_row(c, &job, index, false, w, &row, err);
  if (rc < 0 || (rc = gbi_recorder_append(c->rec, GB_REC_FILE_WARMUPS, &row, err)) < 0)
    return rc;
  item_label(c, item, label, sizeof label);
  if (row.status != GB_REC_STATUS_OK)
    return failed_warmup(&row, label, w, err);
  *t = (gbi_warmup_time){row.loop_ns.value, row.wall_ns.value};
  return 0;
}

/* An item calibrated: its sorts or launches into the campaign and meta.json's
 * calibration, and the progress line's ETA. */
static int end(void *ctx, size_t item, uint64_t count, const uint64_t *loops_ns, size_t n,
               gb_err *err) {
  gbi_campaign *c = ctx;
  if (item >= c->plan.nconfigs) {
    size_t g = item - c->plan.nconfigs;
    const gb_startup_group *sg = &c->plan.startups[g];
    gb_meta_startup entry = {sg->language, sg->order, sg->size, count};
    int rc = gb_meta_add_startup(&c->meta, &entry, err);
    if (rc == 0)
      gbi_progress_done(&c->progress, GB_ETA_WARMUPS,
                        c->estimate.startup_warmups_ns[sg->language]);
    return rc;
  }
  const gb_config *k = &c->plan.configs[item];
  gb_meta_calibration cal = {.language = k->language,
                             .algorithm = k->algorithm,
                             .order = k->order,
                             .size = k->size,
                             .sorts = count};
  for (size_t i = 0; i < n && cal.n_warmup_loop_ns < GB_META_MAX_WARMUPS; i++)
    cal.warmup_loop_ns[cal.n_warmup_loop_ns++] = loops_ns[i];
  int rc = gb_meta_add_calibration(&c->meta, &cal, err);
  if (rc == 0)
    gbi_progress_done(&c->progress, GB_ETA_WARMUPS, c->estimate.config_warmups_ns[k->language]);
  return rc;
}

int gbi_campaign_calibrate(gbi_campaign *c, gb_err *err) {
  size_t total = c->plan.nconfigs + c->plan.nstartups;
  gb_counts *counts = calloc(c->plan.nconfigs ? c->plan.nconfigs : 1, sizeof *counts);
  if (!counts)
    return gb_err_set(err, ENOMEM, "out of memory");
  for (size_t i = 0; i < c->plan.nconfigs; i++)
    counts[i] = c->expected[i].counts;
  gbi_calibration_io io = {.ctx = c, .begin = begin, .measure = measure, .end = end};
  gbi_progress_phase(&c->progress);
  int rc =
      gbi_calibrate_plan(&c->plan, counts, c->s.warmups, (uint64_t)c->s.target_ms * 1000000u,
                         &io, c->sorts, c->launches, err);
  free(counts);
  if (rc == -EINTR) /* a warm-up cut short by the stop: the same words as between them */
    rc = check_stop(c, err);
  if (rc == 0)
    gbi_progress_update(&c->progress, "calibrating", total, total, "done");
  gbi_progress_break(&c->progress);
  return rc;
}
