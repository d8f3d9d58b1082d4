/* A suite campaign's records folder read whole (greenbench/suiterecords.h):
 * meta.json, suite.json against meta's hash, then runs.csv and warmups.csv
 * through the study's CSV reader (csv.c), each row alone and against the
 * suite and meta.json. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "greenbench/paths.h"
#include "greenbench/suiterecords.h"
#include "records_internal.h"

/* Where a row belongs: its kind, language, workload and parameter set
 * (the index of its values, first parameter slowest). */
typedef struct {
  unsigned kind;
  size_t language, workload, set;
} row_key;

typedef struct {
  const char *name; /* "runs.csv" or "warmups.csv" */
  bool warmups;
  const gb_srec_records *r;
  gb_err *err;
  size_t line;
  gb_srec_row *rows;
  row_key *keys;
  size_t n, cap;
  char *scratch;
  size_t scratch_cap;
  gbi_csv_field f[GBI_SREC_COLS + 1];
} reader;

static int at_line(reader *r, int rc, const gb_err *what) {
  return gb_err_set(r->err, -rc, "%s:%zu: %s", r->name, r->line, what->msg);
}

/* ---- A row against the suite and meta.json ------------------------------ */

static size_t find_language(const gb_suite *s, const char *name) {
  size_t i = 0;
  while (i < s->n_languages && strcmp(s->languages[i].name, name) != 0)
    i++;
  return i;
}

static bool meta_lists(const gb_srec_meta *m, const char *language) {
  for (size_t i = 0; i < m->n_languages; i++)
    if (strcmp(m->languages[i].name, language) == 0)
      return true;
  return false;
}

static size_t find_workload(const gb_suite *s, const char *name) {
  size_t i = 0;
  while (i < s->n_workloads && strcmp(s->workloads[i].name, name) != 0)
    i++;
  return i;
}

/* The parameter names of w, "n, m", for a message. */
static const char *names_of(const gb_suite_workload *w, char *buf, size_t len) {
  buf[0] = '\0';
  for (size_t i = 0; i < w->n_parameters; i++)
    gb_str_append(buf, len, "%s%s", i ? ", " : "", w->parameters[i].name);
  return buf;
}

/* params as one of w's parameter sets: its index in *set. */
static int params_set(const gb_suite_workload *w, const char *params, size_t *set,
                      gb_err *err) {
  gbi_srec_pair p[GB_SUITE_PARAMETERS_MAX];
  size_t n = 0, index = 0;
  char names[GB_SUITE_PARAMETERS_MAX * (GB_SUITE_NAME_MAX + 2) + 1];
  int rc = gbi_srec_pairs_parse("params", params, strlen(params), GB_SUITE_PARAMETERS_MAX,
                                GB_SUITE_VALUE_MAX, false, true, p, &n, err);
  if (rc < 0)
    return rc;
  bool same = n == w->n_parameters;
  for (size_t i = 0; same && i < n; i++)
    same = strcmp(p[i].name, w->parameters[i].name) == 0;
  if (!same)
    return gb_err_set(err, EINVAL,
                      "params: '%s' does not give workload %s's parameters %s, in that order",
                      params, w->name, names_of(w, names, sizeof names));
  for (size_t i = 0; i < n; i++) {
    const gb_suite_parameter *q = &w->parameters[i];
    uint64_t value = 0;
    size_t v = 0;
    if (gb_suite_value_parse(q, p[i].text, strlen(p[i].text), &value) < 0)
      return gb_err_set(err, EINVAL, "params: %s=%s is not a value of workload %s", q->name,
                        p[i].text, w->name);
    while (q->values[v] != value)
      v++;
    index = index * q->n_values + v;
  }
  *set = index;
  return 0;
}

static int against_suite(reader *r, const gb_srec_row *row, row_key *key, gb_err *e) {
  const gb_suite *s = &r->r->suite;
  const gb_srec_meta *m = &r->r->meta;
  key->kind = (unsigned)row->kind;
  if ((key->language = find_language(s, row->language)) == s->n_languages)
    return gb_err_set(e, EINVAL, "language: %s is not a language of suite %s", row->language,
                      s->name);
  if (!meta_lists(m, row->language))
    return gb_err_set(e, EINVAL, "language: %s is not in meta.json's languages", row->language);
  if ((key->workload = find_workload(s, row->workload)) == s->n_workloads)
    return gb_err_set(e, EINVAL, "workload: %s is not a workload of suite %s", row->workload,
                      s->name);
  int rc = params_set(&s->workloads[key->workload], row->params, &key->set, e);
  if (rc < 0)
    return rc;
  if (row->seed != m->settings.seed)
    return gb_err_set(e, EINVAL, "seed: %" PRIu64 ", but meta.json settings.seed is %" PRIu64,
                      row->seed, m->settings.seed);
  if (row->energy == GB_REC_ENERGY_OK && m->energy_status != GB_REC_ENERGY_OK)
    return gb_err_set(e, EINVAL, "energy: ok, but meta.json energy.status is %s",
                      gb_rec_energy_name(m->energy_status));
  if (!r->warmups && row->run != r->n)
    return gb_err_set(e, EINVAL, "run: %" PRIu64 " out of sequence, expected %zu", row->run,
                      r->n);
  return 0;
}

