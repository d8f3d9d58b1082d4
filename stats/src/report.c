/* The report: the files around the pure writers. gb_report_write reads the
 * records, applies the refusals of study.md (an unfinished campaign, energy
 * readings all zero), analyses, and writes the files as one atomic set:
 * results.md, the chart, JUnit XML, summary.json and the records'
 * datapackage.json. `greenbench report` is its command line
 * (cli/src/cli_report.c). */
#include "greenbench/report.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "greenbench/analysis.h"
#include "greenbench/files.h"
#include "greenbench/paths.h"
#include "greenbench/records.h"
#include "greenbench/report_junit.h"
#include "greenbench/text.h"
#include "stats_internal.h"

gb_report_opts gb_report_opts_default(void) {
  return (gb_report_opts){.resamples = GB_ANALYSIS_RESAMPLES_DEFAULT,
                          .seed = GB_ANALYSIS_SEED_DEFAULT,
                          .margin = GB_RATIO_MARGIN_DEFAULT,
                          .warnings = stderr};
}

/* ---- Paths and files ---------------------------------------------------------- */

/* The outputs, written as one set; the data package only without
 * no_datapackage, and always into DIR, beside the CSV files it describes
 * (a Frictionless resource path is relative and holds no ".."). */
enum { OUT_MD, OUT_JUNIT, OUT_CHART, OUT_SUMMARY, OUT_DATAPACKAGE, N_OUT };

/* The chart's path relative to the folder of results.md, through the real
 * paths of both folders (which exist once the files can be written). */
static int relative_href(const char *md_path, const char *chart_path, char *out, size_t len,
                         gb_err *err) {
  char md_dir[PATH_MAX], chart_dir[PATH_MAX], a[PATH_MAX], b[PATH_MAX];
  /* Never too long: each is no longer than its path, which fits PATH_MAX. */
  if (gb_path_dir(md_dir, sizeof md_dir, md_path) < 0 ||
      gb_path_dir(chart_dir, sizeof chart_dir, chart_path) < 0)
    return gb_err_set(err, ENAMETOOLONG, "%s: path too long", md_dir[0] ? chart_path : md_path);
  if (!realpath(md_dir, a) || !realpath(chart_dir, b)) {
    int e = errno;
    return gb_err_set(err, e, "%s: %s", realpath(md_dir, a) ? chart_dir : md_dir, strerror(e));
  }
  size_t common = 0, i = 0;
  for (; a[i] && a[i] == b[i]; i++) {
    common = a[i] == '/' ? i : common;
  }
  if (!a[i] && (!b[i] || b[i] == '/')) {
    common = i; /* one folder holds the other (or they are the same) */
  }
  size_t n = 0;
  out[0] = '\0';
  for (const char *p = a + common; *p; p++) {
    if (*p == '/' && (n += (size_t)snprintf(out + n, n < len ? len - n : 0, "../")) >= len) {
      return gb_err_set(err, ENAMETOOLONG, "%s: path too long", chart_path);
    }
  }
  const char *rest = b[common] == '/' ? b + common + 1 : b + common;
  const char *base = strrchr(chart_path, '/') ? strrchr(chart_path, '/') + 1 : chart_path;
  int m = snprintf(out + n, len - n, "%s%s%s", rest, *rest ? "/" : "", base);
  if (m < 0 || (size_t)m >= len - n) {
    return gb_err_set(err, ENAMETOOLONG, "%s: path too long", chart_path);
  }
  return 0;
}

/* A file of the set not written, in the report's own words: "<path>: path
 * too long" when gb_replace_begin found no room for the temporary file's
 * name (it names none then), "<path>: cannot write: <why>" otherwise. */
static int write_failed(const gb_replace *r, const char *path, int rc, gb_err *err) {
  if (rc == -ENAMETOOLONG && !r->tmp[0]) {
    return gb_err_set(err, ENAMETOOLONG, "%s: path too long", path);
  }
  return gb_err_set(err, -rc, "%s: cannot write: %s", path, strerror(-rc));
}

