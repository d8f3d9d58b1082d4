/* `greenbench compare`: the files around gb_compare_build and its writers
 * (greenbench/compare.h). Arguments are parsed strictly; each campaign is
 * read (in one place, read_campaign) and analysed with the same options;
 * the comparison is built and its three files are written as one set. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "greenbench/cli.h"
#include "greenbench/compare.h"
#include "greenbench/files.h"
#include "greenbench/options.h"
#include "greenbench/paths.h"
#include "greenbench/report.h"
#include "greenbench/suiterecords.h"
#include "greenbench/text.h"

#include "cli_internal.h"

static const char usage[] =
    "usage: greenbench compare [options] PATH PATH...\n"
    "\n"
    "Compares campaigns of the same workload (at least two records folders, or\n"
    "archives that greenbench pack wrote), recorded on different machines or on one\n"
    "machine before and after a change, and writes compare.md, compare.svg and\n"
    "compare.json into the output folder, as a set: per campaign the answers to the\n"
    "study's questions, per ratio each campaign's power ratio with its interval,\n"
    "whether the verdicts of question 1 agree, the rank agreement of time per sort,\n"
    "and per configuration each later campaign's time, energy and net power against\n"
    "the first's (ratios with intervals, read against the margin) and whether the\n"
    "answer to question 1 changed. Campaigns are named by their machine labels when\n"
    "those tell them apart, else by their campaign labels (by default each folder's\n"
    "name). Refuses campaigns of different input seeds or whose input hashes or\n"
    "operation counts disagree, and two campaigns of the same name (a folder may be\n"
    "given twice).\n"
    "\n"
    "Suite campaigns' records folders are compared with campaigns of the same\n"
    "suite only: per configuration (language, workload, parameters) that all\n"
    "hold, each later campaign's time, energy and net power per repetition against\n"
    "the first's, into compare.md and compare.json (no chart). Refuses a study\n"
    "folder beside a suite folder, other suites, another suite hash unless the\n"
    "workloads are the same, and input or output hashes or counters that disagree.\n"
    "\n"
    "  --out DIR                  folder to write into (default ./compare, made if\n"
    "                             missing)\n"
    "  --campaign-label NAME      name a campaign (1 to 63 letters, digits, '_' or\n"
    "                             '-'): once per PATH, in their order\n"
    "  --resamples N              bootstrap resamples per configuration (default 10000)\n"
    "  --seed S                   bootstrap seed (default 2463534242)\n"
    "  --equivalence-margin M     margin of the power-ratio readings (default 0.10)\n"
    "  --allow-partial            compare campaigns that did not complete\n"
    "  --version                  print greenbench's version and git commit\n"
    "  --help                     show this help\n"
    "\n"
    "Exit status: 0 done, 1 bad records or refused, 2 bad arguments.\n";

typedef struct {
  const char *out;
  const char *paths[GB_COMPARE_MAX];
  size_t n;
  const char *labels[GB_COMPARE_MAX]; /* --campaign-label, in order */
  size_t n_labels;
  gb_analysis_opts ao;
  bool allow_partial;
} cli;

static const char *const output_names[3] = {"compare.md", "compare.svg", "compare.json"};

enum { OUT, RESAMPLES, SEED, MARGIN, ALLOW_PARTIAL, CAMPAIGN_LABEL };
static const gb_opt options[] = {
    {"--out", NULL, GB_OPT_VALUE, OUT},
    {"--campaign-label", NULL, GB_OPT_VALUE | GB_OPT_MANY, CAMPAIGN_LABEL},
    {"--resamples", NULL, GB_OPT_VALUE, RESAMPLES},
    {"--seed", NULL, GB_OPT_VALUE, SEED},
    {"--equivalence-margin", NULL, GB_OPT_VALUE, MARGIN},
    {"--allow-partial", NULL, 0, ALLOW_PARTIAL},
    {NULL, NULL, 0, 0},
};

