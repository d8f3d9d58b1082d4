/* The runs.csv schema, its value sets, the row formatter and the parsing
 * of one field: everything both the writer and the reader must agree on. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "greenbench/records.h"

#include "greenbench/numparse.h"
#include "greenbench/text.h"
#include "records_internal.h"

static const char *const kind_names[] = {"sort", "startup"};
static const char *const status_names[] = {"ok",
                                           "timeout",
                                           "crashed",
                                           "exit_nonzero",
                                           "bad_output",
                                           "parity_mismatch",
                                           "energy_stalled",
                                           "energy_jump",
                                           "energy_vanished",
                                           "spawn_failed"};
const char *const gbi_rec_energy_names[] = {"ok", "off", "unavailable"};

_Static_assert(sizeof kind_names / sizeof *kind_names == GB_REC_KIND_COUNT, "kind names");
_Static_assert(sizeof status_names / sizeof *status_names == GB_REC_STATUS_COUNT, "statuses");
_Static_assert(sizeof gbi_rec_energy_names / sizeof *gbi_rec_energy_names ==
                   GB_REC_ENERGY_COUNT,
               "energy");

const char *gbi_rec_set_name(gbi_rec_name_set s, unsigned v) {
  return v < s.n ? s.names[v] : NULL;
}

int gbi_rec_set_find(gbi_rec_name_set s, const char *str, size_t len) {
  for (size_t i = 0; i < s.n; i++)
    if (strlen(s.names[i]) == len && memcmp(s.names[i], str, len) == 0)
      return (int)i;
  return -1;
}

GB_REC_NAME_FUNCS(gb_rec_kind, kind_names)
GB_REC_NAME_FUNCS(gb_rec_status, status_names)
GB_REC_NAME_FUNCS(gb_rec_energy, gbi_rec_energy_names)

/* ---- The schema: one table ------------------------------------------- */

typedef struct {
  gb_rec_column pub;
  size_t offset;          /* uint64_t (required), gb_rec_opt_u64 or gb_rec_opt_i64 */
  uint64_t min, max;      /* bounds of UINT columns */
  gbi_rec_name_set names; /* ENUM columns */
} column_def;

#define OFF(f) offsetof(gb_run_row, f)
#define REQ(n, t, lo, hi)                                                                      \
  {                                                                                            \
    {#n, t, false}, OFF(n), lo, hi, {                                                          \
      NULL, 0                                                                                  \
    }                                                                                          \
  }
#define OPT(n, t)                                                                              \
  {                                                                                            \
    {#n, t, true}, OFF(n), 0, UINT64_MAX, {                                                    \
      NULL, 0                                                                                  \
    }                                                                                          \
  }
#define ENUM(n, s)                                                                             \
  {                                                                                            \
    {#n, GB_REC_TYPE_ENUM, false}, 0, 0, 0, {                                                  \
      s, sizeof s / sizeof *s                                                                  \
    }                                                                                          \
  }

