/* The text of one CSV row's fields, shared by the study's rows (records.c)
 * and a suite campaign's (suiterecords.c): the bounded line writer and the
 * parsing of one field, with the messages both readers give. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "greenbench/numparse.h"
#include "greenbench/text.h"
#include "records_internal.h"

void gbi_out_put(gbi_out *o, const char *s, size_t n) {
  if (o->full || o->len - o->pos <= n) {
    o->full = true;
    return;
  }
  memcpy(o->buf + o->pos, s, n);
  o->pos += n;
}

void gbi_out_str(gbi_out *o, const char *s) {
  gbi_out_put(o, s, strlen(s));
}

/* Integers need no locale care: printf groups digits only with the ' flag. */
void gbi_out_u64(gbi_out *o, uint64_t v) {
  char t[24];
  gbi_out_put(o, t, (size_t)snprintf(t, sizeof t, "%" PRIu64, v));
}

void gbi_out_i64(gbi_out *o, int64_t v) {
  char t[24];
  gbi_out_put(o, t, (size_t)snprintf(t, sizeof t, "%" PRId64, v));
}

void gbi_out_message(gbi_out *o, const char *m) {
  if (!m[0])
    return;
  gbi_out_put(o, "\"", 1);
  for (; *m; m++) {
    if (*m == '"')
      gbi_out_put(o, "\"\"", 2);
    else if (*m == '\n' || *m == '\r')
      gbi_out_put(o, " ", 1);
    else
      gbi_out_put(o, m, 1);
  }
  gbi_out_put(o, "\"", 1);
}

int gbi_out_finish(gbi_out *o) {
  gbi_out_put(o, "\n", 1);
  if (o->full) {
    if (o->len)
      o->buf[0] = '\0';
    return -ENOSPC;
  }
  o->buf[o->pos] = '\0';
  return (int)o->pos;
}

bool gbi_is_hash(const char *s, size_t len) {
  if (len != GB_REC_HASH_LEN)
    return false;
  for (size_t i = 0; i < len; i++)
    if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
      return false;
  return true;
}

#define SHOW 40 /* bytes of a bad value quoted in a message */

const char *gbi_field_shown(gb_excerpt_buf *b, const char *s, size_t len) {
  gb_str_excerpt(s, len, SHOW, b->s, sizeof b->s);
  return b->s;
}

static int number_error(gb_err *err, const char *col, bool duration, const char *s, size_t len,
                        int rc) {
  gb_excerpt_buf b;
  if (rc == -ERANGE)
    return gb_err_set(err, EINVAL, "%s: '%s' is too large", col, gbi_field_shown(&b, s, len));
  if (s[0] == '-' && gb_parse_i64_n(s, len, INT64_MIN, INT64_MAX, &(int64_t){0}) != -EINVAL)
    return gb_err_set(err, EINVAL, "%s: %s '%s'", col,
                      duration ? "negative duration" : "negative value",
                      gbi_field_shown(&b, s, len));
  return gb_err_set(err, EINVAL, "%s: '%s' is not an integer", col,
                    gbi_field_shown(&b, s, len));
}

int gbi_field_u64(const char *col, bool duration, const char *s, size_t len, uint64_t min,
                  uint64_t max, uint64_t *out, gb_err *err) {
  uint64_t v;
  int rc = gb_parse_u64_n(s, len, 0, UINT64_MAX, &v);
  if (rc < 0)
    return number_error(err, col, duration, s, len, rc);
  if (v < min || v > max)
    return gb_err_set(err, EINVAL, "%s: %" PRIu64 " is out of range %" PRIu64 "..%" PRIu64, col,
                      v, min, max);
  *out = v;
  return 0;
}

int gbi_field_i64(const char *col, const char *s, size_t len, int64_t *out, gb_err *err) {
  int rc = gb_parse_i64_n(s, len, INT64_MIN, INT64_MAX, out);
  return rc < 0 ? number_error(err, col, false, s, len, rc) : 0;
}

int gbi_field_enum_error(gb_err *err, const char *col, gbi_rec_name_set names, const char *s,
                         size_t len) {
  char list[160] = "";
  size_t used = 0;
  for (size_t i = 0; i < names.n && used < sizeof list; i++)
    used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
                             names.names[i]);
  gb_excerpt_buf b;
  return gb_err_set(err, EINVAL, "%s: unknown value '%s' (expected %s)", col,
                    gbi_field_shown(&b, s, len), list);
}

int gbi_field_hash(const char *col, const char *s, size_t len, char out[GB_REC_HASH_LEN + 1],
                   gb_err *err) {
  if (!gbi_is_hash(s, len))
    return gb_err_set(err, EINVAL, "%s: '%s' is not 16 lowercase hex digits", col,
                      gbi_field_shown(&(gb_excerpt_buf){{0}}, s, len));
  memcpy(out, s, len);
  out[len] = '\0';
  return 0;
}

int gbi_field_text(const char *col, const char *s, size_t len, char *out, size_t cap,
                   gb_err *err) {
  if (len >= cap)
    return gb_err_set(err, EINVAL, "%s: longer than %zu bytes", col, cap - 1);
  if (memchr(s, '\n', len) || memchr(s, '\r', len))
    return gb_err_set(err, EINVAL, "%s: holds a line break", col);
  memcpy(out, s, len);
  out[len] = '\0';
  return 0;
}

int gbi_row_energy_check(const gbi_row_energy *e, gb_err *err) {
  const struct {
    const char *name;
    const gb_rec_opt_u64 *v;
  } held[] = {{"pkg_uj", &e->pkg_uj},
              {"dram_uj", &e->dram_uj},
              {"idle_pkg_uj", &e->idle_pkg_uj},
              {"idle_dram_uj", &e->idle_dram_uj}},
    needed[] = {
        {"pkg_uj", &e->pkg_uj}, {"idle_ns", &e->idle_ns}, {"idle_pkg_uj", &e->idle_pkg_uj}};
  if (e->energy != GB_REC_ENERGY_OK) {
    for (size_t i = 0; i < sizeof held / sizeof *held; i++)
      if (held[i].v->present)
        return gb_err_set(err, EINVAL, "%s: holds a value, but energy is %s", held[i].name,
                          gb_rec_energy_name(e->energy));
    return 0;
  }
  if (e->status != GB_REC_STATUS_OK)
    return 0;
  for (size_t i = 0; i < sizeof needed / sizeof *needed; i++)
    if (!needed[i].v->present)
      return gb_err_set(err, EINVAL, "%s: empty, but an ok run with energy ok must have it",
                        needed[i].name);
  if (e->dram_uj.present != e->idle_dram_uj.present)
    return gb_err_set(err, EINVAL, "%s: empty, but %s is not",
                      e->dram_uj.present ? "idle_dram_uj" : "dram_uj",
                      e->dram_uj.present ? "dram_uj" : "idle_dram_uj");
  return 0;
}