/* One more --campaign-label: a label (gb_meta_label_valid), not one given
 * before, at most one per campaign. */
static int add_label(cli *c, const char *value, gb_err *err) {
  if (!gb_meta_label_valid(value)) {
    return gb_err_set(err, EINVAL,
                      "--campaign-label '%s' is not a label: 1 to 63 letters, "
                      "digits, '_' or '-'",
                      SHOWN(value));
  }
  for (size_t k = 0; k < c->n_labels; k++) {
    if (strcmp(c->labels[k], value) == 0) {
      return gb_err_set(err, EINVAL, "--campaign-label '%s' given twice", value);
    }
  }
  if (c->n_labels == GB_COMPARE_MAX) {
    return gb_err_set(err, EINVAL, "more than %d --campaign-label given", GB_COMPARE_MAX);
  }
  c->labels[c->n_labels++] = value;
  return 0;
}

static int set_option(void *ctx, int id, const char *value, gb_err *err) {
  cli *c = ctx;
  int rc = 0;
  switch (id) {
  case OUT:
    rc = cli_check_path("--out", value, true, err);
    c->out = value;
    break;
  case RESAMPLES:
  case SEED:
    rc = cli_parse_bootstrap(id == SEED, value, &c->ao.resamples, &c->ao.seed, err);
    break;
  case CAMPAIGN_LABEL:
    rc = add_label(c, value, err);
    break;
  case MARGIN:
    rc = cli_parse_margin(value, &c->ao.margin, err);
    break;
  default:
    c->allow_partial = true;
  }
  return rc;
}

/* One more campaign, up to GB_COMPARE_MAX, its path a folder's
 * (cli_check_path), so that the names of its files fit. */
static int add_path(void *ctx, const char *arg, gb_err *err) {
  cli *c = ctx;
  if (c->n == GB_COMPARE_MAX) {
    return gb_err_set(err, EINVAL, "more than %d campaigns given", GB_COMPARE_MAX);
  }
  if (cli_check_path("PATH", arg, true, err) < 0) {
    return -EINVAL;
  }
  c->paths[c->n++] = arg;
  return 0;
}

/* The options (greenbench/options.h), then two or more paths. */
static const cli_command command = {"compare", usage, options, set_option, add_path};

/* ---- Reading and analysing ------------------------------------------------------ */

typedef struct {
  gb_records *r[GB_COMPARE_MAX];
  gb_analysis *a[GB_COMPARE_MAX];
  gb_cmp_input in[GB_COMPARE_MAX];
} campaigns;

/* The one place a campaign is read. */
static int read_campaign(const char *path, gb_records **out, gb_err *err) {
  return gb_records_read_path(path, out, err);
}

/* The file that identifies a campaign: a packed archive itself, or a
 * folder's meta.json. 0 or -1. */
static int identity(const char *path, struct stat *st) {
  char p[PATH_MAX];
  if (stat(path, st) == 0 && S_ISREG(st->st_mode)) {
    return 0;
  }
  return gb_path_join(p, sizeof p, path, "meta.json", NULL) == 0 && stat(p, st) == 0 ? 0 : -1;
}

/* The index of an earlier campaign that is this one's file (the same
 * folder or archive given twice), or -1. */
static int same_as(const cli *c, size_t m) {
  struct stat sm, sk;
  if (identity(c->paths[m], &sm) < 0) {
    return -1;
  }
  for (size_t k = 0; k < m; k++) {
    if (identity(c->paths[k], &sk) == 0 && sk.st_dev == sm.st_dev && sk.st_ino == sm.st_ino) {
      return (int)k;
    }
  }
  return -1;
}