/* The bytes into a new temporary file beside path, flushed to disk; mode
 * 0644 whatever the umask, as gb_report_write_file promises. r is safe to
 * abort after a failure. */
static int write_temp(gb_replace *r, const char *path, const char *data, size_t len,
                      gb_err *err) {
  int rc = gb_replace_begin(r, AT_FDCWD, NULL, path, 0644, 0, NULL);
  if (rc == 0) {
    rc = gb_write_all(r->fd, data, len);
  }
  if (rc == 0 && !r->to_stdout && fchmod(r->fd, 0644) < 0) {
    rc = -errno;
  }
  if (rc == 0) {
    rc = gb_replace_flush(r, NULL);
  }
  return rc < 0 ? write_failed(r, path, rc, err) : 0;
}

/* A target the report may replace: nothing, a regular file or "-"
 * (gb_output_check); a device, FIFO, socket, link or folder is refused,
 * named by its option, before anything is written. */
static int check_target(const char *option, const char *path, gb_err *err) {
  gb_err inner;
  if (gb_output_check(AT_FDCWD, path, &inner) < 0) {
    return gb_err_set(err, EINVAL, "report: %s%s%s", option ? option : "", option ? " " : "",
                      inner.msg);
  }
  return 0;
}

/* Writes the files as a set: every target checked, every file written to a
 * temporary file beside it and flushed, and only then all renamed into
 * place. A failure before the renames (a full disk, a target that is a
 * folder, a folder that does not exist) removes the temporary files and
 * replaces none, so old and new never mix. */
static int write_files(const char *const *paths, const char *const *data, const size_t *lens,
                       int n, gb_err *err) {
  gb_replace r[N_OUT];
  int started = 0, rc = 0;
  for (int i = 0; rc == 0 && i < n; i++) {
    rc = check_target(NULL, paths[i], err);
  }
  for (; rc == 0 && started < n; started++) {
    rc = write_temp(&r[started], paths[started], data[started], lens[started], err);
  }
  for (int i = 0; rc == 0 && i < n; i++) {
    if ((rc = gb_replace_commit(&r[i], NULL)) < 0) {
      rc = write_failed(&r[i], paths[i], rc, err);
    }
  }
  for (int i = 0; i < started; i++) {
    gb_replace_abort(&r[i]); /* nothing left to do after a commit */
  }
  return rc;
}

int gb_report_write_file(const char *path, const char *data, size_t len, gb_err *err) {
  return write_files(&path, &data, &len, 1, err);
}

int gb_report_write_set(const char *const *paths, const char *const *data, const size_t *lens,
                        int n, gb_err *err) {
  if (n < 1 || n > N_OUT) {
    return gb_err_set(err, EINVAL, "report: %d files to write as a set; at most %d", n, N_OUT);
  }
  return write_files(paths, data, lens, n, err);
}

/* ---- Carbon --------------------------------------------------------------------- */

/* The study's regions: the United Arab Emirates and the United Kingdom. */
static const char *const default_regions[] = {"ARE", "GBR"};

int gbi_report_default_intensities(gb_intensity out[2], gb_err *err) {
  gb_carbon_table t = {0};
  char path[PATH_MAX];
  int rc = gb_carbon_default_path(path, sizeof path, err);
  if (rc == 0)
    rc = gb_carbon_load(path, &t, err);
  for (int i = 0; rc == 0 && i < 2; i++) {
    rc = gb_carbon_find(&t, default_regions[i], &out[i], err);
  }
  gb_carbon_free(&t);
  return rc;
}

/* ---- The report ------------------------------------------------------------------ */

typedef struct {
  char out[N_OUT][PATH_MAX]; /* by OUT_* */
  char href[PATH_MAX];
} report_paths;

