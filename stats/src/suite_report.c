/* `greenbench report DIR` on a suite records folder: the study's options,
 * checks of outputs and carbon defaults (report.c), the suite's analysis
 * and writers (suite_analysis.h), the files written as one set. */
#include "greenbench/suite_analysis.h"

#include "stats_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/files.h"
#include "greenbench/paths.h"
#include "greenbench/records_pack.h"

enum { S_MD, S_JUNIT, S_SUMMARY, S_N };
static const char *const names[S_N] = {"results.md", "junit.xml", "summary.json"};
static const char *const options[S_N] = {"--out", "--junit", "--summary"};

/* A campaign the report will not describe: unfinished (unless
 * allow_partial), or energy readings that a working counter never gives. */
static int refuse(const gb_srec_records *r, const gb_report_opts *o, gb_err *err) {
  if (!r->meta.complete && !o->allow_partial) {
    return gb_err_set(err, EINVAL,
                      "%s/meta.json: the campaign did not complete; pass --allow-partial to "
                      "report it anyway",
                      o->dir);
  }
  bool any = false, nonzero = false;
  for (size_t i = 0; r->meta.energy_status == GB_REC_ENERGY_OK && i < r->n_runs; i++) {
    const gb_srec_row *row = &r->runs[i];
    if (row->status == GB_REC_STATUS_OK && row->pkg_uj.present) {
      any = true;
      nonzero = nonzero || row->pkg_uj.value != 0 ||
                (row->dram_uj.present && row->dram_uj.value != 0);
    }
  }
  if (any && !nonzero) {
    return gb_err_set(
        err, EINVAL,
        "%s/runs.csv: every energy reading is 0 uJ, which a working counter never "
        "gives; refusing to report it",
        o->dir);
  }
  return 0;
}

/* The outputs' paths, given or in DIR (in the current folder for a packed
 * DIR, gb_records_is_packed); none may be the suite file, or the archive. */
static int output_paths(const gb_report_opts *o, char (*paths)[PATH_MAX], gb_err *err) {
  if (o->chart_path) {
    return gb_err_set(err, EINVAL, "report: --chart: a suite campaign's report has no chart");
  }
  const char *given[S_N] = {o->md_path, o->junit_path, o->summary_path};
  bool packed = gb_records_is_packed(o->dir);
  char suite[PATH_MAX];
  int rc = packed ? 0 : gb_path_join(suite, sizeof suite, o->dir, "suite.json", err);
  const char *input = packed ? o->dir : suite;
  for (int i = 0; rc == 0 && i < S_N; i++) {
    if (given[i] && snprintf(paths[i], PATH_MAX, "%s", given[i]) >= PATH_MAX) {
      return gb_err_set(err, ENAMETOOLONG, "%s: path longer than PATH_MAX (%d bytes)",
                        options[i], PATH_MAX - 1);
    }
    if (!given[i]) {
      rc = packed ? (snprintf(paths[i], PATH_MAX, "%s", names[i]), 0)
                  : gb_path_join(paths[i], PATH_MAX, o->dir, names[i], err);
    }
    if (rc == 0 && gbi_report_same_file(paths[i], input)) {
      return gb_err_set(err, EINVAL,
                        "report: %s '%s' is the %s %s; refusing to overwrite an input",
                        options[i], paths[i], packed ? "packed records" : "records'", input);
    }
  }
  return rc;
}

/* The study's checks of the outputs (gb_report_check_outputs) for a
 * folder; for a packed one, whose records are not on disk, those of the
 * outputs alone: each a regular file or none, no two the same. */
static int check_outputs(const gb_report_opts *o, char (*paths)[PATH_MAX], gb_err *err) {
  if (!gb_records_is_packed(o->dir)) {
    gb_report_opts checked = *o;
    checked.no_datapackage = true; /* a suite report writes none */
    return gb_report_check_outputs(&checked, err);
  }
  gb_err inner;
  for (int i = 0; i < S_N; i++) {
    if (gb_output_check(AT_FDCWD, paths[i], &inner) < 0) {
      return gb_err_set(err, EINVAL, "report: %s %s", options[i], inner.msg);
    }
    for (int j = 0; j < i; j++) {
      if (!gb_output_is_stdout(paths[i]) && gbi_report_same_file(paths[j], paths[i])) {
        return gb_err_set(err, EINVAL, "report: %s '%s' and %s '%s' are the same file",
                          options[j], paths[j], options[i], paths[i]);
      }
    }
  }
  return 0;
}

static int render(const gb_suite_analysis *a, const gb_suite_md_opts *mo, char **data,
                  size_t *lens, gb_err *err) {
  int rc = gb_suite_report_md(a, mo, &data[S_MD], &lens[S_MD], err);
  if (rc == 0) {
    rc = gb_suite_report_junit(a, &data[S_JUNIT], &lens[S_JUNIT], err);
  }
  if (rc == 0) {
    rc = gb_suite_report_summary(a, &data[S_SUMMARY], &lens[S_SUMMARY], err);
  }
  return rc;
}

int gb_suite_report_write_records(const gb_srec_records *r, const gb_report_opts *o,
                                  gb_err *err) {
  char(*paths)[PATH_MAX] = calloc(S_N, PATH_MAX);
  char *data[S_N] = {0};
  size_t lens[S_N] = {0};
  gb_intensity defaults[2];
  gb_suite_analysis *a = NULL;
  int rc =
      paths ? gbi_report_check_opts(o, err) : gb_err_set(err, ENOMEM, "report: out of memory");
  if (rc == 0 && (rc = refuse(r, o, err)) == 0 && (rc = output_paths(o, paths, err)) == 0) {
    rc = check_outputs(o, paths, err);
  }
  if (rc == 0 && !o->intensities) {
    rc = gbi_report_default_intensities(defaults, err);
  }
  if (rc == 0) {
    gb_analysis_opts ao = gbi_report_analysis_opts(o);
    rc = gb_suite_analysis_run(r, &ao, &a, err);
  }
  if (rc == 0) {
    gb_suite_md_opts mo = {.intensities = o->intensities ? o->intensities : defaults,
                           .n_intensities = o->intensities ? o->n_intensities : 2};
    rc = render(a, &mo, data, lens, err);
  }
  if (rc == 0) {
    const char *p[S_N] = {paths[S_MD], paths[S_JUNIT], paths[S_SUMMARY]};
    const char *d[S_N] = {data[S_MD], data[S_JUNIT], data[S_SUMMARY]};
    rc = gb_report_write_set(p, d, lens, S_N, err);
  }
  for (int i = 0; i < S_N; i++) {
    free(data[i]);
  }
  gb_suite_analysis_free(a);
  free(paths);
  return rc;
}

int gb_suite_report_write(const gb_report_opts *o, gb_err *err) {
  gb_srec_records *r = NULL;
  int rc = o->dir ? gb_srec_read_path(o->dir, &r, err)
                  : gb_err_set(err, EINVAL, "report: no records folder given");
  if (rc == 0) {
    rc = gb_suite_report_write_records(r, o, err);
  }
  gb_srec_free(r);
  return rc;
}

int gb_suite_report_paths(const gb_report_opts *o, char (*paths)[PATH_MAX], gb_err *err) {
  int rc = output_paths(o, paths, err);
  return rc == 0 ? check_outputs(o, paths, err) : rc;
}