static int load_one(const cli *c, size_t m, campaigns *cs, FILE *warnings, gb_err *err) {
  int rc = read_campaign(c->paths[m], &cs->r[m], err);
  if (rc < 0) {
    return rc;
  }
  const gb_meta *meta = &cs->r[m]->meta;
  if (!meta->completed && !c->allow_partial) {
    return gb_err_set(err, EINVAL,
                      "%s/meta.json: the campaign did not complete (%" PRIu64 " of %" PRIu64
                      " planned runs done); pass --allow-partial to compare it "
                      "anyway",
                      c->paths[m], meta->runs_done, meta->plan.measured_runs);
  }
  rc = gb_analysis_run(cs->r[m], &c->ao, &cs->a[m], err);
  for (size_t i = 0; rc == 0 && i < cs->a[m]->n_warnings; i++) {
    fprintf(warnings, "greenbench: warning: %s: ", c->paths[m]);
    gb_str_put_line(warnings, "", cs->a[m]->warnings[i].text);
  }
  cs->in[m] = (gb_cmp_input){.path = c->paths[m],
                             .same_as = same_as(c, m),
                             .analysis = cs->a[m],
                             .campaign_label = c->n_labels ? c->labels[m] : NULL};
  return rc;
}

static void release(campaigns *cs) {
  for (size_t m = 0; m < GB_COMPARE_MAX; m++) {
    gb_analysis_free(cs->a[m]);
    gb_records_free(cs->r[m]);
  }
}

/* ---- Writing ------------------------------------------------------------------- */

/* The files a campaign is read from: an archive itself, or a folder's
 * records. */
static const char *const input_names[5] = {"meta.json", "runs.csv", "warmups.csv",
                                           "environment.txt", "suite.json"};

/* True when the existing file st is one of the campaign path's inputs. */
static bool is_input(const char *path, const struct stat *st) {
  struct stat in;
  char p[PATH_MAX];
  if (stat(path, &in) == 0 && S_ISREG(in.st_mode)) {
    return in.st_dev == st->st_dev && in.st_ino == st->st_ino;
  }
  for (int k = 0; k < 5; k++) {
    if (gb_path_join(p, sizeof p, path, input_names[k], NULL) == 0 && stat(p, &in) == 0 &&
        in.st_dev == st->st_dev && in.st_ino == st->st_ino) {
      return true;
    }
  }
  return false;
}

/* The outputs, checked before any campaign is read: each is nothing or a
 * regular file (gb_output_check; a device, FIFO, socket or link is
 * refused), and none is one of the inputs. -EINVAL with the message. */
static int check_outputs(const cli *c, gb_err *err) {
  char path[PATH_MAX];
  for (int i = 0; i < 3; i++) {
    gb_err inner;
    struct stat st;
    if (gb_path_join(path, sizeof path, c->out, output_names[i], NULL) < 0) {
      return gb_err_set(err, EINVAL, "--out: path too long");
    }
    if (gb_output_check(AT_FDCWD, path, &inner) < 0) {
      return gb_err_set(err, EINVAL, "--out %s", inner.msg);
    }
    for (size_t m = 0; m < c->n && lstat(path, &st) == 0; m++) {
      if (is_input(c->paths[m], &st)) {
        return gb_err_set(err, EINVAL,
                          "%s is the campaign %s; refusing to overwrite "
                          "an input",
                          SHOWN(path), SHOWN(c->paths[m]));
      }
    }
  }
  return 0;
}

static int write_outputs(const char *dir, const gb_comparison *cmp, gb_err *err) {
  const char *const *names = output_names;
  char paths[3][PATH_MAX];
  char *data[3] = {NULL, NULL, NULL};
  size_t lens[3] = {0, 0, 0};
  int rc = 0;
  if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
    int e = errno;
    return gb_err_set(err, e, "%s: cannot make the folder: %s", dir, strerror(e));
  }
  for (int i = 0; rc == 0 && i < 3; i++) {
    if (gb_path_join(paths[i], PATH_MAX, dir, names[i], NULL) < 0) {
      rc = gb_err_set(err, ENAMETOOLONG, "%s: path too long", dir);
    }
  }
  if (rc == 0)
    rc = gb_compare_md(cmp, &data[0], &lens[0], err);
  if (rc == 0)
    rc = gb_compare_svg(cmp, &data[1], &lens[1], err);
  if (rc == 0)
    rc = gb_compare_json(cmp, &data[2], &lens[2], err);
  if (rc == 0) {
    const char *const p[3] = {paths[0], paths[1], paths[2]};
    const char *const d[3] = {data[0], data[1], data[2]};
    rc = gb_report_write_set(p, d, lens, 3, err);
  }
  for (int i = 0; i < 3; i++) {
    free(data[i]);
  }
  return rc;
}