/* ---- Lines ---------------------------------------------------------------- */

static int append(reader *r, const gb_srec_row *row, const row_key *key) {
  if (r->n == r->cap) {
    size_t cap = r->cap ? 2 * r->cap : 64;
    gb_srec_row *rows = realloc(r->rows, cap * sizeof *rows);
    if (rows)
      r->rows = rows;
    row_key *keys = rows ? realloc(r->keys, cap * sizeof *keys) : NULL;
    if (!keys)
      return gb_err_set(r->err, ENOMEM, "%s:%zu: out of memory", r->name, r->line);
    r->keys = keys;
    r->cap = cap;
  }
  r->rows[r->n] = *row;
  r->keys[r->n++] = *key;
  return 0;
}

static int parse_row(reader *r, size_t n_fields) {
  gb_srec_row row;
  row_key key;
  gb_err e;
  int rc;
  if (n_fields != GBI_SREC_COLS)
    return gb_err_set(r->err, EINVAL, "%s:%zu: %s: %zu of %d fields", r->name, r->line,
                      n_fields < GBI_SREC_COLS ? "truncated line" : "too many fields", n_fields,
                      GBI_SREC_COLS);
  if ((rc = gbi_srec_parse_row(r->f, &row, &e)) < 0 ||
      (rc = against_suite(r, &row, &key, &e)) < 0)
    return at_line(r, rc, &e);
  row.line = r->line;
  return append(r, &row, &key);
}

static int parse_line(void *ctx, size_t line, const char *s, size_t len) {
  reader *r = ctx;
  const char *why;
  size_t n;
  r->line = line;
  if (len >= GB_SREC_LINE_MAX)
    return gb_err_set(r->err, EINVAL, "%s:%zu: longer than %d bytes", r->name, line,
                      GB_SREC_LINE_MAX - 1);
  if (gbi_csv_split(s, len, r->scratch, r->f, GBI_SREC_COLS + 1, &n, &why) < 0)
    return gb_err_set(r->err, EINVAL, "%s:%zu: malformed CSV: %s", r->name, line, why);
  if (line == 1)
    return gbi_csv_check_header(r->f, n, gbi_srec_column_name, GBI_SREC_COLS, r->name, r->err);
  return parse_row(r, n);
}

/* ---- Groups: how many rows each configuration has ------------------------ */

/* A row's key and its index in the file. */
typedef struct {
  row_key k;
  size_t i;
} entry;

static int key_cmp(const row_key *a, const row_key *b) {
  if (a->kind != b->kind)
    return a->kind < b->kind ? -1 : 1;
  if (a->language != b->language)
    return a->language < b->language ? -1 : 1;
  if (a->workload != b->workload)
    return a->workload < b->workload ? -1 : 1;
  return a->set < b->set ? -1 : a->set > b->set;
}

/* By key, then by position, which keeps each group in file order. */
static int entry_cmp(const void *pa, const void *pb) {
  const entry *a = pa, *b = pb;
  int c = key_cmp(&a->k, &b->k);
  return c ? c : (a->i > b->i) - (a->i < b->i);
}

static int key_only_cmp(const void *pa, const void *pb) {
  return key_cmp(&((const entry *)pa)->k, &((const entry *)pb)->k);
}

static const char *group_name(const gb_srec_row *row, char *buf, size_t len) {
  snprintf(buf, len, "%s %s %s %s", gb_srec_kind_name(row->kind), row->language, row->workload,
           row->params);
  return buf;
}

/* The rows of each group: runs.csv at most settings.runs of each kind (all
 * of them once meta.json says complete); warmups.csv numbered from 0, as
 * many as calibration took (as the study's: settings.warmups at least, more
 * while a loop misses its aim, and the startup warm-ups). The earliest line
 * that breaks a rule is reported. */
