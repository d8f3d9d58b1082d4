/* `greenbench report DIR`: a campaign's records folder in, results.md, the
 * chart (SVG), JUnit XML, summary.json and the records' datapackage.json
 * out. gb_report_write is the struct-based entry point; the Criterion suite
 * calls it after a campaign, and gb_cli_report (greenbench/cli.h, the
 * commands layer) is the command line over it. */
#ifndef GREENBENCH_REPORT_H
#define GREENBENCH_REPORT_H

#include "greenbench/analysis.h"
#include "greenbench/carbon.h"
#include "greenbench/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Most resamples accepted: the configurations of one (algorithm, size)
 * group keep 2 doubles per resample (time and energy per sort) while the
 * group's ratios are computed, so a study's group of 12 configurations at
 * this bound holds ~0.2 GB. */
#define GB_REPORT_MAX_RESAMPLES 1000000

typedef struct {
  const char *dir;          /* the records folder (meta.json, runs.csv, warmups.csv) */
  const char *md_path;      /* NULL: DIR/results.md */
  const char *junit_path;   /* NULL: DIR/junit.xml */
  const char *chart_path;   /* NULL: DIR/chart.svg; results.md links it relative to itself */
  const char *summary_path; /* NULL: DIR/summary.json (report_summary.c) */
  /* false: also write DIR/datapackage.json (report_datapackage.c), which must
   * sit beside the CSV files it describes; true: leave it out. */
  bool no_datapackage;
  size_t resamples; /* bootstrap resamples per configuration, 1..GB_REPORT_MAX_RESAMPLES */
  uint64_t seed;    /* bootstrap seed */
  double margin;    /* equivalence margin of power ratios, > 0 */
  gb_power_estimator power_estimator; /* net power and power ratios (ADR 0015) */
  bool allow_partial; /* report a campaign whose meta.json says completed: false */
  bool startup_fixed; /* hold the startup medians fixed (gb_analysis_opts) */
  /* Carbon intensities in the order to report them. NULL: the default
   * regions, the United Arab Emirates and the United Kingdom, from
   * gb_carbon_default_path(); non-NULL with n_intensities 0: none. */
  const gb_intensity *intensities;
  size_t n_intensities;
  FILE *warnings; /* each warning as one "greenbench: warning: ..." line; NULL: silent */
} gb_report_opts;

/* The defaults: DIR's five files, 10,000 resamples, the fixed default
 * seed (GB_ANALYSIS_SEED_DEFAULT), margin 0.10, the default regions, no
 * partial campaigns, warnings to stderr. dir is left NULL. */
gb_report_opts gb_report_opts_default(void);

/* Reads the records, refuses an unfinished campaign (unless allow_partial)
 * and energy readings that are all zero, analyses, and writes the files
 * (results.md, chart, JUnit, summary.json and, unless no_datapackage,
 * DIR/datapackage.json) as a set (each to a temporary file beside it, then all renamed
 * into place), so a failed report leaves neither a half-written file nor
 * new files beside old ones (a target that is a folder is refused before
 * any rename). Refuses (-EINVAL, naming both) an output that is the same
 * file as one of DIR's records or as another output, and reads only regular
 * files, never blocking on a FIFO. Deterministic: the same records
 * and options give the same bytes. Errors: the records reader's (-ENOENT,
 * -EINVAL naming the file and line), -EINVAL for a refusal or bad options,
 * -ENOENT for a default carbon region missing from the table, -errno from
 * writing (naming the file), -ENOMEM. */
GB_MUST_USE int gb_report_write(const gb_report_opts *opts, gb_err *err);

/* Writes len bytes of data to path atomically, as gb_report_write writes
 * each of its files: to a temporary file beside path (mode 0644), fsynced,
 * then renamed over path, so a reader finds the old file or the new one,
 * never a part. A path that is a folder is refused. Errors: -EISDIR,
 * -ENAMETOOLONG, -errno from writing (naming the file). */
GB_MUST_USE int gb_report_write_file(const char *path, const char *data, size_t len,
                                     gb_err *err);

/* Writes n files (1..5) as one set, as gb_report_write does: each to a
 * temporary file beside it, fsynced, then all renamed into place, so a
 * failure before the renames replaces none. Errors: -EINVAL for n out of
 * range, gb_report_write_file's otherwise. */
GB_MUST_USE int gb_report_write_set(const char *const *paths, const char *const *data,
                                    const size_t *lens, int n, gb_err *err);

/* The check gb_report_write makes of its outputs, on its own, so that a
 * command line can refuse them as bad arguments before reading anything
 * else: -EINVAL, naming both, when an output is the same file as one of
 * DIR's records or as another output (compared by device and inode, and by
 * resolved path for a file not yet written); -ENAMETOOLONG for an output
 * path beyond PATH_MAX; -ENOMEM. */
GB_MUST_USE int gb_report_check_outputs(const gb_report_opts *opts, gb_err *err);

/* Sets opts for a packed records folder as opts->dir (gb_records_is_packed,
 * greenbench/records_pack.h): each output not named goes into the current
 * folder under its default name (results.md, junit.xml, chart.svg,
 * summary.json) and no data package is written (there are no CSV files to
 * put it beside, and the archive is never changed). -EINVAL, naming both,
 * when an output is the archive itself. */
GB_MUST_USE int gb_report_packed_outputs(gb_report_opts *opts, gb_err *err);

#endif