static const char *const output_files[N_OUT] = {"results.md", "junit.xml", "chart.svg",
                                                "summary.json", GB_DATAPACKAGE_FILE};
/* The option that names each; the data package has none. */
static const char *const output_options[N_OUT] = {"--out", "--junit", "--chart", "--summary",
                                                  NULL};

/* How many outputs this report writes: the data package is the last. */
static int n_outputs(const gb_report_opts *o) {
  return o->no_datapackage ? N_OUT - 1 : N_OUT;
}

/* The path given for output i, or NULL for its default in DIR. */
static const char *given_path(const gb_report_opts *o, int i) {
  const char *given[N_OUT] = {o->md_path, o->junit_path, o->chart_path, o->summary_path, NULL};
  return given[i];
}
/* The records the report reads, and environment.txt beside them: never
 * overwritten. */
static const char *const input_files[4] = {"meta.json", "runs.csv", "warmups.csv",
                                           "environment.txt"};

/* The output paths, given or in DIR, without the chart's link. */
static int output_paths(const gb_report_opts *o, report_paths *p, gb_err *err) {
  int rc = 0;
  for (int i = 0; rc == 0 && i < N_OUT; i++) {
    const char *given = given_path(o, i);
    if (given && snprintf(p->out[i], PATH_MAX, "%s", given) >= PATH_MAX) {
      rc = gb_err_set(err, ENAMETOOLONG, "%s: path longer than PATH_MAX (%d bytes)",
                      output_options[i], PATH_MAX - 1);
    } else if (!given) {
      rc = gb_path_join(p->out[i], PATH_MAX, o->dir, output_files[i], err);
    }
  }
  return rc;
}

static int resolve_paths(const gb_report_opts *o, report_paths *p, gb_err *err) {
  int rc = output_paths(o, p, err);
  return rc == 0
             ? relative_href(p->out[OUT_MD], p->out[OUT_CHART], p->href, sizeof p->href, err)
             : rc;
}

/* A file as the report compares it: by device and inode when it exists,
 * and by its resolved path (the real path of its folder, then its name)
 * when its folder exists, so a file not yet written is compared too. */
typedef struct {
  bool exists, resolved;
  dev_t dev;
  ino_t ino;
  char real[PATH_MAX];
} file_id;

static void identify(const char *path, file_id *id) {
  struct stat st;
  char dir[PATH_MAX], real[PATH_MAX];
  const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
  id->exists = stat(path, &st) == 0;
  id->dev = id->exists ? st.st_dev : 0;
  id->ino = id->exists ? st.st_ino : 0;
  id->resolved = gb_path_dir(dir, sizeof dir, path) == 0 && realpath(dir, real) != NULL &&
                 gb_path_join(id->real, sizeof id->real, real, base, NULL) == 0;
}

static bool same_file(const file_id *a, const file_id *b) {
  return (a->exists && b->exists && a->dev == b->dev && a->ino == b->ino) ||
         (a->resolved && b->resolved && strcmp(a->real, b->real) == 0);
}

bool gbi_report_same_file(const char *a, const char *b) {
  file_id x, y;
  identify(a, &x);
  identify(b, &y);
  return same_file(&x, &y);
}

typedef struct {
  report_paths paths;
  file_id out[N_OUT], in[4];
} io_files;

/* An output's name in a message: its option, or the default file. */
static void output_name(const gb_report_opts *o, int i, const char *path, char *buf,
                        size_t len) {
  if (!output_options[i]) {
    snprintf(buf, len, "the data package '%s'", path);
    return;
  }
  snprintf(buf, len, "%s%s '%s'", given_path(o, i) ? "" : "the default ", output_options[i],
           path);
}