static int check_groups(reader *r, const entry *e) {
  const gb_srec_meta *m = &r->r->meta;
  uint64_t most = r->warmups ? UINT64_MAX : m->settings.runs;
  const gb_srec_row *bad = NULL;
  char why[GB_SREC_PARAMS_MAX + 256] = "", group[GB_SREC_PARAMS_MAX + 96];
  for (size_t i = 0, first = 0; i < r->n; i++) {
    if (i > 0 && key_cmp(&e[i - 1].k, &e[i].k) != 0)
      first = i;
    const gb_srec_row *row = &r->rows[e[i].i];
    size_t k = i - first; /* the row's place in its group */
    bool last = i + 1 == r->n || key_cmp(&e[i].k, &e[i + 1].k) != 0;
    if (bad && bad->line < row->line)
      continue;
    if (k == most)
      snprintf(why, sizeof why, "run %zu of %s, but meta.json settings.%s is %" PRIu64, k + 1,
               group_name(row, group, sizeof group), r->warmups ? "warmups" : "runs", most);
    else if (r->warmups && row->run != k)
      snprintf(why, sizeof why,
               "run %" PRIu64 " out of sequence, expected %zu (warm-ups count from 0 per "
               "configuration)",
               row->run, k);
    else if (last && m->complete && !r->warmups && k + 1 < most)
      snprintf(why, sizeof why,
               "%s ends after %zu runs, but meta.json is complete with settings.runs %" PRIu64,
               group_name(row, group, sizeof group), k + 1, most);
    else
      continue;
    bad = row;
  }
  return bad ? gb_err_set(r->err, EINVAL, "%s:%zu: %s", r->name, bad->line, why) : 0;
}

/* Once complete, each configuration of runs.csv has work and startup rows. */
static int check_pairs(reader *r, const entry *e) {
  if (r->warmups || !r->r->meta.complete)
    return 0;
  for (size_t i = 0; i < r->n; i++) {
    if (i > 0 && key_cmp(&e[i - 1].k, &e[i].k) == 0)
      continue;
    entry other = e[i];
    other.k.kind = e[i].k.kind == GB_SREC_KIND_WORK ? GB_SREC_KIND_STARTUP : GB_SREC_KIND_WORK;
    if (bsearch(&other, e, r->n, sizeof *e, key_only_cmp))
      continue;
    const gb_srec_row *row = &r->rows[e[i].i];
    return gb_err_set(r->err, EINVAL,
                      "%s:%zu: %s %s %s has %s rows but no %s rows, and meta.json is complete",
                      r->name, row->line, row->language, row->workload, row->params,
                      gb_srec_kind_name(row->kind),
                      gb_srec_kind_name((gb_srec_kind)other.k.kind));
  }
  return 0;
}

static int check_file(reader *r) {
  entry *e = malloc((r->n ? r->n : 1) * sizeof *e);
  if (!e)
    return gb_err_set(r->err, ENOMEM, "%s: out of memory", r->name);
  for (size_t i = 0; i < r->n; i++)
    e[i] = (entry){r->keys[i], i};
  qsort(e, r->n, sizeof *e, entry_cmp);
  int rc = check_groups(r, e);
  if (rc == 0)
    rc = check_pairs(r, e);
  free(e);
  return rc;
}

/* ---- The folder, or a packed one ------------------------------------------ */

/* Where the files come from: a folder, or the memory files of a packed one
 * (gbi_pack_unpack), named "<archive>:<top>" in messages. */
typedef struct {
  const char *dir;
  const int *fds; /* NULL for a folder; else by GBI_KEPT_* */
} source;

/* file (kept file k of a packed folder) read whole into *buf. */
static int read_file(const source *src, const char *file, int k, char **buf, size_t *len,
                     gb_err *err) {
  char path[4096];
  int fd = -1;
  int rc = gb_path_join(path, sizeof path, src->dir, file, err);
  if (rc == 0 && src->fds)
    return gbi_file_read_all(src->fds[k], path, buf, len, err);
  if (rc == 0)
    rc = gbi_file_open_in(src->dir, file, &fd, err);
  if (rc == 0)
    rc = gbi_file_read_all(fd, path, buf, len, err);
  if (fd >= 0)
    close(fd);
  return rc;
}

static int read_rows(const source *src, const char *file, gb_srec_records *out, gb_err *err) {
  reader r = {.name = file, .warmups = strcmp(file, "warmups.csv") == 0, .r = out, .err = err};
  char *buf = NULL;
  size_t len = 0;
  int rc = read_file(src, file, r.warmups ? GBI_KEPT_WARMUPS : GBI_KEPT_RUNS, &buf, &len, err);
  if (rc == 0 && !(r.scratch = malloc(GB_SREC_LINE_MAX)))
    rc = gb_err_set(err, ENOMEM, "%s: out of memory", file);
  if (rc == 0)
    rc = gbi_csv_lines(buf, len, file, parse_line, &r, err);
  if (rc == 0)
    rc = check_file(&r);
  free(buf);
  free(r.scratch);
  free(r.keys);
  if (rc < 0) {
    free(r.rows);
    return rc;
  }
  if (r.warmups) {
    out->warmups = r.rows;
    out->n_warmups = r.n;
  } else {
    out->runs = r.rows;
    out->n_runs = r.n;
  }
  return 0;
}