static const column_def columns[GB_REC_COL_COUNT] = {
    [GB_REC_COL_RUN] = REQ(run, GB_REC_TYPE_UINT, 0, UINT64_MAX),
    [GB_REC_COL_KIND] = ENUM(kind, kind_names),
    [GB_REC_COL_LANGUAGE] = ENUM(language, gb_language_names),
    [GB_REC_COL_ALGORITHM] = ENUM(algorithm, gb_algorithm_names),
    [GB_REC_COL_ORDER] = ENUM(order, gb_order_names),
    [GB_REC_COL_SIZE] = REQ(size, GB_REC_TYPE_UINT, 1, UINT64_MAX),
    [GB_REC_COL_SEED] = REQ(seed, GB_REC_TYPE_UINT, 1, UINT32_MAX),
    [GB_REC_COL_SORTS] = REQ(sorts, GB_REC_TYPE_UINT, 0, UINT64_MAX),
    [GB_REC_COL_LAUNCHES] = REQ(launches, GB_REC_TYPE_UINT, 1, UINT64_MAX),
    [GB_REC_COL_STATUS] = ENUM(status, status_names),
    [GB_REC_COL_WALL_NS] = OPT(wall_ns, GB_REC_TYPE_NS),
    [GB_REC_COL_USER_NS] = OPT(user_ns, GB_REC_TYPE_NS),
    [GB_REC_COL_SYS_NS] = OPT(sys_ns, GB_REC_TYPE_NS),
    [GB_REC_COL_MAX_RSS_KIB] = OPT(max_rss_kib, GB_REC_TYPE_UINT),
    [GB_REC_COL_LOOP_NS] = OPT(loop_ns, GB_REC_TYPE_NS),
    [GB_REC_COL_COMPARISONS] = OPT(comparisons, GB_REC_TYPE_UINT),
    [GB_REC_COL_WRITES] = OPT(writes, GB_REC_TYPE_UINT),
    [GB_REC_COL_INPUT_HASH] =
        {{"input_hash", GB_REC_TYPE_HASH, true}, OFF(input_hash), 0, 0, {NULL, 0}},
    [GB_REC_COL_ENERGY] = ENUM(energy, gbi_rec_energy_names),
    [GB_REC_COL_PKG_UJ] = OPT(pkg_uj, GB_REC_TYPE_UINT),
    [GB_REC_COL_DRAM_UJ] = OPT(dram_uj, GB_REC_TYPE_UINT),
    [GB_REC_COL_IDLE_NS] = OPT(idle_ns, GB_REC_TYPE_NS),
    [GB_REC_COL_IDLE_PKG_UJ] = OPT(idle_pkg_uj, GB_REC_TYPE_UINT),
    [GB_REC_COL_IDLE_DRAM_UJ] = OPT(idle_dram_uj, GB_REC_TYPE_UINT),
    [GB_REC_COL_FREQ_START_KHZ] = OPT(freq_start_khz, GB_REC_TYPE_UINT),
    [GB_REC_COL_FREQ_END_KHZ] = OPT(freq_end_khz, GB_REC_TYPE_UINT),
    [GB_REC_COL_TEMP_START_MC] = OPT(temp_start_mc, GB_REC_TYPE_INT),
    [GB_REC_COL_TEMP_END_MC] = OPT(temp_end_mc, GB_REC_TYPE_INT),
    [GB_REC_COL_STARTED_UNIX_NS] = REQ(started_unix_ns, GB_REC_TYPE_NS, 0, UINT64_MAX),
    [GB_REC_COL_MESSAGE] = {{"message", GB_REC_TYPE_TEXT, true}, OFF(message), 0, 0, {NULL, 0}},
};

const gb_rec_column *gb_records_column(gb_rec_col c) {
  return (unsigned)c < GB_REC_COL_COUNT ? &columns[c].pub : NULL;
}

int gb_records_column_bounds(gb_rec_col c, uint64_t *min, uint64_t *max) {
  if ((unsigned)c >= GB_REC_COL_COUNT ||
      (columns[c].pub.type != GB_REC_TYPE_UINT && columns[c].pub.type != GB_REC_TYPE_NS)) {
    return -EINVAL;
  }
  *min = columns[c].min;
  *max = columns[c].max;
  return 0;
}

/* Enum columns are read and set by name, not through an offset, because the
 * C standard leaves the size of an enum type to the compiler: X(column,
 * field, type) for each. */
#define ENUM_COLUMNS(X)                                                                        \
  X(GB_REC_COL_KIND, kind, gb_rec_kind)                                                        \
  X(GB_REC_COL_LANGUAGE, language, gb_language)                                                \
  X(GB_REC_COL_ALGORITHM, algorithm, gb_algorithm)                                             \
  X(GB_REC_COL_ORDER, order, gb_order)                                                         \
  X(GB_REC_COL_STATUS, status, gb_rec_status)                                                  \
  X(GB_REC_COL_ENERGY, energy, gb_rec_energy)

