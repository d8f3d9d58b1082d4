/* The strict reader of runs.csv and warmups.csv: lines through the CSV
 * splitter, fields through the schema, rows against meta.json, then the
 * rows grouped by configuration for the stats stage. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/records_read.h"
#include "greenbench/text.h"
#include "records_internal.h"

typedef struct {
  const char *name;
  gb_rec_file which;
  const gb_meta *meta;
  gbi_rec_rules *rules; /* with meta: the bounds of records_rules.c */
  gb_err *err;
  size_t line;
  gb_rec_table t;
  size_t cap;
  char *scratch;
  size_t scratch_cap;
  gbi_csv_field f[GB_REC_COL_COUNT + 1]; /* one more: a header with an extra column */
  size_t n_fields;
} reader;

/* A message located at the current line, from a message about the row. */
static int at_line(reader *r, int rc, const gb_err *what) {
  return gb_err_set(r->err, -rc, "%s:%zu: %s", r->name, r->line, what->msg);
}

static int split(reader *r, const char *s, size_t len) {
  if (len > r->scratch_cap) {
    char *p = realloc(r->scratch, len);
    if (!p)
      return gb_err_set(r->err, ENOMEM, "%s:%zu: out of memory", r->name, r->line);
    r->scratch = p;
    r->scratch_cap = len;
  }
  const char *why;
  if (gbi_csv_split(s, len, r->scratch, r->f, GB_REC_COL_COUNT + 1, &r->n_fields, &why) < 0)
    return gb_err_set(r->err, EINVAL, "%s:%zu: malformed CSV: %s", r->name, r->line, why);
  return 0;
}

static const char *study_column(size_t c) {
  return gb_records_column((gb_rec_col)c)->name;
}

static int check_header(reader *r, size_t n) {
  return gbi_csv_check_header(r->f, n, study_column, GB_REC_COL_COUNT, r->name, r->err);
}

/* ---- Rows against meta.json ------------------------------------------ */

static bool meta_has_dram(const gb_meta *m) {
  for (size_t i = 0; i < m->energy.n_zones; i++)
    if (m->energy.zones[i].kind == GB_META_ZONE_DRAM)
      return true;
  return false;
}

static int check_configuration(reader *r, const gb_run_row *row) {
  const gb_meta *m = r->meta;
  if (row->kind == GB_REC_KIND_SORT &&
      !gb_meta_plans(m, row->language, row->algorithm, row->order, row->size))
    return gb_err_set(r->err, EINVAL,
                      "unknown configuration %s/%s/%s/%" PRIu64
                      " at %s:%zu: not in meta.json settings",
                      gb_language_name(row->language), gb_algorithm_name(row->algorithm),
                      gb_order_name(row->order), row->size, r->name, r->line);
  if (row->kind == GB_REC_KIND_STARTUP &&
      !gb_meta_plans_startup(m, row->language, row->order, row->size))
    return gb_err_set(r->err, EINVAL,
                      "unknown startup trial %s/%s/%" PRIu64
                      " at %s:%zu: not in meta.json settings",
                      gb_language_name(row->language), gb_order_name(row->order), row->size,
                      r->name, r->line);
  if (row->seed != m->settings.seed)
    return gb_err_set(r->err, EINVAL,
                      "%s:%zu: seed: %" PRIu64 ", but meta.json settings.seed is %" PRIu64,
                      r->name, r->line, row->seed, m->settings.seed);
  return 0;
}

static int check_row_energy(reader *r, const gb_run_row *row) {
  const gb_meta *m = r->meta;
  bool dram = meta_has_dram(m);
  if (row->energy == GB_REC_ENERGY_OK && m->energy.status != GB_REC_ENERGY_OK)
    return gb_err_set(r->err, EINVAL, "%s:%zu: energy: ok, but meta.json energy.status is %s",
                      r->name, r->line, gb_rec_energy_name(m->energy.status));
  if (!dram && (row->dram_uj.present || row->idle_dram_uj.present))
    return gb_err_set(r->err, EINVAL,
                      "%s:%zu: %s: holds a value, but meta.json lists no dram zone", r->name,
                      r->line, row->dram_uj.present ? "dram_uj" : "idle_dram_uj");
  if (dram && row->energy == GB_REC_ENERGY_OK && row->status == GB_REC_STATUS_OK &&
      !row->dram_uj.present)
    return gb_err_set(r->err, EINVAL, "%s:%zu: dram_uj: empty, but meta.json lists a dram zone",
                      r->name, r->line);
  return 0;
}

/* runs.csv numbers its rows 0, 1, 2, ... and stops at the plan. */
static int check_sequence(reader *r, const gb_run_row *row) {
  size_t index = r->t.n_rows;
  if (row->run != index)
    return gb_err_set(r->err, EINVAL, "%s:%zu: run %" PRIu64 " out of sequence, expected %zu",
                      r->name, r->line, row->run, index);
  if (r->meta && index >= r->meta->plan.measured_runs)
    return gb_err_set(r->err, EINVAL,
                      "%s:%zu: row %zu is beyond meta.json plan.measured_runs %" PRIu64,
                      r->name, r->line, index + 1, r->meta->plan.measured_runs);
  return 0;
}

