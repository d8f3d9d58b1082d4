/* `greenbench report`: the command line over gb_report_write
 * (greenbench/report.h). Arguments are parsed here, strictly and with
 * bounds; the carbon regions are looked up in the shipped table; then
 * gb_report_write reads, refuses, analyses and writes the files. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "greenbench/carbon.h"
#include "greenbench/cli.h"
#include "greenbench/options.h"
#include "greenbench/records_pack.h"
#include "greenbench/report.h"
#include "greenbench/suite_analysis.h"
#include "greenbench/text.h"

#include "cli_internal.h"

static const char usage[] =
    "usage: greenbench report DIR [options]\n"
    "\n"
    "Turns a campaign's records (DIR/meta.json, runs.csv, warmups.csv) into results.md,\n"
    "a chart (SVG), JUnit XML and summary.json (every figure as JSON), with 95%\n"
    "percentile-bootstrap intervals, and describes the records for pandas, R and\n"
    "Frictionless tools in DIR/datapackage.json (always in DIR, beside the CSV files).\n"
    "DIR may be a packed records folder (greenbench pack), checked against its manifest:\n"
    "the outputs not named then go into the current folder (results.md, junit.xml,\n"
    "chart.svg, summary.json) and no datapackage.json is written (the archive holds\n"
    "the records and is never changed).\n"
    "DIR may also be a suite campaign's records folder, or a packed one (meta.json of\n"
    "format greenbench-suite-records-1, with suite.json; docs/suites.md): its report is\n"
    "results.md, junit.xml and summary.json, per language, workload and parameters,\n"
    "against the suite's first language; it has no chart (--chart is refused) and\n"
    "no data package.\n"
    "\n"
    "  --out FILE                 results.md to write (default DIR/results.md)\n"
    "  --junit FILE               JUnit XML to write (default DIR/junit.xml)\n"
    "  --chart FILE               chart to write (default DIR/chart.svg)\n"
    "  --summary FILE             summary.json to write (default DIR/summary.json)\n"
    "  --no-datapackage           do not write DIR/datapackage.json\n"
    "                             (the files are written as a set, all or none, and\n"
    "                             never over DIR's records or each other; only over\n"
    "                             nothing or a regular file; - for standard output)\n"
    "  --resamples N              bootstrap resamples per configuration (default 10000)\n"
    "  --seed S                   bootstrap seed (default 2463534242)\n"
    "  --equivalence-margin M     margin of the power-ratio readings (default 0.10)\n"
    "  --power-estimator E        net power and power ratios: paired (each run's own\n"
    "                             energy over its own time, the default) or study\n"
    "                             (median energy over median time per sort)\n"
    "  --allow-partial            report a campaign that did not complete\n"
    "  --quiet                    print nothing when done (by default: the files\n"
    "                             written and a table of time and energy per sort)\n"
    "  --startup-fixed            hold the startup medians fixed in the intervals, as the\n"
    "                             study first did (default: resampled with the runs)\n"
    "  --carbon REGION,...        grid regions by name or ISO 3166-1 alpha-3 code, or\n"
    "                             UAE / UK (default UAE,UK)\n"
    "  --carbon-intensity NAME=G  add a custom intensity in g CO2e/kWh (repeatable)\n"
    "  --version                  print greenbench's version and git commit\n"
    "  --help                     show this help\n"
    "\n"
    "Environment: GREENBENCH_DATA_DIR=DIR, greenbench's data folder, which holds\n"
    "data/grid-carbon-intensity.csv (default: ../share/greenbench from the command's\n"
    "own place, or the source tree of a build tree).\n"
    "Exit status: 0 done, 1 bad records or refused, 2 bad arguments.\n";

#define MAX_INTENSITIES 64

typedef struct {
  gb_report_opts o;
  const char *regions; /* --carbon's list, NULL when not given */
  gb_intensity custom[MAX_INTENSITIES];
  size_t n_custom;
  gb_intensity all[MAX_INTENSITIES];
  bool quiet;
} cli;

static int add_custom(cli *c, const char *arg, gb_err *err) {
  if (c->n_custom == MAX_INTENSITIES) {
    return gb_err_set(err, EINVAL, "--carbon-intensity: more than %d given", MAX_INTENSITIES);
  }
  gb_err inner;
  if (gb_carbon_parse_custom(arg, &c->custom[c->n_custom], &inner) < 0) {
    return gb_err_set(err, EINVAL, "--carbon-intensity: %s", inner.msg);
  }
  c->n_custom++;
  return 0;
}

