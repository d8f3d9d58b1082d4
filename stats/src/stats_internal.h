/* What the source files of gb_stats share with each other and with their
 * tests, and no other library sees (they use include/greenbench only).
 * Private functions and types carry the gbi_ prefix; the public API keeps
 * gb_. Larger modules keep headers of their own, each with its own types:
 * the analysis (analysis_internal.h), the bootstrap's kernels
 * (boot_internal.h), the coverage study (coverage.h, synth.h), the JSON
 * builder (json_out.h), the Markdown report (report_md_internal.h) and the
 * text buffer (textbuf.h). */
#ifndef GREENBENCH_STATS_INTERNAL_H
#define GREENBENCH_STATS_INTERNAL_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include "greenbench/analysis.h"
#include "greenbench/bootstrap.h"
#include "greenbench/carbon.h"
#include "greenbench/error.h"
#include "greenbench/ratio.h"
#include "greenbench/report.h"
#include "greenbench/rng.h"
#include "greenbench/spearman.h"
#include "textbuf.h"

/* ---- ratio.c ---- */
/* Private to ratio.c and its tests: the reading rule on its own, held to
 * every boundary, and a ratio with a scratch of its own. */

/* Reads a power-ratio interval [lo, hi] against margin m by the rule above
 * gb_reading (ratio.h), undefined also when `undefined` is true. m must be
 * positive and finite (not checked here; gb_ratio_of_in checks). */
gb_reading gbi_ratio_read(double lo, double hi, double m, bool undefined);

/* gb_ratio_of_in with a scratch of its own: the same results and errors,
 * and -ENOMEM. */
GB_MUST_USE int gbi_ratio_of(const gb_boot *a, const gb_boot *b, double m, double level,
                             gb_ratio *out, gb_err *err);

/* ---- spearman.c ---- */
/* Private to spearman.c and its tests: the average ranks, and rho of
 * samples that must hold no NaN, held to worked answers. */

/* Ranks 1..n of x[0..n-1] into ranks, ties averaged (1, 2.5, 2.5, 4).
 * Errors: -EINVAL on a NaN, -ENOMEM. */
GB_MUST_USE int gbi_rank_average(const double *x, size_t n, double *ranks, gb_err *err);

/* gb_spearman_nan (spearman.h) for samples without a NaN: the same results,
 * and -EINVAL on a NaN. */
GB_MUST_USE int gbi_spearman(const double *x, const double *y, size_t n, gb_rho *out,
                             gb_err *err);

/* ---- normal deviates (chance.c, synth.c) ---- */
/* Private to the stats library: a standard normal draw (Box-Muller, one of
 * the pair) from the project's generator, for the simulations of synth.c
 * and chance.c. */