static int append(reader *r, const gb_run_row *row) {
  if (r->t.n_rows == r->cap) {
    size_t cap = r->cap ? 2 * r->cap : 256;
    gb_run_row *p = realloc(r->t.rows, cap * sizeof *p);
    if (!p)
      return gb_err_set(r->err, ENOMEM, "%s:%zu: out of memory", r->name, r->line);
    r->t.rows = p;
    r->cap = cap;
  }
  r->t.rows[r->t.n_rows++] = *row;
  return 0;
}

static int parse_row(reader *r) {
  gb_run_row row = {0};
  gb_err e;
  int rc;
  if (r->n_fields < GB_REC_COL_COUNT)
    return gb_err_set(r->err, EINVAL, "%s:%zu: truncated line: %zu of %d fields", r->name,
                      r->line, r->n_fields, GB_REC_COL_COUNT);
  if (r->n_fields > GB_REC_COL_COUNT)
    return gb_err_set(r->err, EINVAL, "%s:%zu: %zu fields, expected %d", r->name, r->line,
                      r->n_fields, GB_REC_COL_COUNT);
  for (int c = 0; c < GB_REC_COL_COUNT; c++)
    if ((rc = gbi_rec_parse_field(&row, (gb_rec_col)c, r->f[c].s, r->f[c].len, &e)) < 0)
      return at_line(r, rc, &e);
  if ((rc = gb_run_row_check(&row, &e)) < 0)
    return at_line(r, rc, &e);
  row.line = r->line;
  if (r->meta &&
      ((rc = check_configuration(r, &row)) < 0 || (rc = check_row_energy(r, &row)) < 0))
    return rc;
  if (r->which == GB_REC_FILE_RUNS && (rc = check_sequence(r, &row)) < 0)
    return rc;
  if (r->rules && (rc = gbi_rec_rules_check_row(r->rules, r->which, &row, &e)) < 0)
    return at_line(r, rc, &e);
  return append(r, &row);
}

static int parse_line(void *ctx, size_t line, const char *s, size_t len) {
  reader *r = ctx;
  int rc;
  r->line = line;
  if ((rc = split(r, s, len)) < 0)
    return rc;
  return r->line == 1 ? check_header(r, r->n_fields) : parse_row(r);
}

static int parse_lines(reader *r, const char *buf, size_t len) {
  return gbi_csv_lines(buf, len, r->name, parse_line, r, r->err);
}

/* The whole file against meta.json's progress. */
static int check_count(reader *r) {
  const gb_meta *m = r->meta;
  size_t n = r->t.n_rows;
  if (!m || r->which != GB_REC_FILE_RUNS)
    return 0;
  if (m->completed && n != m->plan.measured_runs)
    return gb_err_set(r->err, EINVAL,
                      "%s:%zu: ends after %zu rows, but meta.json is completed with %" PRIu64
                      " measured runs",
                      r->name, r->line, n, m->plan.measured_runs);
  if (m->runs_done > n)
    return gb_err_set(r->err, EINVAL,
                      "%s:%zu: ends after %zu rows, but meta.json runs_done is %" PRIu64,
                      r->name, r->line, n, m->runs_done);
  return 0;
}

/* ---- Groups ------------------------------------------------------------ */

static int key_cmp(const gb_run_row *a, const gb_run_row *b) {
  if (a->kind != b->kind)
    return a->kind < b->kind ? -1 : 1;
  if (a->language != b->language)
    return a->language < b->language ? -1 : 1;
  if (a->kind == GB_REC_KIND_SORT && a->algorithm != b->algorithm)
    return a->algorithm < b->algorithm ? -1 : 1;
  if (a->order != b->order)
    return a->order < b->order ? -1 : 1;
  if (a->size != b->size)
    return a->size < b->size ? -1 : 1;
  return 0;
}

/* By key, then by position, which keeps each group in execution order. */
static int row_ptr_cmp(const void *pa, const void *pb) {
  const gb_run_row *a = *(const gb_run_row *const *)pa, *b = *(const gb_run_row *const *)pb;
  int c = key_cmp(a, b);
  return c ? c : (a < b ? -1 : a > b);
}

static gb_rec_group group_of(const gb_run_row **rows) {
  const gb_run_row *k = rows[0];
  return (gb_rec_group){
      k->kind,  k->language, k->kind == GB_REC_KIND_SORT ? k->algorithm : (gb_algorithm)0,
      k->order, k->size,     rows,
      0};
}

static int build_groups(gb_rec_table *t) {
  size_t n = t->n_rows;
  t->group_rows = malloc((n ? n : 1) * sizeof *t->group_rows);
  t->groups = malloc((n ? n : 1) * sizeof *t->groups);
  if (!t->group_rows || !t->groups)
    return -ENOMEM;
  for (size_t i = 0; i < n; i++)
    t->group_rows[i] = &t->rows[i];
  qsort(t->group_rows, n, sizeof *t->group_rows, row_ptr_cmp);
  t->n_groups = 0;
  for (size_t i = 0; i < n; i++) {
    if (i == 0 || key_cmp(t->group_rows[i - 1], t->group_rows[i]) != 0)
      t->groups[t->n_groups++] = group_of(&t->group_rows[i]);
    t->groups[t->n_groups - 1].n_rows++;
  }
  return 0;
}

