/* `greenbench compare` of suite campaigns' records folders (suite_compare.h):
 * each folder read and analysed with the same options, the comparison
 * built, compare.md and compare.json written as one set (no chart: a suite
 * report has none). cli_compare.c parses the arguments and checks the
 * outputs. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "greenbench/paths.h"
#include "greenbench/report.h"
#include "greenbench/suite_compare.h"

#include "cli_internal.h"

typedef struct {
  gb_srec_records *r[GB_COMPARE_MAX];
  gb_suite_analysis *a[GB_COMPARE_MAX];
  gb_scmp_input in[GB_COMPARE_MAX];
} campaigns;

static int load(const cli_compare_args *c, size_t m, campaigns *cs, gb_err *err) {
  int rc = gb_srec_read_path(c->paths[m], &cs->r[m], err);
  if (rc < 0) {
    return rc;
  }
  const gb_srec_meta *meta = &cs->r[m]->meta;
  if (!meta->complete && !c->allow_partial) {
    return gb_err_set(err, EINVAL,
                      "%s/meta.json: the campaign did not complete; pass --allow-partial to "
                      "compare it anyway",
                      c->paths[m]);
  }
  rc = gb_suite_analysis_run(cs->r[m], c->ao, &cs->a[m], err);
  cs->in[m] = (gb_scmp_input){.path = c->paths[m],
                              .same_as = c->same_as[m],
                              .analysis = cs->a[m],
                              .campaign_label = c->labels ? c->labels[m] : NULL};
  return rc;
}

static int write_outputs(const char *dir, const gb_suite_comparison *cmp, gb_err *err) {
  char paths[2][PATH_MAX];
  char *data[2] = {NULL, NULL};
  size_t lens[2] = {0, 0};
  if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
    int e = errno;
    return gb_err_set(err, e, "%s: cannot make the folder: %s", dir, strerror(e));
  }
  int rc = 0;
  if (gb_path_join(paths[0], PATH_MAX, dir, "compare.md", NULL) < 0 ||
      gb_path_join(paths[1], PATH_MAX, dir, "compare.json", NULL) < 0) {
    rc = gb_err_set(err, ENAMETOOLONG, "%s: path too long", dir);
  }
  if (rc == 0)
    rc = gb_suite_compare_md(cmp, &data[0], &lens[0], err);
  if (rc == 0)
    rc = gb_suite_compare_json(cmp, &data[1], &lens[1], err);
  if (rc == 0) {
    const char *const p[2] = {paths[0], paths[1]};
    const char *const d[2] = {data[0], data[1]};
    rc = gb_report_write_set(p, d, lens, 2, err);
  }
  free(data[0]);
  free(data[1]);
  return rc;
}

int cli_compare_suites(const cli_compare_args *c, gb_err *err) {
  campaigns *cs = calloc(1, sizeof *cs);
  if (!cs) {
    return gb_err_set(err, ENOMEM, "out of memory");
  }
  int rc = 0;
  for (size_t m = 0; rc == 0 && m < c->n; m++) {
    rc = load(c, m, cs, err);
  }
  gb_suite_comparison *cmp = NULL;
  if (rc == 0) {
    rc = gb_suite_compare_build(cs->in, c->n, &cmp, err);
  }
  if (rc == 0) {
    rc = write_outputs(c->out, cmp, err);
  }
  gb_suite_compare_free(cmp);
  for (size_t m = 0; m < GB_COMPARE_MAX; m++) {
    gb_suite_analysis_free(cs->a[m]);
    gb_srec_free(cs->r[m]);
  }
  free(cs);
  return rc;
}
