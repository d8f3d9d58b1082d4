/* The runs.csv schema, its value sets, the row formatter and the parsing
 * of one field: everything both the writer and the reader must agree on. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "greenbench/records.h"

#include "records_internal.h"

static const char *const kind_names[] = {"sort", "startup"};
const char *const gbi_rec_status_names[] = {"ok",
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
_Static_assert(sizeof gbi_rec_status_names / sizeof *gbi_rec_status_names ==
                   GB_REC_STATUS_COUNT,
               "statuses");
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
GB_REC_NAME_FUNCS(gb_rec_status, gbi_rec_status_names)
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
    [GB_REC_COL_STATUS] = ENUM(status, gbi_rec_status_names),
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

/* ---- Writer ---------------------------------------------------------- */

static int put_field(gbi_out *o, const gb_run_row *r, gb_rec_col c) {
  const column_def *d = &columns[c];
  switch (d->pub.type) {
  case GB_REC_TYPE_ENUM: {
    const char *name = gbi_rec_set_name(d->names, enum_get(r, c));
    if (!name)
      return -EINVAL;
    gbi_out_str(o, name);
    return 0;
  }
  case GB_REC_TYPE_HASH:
    if (r->input_hash[0] &&
        !gbi_is_hash(r->input_hash, strnlen(r->input_hash, sizeof r->input_hash)))
      return -EINVAL;
    gbi_out_str(o, r->input_hash);
    return 0;
  case GB_REC_TYPE_TEXT:
    gbi_out_message(o, r->message);
    return 0;
  case GB_REC_TYPE_INT:
    if (AT_C(gb_rec_opt_i64, r, c)->present)
      gbi_out_i64(o, AT_C(gb_rec_opt_i64, r, c)->value);
    return 0;
  default:
    if (!d->pub.optional)
      gbi_out_u64(o, *AT_C(uint64_t, r, c));
    else if (AT_C(gb_rec_opt_u64, r, c)->present)
      gbi_out_u64(o, AT_C(gb_rec_opt_u64, r, c)->value);
    return 0;
  }
}

int gb_records_header(char *buf, size_t len) {
  gbi_out o = {buf, len, 0, false};
  for (int c = 0; c < GB_REC_COL_COUNT; c++) {
    if (c)
      gbi_out_put(&o, ",", 1);
    gbi_out_str(&o, columns[c].pub.name);
  }
  return gbi_out_finish(&o);
}

int gb_records_format_row(const gb_run_row *row, char *buf, size_t len) {
  gbi_out o = {buf, len, 0, false};
  for (int c = 0; c < GB_REC_COL_COUNT; c++) {
    if (c)
      gbi_out_put(&o, ",", 1);
    if (put_field(&o, row, (gb_rec_col)c) < 0) {
      if (len)
        buf[0] = '\0';
      return -EINVAL;
    }
  }
  return gbi_out_finish(&o);
}

/* ---- Reading one field ------------------------------------------------ */

static int parse_unsigned(gb_run_row *r, gb_rec_col c, const char *s, size_t len, gb_err *err) {
  const column_def *d = &columns[c];
  uint64_t v;
  int rc = gbi_field_u64(d->pub.name, d->pub.type == GB_REC_TYPE_NS, s, len, d->min, d->max, &v,
                         err);
  if (rc < 0)
    return rc;
  if (d->pub.optional)
    *AT(gb_rec_opt_u64, r, c) = (gb_rec_opt_u64){true, v};
  else
    *AT(uint64_t, r, c) = v;
  return 0;
}

static int parse_signed(gb_run_row *r, gb_rec_col c, const char *s, size_t len, gb_err *err) {
  int64_t v;
  int rc = gbi_field_i64(columns[c].pub.name, s, len, &v, err);
  if (rc < 0)
    return rc;
  *AT(gb_rec_opt_i64, r, c) = (gb_rec_opt_i64){true, v};
  return 0;
}

static int parse_text(gb_run_row *r, gb_rec_col c, const char *s, size_t len, gb_err *err) {
  if (columns[c].pub.type == GB_REC_TYPE_HASH)
    return gbi_field_hash("input_hash", s, len, r->input_hash, err);
  return gbi_field_text("message", s, len, r->message, sizeof r->message, err);
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
      return gbi_field_enum_error(err, d->pub.name, d->names, s, len);
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
  gbi_row_energy e = {r->energy,  r->status,      r->pkg_uj,      r->dram_uj,
                      r->idle_ns, r->idle_pkg_uj, r->idle_dram_uj};
  return gbi_row_energy_check(&e, err);
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
  if (r->input_hash[0] &&
      !gbi_is_hash(r->input_hash, strnlen(r->input_hash, sizeof r->input_hash)))
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