static int read_meta(const source *src, gb_srec_meta *m, gb_err *err) {
  char *buf = NULL;
  size_t len = 0;
  int rc = read_file(src, "meta.json", GBI_KEPT_META, &buf, &len, err);
  if (rc == 0)
    rc = gb_srec_meta_parse(buf, len, m, err);
  free(buf);
  return rc;
}

/* suite.json is the suite meta.json names, and lists meta's languages. */
static int read_suite(const source *src, gb_srec_records *out, gb_err *err) {
  char path[4096], *text = NULL;
  size_t len = 0;
  const gb_srec_meta *m = &out->meta;
  int rc = gb_path_join(path, sizeof path, src->dir, "suite.json", err);
  if (rc == 0 && !src->fds)
    rc = gb_suite_load(path, &out->suite, err);
  else if (rc == 0 &&
           (rc = read_file(src, "suite.json", GBI_KEPT_SUITE, &text, &len, err)) == 0)
    rc = len > GB_SUITE_FILE_MAX ? gb_err_set(err, EFBIG, "suite %s: %s: more than %u bytes",
                                              path, path, GB_SUITE_FILE_MAX)
                                 : gb_suite_parse(text, len, path, &out->suite, err);
  free(text);
  if (rc < 0)
    return rc;
  if (strcmp(out->suite.hash, m->suite_hash) != 0)
    return gb_err_set(err, EINVAL,
                      "meta.json: suite.hash: %s, but suite.json's XXH128 is %s (the suite "
                      "file was changed after the campaign)",
                      m->suite_hash, out->suite.hash);
  if (strcmp(out->suite.name, m->suite_name) != 0)
    return gb_err_set(err, EINVAL, "meta.json: suite.name: %s, but suite.json's name is %s",
                      m->suite_name, out->suite.name);
  for (size_t i = 0; i < m->n_languages; i++)
    if (find_language(&out->suite, m->languages[i].name) == out->suite.n_languages)
      return gb_err_set(err, EINVAL,
                        "meta.json: languages[%zu].name: %s is not a language of suite.json", i,
                        m->languages[i].name);
  return 0;
}

static int read_source(const source *src, gb_srec_records **out, gb_err *err) {
  gb_srec_records *r = calloc(1, sizeof *r);
  if (!r)
    return gb_err_set(err, ENOMEM, "%s: out of memory", src->dir);
  int rc = read_meta(src, &r->meta, err);
  if (rc == 0)
    rc = read_suite(src, r, err);
  if (rc == 0)
    rc = read_rows(src, "runs.csv", r, err);
  if (rc == 0)
    rc = read_rows(src, "warmups.csv", r, err);
  if (rc < 0) {
    gb_srec_free(r);
    return rc;
  }
  *out = r;
  return 0;
}

int gb_srec_read(const char *dir, gb_srec_records **out, gb_err *err) {
  return read_source(&(source){.dir = dir}, out, err);
}

int gbi_srec_read_unpacked(const gbi_unpacked *u, gb_srec_records **out, gb_err *err) {
  return read_source(&(source){.dir = u->shown, .fds = u->fd}, out, err);
}

void gb_srec_free(gb_srec_records *r) {
  if (!r)
    return;
  gb_suite_free(&r->suite);
  free(r->runs);
  free(r->warmups);
  free(r);
}

bool gbi_srec_is_suite_meta(const char *text, size_t len) {
  gb_err err;
  cJSON *root = NULL;
  bool yes = gbi_json_parse_strict(text, len, "meta.json", "meta.json", &root, &err) == 0;
  const cJSON *format = yes ? cJSON_GetObjectItemCaseSensitive(root, "format") : NULL;
  yes = cJSON_IsString(format) && strcmp(format->valuestring, GB_SUITE_RECORDS_FORMAT) == 0;
  cJSON_Delete(root);
  return yes;
}

bool gb_srec_is_suite_folder(const char *dir) {
  char *buf = NULL;
  size_t len = 0;
  gb_err err;
  if (read_file(&(source){.dir = dir}, "meta.json", GBI_KEPT_META, &buf, &len, &err) < 0)
    return false;
  bool yes = gbi_srec_is_suite_meta(buf, len);
  free(buf);
  return yes;
}