/* The four outputs' options are the table's first entries, their ids 0..3
 * in set_option's order of paths. */
enum { OUT, JUNIT, CHART, SUMMARY, N_PATHS };
enum {
  RESAMPLES = N_PATHS,
  SEED,
  MARGIN,
  CARBON,
  CUSTOM,
  ALLOW_PARTIAL,
  NO_DATAPACKAGE,
  ESTIMATOR,
  QUIET,
  STARTUP_FIXED
};
static const gb_opt options[] = {
    {"--out", NULL, GB_OPT_VALUE, OUT},
    {"--junit", NULL, GB_OPT_VALUE, JUNIT},
    {"--chart", NULL, GB_OPT_VALUE, CHART},
    {"--summary", NULL, GB_OPT_VALUE, SUMMARY},
    {"--resamples", NULL, GB_OPT_VALUE, RESAMPLES},
    {"--seed", NULL, GB_OPT_VALUE, SEED},
    {"--equivalence-margin", NULL, GB_OPT_VALUE, MARGIN},
    {"--carbon", NULL, GB_OPT_VALUE, CARBON},
    {"--carbon-intensity", NULL, GB_OPT_VALUE | GB_OPT_MANY, CUSTOM},
    {"--allow-partial", NULL, 0, ALLOW_PARTIAL},
    {"--no-datapackage", NULL, 0, NO_DATAPACKAGE},
    {"--power-estimator", NULL, GB_OPT_VALUE, ESTIMATOR},
    {"--quiet", NULL, 0, QUIET},
    {"--startup-fixed", NULL, 0, STARTUP_FIXED},
    {NULL, NULL, 0, 0},
};

/* One option (with its value, if it takes one): 0, or -EINVAL with a
 * message. An output path is a file's (cli_check_path). */
static int set_option(void *ctx, int id, const char *value, gb_err *err) {
  cli *c = ctx;
  const char **paths[N_PATHS] = {&c->o.md_path, &c->o.junit_path, &c->o.chart_path,
                                 &c->o.summary_path};
  int rc = 0;
  if (id < N_PATHS && cli_check_path(options[id].name, value, false, err) < 0) {
    return -EINVAL;
  }
  switch (id) {
  case RESAMPLES:
  case SEED:
    rc = cli_parse_bootstrap(id == SEED, value, &c->o.resamples, &c->o.seed, err);
    break;
  case MARGIN:
    rc = cli_parse_margin(value, &c->o.margin, err);
    break;
  case ESTIMATOR:
    if (gb_power_estimator_parse(value, &c->o.power_estimator) < 0) {
      rc = gb_err_set(err, EINVAL, "--power-estimator: '%s' is neither paired nor study",
                      SHOWN(value));
    }
    break;
  case CARBON:
    c->regions = value;
    break;
  case CUSTOM:
    rc = add_custom(c, value, err);
    break;
  case ALLOW_PARTIAL:
    c->o.allow_partial = true;
    break;
  case NO_DATAPACKAGE:
    c->o.no_datapackage = true;
    break;
  case QUIET:
    c->quiet = true;
    break;
  case STARTUP_FIXED:
    c->o.startup_fixed = true;
    break;
  default:
    *paths[id] = value;
  }
  return rc;
}

/* The one records folder, bounded so that the names of its files fit. */
static int set_dir(void *ctx, const char *arg, gb_err *err) {
  cli *c = ctx;
  if (c->o.dir) {
    gb_excerpt_buf first;
    return gb_err_set(err, EINVAL, "one records folder expected, got '%s' and '%s'",
                      gb_excerpt(&first, c->o.dir), SHOWN(arg));
  }
  if (cli_check_path("DIR", arg, true, err) < 0) {
    return -EINVAL;
  }
  c->o.dir = arg;
  return 0;
}

static const cli_command command = {"report", usage, options, set_option, set_dir};

/* "UAE" and "UK" as the study names them; other names go to the table. */
static const char *region_code(const char *name) {
  if (strcasecmp(name, "uae") == 0) {
    return "ARE";
  }
  return strcasecmp(name, "uk") == 0 ? "GBR" : name;
}