static unsigned enum_get(const gb_run_row *r, gb_rec_col c) {
  switch (c) {
#define GET(col, field, type)                                                                  \
  case col:                                                                                    \
    return (unsigned)r->field;
    ENUM_COLUMNS(GET)
#undef GET
  default:
    return UINT_MAX; /* not an enum column: in no value set */
  }
}

static void enum_set(gb_run_row *r, gb_rec_col c, int v) {
  switch (c) {
#define SET(col, field, type)                                                                  \
  case col:                                                                                    \
    r->field = (type)v;                                                                        \
    break;
    ENUM_COLUMNS(SET)
#undef SET
  default:
    break;
  }
}

#define AT(type, r, c) ((type *)((char *)(r) + columns[c].offset))
#define AT_C(type, r, c) ((const type *)((const char *)(r) + columns[c].offset))

/* Whether column c holds a value in r (required columns always do). */
static bool has_value(const gb_run_row *r, gb_rec_col c) {
  const column_def *d = &columns[c];
  if (!d->pub.optional)
    return true;
  switch (d->pub.type) {
  case GB_REC_TYPE_INT:
    return AT_C(gb_rec_opt_i64, r, c)->present;
  case GB_REC_TYPE_HASH:
  case GB_REC_TYPE_TEXT:
    return AT_C(char, r, c)[0] != '\0';
  default:
    return AT_C(gb_rec_opt_u64, r, c)->present;
  }
}

static bool is_hash(const char *s, size_t len) {
  if (len != GB_REC_HASH_LEN)
    return false;
  for (size_t i = 0; i < len; i++)
    if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
      return false;
  return true;
}

/* ---- Writer ---------------------------------------------------------- */

typedef struct {
  char *buf;
  size_t len, pos;
  bool full;
} out_buf;

static void put(out_buf *o, const char *s, size_t n) {
  if (o->full || o->len - o->pos <= n) {
    o->full = true;
    return;
  }
  memcpy(o->buf + o->pos, s, n);
  o->pos += n;
}

static void put_str(out_buf *o, const char *s) {
  put(o, s, strlen(s));
}

/* Integers need no locale care: printf groups digits only with the ' flag. */
static void put_u64(out_buf *o, uint64_t v) {
  char t[24];
  put(o, t, (size_t)snprintf(t, sizeof t, "%" PRIu64, v));
}

static void put_i64(out_buf *o, int64_t v) {
  char t[24];
  put(o, t, (size_t)snprintf(t, sizeof t, "%" PRId64, v));
}

static void put_message(out_buf *o, const char *m) {
  if (!m[0])
    return;
  put(o, "\"", 1);
  for (; *m; m++) {
    if (*m == '"')
      put(o, "\"\"", 2);
    else if (*m == '\n' || *m == '\r')
      put(o, " ", 1);
    else
      put(o, m, 1);
  }
  put(o, "\"", 1);
}

static int put_field(out_buf *o, const gb_run_row *r, gb_rec_col c) {
  const column_def *d = &columns[c];
  switch (d->pub.type) {
  case GB_REC_TYPE_ENUM: {
    const char *name = gbi_rec_set_name(d->names, enum_get(r, c));
    if (!name)
      return -EINVAL;
    put_str(o, name);
    return 0;
  }
  case GB_REC_TYPE_HASH:
    if (r->input_hash[0] &&
        !is_hash(r->input_hash, strnlen(r->input_hash, sizeof r->input_hash)))
      return -EINVAL;
    put_str(o, r->input_hash);
    return 0;
  case GB_REC_TYPE_TEXT:
    put_message(o, r->message);
    return 0;
  case GB_REC_TYPE_INT:
    if (AT_C(gb_rec_opt_i64, r, c)->present)
      put_i64(o, AT_C(gb_rec_opt_i64, r, c)->value);
    return 0;
  default:
    if (!d->pub.optional)
      put_u64(o, *AT_C(uint64_t, r, c));
    else if (AT_C(gb_rec_opt_u64, r, c)->present)
      put_u64(o, AT_C(gb_rec_opt_u64, r, c)->value);
    return 0;
  }
}

