/* `greenbench compare PATH PATH...`: several campaigns of the same workload
 * (one per machine, or several of one machine: before and after a change)
 * in, one comparison out (docs/records.md, "compare.json"): per campaign
 * the study's three answers, per ratio common to all campaigns each
 * campaign's ratios with their intervals and readings, whether the
 * verdicts of question 1 agree, the rank agreement of median time per sort
 * between every pair of campaigns, and, per configuration all hold, each
 * later campaign's time, energy and net power against the first one's
 * (ratios with bootstrap intervals, read against the margin) and whether
 * the answer to question 1 changed.
 *
 * gb_compare_build is pure (analyses in, comparison out); the writers are
 * pure (comparison in, bytes out); gb_cli_compare (greenbench/cli.h, the
 * commands layer) reads the folders and writes the files. Units: time in
 * ns, energy in uJ, power in W. */
#ifndef GREENBENCH_COMPARE_H
#define GREENBENCH_COMPARE_H

#include "greenbench/analysis.h"
#include "greenbench/error.h"
#include "greenbench/meta.h"
#include "greenbench/spearman.h"

#include <stdbool.h>
#include <stddef.h>

/* Raised whenever a key of compare.json is removed or changes meaning. */
#define GB_COMPARE_SCHEMA_VERSION 1
/* At most this many campaigns in one comparison. */
#define GB_COMPARE_MAX 16
/* A column's name (gb_compare_build): the campaign labels when given,
 * else the machine labels when every campaign has one and they tell the
 * campaigns apart, else the campaign labels by default (each folder's
 * name); "#2", "#3" ... added when the same records are given again. */
#define GB_COMPARE_NAME_MAX (GB_META_NAME_MAX + 8)
/* Campaign m >= 1 draws the bootstraps of its side of a change from the
 * analysis's streams with m x 2^56 added (xor), so that no two campaigns
 * resample with the same indices; the first draws the report's own. */
#define GB_COMPARE_STREAM_SHIFT 56

/* One campaign as the comparison gets it: all borrowed. */
typedef struct {
  const char *path; /* as given, for messages and the report */
  /* Whether this folder is the same records as an earlier one (same
   * meta.json file): then it may share that one's label. */
  int same_as; /* index of the earlier campaign with the same files, or -1 */
  const gb_analysis *analysis;
  /* The campaign's label as the user gave it (compare --campaign-label,
   * gb_meta_label_valid), or NULL for its folder's name (the path's last
   * component, less ".tar.gz" for a packed archive). Given for all the
   * campaigns or for none. */
  const char *campaign_label;
} gb_cmp_input;

/* One campaign's column. */
typedef struct {
  char name[GB_COMPARE_NAME_MAX];     /* the column's name (GB_COMPARE_NAME_MAX) */
  char campaign[GB_COMPARE_NAME_MAX]; /* the campaign label, given or the folder's name */
  const char *path;
  const gb_analysis *a;
  const char *verdict; /* gb_analysis_verdict_name of its analysis */
  /* The first machine with this verdict (m itself for the first): the
   * writers list the verdicts by first appearance, each with its machines. */
  size_t same_verdict_as;
  /* Its configurations that some other campaign lacks, so compared
   * nowhere (canonical order; owned by the comparison). */
  const gb_an_config **left_out;
  size_t n_left_out;
  /* For m >= 1, against the first campaign: whether both verdicts of
   * question 1 are known (energy measured in both: not "pending"), and
   * then whether they differ. */
  bool verdict_known, verdict_changed;
  /* Whether it holds exactly the first campaign's configurations: when not,
   * the two verdicts answer question 1 over different ratios. */
  bool same_configs_as_first;
} gb_cmp_machine;

/* One ratio of the study that every machine holds (same family and the
 * same configurations on both sides); ratio[m] is machine m's. */
typedef struct {
  gb_an_family family;
  const gb_an_config *a, *b; /* machine 0's configurations, for the key */
  const gb_an_ratio *ratio[GB_COMPARE_MAX];
  bool readings_agree; /* every machine reads its power ratio the same */
} gb_cmp_ratio;

