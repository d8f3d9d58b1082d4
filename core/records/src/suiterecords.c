/* The rows of a suite campaign's runs.csv and warmups.csv
 * (greenbench/suiterecords.h): the column table, the writer, the parsing of
 * one row and the rules a row keeps alone. The study's value sets (records.c)
 * and the field text of rowtext.c do the work; only the columns are new. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/suiterecords.h"

#include "greenbench/numparse.h"
#include "records_internal.h"

static const char *const kind_names[] = {"work", "startup"};
_Static_assert(sizeof kind_names / sizeof *kind_names == GB_SREC_KIND_COUNT, "kind names");

GB_REC_NAME_FUNCS(gb_srec_kind, kind_names)

/* ---- The columns ------------------------------------------------------- */

typedef enum {
  T_UINT,     /* uint64_t, or gb_rec_opt_u64 when optional */
  T_NS,       /* the same, a time in ns */
  T_INT,      /* gb_rec_opt_i64 */
  T_KIND,     /* the enums, each its own field */
  T_STATUS,   /* (the C standard leaves an enum's size to the compiler) */
  T_ENERGY,   /*  */
  T_NAME,     /* a suite name */
  T_PARAMS,   /* "n=1000;m=4" */
  T_COUNTERS, /* "advances=1000;pairs=10000", names in byte order */
  T_HASH,     /* 16 lowercase hex digits */
  T_TEXT,     /* the message */
} col_type;

typedef struct {
  const char *name;
  col_type type;
  bool optional;
  size_t off, size; /* the field; size for text fields */
  uint64_t min, max;
} column;