static int finish(out_buf *o) {
  put(o, "\n", 1);
  if (o->full) {
    if (o->len)
      o->buf[0] = '\0';
    return -ENOSPC;
  }
  o->buf[o->pos] = '\0';
  return (int)o->pos;
}

int gb_records_header(char *buf, size_t len) {
  out_buf o = {buf, len, 0, false};
  for (int c = 0; c < GB_REC_COL_COUNT; c++) {
    if (c)
      put(&o, ",", 1);
    put_str(&o, columns[c].pub.name);
  }
  return finish(&o);
}

int gb_records_format_row(const gb_run_row *row, char *buf, size_t len) {
  out_buf o = {buf, len, 0, false};
  for (int c = 0; c < GB_REC_COL_COUNT; c++) {
    if (c)
      put(&o, ",", 1);
    if (put_field(&o, row, (gb_rec_col)c) < 0) {
      if (len)
        buf[0] = '\0';
      return -EINVAL;
    }
  }
  return finish(&o);
}

/* ---- Reading one field ------------------------------------------------ */

#define SHOW 40 /* bytes of a bad value quoted in a message */

/* A bad value as quoted: its first SHOW bytes, escaped (gb_str_excerpt). */
static const char *shown(gb_excerpt_buf *b, const char *s, size_t len) {
  gb_str_excerpt(s, len, SHOW, b->s, sizeof b->s);
  return b->s;
}

static int parse_u64(const char *s, size_t len, uint64_t *out) {
  return gb_parse_u64_n(s, len, 0, UINT64_MAX, out);
}

static int parse_i64(const char *s, size_t len, int64_t *out) {
  return gb_parse_i64_n(s, len, INT64_MIN, INT64_MAX, out);
}

static int number_error(gb_err *err, const char *col, gb_rec_type t, const char *s, size_t len,
                        int rc) {
  gb_excerpt_buf b;
  if (rc == -ERANGE)
    return gb_err_set(err, EINVAL, "%s: '%s' is too large", col, shown(&b, s, len));
  if (s[0] == '-' && parse_i64(s, len, &(int64_t){0}) != -EINVAL)
    return gb_err_set(err, EINVAL, "%s: %s '%s'", col,
                      t == GB_REC_TYPE_NS ? "negative duration" : "negative value",
                      shown(&b, s, len));
  return gb_err_set(err, EINVAL, "%s: '%s' is not an integer", col, shown(&b, s, len));
}

static int parse_unsigned(gb_run_row *r, gb_rec_col c, const char *s, size_t len, gb_err *err) {
  const column_def *d = &columns[c];
  uint64_t v;
  int rc = parse_u64(s, len, &v);
  if (rc < 0)
    return number_error(err, d->pub.name, d->pub.type, s, len, rc);
  if (v < d->min || v > d->max)
    return gb_err_set(err, EINVAL, "%s: %" PRIu64 " is out of range %" PRIu64 "..%" PRIu64,
                      d->pub.name, v, d->min, d->max);
  if (d->pub.optional)
    *AT(gb_rec_opt_u64, r, c) = (gb_rec_opt_u64){true, v};
  else
    *AT(uint64_t, r, c) = v;
  return 0;
}

static int parse_signed(gb_run_row *r, gb_rec_col c, const char *s, size_t len, gb_err *err) {
  int64_t v;
  int rc = parse_i64(s, len, &v);
  if (rc < 0)
    return number_error(err, columns[c].pub.name, GB_REC_TYPE_INT, s, len, rc);
  *AT(gb_rec_opt_i64, r, c) = (gb_rec_opt_i64){true, v};
  return 0;
}