/* Whether the paths are suite records folders, or packed ones
 * (gb_srec_is_suite_path):
 * 1 all, 0 none, -EINVAL (with the message) when some are and some not. */
static int suite_folders(const cli *c, gb_err *err) {
  for (size_t m = 1; m < c->n; m++) {
    bool a = gb_srec_is_suite_path(c->paths[0]), b = gb_srec_is_suite_path(c->paths[m]);
    if (a != b) {
      return gb_err_set(err, EINVAL,
                        "compare: %s is a suite campaign's records but %s the study's: a "
                        "suite campaign is compared only with campaigns of the same suite",
                        SHOWN(a ? c->paths[0] : c->paths[m]),
                        SHOWN(a ? c->paths[m] : c->paths[0]));
    }
  }
  return gb_srec_is_suite_path(c->paths[0]) ? 1 : 0;
}

static int run_suites(const cli *c, gb_err *err) {
  int same[GB_COMPARE_MAX];
  for (size_t m = 0; m < c->n; m++) {
    same[m] = same_as(c, m);
  }
  cli_compare_args a = {.out = c->out,
                        .paths = c->paths,
                        .same_as = same,
                        .n = c->n,
                        .labels = c->n_labels ? c->labels : NULL,
                        .ao = &c->ao,
                        .allow_partial = c->allow_partial};
  return cli_compare_suites(&a, err);
}

static int run(const cli *c, FILE *warnings, gb_err *err) {
  int suites = suite_folders(c, err);
  if (suites != 0) {
    return suites < 0 ? suites : run_suites(c, err);
  }
  campaigns *cs = calloc(1, sizeof *cs);
  if (!cs) {
    return gb_err_set(err, ENOMEM, "out of memory");
  }
  int rc = 0;
  for (size_t m = 0; rc == 0 && m < c->n; m++) {
    rc = load_one(c, m, cs, warnings, err);
  }
  gb_comparison *cmp = NULL;
  if (rc == 0) {
    rc = gb_compare_build(cs->in, c->n, &cmp, err);
  }
  if (rc == 0) {
    rc = write_outputs(c->out, cmp, err);
  }
  gb_compare_free(cmp);
  release(cs);
  free(cs);
  return rc;
}

int gb_cli_compare(int argc, char **argv, const gb_cli_env *env) {
  cli c = {.out = "compare", .ao = GB_ANALYSIS_OPTS_DEFAULT};
  gb_err err;
  int status = cli_start(&command, &c, argc, argv, env->out, env->err);
  if (status >= 0) {
    return status;
  }
  if (c.n < 2) {
    gb_err_set(&err, EINVAL,
               "at least two records folders expected, got %zu (see greenbench compare --help)",
               c.n);
    status = 2;
  } else if (c.n_labels > 0 && c.n_labels != c.n) {
    status = 2;
    gb_err_set(&err, EINVAL,
               "%zu --campaign-label given for %zu campaigns; give one per PATH, in "
               "their order, or none",
               c.n_labels, c.n);
  } else if (check_outputs(&c, &err) < 0) {
    status = 2;
  } else {
    status = run(&c, env->err, &err) < 0 ? 1 : 0;
  }
  return status ? cli_fail(&command, env->err, status, err.msg) : 0;
}