/* Campaign m against the first in one configuration: ratio.time,
 * ratio.energy and ratio.power are m / first of time per sort, energy per
 * sort and net power (by the analyses' power estimator: paired, ADR 0015,
 * unless told otherwise), each with the percentile interval of the ratios
 * of two independent bootstraps (the two sides' resamples drawn from
 * different streams, GB_COMPARE_STREAM_SHIFT, with the startup resampled as
 * the report resamples it), and each read against the margin by the rule
 * of ratio.h (ratio.reading is the power ratio's). Energy and power exist
 * only when both campaigns measured energy. */
typedef struct {
  bool computed; /* both campaigns measured the configuration */
  bool energy;   /* and both measured energy */
  gb_ratio ratio;
  gb_reading time_reading, energy_reading;
} gb_cmp_change;

/* One configuration every campaign holds; config[m] is campaign m's, and
 * change[m] (m >= 1) campaign m against the first. */
typedef struct {
  const gb_an_config *config[GB_COMPARE_MAX];
  gb_cmp_change change[GB_COMPARE_MAX];
} gb_cmp_config;

/* Machines i < j: Spearman's rho of their median times per sort over the
 * configurations both measured (k of them), with a percentile interval
 * from the first rank_resamples bootstrap replicates, pairing machine i's
 * replicate r with machine j's replicate r (replicates where a time is
 * missing or rho is undefined are left out, counted by n_used). */
typedef struct {
  size_t i, j;
  size_t k;
  bool verdicts_agree;
  gb_rho_interval time_rank;
} gb_cmp_pair;

typedef struct {
  size_t n; /* machines, 2..GB_COMPARE_MAX */
  gb_cmp_machine machines[GB_COMPARE_MAX];
  gb_cmp_config *configs; /* common to all, machine 0's canonical order */
  size_t n_configs;
  gb_cmp_ratio *ratios; /* common to all, machine 0's order */
  size_t n_ratios;
  gb_cmp_pair *pairs; /* (0,1), (0,2), ..., (1,2), ... */
  size_t n_pairs;
  bool verdicts_agree;   /* every machine's verdict of question 1 is the same */
  bool by_machine;       /* the columns are named by their machine labels */
  gb_analysis_opts opts; /* the analyses' options (machine 0's; all equal) */
} gb_comparison;

/* Whether campaigns a and b may be compared: the same workload (the same
 * settings.seed; the records format is the one the reader accepts) and,
 * for every configuration both measured, the same input hash of its first
 * ok run and the same comparisons and writes. 0, or -EINVAL with a message
 * naming both paths (and the configuration with both values). */
GB_MUST_USE int gb_compare_check_pair(const gb_cmp_input *a, const gb_cmp_input *b,
                                      gb_err *err);

/* Builds the comparison of in[0..n-1] (2 <= n <= GB_COMPARE_MAX), each
 * analysed with the same options. Refuses (-EINVAL, naming both paths)
 * any pair gb_compare_check_pair refuses, and two campaigns whose column
 * names (GB_COMPARE_NAME_MAX) would be the same unless one is the same
 * records given again (same_as). -EINVAL for n out of range or analyses with
 * different options, -ENOMEM. *out (release with gb_compare_free) is set
 * only on success; it borrows the analyses. */
GB_MUST_USE int gb_compare_build(const gb_cmp_input *in, size_t n, gb_comparison **out,
                                 gb_err *err);

/* Fills c->configs[*].change and each campaign's verdict_known and
 * verdict_changed (compare_change.c); gb_compare_build calls it. It draws
 * each campaign's bootstraps again from its records, so the analyses must
 * still hold their records. 0, -EINVAL (a bootstrap's refusal, naming the
 * configuration and the path), -ENOMEM. */
GB_MUST_USE int gb_compare_changes(gb_comparison *c, gb_err *err);
void gb_compare_free(gb_comparison *c);

/* The writers: pure and deterministic, numbers in the "C" locale. Each
 * writes into *out (malloc'd, NUL-terminated, *len without the NUL).
 * Errors: -ENOMEM. compare.json: every figure as a JSON number with its
 * unit in the key, null where it does not exist; compare.md: the same
 * figures as tables; compare.svg: each machine's power ratio (time ratio
 * when energy was not measured) per ratio with its interval. */
GB_MUST_USE int gb_compare_json(const gb_comparison *c, char **out, size_t *len, gb_err *err);
GB_MUST_USE int gb_compare_md(const gb_comparison *c, char **out, size_t *len, gb_err *err);
GB_MUST_USE int gb_compare_svg(const gb_comparison *c, char **out, size_t *len, gb_err *err);

#endif