static int enum_error(gb_err *err, const column_def *d, const char *s, size_t len) {
  char list[160] = "";
  size_t used = 0;
  for (size_t i = 0; i < d->names.n && used < sizeof list; i++)
    used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
                             d->names.names[i]);
  gb_excerpt_buf b;
  return gb_err_set(err, EINVAL, "%s: unknown value '%s' (expected %s)", d->pub.name,
                    shown(&b, s, len), list);
}

static int parse_text(gb_run_row *r, gb_rec_col c, const char *s, size_t len, gb_err *err) {
  const column_def *d = &columns[c];
  if (d->pub.type == GB_REC_TYPE_HASH) {
    if (!is_hash(s, len))
      return gb_err_set(err, EINVAL, "input_hash: '%s' is not 16 lowercase hex digits",
                        shown(&(gb_excerpt_buf){{0}}, s, len));
    memcpy(r->input_hash, s, len);
    r->input_hash[len] = '\0';
    return 0;
  }
  if (len >= sizeof r->message)
    return gb_err_set(err, EINVAL, "message: longer than %zu bytes", sizeof r->message - 1);
  if (memchr(s, '\n', len) || memchr(s, '\r', len))
    return gb_err_set(err, EINVAL, "message: holds a line break");
  memcpy(r->message, s, len);
  r->message[len] = '\0';
  return 0;
}

int gbi_rec_parse_field(gb_run_row *r, gb_rec_col c, const char *s, size_t len, gb_err *err) {
  const column_def *d = &columns[c];
  if (len == 0) {
    if (!d->pub.optional)
      return gb_err_set(err, EINVAL, "%s: empty, but required", d->pub.name);
    return 0; /* presence flags and strings start cleared */
  }
  switch (d->pub.type) {
  case GB_REC_TYPE_ENUM: {
    int v = gbi_rec_set_find(d->names, s, len);
    if (v < 0)
      return enum_error(err, d, s, len);
    enum_set(r, c, v);
    return 0;
  }
  case GB_REC_TYPE_INT:
    return parse_signed(r, c, s, len, err);
  case GB_REC_TYPE_HASH:
  case GB_REC_TYPE_TEXT:
    return parse_text(r, c, s, len, err);
  default:
    return parse_unsigned(r, c, s, len, err);
  }
}

/* ---- Rules a row must satisfy on its own ------------------------------ */

static const gb_rec_col ok_needs[] = {GB_REC_COL_WALL_NS, GB_REC_COL_USER_NS, GB_REC_COL_SYS_NS,
                                      GB_REC_COL_MAX_RSS_KIB, GB_REC_COL_INPUT_HASH};
static const gb_rec_col ok_sort_needs[] = {GB_REC_COL_LOOP_NS, GB_REC_COL_COMPARISONS,
                                           GB_REC_COL_WRITES};
static const gb_rec_col energy_needs[] = {GB_REC_COL_PKG_UJ, GB_REC_COL_IDLE_NS,
                                          GB_REC_COL_IDLE_PKG_UJ};
static const gb_rec_col energy_columns[] = {GB_REC_COL_PKG_UJ, GB_REC_COL_DRAM_UJ,
                                            GB_REC_COL_IDLE_PKG_UJ, GB_REC_COL_IDLE_DRAM_UJ};

static int need_all(const gb_run_row *r, const gb_rec_col *cols, size_t n, const char *why,
                    gb_err *err) {
  for (size_t i = 0; i < n; i++)
    if (!has_value(r, cols[i]))
      return gb_err_set(err, EINVAL, "%s: empty, but %s", columns[cols[i]].pub.name, why);
  return 0;
}

