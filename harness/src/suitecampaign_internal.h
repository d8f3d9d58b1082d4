/* State shared by the parts of a suite campaign: suitecampaign.c (set-up,
 * builds, versions, the measured runs) and suitecampaign_measure.c (one
 * process measured into a row with its parity, and the calibration). */
#ifndef GB_SUITECAMPAIGN_INTERNAL_H
#define GB_SUITECAMPAIGN_INTERNAL_H

#include <limits.h>

#include "campaign_internal.h"
#include "greenbench/contractline.h"
#include "greenbench/suitecampaign.h"
#include "greenbench/suiteplan.h"
#include "greenbench/suiterecords.h"
#include "harness_internal.h"
#include "suiteeta.h"
#include "suitepredict.h"

/* What every process of a case must report: the first ok one's line. */
typedef struct {
  bool have;
  gb_contract_line line;
  char from[GB_SUITE_NAME_MAX + 1]; /* its language */
} gbi_suite_ref;

typedef struct {
  gbi_campaign c; /* the study's machinery: c.o is the options' base */
  const gb_suite_campaign_opts *o;
  const gb_suite *s;
  gb_suite_plan plan;
  char builddir[PATH_MAX];
  char workers[PATH_MAX]; /* {workers}: "" when no template names it */
  uint64_t *reps;         /* per configuration, from calibration */
  uint64_t *launches;     /* per configuration's startup group */
  gbi_suite_cost *cost;   /* per configuration: what its items take, for the ETA */
  gbi_suite_ref *refs;    /* per case */
  size_t runs_done;       /* rows in runs.csv (a resumed campaign's to begin with) */
  gb_srec_meta meta;
  bool meta_live; /* meta.json is this campaign's to rewrite (never before a resume's checks) */
} gbi_suite_campaign;

/* {workers} of k's templates, or NULL when none names it. */
static inline const char *gbi_suite_workers(const gbi_suite_campaign *k) {
  return k->workers[0] ? k->workers : NULL;
}

/* Configuration i's process of template t (GB_SUITE_COMMAND with count
 * reps, or GB_SUITE_STARTUP), measured (idle: a measured run with its idle
 * window and energy; else a warm-up, time only) into *row, with its parity
 * checked against the case's reference (set by the first ok process).
 * Returns 0 whatever became of the process (row->status), -EINTR when it was
 * interrupted (no row), or -errno when the harness failed. */
GB_MUST_USE int gbi_suite_measure_row(gbi_suite_campaign *k, size_t i, bool startup,
                                      uint64_t count, bool idle, uint64_t index,
                                      gb_srec_row *row, gb_err *err);
/* A row (of a warm-up or of a measured run) that stops the campaign (a
 * parity mismatch, energy counters vanished): -EPROTO or -ENODEV with the
 * one line that says so; 0 otherwise. */
GB_MUST_USE int gbi_suite_stop_reason(const gb_srec_row *row, bool warmup, gb_err *err);
/* Appends a row to runs.csv or warmups.csv. */
GB_MUST_USE int gbi_suite_append(gbi_suite_campaign *k, gb_rec_file which,
                                 const gb_srec_row *row, gb_err *err);
/* Starts configuration i's calibration in *cb, its first warm-up's {reps}
 * predicted from done[0..i) (gbi_suite_predict_reps): the campaign's and
 * the resume's replay alike. */
void gbi_suite_calibration_start(const gbi_suite_campaign *k, size_t i,
                                 const gbi_calibration *done, gbi_calibration *cb);
/* Warm-ups into warmups.csv, then k->reps and k->launches. */
GB_MUST_USE int gbi_suite_calibrate(gbi_suite_campaign *k, gb_err *err);

/* --resume (suitecampaign_resume.c), with the records opened, before the
 * machine is set up: the records read whole; refused when complete, of
 * another suite (k->s's hash), with settings given that differ, or with
 * rows that are not the plan's first runs (the plan rebuilt from the
 * recorded settings and order seed) or a calibration that does not replay
 * from warmups.csv. Sets k->c.s, the plan, k->reps and k->launches (the
 * calibration replayed), k->refs (the first ok work process of each case
 * recorded), k->runs_done, and *meta (the recorded meta.json). Writes
 * nothing. */
GB_MUST_USE int gbi_suite_resume_load(gbi_suite_campaign *k, gb_srec_meta *meta, gb_err *err);
/* --resume, after set-up, with k->meta holding this machine's facts and
 * versions: refuses an energy status, pinning or language version that
 * differs from rec's. */
GB_MUST_USE int gbi_suite_resume_check(gbi_suite_campaign *k, const gb_srec_meta *rec,
                                       gb_err *err);

#endif