#define F(f) offsetof(gb_srec_row, f), sizeof((gb_srec_row *)0)->f
#define REQ(f, t, lo, hi)                                                                      \
  { #f, t, false, F(f), lo, hi }
#define OPT(f, t)                                                                              \
  { #f, t, true, F(f), 0, UINT64_MAX }
#define TXT(f, t, o)                                                                           \
  { #f, t, o, F(f), 0, 0 }

static const column columns[] = {
    REQ(run, T_UINT, 0, UINT64_MAX),
    TXT(kind, T_KIND, false),
    TXT(language, T_NAME, false),
    TXT(workload, T_NAME, false),
    TXT(params, T_PARAMS, false),
    REQ(seed, T_UINT, 1, UINT32_MAX),
    REQ(reps, T_UINT, 0, UINT64_MAX),
    REQ(launches, T_UINT, 1, UINT64_MAX),
    TXT(status, T_STATUS, false),
    OPT(wall_ns, T_NS),
    OPT(user_ns, T_NS),
    OPT(sys_ns, T_NS),
    OPT(max_rss_kib, T_UINT),
    OPT(loop_ns, T_NS),
    TXT(counters, T_COUNTERS, true),
    TXT(input_hash, T_HASH, true),
    TXT(output_hash, T_HASH, true),
    TXT(energy, T_ENERGY, false),
    OPT(pkg_uj, T_UINT),
    OPT(dram_uj, T_UINT),
    OPT(idle_ns, T_NS),
    OPT(idle_pkg_uj, T_UINT),
    OPT(idle_dram_uj, T_UINT),
    OPT(freq_start_khz, T_UINT),
    OPT(freq_end_khz, T_UINT),
    OPT(temp_start_mc, T_INT),
    OPT(temp_end_mc, T_INT),
    REQ(started_unix_ns, T_NS, 0, UINT64_MAX),
    TXT(message, T_TEXT, true),
};
_Static_assert(sizeof columns / sizeof *columns == GBI_SREC_COLS, "the columns");

#define AT(type, r, c) ((type *)((char *)(r) + (c)->off))
#define AT_C(type, r, c) ((const type *)((const char *)(r) + (c)->off))

const char *gbi_srec_column_name(size_t c) {
  return c < GBI_SREC_COLS ? columns[c].name : NULL;
}

/* The enum columns: the value set and the value as unsigned. */
static gbi_rec_name_set enum_set(col_type t) {
  switch (t) {
  case T_KIND:
    return GB_REC_SET(kind_names);
  case T_STATUS:
    return GB_REC_SET(gbi_rec_status_names);
  default:
    return GB_REC_SET(gbi_rec_energy_names);
  }
}

static unsigned enum_get(const gb_srec_row *r, col_type t) {
  return t == T_KIND     ? (unsigned)r->kind
         : t == T_STATUS ? (unsigned)r->status
                         : (unsigned)r->energy;
}

static void enum_put(gb_srec_row *r, col_type t, int v) {
  if (t == T_KIND)
    r->kind = (gb_srec_kind)v;
  else if (t == T_STATUS)
    r->status = (gb_rec_status)v;
  else
    r->energy = (gb_rec_energy)v;
}

static bool is_enum(col_type t) {
  return t == T_KIND || t == T_STATUS || t == T_ENERGY;
}

/* Whether column c holds a value in r (required ones always do). */
static bool has_value(const gb_srec_row *r, const column *c) {
  if (!c->optional)
    return true;
  switch (c->type) {
  case T_INT:
    return AT_C(gb_rec_opt_i64, r, c)->present;
  case T_UINT:
  case T_NS:
    return AT_C(gb_rec_opt_u64, r, c)->present;
  default:
    return AT_C(char, r, c)[0] != '\0';
  }
}

static const column *column_named(const char *name) {
  for (size_t c = 0; c < GBI_SREC_COLS; c++)
    if (strcmp(columns[c].name, name) == 0)
      return &columns[c];
  return NULL;
}

/* ---- "name=value;..." lists -------------------------------------------- */

static int pair_value(const char *col, const char *name, const char *s, size_t len,
                      uint64_t max, uint64_t *out, gb_err *err) {
  gb_excerpt_buf b;
  int rc = len > 1 && s[0] == '0' ? -EINVAL : gb_parse_u64_n(s, len, 0, max, out);
  if (rc == -ERANGE)
    return gb_err_set(err, EINVAL, "%s: %s: '%s' is above %" PRIu64, col, name,
                      gbi_field_shown(&b, s, len), max);
  if (rc < 0)
    return gb_err_set(err, EINVAL, "%s: %s: '%s' is not a plain decimal integer", col, name,
                      gbi_field_shown(&b, s, len));
  return 0;
}

/* One "name=value" of s[0..len) into *out; when names, the value may be a
 * name. */
static int pair_parse(const char *col, const char *s, size_t len, uint64_t max, bool names,
                      gbi_srec_pair *out, gb_err *err) {
  gb_excerpt_buf b;
  const char *eq = memchr(s, '=', len);
  size_t n = eq ? (size_t)(eq - s) : len;
  if (!eq)
    return gb_err_set(err, EINVAL, "%s: '%s' is not name=value", col,
                      gbi_field_shown(&b, s, len));
  if (n > GB_SUITE_NAME_MAX)
    return gb_err_set(err, EINVAL, "%s: '%s' is not a name", col, gbi_field_shown(&b, s, n));
  memcpy(out->name, s, n);
  out->name[n] = '\0';
  if (!gb_suite_name_ok(out->name))
    return gb_err_set(err, EINVAL, "%s: '%s' is not a name", col, gbi_field_shown(&b, s, n));
  const char *v = eq + 1;
  size_t vn = len - n - 1;
  out->value = 0;
  out->text[0] = '\0';
  if (names && vn > 0 && (v[0] < '0' || v[0] > '9')) {
    if (vn < sizeof out->text) {
      memcpy(out->text, v, vn);
      out->text[vn] = '\0';
    }
    if (!out->text[0] || !gb_suite_name_ok(out->text))
      return gb_err_set(err, EINVAL,
                        "%s: %s: '%s' is neither a plain decimal integer nor a name", col,
                        out->name, gbi_field_shown(&b, v, vn));
    return 0;
  }
  int rc = pair_value(col, out->name, v, vn, max, &out->value, err);
  if (rc == 0)
    snprintf(out->text, sizeof out->text, "%" PRIu64, out->value);
  return rc;
}

int gbi_srec_pairs_parse(const char *col, const char *s, size_t len, size_t max_pairs,
                         uint64_t max, bool sorted, bool names, gbi_srec_pair *out, size_t *n,
                         gb_err *err) {
  size_t k = 0;
  const char *p = s, *end = s + len;
  while (len > 0) {
    const char *semi = memchr(p, ';', (size_t)(end - p));
    const char *stop = semi ? semi : end;
    if (k == max_pairs)
      return gb_err_set(err, EINVAL, "%s: more than %zu entries", col, max_pairs);
    int rc = pair_parse(col, p, (size_t)(stop - p), max, names, &out[k], err);
    if (rc < 0)
      return rc;
    for (size_t i = 0; i < k; i++)
      if (strcmp(out[i].name, out[k].name) == 0)
        return gb_err_set(err, EINVAL, "%s: %s appears twice", col, out[k].name);
    if (sorted && k > 0 && strcmp(out[k - 1].name, out[k].name) > 0)
      return gb_err_set(err, EINVAL, "%s: %s comes after %s; the names are in byte order", col,
                        out[k].name, out[k - 1].name);
    k++;
    if (!semi)
      break;
    p = semi + 1;
  }
  *n = k;
  return 0;
}

static int pairs_check(const column *c, const char *s, size_t len, gb_err *err) {
  gbi_srec_pair pairs[GB_SUITE_COUNTERS_MAX];
  size_t n;
  bool params = c->type == T_PARAMS;
  return gbi_srec_pairs_parse(
      c->name, s, len, params ? GB_SUITE_PARAMETERS_MAX : GB_SUITE_COUNTERS_MAX,
      params ? GB_SUITE_VALUE_MAX : UINT64_MAX, !params, params, pairs, &n, err);
}

/* names[i]=values[i] joined by ';' into buf[len]: its length or -ENOSPC. */
static int pairs_text(const char *const *names, const uint64_t *values, size_t n, char *buf,
                      size_t len) {
  gbi_out o = {buf, len, 0, false};
  for (size_t i = 0; i < n; i++) {
    gbi_out_str(&o, i ? ";" : "");
    gbi_out_str(&o, names[i]);
    gbi_out_put(&o, "=", 1);
    gbi_out_u64(&o, values[i]);
  }
  if (o.full || o.pos >= len) {
    if (len)
      buf[0] = '\0';
    return -ENOSPC;
  }
  buf[o.pos] = '\0';
  return (int)o.pos;
}

int gb_srec_params_text(const gb_suite_workload *w, const uint64_t *values, char *buf,
                        size_t len) {
  int rc = gb_suite_params_join(w, values, ";", buf, len);
  if (rc < 0 && len)
    buf[0] = '\0';
  return rc;
}

static int by_name(const void *a, const void *b) {
  return strcmp((*(const gb_suite_counter *const *)a)->name,
                (*(const gb_suite_counter *const *)b)->name);
}

int gb_srec_counters_text(const gb_suite_counter *c, size_t n, char *buf, size_t len) {
  const gb_suite_counter *sorted[GB_SUITE_COUNTERS_MAX];
  const char *names[GB_SUITE_COUNTERS_MAX];
  uint64_t values[GB_SUITE_COUNTERS_MAX];
  if (n > GB_SUITE_COUNTERS_MAX)
    return -EINVAL;
  for (size_t i = 0; i < n; i++) {
    if (!gb_suite_name_ok(c[i].name))
      return -EINVAL;
    sorted[i] = &c[i];
  }
  qsort(sorted, n, sizeof *sorted, by_name);
  for (size_t i = 0; i < n; i++) {
    if (i && strcmp(sorted[i - 1]->name, sorted[i]->name) == 0)
      return -EINVAL;
    names[i] = sorted[i]->name;
    values[i] = sorted[i]->value;
  }
  return pairs_text(names, values, n, buf, len);
}

/* ---- Writer ------------------------------------------------------------ */

int gb_srec_header(char *buf, size_t len) {
  gbi_out o = {buf, len, 0, false};
  for (size_t c = 0; c < GBI_SREC_COLS; c++) {
    gbi_out_str(&o, c ? "," : "");
    gbi_out_str(&o, columns[c].name);
  }
  return gbi_out_finish(&o);
}

/* Whether a text field of r ends inside its room. */
static bool terminated(const gb_srec_row *r, const column *c) {
  return memchr(AT_C(char, r, c), '\0', c->size) != NULL;
}

static int put_field(gbi_out *o, const gb_srec_row *r, const column *c) {
  if (is_enum(c->type)) {
    const char *name = gbi_rec_set_name(enum_set(c->type), enum_get(r, c->type));
    if (!name)
      return -EINVAL;
    gbi_out_str(o, name);
    return 0;
  }
  switch (c->type) {
  case T_INT:
    if (AT_C(gb_rec_opt_i64, r, c)->present)
      gbi_out_i64(o, AT_C(gb_rec_opt_i64, r, c)->value);
    return 0;
  case T_UINT:
  case T_NS:
    if (!c->optional)
      gbi_out_u64(o, *AT_C(uint64_t, r, c));
    else if (AT_C(gb_rec_opt_u64, r, c)->present)
      gbi_out_u64(o, AT_C(gb_rec_opt_u64, r, c)->value);
    return 0;
  default:
    break;
  }
  if (!terminated(r, c))
    return -EINVAL;
  const char *s = AT_C(char, r, c);
  if (c->type == T_TEXT) {
    gbi_out_message(o, s);
    return 0;
  }
  /* Names, lists and hashes are written bare: they must be what the reader
   * takes back, so that nothing needs quotes. */
  gb_err e;
  if ((c->type == T_NAME && !gb_suite_name_ok(s)) ||
      (c->type == T_HASH && s[0] && !gbi_is_hash(s, strlen(s))) ||
      (c->type == T_PARAMS && !s[0]) ||
      ((c->type == T_PARAMS || c->type == T_COUNTERS) && pairs_check(c, s, strlen(s), &e) < 0))
    return -EINVAL;
  gbi_out_str(o, s);
  return 0;
}

int gb_srec_format_row(const gb_srec_row *row, char *buf, size_t len) {
  gbi_out o = {buf, len, 0, false};
  for (size_t c = 0; c < GBI_SREC_COLS; c++) {
    gbi_out_str(&o, c ? "," : "");
    if (put_field(&o, row, &columns[c]) < 0) {
      if (len)
        buf[0] = '\0';
      return -EINVAL;
    }
  }
  return gbi_out_finish(&o);
}

/* ---- Reading one row --------------------------------------------------- */

static int parse_text(gb_srec_row *r, const column *c, const char *s, size_t len, gb_err *err) {
  char *out = AT(char, r, c);
  int rc;
  switch (c->type) {
  case T_HASH:
    return gbi_field_hash(c->name, s, len, out, err);
  case T_NAME:
    if (len <= GB_SUITE_NAME_MAX) {
      memcpy(out, s, len);
      out[len] = '\0';
    }
    if (len > GB_SUITE_NAME_MAX || !gb_suite_name_ok(out))
      return gb_err_set(err, EINVAL, "%s: '%s' is not a name", c->name,
                        gbi_field_shown(&(gb_excerpt_buf){{0}}, s, len));
    return 0;
  case T_PARAMS:
  case T_COUNTERS:
    if ((rc = pairs_check(c, s, len, err)) < 0)
      return rc;
    if (len >= c->size)
      return gb_err_set(err, EINVAL, "%s: longer than %zu bytes", c->name, c->size - 1);
    memcpy(out, s, len);
    out[len] = '\0';
    return 0;
  default:
    return gbi_field_text(c->name, s, len, out, c->size, err);
  }
}

static int parse_field(gb_srec_row *r, const column *c, const char *s, size_t len,
                       gb_err *err) {
  if (len == 0) {
    if (!c->optional)
      return gb_err_set(err, EINVAL, "%s: empty, but required", c->name);
    return 0; /* presence flags and strings start cleared */
  }
  if (is_enum(c->type)) {
    int v = gbi_rec_set_find(enum_set(c->type), s, len);
    if (v < 0)
      return gbi_field_enum_error(err, c->name, enum_set(c->type), s, len);
    enum_put(r, c->type, v);
    return 0;
  }
  uint64_t u;
  int rc;
  switch (c->type) {
  case T_INT:
    rc = gbi_field_i64(c->name, s, len, &AT(gb_rec_opt_i64, r, c)->value, err);
    AT(gb_rec_opt_i64, r, c)->present = rc == 0;
    return rc;
  case T_UINT:
  case T_NS:
    if ((rc = gbi_field_u64(c->name, c->type == T_NS, s, len, c->min, c->max, &u, err)) < 0)
      return rc;
    if (c->optional)
      *AT(gb_rec_opt_u64, r, c) = (gb_rec_opt_u64){true, u};
    else
      *AT(uint64_t, r, c) = u;
    return 0;
  default:
    return parse_text(r, c, s, len, err);
  }
}

int gbi_srec_parse_row(const gbi_csv_field *f, gb_srec_row *row, gb_err *err) {
  memset(row, 0, sizeof *row);
  for (size_t c = 0; c < GBI_SREC_COLS; c++) {
    int rc = parse_field(row, &columns[c], f[c].s, f[c].len, err);
    if (rc < 0)
      return rc;
  }
  return gb_srec_row_check(row, err);
}

/* ---- Rules a row keeps alone -------------------------------------------- */

static int need(const gb_srec_row *r, const char *const *cols, size_t n, const char *why,
                gb_err *err) {
  for (size_t i = 0; i < n; i++)
    if (!has_value(r, column_named(cols[i])))
      return gb_err_set(err, EINVAL, "%s: empty, but %s", cols[i], why);
  return 0;
}

static int check_kind(const gb_srec_row *r, gb_err *err) {
  static const char *const startup_empty[] = {"loop_ns", "counters", "output_hash"};
  if (r->kind == GB_SREC_KIND_WORK && r->launches != 1)
    return gb_err_set(err, EINVAL, "launches: %" PRIu64 ", but a work row has 1", r->launches);
  if (r->kind == GB_SREC_KIND_WORK && r->reps == 0)
    return gb_err_set(err, EINVAL, "reps: 0, but a work row repeats at least once");
  if (r->kind == GB_SREC_KIND_STARTUP && r->reps != 0)
    return gb_err_set(err, EINVAL, "reps: %" PRIu64 ", but a startup row has 0", r->reps);
  if (r->kind == GB_SREC_KIND_STARTUP)
    for (size_t i = 0; i < sizeof startup_empty / sizeof *startup_empty; i++)
      if (has_value(r, column_named(startup_empty[i])))
        return gb_err_set(err, EINVAL, "%s: holds a value, but a startup row has none",
                          startup_empty[i]);
  return 0;
}

static int check_ok(const gb_srec_row *r, gb_err *err) {
  static const char *const ok_needs[] = {"wall_ns", "user_ns", "sys_ns", "max_rss_kib",
                                         "input_hash"};
  static const char *const ok_work_needs[] = {"loop_ns", "output_hash"};
  if (r->status != GB_REC_STATUS_OK)
    return 0;
  int rc = need(r, ok_needs, sizeof ok_needs / sizeof *ok_needs, "an ok run must have it", err);
  if (rc == 0 && r->kind == GB_SREC_KIND_WORK)
    rc = need(r, ok_work_needs, sizeof ok_work_needs / sizeof *ok_work_needs,
              "an ok work run must have it", err);
  return rc;
}

/* What the reader's parsing holds, for rows the harness builds by hand:
 * enums in range, required numbers in bounds, text that reads back. */
static int check_values(const gb_srec_row *r, gb_err *err) {
  for (size_t i = 0; i < GBI_SREC_COLS; i++) {
    const column *c = &columns[i];
    if (is_enum(c->type) && !gbi_rec_set_name(enum_set(c->type), enum_get(r, c->type)))
      return gb_err_set(err, EINVAL, "%s: value %u out of range", c->name,
                        enum_get(r, c->type));
    if ((c->type == T_UINT || c->type == T_NS) && !c->optional &&
        (*AT_C(uint64_t, r, c) < c->min || *AT_C(uint64_t, r, c) > c->max))
      return gb_err_set(err, EINVAL, "%s: %" PRIu64 " is out of range %" PRIu64 "..%" PRIu64,
                        c->name, *AT_C(uint64_t, r, c), c->min, c->max);
    if (c->type < T_NAME)
      continue;
    if (!terminated(r, c))
      return gb_err_set(err, EINVAL, "%s: not terminated", c->name);
    const char *s = AT_C(char, r, c);
    if (c->type == T_TEXT)
      continue; /* any text: the writer puts a CR or LF as a space */
    gb_srec_row scratch;
    int rc = (s[0] || !c->optional) ? parse_field(&scratch, c, s, strlen(s), err) : 0;
    if (rc < 0)
      return rc;
  }
  return 0;
}

int gb_srec_row_check(const gb_srec_row *r, gb_err *err) {
  int rc;
  if ((rc = check_values(r, err)) < 0 || (rc = check_kind(r, err)) < 0 ||
      (rc = check_ok(r, err)) < 0)
    return rc;
  gbi_row_energy e = {r->energy,  r->status,      r->pkg_uj,      r->dram_uj,
                      r->idle_ns, r->idle_pkg_uj, r->idle_dram_uj};
  return gbi_row_energy_check(&e, err);
}
