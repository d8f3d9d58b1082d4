/* `greenbench compare` of suite campaigns (issue 38): two or more records
 * folders of the same suite in, one comparison out. Per configuration
 * (language, workload, parameter set) that every campaign holds, each later
 * campaign's time and energy per repetition and net power against the
 * first one's: ratios with the percentile intervals of two independent
 * bootstraps, read against the margin, as the study's compare computes them
 * (compare.h, gb_cmp_change; the same code). Energy and power ratios exist
 * only where both campaigns measured energy. Configurations some campaign
 * lacks are listed as left out.
 *
 * Refused (-EINVAL, one line naming both paths): campaigns of different
 * suites (suite names); of different suite hashes whose workloads differ
 * (the same workload names, parameters and values are required: a hash may
 * differ for a language's command, a title or a description); of different
 * input seeds; and a case (workload, parameter set) whose first ok work
 * process reported another input_hash, output_hash or counters in one
 * campaign than in another (not the same workload). Pure: analyses in,
 * comparison out; the writers are pure. */
#ifndef GREENBENCH_SUITE_COMPARE_H
#define GREENBENCH_SUITE_COMPARE_H

#include "greenbench/compare.h"
#include "greenbench/suite_analysis.h"

/* Written into compare.json as "format", beside schema_version. */
#define GB_SUITE_COMPARE_FORMAT "greenbench-suite-compare-1"

/* One campaign as the comparison gets it: as gb_cmp_input. */
typedef struct {
  const char *path;
  int same_as; /* index of an earlier campaign with the same files, or -1 */
  const gb_suite_analysis *analysis;
  const char *campaign_label; /* or NULL for the folder's name */
} gb_scmp_input;

typedef struct {
  char name[GB_COMPARE_NAME_MAX];     /* the column's name */
  char campaign[GB_COMPARE_NAME_MAX]; /* the campaign label, given or the folder's name */
  const char *path;
  const gb_suite_analysis *a;
  const gb_sa_config **left_out; /* owned; the analysis's order */
  size_t n_left_out;
} gb_scmp_campaign;

/* One configuration every campaign holds; change[m] (m >= 1) is campaign m
 * against the first (computed when both measured it). */
typedef struct {
  const gb_sa_config *config[GB_COMPARE_MAX];
  gb_cmp_change change[GB_COMPARE_MAX];
} gb_scmp_config;

typedef struct {
  size_t n;
  gb_scmp_campaign campaigns[GB_COMPARE_MAX];
  bool by_machine;         /* the columns are named by their machine labels */
  gb_scmp_config *configs; /* the first campaign's order */
  size_t n_configs;
  gb_analysis_opts opts;
} gb_suite_comparison;

/* "python/spin/n=1000;m=2": configuration c of analysis a. */
void gb_scmp_config_label(const gb_suite_analysis *a, const gb_sa_config *c, char *buf,
                          size_t len);

/* 0 or -EINVAL for the refusals above, naming both paths. */
GB_MUST_USE int gb_suite_compare_check_pair(const gb_scmp_input *x, const gb_scmp_input *y,
                                            gb_err *err);

/* As gb_compare_build: 2 <= n <= GB_COMPARE_MAX, the same options, the
 * pairs checked, names as the study's compare names campaigns (the
 * machine labels when every campaign has one and they tell the machines
 * apart and no campaign label is given, else the campaign labels). Campaign m's side
 * is drawn on the analysis's streams xor m << GB_COMPARE_STREAM_SHIFT.
 * -EINVAL, -ENOMEM; *out (gb_suite_compare_free) only on success. */
GB_MUST_USE int gb_suite_compare_build(const gb_scmp_input *in, size_t n,
                                       gb_suite_comparison **out, gb_err *err);
void gb_suite_compare_free(gb_suite_comparison *c);

/* compare.md and compare.json of a suite comparison (docs/suites.md,
 * "Comparing suite campaigns"); no chart, as a suite report has none.
 * Pure, "C" locale; -ENOMEM. */
GB_MUST_USE int gb_suite_compare_md(const gb_suite_comparison *c, char **out, size_t *len,
                                    gb_err *err);
GB_MUST_USE int gb_suite_compare_json(const gb_suite_comparison *c, char **out, size_t *len,
                                      gb_err *err);

#endif