static inline double gbi_normal(gb_rng *r) {
  double u1 = ((double)(gb_rng_next(r) >> 11) + 0.5) * 0x1p-53;
  double u2 = (double)(gb_rng_next(r) >> 11) * 0x1p-53;
  return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

/* ---- parallel.c ---- */
/* Independent items of the analysis on a few threads (the bootstraps of a
 * group of configurations, their ratios, the rank intervals). Each item
 * writes only its own results, so the results are the same, bit for bit,
 * on any number of threads and in any interleaving; a failure is reported
 * as the lowest-numbered failing item's, as a serial loop would report it.
 * Internal to the stats stage. */

/* One item, run by worker `worker` (0 .. threads - 1, one item at a time
 * per worker, so per-worker buffers need no lock): 0, or a negative errno
 * with a message in *err. */
typedef int (*gbi_parallel_fn)(void *ctx, size_t item, size_t worker, gb_err *err);

/* The threads worth starting here: the CPUs this process may run on, 1 to
 * GB_PARALLEL_MAX. */
#define GB_PARALLEL_MAX 8
size_t gbi_parallel_threads(void);

/* Runs fn(ctx, i, ...) once for every i in [0, n), on up to `threads`
 * threads counting the caller's, items taken in increasing order as
 * threads come free. Returns 0 when every item returned 0; otherwise the
 * return of the lowest-numbered failing item, with its message in *err
 * (every item still runs). With threads <= 1, when threads cannot be
 * started, or without memory for the bookkeeping, the items run here, in
 * order, stopping at the first failure: the same result. */
GB_MUST_USE int gbi_parallel_for(size_t n, size_t threads, gbi_parallel_fn fn, void *ctx,
                                 gb_err *err);

/* ---- report_junit.c ---- */
/* Private to the stats writers: the XML escaping the JUnit writer does by
 * hand (ADR 0006), held to every character class by its tests, and shared
 * with compare.svg for the names it prints. */

/* s[0..n-1] escaped for XML 1.0 into *out (malloc'd, NUL-terminated):
 * & < > " ' as entities; in an attribute (attribute true) also TAB, LF and
 * CR as character references, so a multi-line message survives attribute
 * normalisation; other control characters, which XML 1.0 cannot hold even
 * as references, and bytes that are not valid UTF-8, as U+FFFD.
 * Errors: -ENOMEM. */
/* The same escaping appended to b. */
void gbi_xml_put(gbi_textbuf *b, const char *s, size_t n, bool attribute);

/* A JUnit attribute ` name="value"` (value escaped), and a testsuite's
 * <properties> element of n name/value pairs, as the suite's JUnit
 * documents write them (suite_outputs.c). */
void gbi_junit_attr(gbi_textbuf *b, const char *name, const char *value);
void gbi_junit_properties(gbi_textbuf *b, const char *const (*props)[2], size_t n);

GB_MUST_USE int gbi_xml_escape(const char *s, size_t n, bool attribute, char **out, size_t *len,
                               gb_err *err);

/* ---- report_datapackage.c ---- */
/* datapackage.json: a Frictionless Data Package (profile
 * tabular-data-package, https://specs.frictionlessdata.io/) describing a
 * records folder's runs.csv and warmups.csv, so that pandas, R or any
 * Frictionless reader loads them as typed tables in one line.
 *
 * Generated from the records' schema table (gb_records_column,
 * gb_records_column_bounds), so it cannot drift from what the harness
 * writes and the reader accepts: every column in file order with its Table
 * Schema type (integer or string), its unit in the description (the column
 * names carry them: wall_ns, pkg_uj ...), and the constraints the reader
 * enforces on every row (required, minimum and maximum of integers, the
 * names of a value set, the hash's pattern, the message's length). An empty
 * field is missing, never 0 (missingValues [""]); runs.csv's primary key is
 * run. Resource paths are the bare file names, so the file belongs in the
 * records folder itself (a Frictionless path is relative, without "..").
 * Pure and deterministic; numbers as exact decimal digits in any locale. */

/* The file name the package is written under, in the records folder. */
#define GB_DATAPACKAGE_FILE "datapackage.json"

/* Writes datapackage.json into *out (malloc'd, NUL-terminated, *len without
 * the NUL; the caller frees it): resource "runs" (runs.csv) and, when
 * has_warmups (the folder holds warmups.csv), resource "warmups"
 * (warmups.csv). Errors: -ENOMEM; -EINVAL when the schema table has a
 * column this writer cannot describe (a new column type or value set
 * without its description here). */
GB_MUST_USE int gbi_report_datapackage(bool has_warmups, char **out, size_t *len, gb_err *err);

/* ---- report_summary.c ---- */
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

/* Raised whenever a key is removed or changes meaning; adding keys does not
 * raise it (readers ignore keys they do not know). */
#define GB_SUMMARY_SCHEMA_VERSION 1

typedef struct {
  /* Carbon intensities to convert energy with, in order (may be 0), as
   * results.md gets them (gbi_report_md_opts). */
  const gb_intensity *intensities;
  size_t n_intensities;
} gbi_report_summary_opts;

/* Writes summary.json for a into *out (malloc'd, NUL-terminated, *len
 * without the NUL; the caller frees it). Errors: -ENOMEM. */
GB_MUST_USE int gbi_report_summary(const gb_analysis *a, const gbi_report_summary_opts *opts,
                                   char **out, size_t *len, gb_err *err);

/* ---- report_svg.c ---- */
/* The report's chart as SVG, written by hand: a log-log scatter plot needs
 * no plotting library (see the comment in report_svg.c). Pure and
 * deterministic like report_md.
 *
 * With energy: energy per sort against time per sort, one mark per measured
 * configuration coloured by language, with its 95% intervals as whiskers and
 * dashed lines of constant net power. Without energy (pending): time per
 * sort against size, one panel per input order across the whole width (the
 * legend in a row under the title), one line per language and algorithm,
 * each median with its 95% interval as a bar.
 *
 * Both axes are logarithmic, so a figure at or below 0 has no place on
 * them: such a median gets no mark and the line breaks there (it never
 * joins the neighbours across it), an interval reaching 0 or below is drawn
 * to the plot's edge, and a note under the plot names every configuration
 * not drawn, or not drawn whole, with the reason (not measured, no energy
 * reading, median time or energy per sort at or below 0, interval reaching
 * 0 or below). */

/* Writes the chart for a into *out (malloc'd, NUL-terminated, *len without
 * the NUL). Errors: -ENOMEM. With no measured configuration the chart says
 * so instead of plotting. */
GB_MUST_USE int gbi_report_svg(const gb_analysis *a, char **out, size_t *len, gb_err *err);

/* ---- report_md.c ---- */
/* results.md: the study's report in Markdown (study.md, "What would count
 * as an answer" and Analysis). Pure: an analysis in, bytes out; the caller
 * owns files. Deterministic: no clock, no paths but the ones passed in, so
 * the same records and options give the same bytes. Numbers are written in
 * the "C" locale whatever the process locale. */

typedef struct {
  /* The chart as results.md links it (relative to results.md); NULL: none. */
  const char *chart_href;
  /* Carbon intensities to convert energy with, in order (may be 0). */
  const gb_intensity *intensities;
  size_t n_intensities;
} gbi_report_md_opts;

/* Writes results.md for a into *out (malloc'd, NUL-terminated; *len without
 * the NUL; the caller frees it). Errors: -ENOMEM. */
GB_MUST_USE int gbi_report_md(const gb_analysis *a, const gbi_report_md_opts *opts, char **out,
                              size_t *len, gb_err *err);

/* ---- report.c, shared with a suite's report (suite_report.c) ---- */
/* gb_report_write's checks of its options (dir, resamples, margin). */
GB_MUST_USE int gbi_report_check_opts(const gb_report_opts *o, gb_err *err);
/* The analysis options a report's options ask for. */
gb_analysis_opts gbi_report_analysis_opts(const gb_report_opts *o);
/* The study's default regions (the United Arab Emirates, the United
 * Kingdom) from the shipped table. */
GB_MUST_USE int gbi_report_default_intensities(gb_intensity out[2], gb_err *err);
/* Whether paths a and b name one file, as the report compares its outputs
 * with its inputs (by device and inode, or by resolved path). */
bool gbi_report_same_file(const char *a, const char *b);

#endif