static int compare_files(const gb_report_opts *o, io_files *f, gb_err *err) {
  char(*out)[PATH_MAX] = f->paths.out;
  char a[PATH_MAX + 32], b[PATH_MAX + 32];
  for (int i = 0; i < n_outputs(o); i++) {
    output_name(o, i, out[i], a, sizeof a);
    for (int k = 0; k < 4; k++) {
      if (same_file(&f->out[i], &f->in[k])) {
        return gb_err_set(err, EINVAL,
                          "report: %s is the records' %s/%s; refusing to overwrite an input", a,
                          o->dir, input_files[k]);
      }
    }
    for (int j = i + 1; j < n_outputs(o); j++) {
      output_name(o, j, out[j], b, sizeof b);
      if (same_file(&f->out[i], &f->out[j])) {
        return gb_err_set(err, EINVAL, "report: %s and %s are the same file", a, b);
      }
    }
  }
  return 0;
}

int gb_report_check_outputs(const gb_report_opts *o, gb_err *err) {
  io_files *f = calloc(1, sizeof *f);
  if (!f) {
    return gb_err_set(err, ENOMEM, "report: out of memory");
  }
  int rc = output_paths(o, &f->paths, err);
  char in[PATH_MAX];
  for (int i = 0; rc == 0 && i < n_outputs(o); i++) {
    rc = check_target(output_options[i], f->paths.out[i], err);
    identify(f->paths.out[i], &f->out[i]);
  }
  for (int k = 0; rc == 0 && k < 4; k++) {
    if ((rc = gb_path_join(in, sizeof in, o->dir, input_files[k], err)) == 0) {
      identify(in, &f->in[k]);
    }
  }
  if (rc == 0) {
    rc = compare_files(o, f, err);
  }
  free(f);
  return rc;
}

static int refuse(const gb_records *r, const gb_report_opts *o, gb_err *err) {
  const gb_meta *m = &r->meta;
  if (!m->completed && !o->allow_partial) {
    return gb_err_set(err, EINVAL,
                      "%s/meta.json: the campaign did not complete (%" PRIu64 " of %" PRIu64
                      " planned runs done); pass --allow-partial to report it anyway",
                      o->dir, m->runs_done, m->plan.measured_runs);
  }
  return 0;
}

gb_analysis_opts gbi_report_analysis_opts(const gb_report_opts *o) {
  gb_analysis_opts ao = GB_ANALYSIS_OPTS_DEFAULT;
  ao.seed = o->seed;
  ao.resamples = o->resamples;
  ao.margin = o->margin;
  ao.power_estimator = o->power_estimator;
  ao.startup_fixed = o->startup_fixed;
  return ao;
}

int gbi_report_check_opts(const gb_report_opts *o, gb_err *err) {
  if (!o->dir) {
    return gb_err_set(err, EINVAL, "report: no records folder given");
  }
  if (o->resamples < 1 || o->resamples > GB_REPORT_MAX_RESAMPLES) {
    return gb_err_set(err, EINVAL, "report: resamples %zu is not in 1..%d", o->resamples,
                      GB_REPORT_MAX_RESAMPLES);
  }
  if (!(isfinite(o->margin) && o->margin > 0.0)) {
    return gb_err_set(err, EINVAL, "report: the equivalence margin must be a positive number");
  }
  return 0;
}

typedef struct {
  char *data[N_OUT]; /* by OUT_* */
  size_t len[N_OUT];
} outputs;

static int render(const gb_analysis *a, const gbi_report_md_opts *mo, outputs *out,
                  gb_err *err) {
  const gbi_report_summary_opts so = {.intensities = mo->intensities,
                                      .n_intensities = mo->n_intensities};
  int rc = gbi_report_md(a, mo, &out->data[OUT_MD], &out->len[OUT_MD], err);
  if (rc == 0) {
    rc = gbi_report_svg(a, &out->data[OUT_CHART], &out->len[OUT_CHART], err);
  }
  if (rc == 0) {
    rc = gb_report_junit(a, &out->data[OUT_JUNIT], &out->len[OUT_JUNIT], err);
  }
  if (rc == 0) {
    rc = gbi_report_summary(a, &so, &out->data[OUT_SUMMARY], &out->len[OUT_SUMMARY], err);
  }
  if (rc == 0) {
    rc = gbi_report_datapackage(a->records->has_warmups, &out->data[OUT_DATAPACKAGE],
                                &out->len[OUT_DATAPACKAGE], err);
  }
  return rc;
}

