/* The generic pieces of `greenbench compare`, shared by the study's
 * comparison (compare.h) and a suite's (suite_compare.h): the columns'
 * names, one configuration's change between two campaigns, and how a
 * change's ratio is written in compare.md and compare.json. */
#ifndef GREENBENCH_COMPARE_INTERNAL_H
#define GREENBENCH_COMPARE_INTERNAL_H

#include "greenbench/compare.h"

#include "json_out.h"
#include "textbuf.h"

/* A campaign as its column's name needs it: machine_label NULL when its
 * records have none; the rest as gb_cmp_input's. */
typedef struct {
  const char *path;
  int same_as;
  const char *campaign_label;
  const char *machine_label;
} gbi_cmp_who;

/* The columns' names (compare.h, GB_COMPARE_NAME_MAX) and campaign labels
 * of in[0..n-1], and whether they are the machine labels. -EINVAL naming
 * both paths for two campaigns of other records with the same name. */
GB_MUST_USE int gbi_cmp_name(const gbi_cmp_who *in, size_t n,
                             char (*names)[GB_COMPARE_NAME_MAX],
                             char (*campaigns)[GB_COMPARE_NAME_MAX], bool *by_machine,
                             gb_err *err);

/* 0 when n campaigns (2 to GB_COMPARE_MAX) can be compared, else -EINVAL
 * with the error naming n. */
GB_MUST_USE int gbi_cmp_check_count(size_t n, gb_err *err);
/* 0 when two campaigns' input seeds are the same, else -EINVAL with the
 * error naming both paths and seeds. */
GB_MUST_USE int gbi_cmp_check_seed(const char *xpath, uint64_t xseed, const char *ypath,
                                   uint64_t yseed, gb_err *err);

/* One campaign's side of a configuration: its bootstrap drawn on its own
 * streams, its net power replicates by the paired estimator (NULL
 * otherwise) and the point estimate of net power they go with. */
typedef struct {
  const gb_boot *boot;
  const double *power;
  const gb_interval *power_point;
} gbi_cmp_side;

/* A side as drawn and owned: its bootstrap, and its net power's replicates
 * by the paired estimator (NULL otherwise); gbi_cmp_drawn_free frees both
 * and zeroes it. */
typedef struct {
  gb_boot boot;
  double *power;
} gbi_cmp_drawn;

void gbi_cmp_drawn_free(gbi_cmp_drawn *s);

/* b against a (b / a): time, energy and power ratios with their intervals
 * and readings (gb_cmp_change); energy: both campaigns measured energy.
 * scratch: 4 x opts->resamples doubles. 0 or a refusal of gb_ratio_of_in. */
GB_MUST_USE int gbi_cmp_change_of(const gbi_cmp_side *a, const gbi_cmp_side *b, bool energy,
                                  const gb_analysis_opts *o, double *scratch,
                                  gb_cmp_change *out, gb_err *err);

/* compare.md: one ratio of a change, " 1.50 [1.48, 1.52] differs |", or
 * why there is none. */
void gbi_cmp_md_change_cell(gbi_textbuf *b, const gb_interval *iv, gb_reading r, bool exists);
/* compare.md: the paragraph opening the changes' tables. */
void gbi_cmp_md_change_intro(gbi_textbuf *b, const gb_analysis_opts *o);

/* compare.json: "<what>_ratio" and "<what>_reading" of a change's time,
 * energy and power into o; both null where the ratio does not exist, the
 * interval null too where the reading is undefined. */
void gbi_cmp_json_change(gbi_jb *jb, cJSON *o, const gb_cmp_change *ch);
/* compare.json: "schema_version" and "bootstrap" of the options. */
void gbi_cmp_json_head(gbi_jb *jb, cJSON *root, const gb_analysis_opts *o);

#endif
