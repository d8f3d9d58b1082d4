/* summary.json: the report's figures for programs (docs/records.md,
 * "summary.json"). Every figure results.md prints per configuration, per
 * startup trial, per ratio (with its interval and reading), the tallies and
 * the answer to question 1, rank agreement, run-to-run coupling, carbon per
 * sort, the data checks and the warnings, as JSON numbers with their unit
 * in the key (time_per_sort_ns, energy_per_sort_uj, net_power_w,
 * co2e_per_sort_ug, ...) and "schema_version": GB_SUMMARY_SCHEMA_VERSION.
 *
 * The writer decides nothing: readings, verdicts, flags and validity are the
 * analysis's (gb_analysis_verdict, gb_analysis_noisy, gb_validate_case).
 * Figures are full-precision doubles (as many digits as round-trip), never
 * rounded as results.md rounds them; a figure that does not exist (not
 * measured, energy not measured, undefined) is null, never 0. Integers are
 * exact decimal digits. Pure and deterministic; numbers in the "C" locale
 * whatever the process locale. */
#ifndef GREENBENCH_REPORT_SUMMARY_H
#define GREENBENCH_REPORT_SUMMARY_H

#include "greenbench/analysis.h"
#include "greenbench/carbon.h"
#include "greenbench/error.h"

#include <stddef.h>

/* Raised whenever a key is removed or changes meaning; adding keys does not
 * raise it (readers ignore keys they do not know). */
#define GB_SUMMARY_SCHEMA_VERSION 1

typedef struct {
  /* Carbon intensities to convert energy with, in order (may be 0), as
   * results.md gets them (gb_report_md_opts). */
  const gb_intensity *intensities;
  size_t n_intensities;
} gb_report_summary_opts;

/* Writes summary.json for a into *out (malloc'd, NUL-terminated, *len
 * without the NUL; the caller frees it). Errors: -ENOMEM. */
GB_MUST_USE int gb_report_summary(const gb_analysis *a, const gb_report_summary_opts *opts,
                                  char **out, size_t *len, gb_err *err);

#endif