static int add_regions(cli *c, const gb_carbon_table *t, size_t *n, gb_err *err) {
  char list[1024];
  if (snprintf(list, sizeof list, "%s", c->regions ? c->regions : "ARE,GBR") >=
      (int)sizeof list) {
    return gb_err_set(err, EINVAL, "--carbon: list longer than %zu bytes", sizeof list - 1);
  }
  char *save = NULL;
  for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    gb_err inner;
    if (*n == MAX_INTENSITIES) {
      return gb_err_set(err, EINVAL, "--carbon: more than %d regions", MAX_INTENSITIES);
    }
    if (gb_carbon_find(t, region_code(tok), &c->all[*n], &inner) < 0) {
      return gb_err_set(err, EINVAL, "--carbon: %s", inner.msg);
    }
    ++*n;
  }
  return 0;
}

/* The intensities to report: --carbon's regions (or the defaults), then
 * each --carbon-intensity. */
static int resolve_carbon(cli *c, int *status, gb_err *err) {
  gb_carbon_table t = {0};
  size_t n = 0;
  char path[PATH_MAX];
  int rc = gb_carbon_default_path(path, sizeof path, err);
  if (rc == 0)
    rc = gb_carbon_load(path, &t, err);
  *status = rc < 0 ? 1 : 2; /* a missing table is no argument's fault */
  if (rc == 0) {
    rc = add_regions(c, &t, &n, err);
  }
  gb_carbon_free(&t);
  for (size_t i = 0; rc == 0 && i < c->n_custom; i++) {
    if (n == MAX_INTENSITIES) {
      return gb_err_set(err, EINVAL, "--carbon-intensity: too many intensities");
    }
    c->all[n++] = c->custom[i];
  }
  c->o.intensities = c->all;
  c->o.n_intensities = n;
  return rc;
}

/* A suite campaign's report (gb_suite_report_write): 2 for an output
 * refused as a bad argument, 1 for a missing carbon table or what the
 * report refuses; then the files written, unless --quiet. */
static int suite_report(cli *c, FILE *out, gb_err *err) {
  char paths[3][PATH_MAX];
  int status = 0;
  c->o.no_datapackage = true; /* a suite report writes none */
  if (gb_suite_report_paths(&c->o, paths, err) < 0) {
    return 2; /* an output refused, or one that would overwrite an input */
  }
  if (resolve_carbon(c, &status, err) < 0) {
    return status;
  }
  if (gb_suite_report_write(&c->o, err) < 0) {
    return 1;
  }
  if (!c->quiet) {
    fprintf(out, "wrote:\n  %s\n  %s\n  %s\n", paths[0], paths[1], paths[2]);
  }
  return 0;
}

/* The report the parsed arguments ask for. Returns the exit status: 2 for
 * an output or a carbon region refused as a bad argument, 1 for a missing
 * carbon table or what gb_report_write refuses, with the error in err. */
static int report(cli *c, FILE *out, gb_err *err) {
  int status = 0;
  if (gb_srec_is_suite_path(c->o.dir)) {
    return suite_report(c, out, err);
  }
  if (gb_records_is_packed(c->o.dir) && gb_report_packed_outputs(&c->o, err) < 0) {
    return 2; /* an output that would overwrite the archive */
  }
  if (gb_report_check_outputs(&c->o, err) < 0) {
    return 2; /* an output that would overwrite an input or another output */
  }
  if (resolve_carbon(c, &status, err) < 0) {
    return status;
  }
  if (gb_report_write(&c->o, err) < 0)
    return 1;
  return c->quiet || cli_report_console(&c->o, out, err) == 0 ? 0 : 1;
}

int gb_cli_report(int argc, char **argv, const gb_cli_env *env) {
  cli *c = calloc(1, sizeof *c);
  if (!c) {
    return cli_fail(&command, env->err, 1, "out of memory");
  }
  gb_err err;
  c->o = gb_report_opts_default();
  c->o.warnings = env->err;
  int status = cli_start(&command, c, argc, argv, env->out, env->err);
  if (status < 0 && !c->o.dir) {
    status = cli_fail(&command, env->err, 2,
                      "no records folder given (see greenbench report --help)");
  } else if (status < 0 && (status = report(c, env->out, &err)) != 0) {
    cli_fail(&command, env->err, status, err.msg);
  }
  free(c);
  return status;
}
