/* results.md: the study's report in Markdown (study.md, "What would count
 * as an answer" and Analysis). Pure: an analysis in, bytes out; the caller
 * owns files. Deterministic: no clock, no paths but the ones passed in, so
 * the same records and options give the same bytes. Numbers are written in
 * the "C" locale whatever the process locale. */
#ifndef GREENBENCH_REPORT_MD_H
#define GREENBENCH_REPORT_MD_H

#include "greenbench/analysis.h"
#include "greenbench/carbon.h"
#include "greenbench/error.h"

#include <stddef.h>

typedef struct {
  /* The chart as results.md links it (relative to results.md); NULL: none. */
  const char *chart_href;
  /* Carbon intensities to convert energy with, in order (may be 0). */
  const gb_intensity *intensities;
  size_t n_intensities;
} gb_report_md_opts;

/* Writes results.md for a into *out (malloc'd, NUL-terminated; *len without
 * the NUL; the caller frees it). Errors: -ENOMEM. */
GB_MUST_USE int gb_report_md(const gb_analysis *a, const gb_report_md_opts *opts, char **out,
                             size_t *len, gb_err *err);

#endif