static int check_enums(const gb_run_row *r, gb_err *err) {
  for (int c = 0; c < GB_REC_COL_COUNT; c++)
    if (columns[c].pub.type == GB_REC_TYPE_ENUM &&
        !gbi_rec_set_name(columns[c].names, enum_get(r, (gb_rec_col)c)))
      return gb_err_set(err, EINVAL, "%s: value %u out of range", columns[c].pub.name,
                        enum_get(r, (gb_rec_col)c));
  return 0;
}

static int check_kind(const gb_run_row *r, gb_err *err) {
  if (r->kind == GB_REC_KIND_SORT && r->launches != 1)
    return gb_err_set(err, EINVAL, "launches: %" PRIu64 ", but a sort row has 1", r->launches);
  if (r->kind == GB_REC_KIND_SORT && r->sorts == 0)
    return gb_err_set(err, EINVAL, "sorts: 0, but a sort row sorts at least once");
  if (r->kind == GB_REC_KIND_STARTUP && r->sorts != 0)
    return gb_err_set(err, EINVAL, "sorts: %" PRIu64 ", but a startup row has 0", r->sorts);
  return 0;
}

static int check_energy(const gb_run_row *r, gb_err *err) {
  if (r->energy != GB_REC_ENERGY_OK) {
    for (size_t i = 0; i < sizeof energy_columns / sizeof *energy_columns; i++)
      if (has_value(r, energy_columns[i]))
        return gb_err_set(err, EINVAL, "%s: holds a value, but energy is %s",
                          columns[energy_columns[i]].pub.name, gb_rec_energy_name(r->energy));
    return 0;
  }
  if (r->status != GB_REC_STATUS_OK)
    return 0;
  int rc = need_all(r, energy_needs, sizeof energy_needs / sizeof *energy_needs,
                    "an ok run with energy ok must have it", err);
  if (rc == 0 && r->dram_uj.present != r->idle_dram_uj.present)
    return gb_err_set(err, EINVAL, "%s: empty, but %s is not",
                      r->dram_uj.present ? "idle_dram_uj" : "dram_uj",
                      r->dram_uj.present ? "dram_uj" : "idle_dram_uj");
  return rc;
}

/* Bounds of the required integers, for rows the harness builds by hand. */
static int check_values(const gb_run_row *r, gb_err *err) {
  for (int c = 0; c < GB_REC_COL_COUNT; c++) {
    const column_def *d = &columns[c];
    if (d->pub.optional || (d->pub.type != GB_REC_TYPE_UINT && d->pub.type != GB_REC_TYPE_NS))
      continue;
    uint64_t v = *AT_C(uint64_t, r, c);
    if (v < d->min || v > d->max)
      return gb_err_set(err, EINVAL, "%s: %" PRIu64 " is out of range %" PRIu64 "..%" PRIu64,
                        d->pub.name, v, d->min, d->max);
  }
  if (r->input_hash[0] && !is_hash(r->input_hash, strnlen(r->input_hash, sizeof r->input_hash)))
    return gb_err_set(err, EINVAL, "input_hash: not 16 lowercase hex digits");
  return 0;
}

static int check_ok(const gb_run_row *r, gb_err *err) {
  if (r->status != GB_REC_STATUS_OK)
    return 0;
  int rc =
      need_all(r, ok_needs, sizeof ok_needs / sizeof *ok_needs, "an ok run must have it", err);
  if (rc == 0 && r->kind == GB_REC_KIND_SORT)
    rc = need_all(r, ok_sort_needs, sizeof ok_sort_needs / sizeof *ok_sort_needs,
                  "an ok sort run must have it", err);
  return rc;
}

int gb_run_row_check(const gb_run_row *r, gb_err *err) {
  int rc;
  if ((rc = check_enums(r, err)) < 0 || (rc = check_values(r, err)) < 0 ||
      (rc = check_kind(r, err)) < 0 || (rc = check_ok(r, err)) < 0)
    return rc;
  return check_energy(r, err);
}