/* No configuration or startup trial of runs.csv has more rows than
 * settings.runs; with the plan and the row count that makes a completed
 * campaign hold exactly settings.runs of each. The earliest extra row is
 * reported. */
static int check_group_sizes(reader *r) {
  const gb_run_row *extra = NULL;
  uint64_t runs = r->meta->settings.runs;
  for (size_t g = 0; g < r->t.n_groups; g++) {
    const gb_rec_group *grp = &r->t.groups[g];
    if (grp->n_rows > runs && (!extra || grp->rows[runs]->line < extra->line))
      extra = grp->rows[runs];
  }
  if (!extra)
    return 0;
  char key[96];
  if (extra->kind == GB_REC_KIND_SORT)
    snprintf(key, sizeof key, "configuration %s/%s/%s/%" PRIu64,
             gb_language_name(extra->language), gb_algorithm_name(extra->algorithm),
             gb_order_name(extra->order), extra->size);
  else
    snprintf(key, sizeof key, "startup trial %s/%s/%" PRIu64, gb_language_name(extra->language),
             gb_order_name(extra->order), extra->size);
  return gb_err_set(r->err, EINVAL,
                    "%s:%zu: run %" PRIu64 " of %s, but meta.json settings.runs is %" PRIu64,
                    r->name, extra->line, runs + 1, key, runs);
}

/* warmups.csv numbers each group's rows 0, 1, 2, ...; the earliest line
 * that breaks it is reported. */
static int check_warmup_sequence(reader *r) {
  const gb_run_row *bad = NULL;
  uint64_t expected = 0;
  for (size_t g = 0; g < r->t.n_groups; g++)
    for (size_t i = 0; i < r->t.groups[g].n_rows; i++) {
      const gb_run_row *row = r->t.groups[g].rows[i];
      if (row->run != i && (!bad || row->line < bad->line)) {
        bad = row;
        expected = i;
      }
    }
  if (!bad)
    return 0;
  return gb_err_set(r->err, EINVAL,
                    "%s:%zu: run %" PRIu64 " out of sequence, expected %" PRIu64
                    " (warm-ups count from 0 per configuration)",
                    r->name, bad->line, bad->run, expected);
}

void gb_rec_table_free(gb_rec_table *t) {
  free(t->rows);
  free(t->groups);
  free(t->group_rows);
  memset(t, 0, sizeof *t);
}

int gb_records_parse_csv(const char *buf, size_t len, const char *name, gb_rec_file which,
                         const gb_meta *meta, gb_rec_table *t, gb_err *err) {
  gbi_rec_rules *rules = NULL;
  int rc = meta ? gbi_rec_rules_new(meta, "meta.json", &rules, err) : 0;
  if (rc == 0)
    rc = gbi_records_parse_csv_rules(buf, len, name, which, meta, rules, t, err);
  gbi_rec_rules_free(rules);
  return rc;
}

int gbi_records_parse_csv_rules(const char *buf, size_t len, const char *name,
                                gb_rec_file which, const gb_meta *meta, gbi_rec_rules *rules,
                                gb_rec_table *t, gb_err *err) {
  reader r = {.name = name, .which = which, .meta = meta, .rules = rules, .err = err};
  int rc = parse_lines(&r, buf, len);
  if (rc == 0)
    rc = check_count(&r);
  if (rc == 0 && build_groups(&r.t) < 0)
    rc = gb_err_set(err, ENOMEM, "%s: out of memory", name);
  if (rc == 0 && meta && which == GB_REC_FILE_RUNS)
    rc = check_group_sizes(&r);
  if (rc == 0 && which == GB_REC_FILE_WARMUPS)
    rc = check_warmup_sequence(&r);
  free(r.scratch);
  if (rc < 0) {
    gb_rec_table_free(&r.t);
    return rc;
  }
  *t = r.t;
  return 0;
}

static const gb_rec_group *find(const gb_rec_table *t, const gb_run_row *key) {
  size_t lo = 0, hi = t->n_groups;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = key_cmp(t->groups[mid].rows[0], key);
    if (c == 0)
      return &t->groups[mid];
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return NULL;
}

const gb_rec_group *gb_rec_table_find_sort(const gb_rec_table *t, gb_language l, gb_algorithm a,
                                           gb_order o, uint64_t size) {
  gb_run_row key = {
      .kind = GB_REC_KIND_SORT, .language = l, .algorithm = a, .order = o, .size = size};
  return find(t, &key);
}

const gb_rec_group *gb_rec_table_find_startup(const gb_rec_table *t, gb_language l, gb_order o,
                                              uint64_t size) {
  gb_run_row key = {.kind = GB_REC_KIND_STARTUP, .language = l, .order = o, .size = size};
  return find(t, &key);
}