static void print_warnings(const gb_analysis *a, FILE *f) {
  for (size_t i = 0; f && i < a->n_warnings; i++) {
    gb_str_put_line(f, "greenbench: warning: ", a->warnings[i].text);
  }
}

static int analyse_and_write(const gb_records *r, const gb_report_opts *o,
                             const report_paths *p, const gbi_report_md_opts *mo, gb_err *err) {
  gb_analysis_opts ao = gbi_report_analysis_opts(o);
  gb_analysis *a = NULL;
  outputs out = {0};
  int rc = gb_analysis_run(r, &ao, &a, err);
  if (rc == 0 && a->checks.all_energy_zero) {
    rc = gb_err_set(err, EINVAL,
                    "%s/runs.csv: every energy reading is 0 uJ, which a working counter never "
                    "gives; refusing to report it",
                    o->dir);
  }
  if (rc == 0) {
    print_warnings(a, o->warnings);
    rc = render(a, mo, &out, err);
  }
  if (rc == 0) {
    const char *paths[N_OUT], *data[N_OUT];
    for (int i = 0; i < N_OUT; i++) {
      paths[i] = p->out[i];
      data[i] = out.data[i];
    }
    rc = write_files(paths, data, out.len, n_outputs(o), err);
  }
  for (int i = 0; i < N_OUT; i++) {
    free(out.data[i]);
  }
  gb_analysis_free(a);
  return rc;
}

int gb_report_write(const gb_report_opts *o, gb_err *err) {
  report_paths *p = calloc(1, sizeof *p);
  gb_intensity defaults[2];
  gb_records *r = NULL;
  int rc = p ? gbi_report_check_opts(o, err) : gb_err_set(err, ENOMEM, "report: out of memory");
  /* The records first: a wrong folder is best named by its missing file. */
  if (rc == 0 && (rc = gb_records_read_path(o->dir, &r, err)) == 0) {
    rc = refuse(r, o, err);
  }
  if (rc == 0) {
    rc = gb_report_check_outputs(o, err);
  }
  if (rc == 0) {
    rc = resolve_paths(o, p, err);
  }
  if (rc == 0 && !o->intensities) {
    rc = gbi_report_default_intensities(defaults, err);
  }
  if (rc == 0) {
    gbi_report_md_opts mo = {.chart_href = p->href,
                             .intensities = o->intensities ? o->intensities : defaults,
                             .n_intensities = o->intensities ? o->n_intensities : 2};
    rc = analyse_and_write(r, o, p, &mo, err);
  }
  gb_records_free(r);
  free(p);
  return rc;
}

/* A packed records folder as DIR: there are no CSV files to put a data
 * package beside, and the archive is never changed. */
int gb_report_packed_outputs(gb_report_opts *o, gb_err *err) {
  const char **paths[] = {&o->md_path, &o->junit_path, &o->chart_path, &o->summary_path};
  file_id archive, out;
  o->no_datapackage = true;
  identify(o->dir, &archive);
  for (int i = 0; i < 4; i++) {
    if (!*paths[i]) {
      *paths[i] = output_files[i];
    }
    identify(*paths[i], &out);
    if (same_file(&out, &archive)) {
      gb_excerpt_buf shown_out, shown_dir;
      return gb_err_set(err, EINVAL,
                        "report: %s '%s' is the packed records %s; refusing to "
                        "overwrite an input",
                        output_options[i], gb_excerpt(&shown_out, *paths[i]),
                        gb_excerpt(&shown_dir, o->dir));
    }
  }
  return 0;
}
