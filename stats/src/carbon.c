#include "greenbench/carbon.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "greenbench/numparse.h"
#include "greenbench/paths.h"

static const char HEADER[] = "region,code,year,g_co2e_per_kwh";

int gb_carbon_default_path(char *buf, size_t len, gb_err *err) {
  return gb_data_file_find("data/grid-carbon-intensity.csv", "the carbon intensity table", buf,
                           len, err);
}

double gb_carbon_grams(double energy_uj, double g_per_kwh) {
  return energy_uj / 3.6e12 * g_per_kwh;
}

/* A plain decimal above 0, with an optional exponent (gb_parse_decimal). */
static bool parse_positive(const char *s, double *out) {
  double v;
  if (gb_parse_decimal(s, GB_DECIMAL_EXPONENT, &v) < 0 || !(v > 0.0)) {
    return false;
  }
  *out = v;
  return true;
}

static bool valid_code(const char *s) {
  static const char ok[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_";
  return s[0] != '\0' && s[strspn(s, ok)] == '\0';
}

static bool valid_name(const char *s, size_t max) {
  size_t n = strlen(s);
  return n > 0 && n <= max && !isspace((unsigned char)s[0]) &&
         !isspace((unsigned char)s[n - 1]);
}

static bool parse_year(const char *s, int *out) {
  uint64_t y;
  if (strlen(s) != 4 || gb_parse_u64(s, 1900, 2200, &y) < 0) {
    return false;
  }
  *out = (int)y;
  return true;
}

/* Splits line into exactly four comma-separated fields, in place. */
static bool split4(char *line, char *field[4]) {
  int n = 0;
  for (char *p = line;;) {
    if (n == 4) {
      return false;
    }
    field[n++] = p;
    char *comma = strchr(p, ',');
    if (!comma) {
      return n == 4;
    }
    *comma = '\0';
    p = comma + 1;
  }
}

/* Returns why the row is bad, or NULL when *row is filled. */
static const char *parse_row(char *line, gb_intensity *row) {
  char *f[4];
  if (strchr(line, '"')) {
    return "quoted fields are not supported";
  }
  if (!split4(line, f)) {
    return "expected 4 fields: region,code,year,g_co2e_per_kwh";
  }
  if (!valid_name(f[0], sizeof row->region - 1)) {
    return "region must be 1 to 63 characters without surrounding spaces";
  }
  if (!valid_code(f[1]) || strlen(f[1]) >= sizeof row->code) {
    return "code must be 1 to 15 letters, digits or '_'";
  }
  if (!parse_year(f[2], &row->year)) {
    return "year must be four digits from 1900 to 2200";
  }
  if (!parse_positive(f[3], &row->g_per_kwh)) {
    return "g_co2e_per_kwh must be a plain positive finite decimal";
  }
  snprintf(row->region, sizeof row->region, "%s", f[0]);
  snprintf(row->code, sizeof row->code, "%s", f[1]);
  return NULL;
}

/* Cross-row rules: one region per code, one code per region, one row per
 * (code, year). Returns why r clashes with rows[*other], or NULL. */
static const char *clash_with(const gb_intensity *rows, size_t n, const gb_intensity *r,
                              size_t *other) {
  for (size_t i = 0; i < n; i++) {
    bool same_code = strcmp(rows[i].code, r->code) == 0;
    bool same_region = strcmp(rows[i].region, r->region) == 0;
    *other = i;
    if (same_code != same_region) {
      return "a code must keep one region name and a region one code";
    }
    if (same_code && rows[i].year == r->year) {
      return "duplicate code and year";
    }
  }
  return NULL;
}

/* Strips the line ending; false when the line holds a NUL byte. */
static bool chomp(char *line, ssize_t len) {
  if ((size_t)len != strlen(line)) {
    return false;
  }
  if (len > 0 && line[len - 1] == '\n') {
    line[--len] = '\0';
  }
  if (len > 0 && line[len - 1] == '\r') {
    line[--len] = '\0';
  }
  return true;
}

typedef struct {
  const char *path;
  FILE *f;
  char *line;
  size_t cap;
  size_t lineno;
  gb_carbon_table t;
  size_t t_cap;
  /* file line of each row, for messages about clashes */
  size_t *row_line;
} loader;

static int append_row(loader *L, const gb_intensity *row, gb_err *err) {
  if (L->t.n == L->t_cap) {
    size_t cap = L->t_cap ? 2 * L->t_cap : 32;
    gb_intensity *rows = realloc(L->t.rows, cap * sizeof *rows);
    size_t *lines = rows ? realloc(L->row_line, cap * sizeof *lines) : NULL;
    if (rows) {
      L->t.rows = rows;
    }
    if (!lines) {
      return gb_err_set(err, ENOMEM, "%s: out of memory", L->path);
    }
    L->row_line = lines;
    L->t_cap = cap;
  }
  L->row_line[L->t.n] = L->lineno;
  L->t.rows[L->t.n++] = *row;
  return 0;
}

static int load_line(loader *L, ssize_t len, gb_err *err) {
  if (!chomp(L->line, len)) {
    return gb_err_set(err, EINVAL, "%s:%zu: NUL byte in line", L->path, L->lineno);
  }
  if (L->lineno == 1) {
    return strcmp(L->line, HEADER) == 0
               ? 0
               : gb_err_set(err, EINVAL, "%s:1: header must be '%s'", L->path, HEADER);
  }
  gb_intensity row;
  const char *why = parse_row(L->line, &row);
  if (why) {
    return gb_err_set(err, EINVAL, "%s:%zu: %s", L->path, L->lineno, why);
  }
  size_t other;
  why = clash_with(L->t.rows, L->t.n, &row, &other);
  if (why) {
    return gb_err_set(err, EINVAL, "%s:%zu: %s (see line %zu)", L->path, L->lineno, why,
                      L->row_line[other]);
  }
  return append_row(L, &row, err);
}

static int load_lines(loader *L, gb_err *err) {
  ssize_t len;
  errno = 0;
  while ((len = getline(&L->line, &L->cap, L->f)) >= 0) {
    L->lineno++;
    int rc = load_line(L, len, err);
    if (rc < 0) {
      return rc;
    }
    errno = 0;
  }
  if (ferror(L->f) || errno == ENOMEM) {
    int e = errno ? errno : EIO;
    return gb_err_set(err, e, "%s: read failed: %s", L->path, strerror(e));
  }
  if (L->t.n == 0) {
    return gb_err_set(err, EINVAL, "%s:%zu: no intensity rows", L->path, L->lineno);
  }
  return 0;
}

int gb_carbon_load(const char *path, gb_carbon_table *out, gb_err *err) {
  loader L = {.path = path};
  L.f = fopen(path, "r");
  if (!L.f) {
    int e = errno;
    return gb_err_set(err, e, "%s: %s", path, strerror(e));
  }
  int rc = load_lines(&L, err);
  fclose(L.f);
  free(L.line);
  free(L.row_line);
  if (rc < 0) {
    gb_carbon_free(&L.t);
    return rc;
  }
  *out = L.t;
  return 0;
}

void gb_carbon_free(gb_carbon_table *t) {
  if (t) {
    free(t->rows);
    *t = (gb_carbon_table){0};
  }
}

static const gb_intensity *latest(const gb_carbon_table *t, const char *key, bool by_code) {
  const gb_intensity *best = NULL;
  for (size_t i = 0; i < t->n; i++) {
    const gb_intensity *r = &t->rows[i];
    bool match = by_code ? strcasecmp(r->code, key) == 0 : strcmp(r->region, key) == 0;
    if (match && (!best || r->year > best->year)) {
      best = r;
    }
  }
  return best;
}

int gb_carbon_find(const gb_carbon_table *t, const char *name_or_code, gb_intensity *out,
                   gb_err *err) {
  const gb_intensity *r = latest(t, name_or_code, true);
  if (!r) {
    r = latest(t, name_or_code, false);
  }
  if (!r) {
    return gb_err_set(err, ENOENT, "no carbon intensity for region '%s'", name_or_code);
  }
  *out = *r;
  return 0;
}

int gb_carbon_parse_custom(const char *arg, gb_intensity *out, gb_err *err) {
  const char *eq = strchr(arg, '=');
  size_t name_len = eq ? (size_t)(eq - arg) : 0;
  gb_intensity r = {.year = 0};
  if (!eq || name_len == 0 || name_len >= sizeof r.region) {
    return gb_err_set(err, EINVAL,
                      "custom intensity '%s': expected NAME=G, NAME 1 to %zu characters", arg,
                      sizeof r.region - 1);
  }
  memcpy(r.region, arg, name_len);
  r.region[name_len] = '\0';
  if (strchr(r.region, ',') || !valid_name(r.region, sizeof r.region - 1)) {
    return gb_err_set(err, EINVAL,
                      "custom intensity '%s': NAME has a ',' or surrounding spaces", arg);
  }
  if (strchr(eq + 1, '=') || !parse_positive(eq + 1, &r.g_per_kwh)) {
    return gb_err_set(err, EINVAL,
                      "custom intensity '%s': G must be a positive finite number of g CO2e/kWh",
                      arg);
  }
  *out = r;
  return 0;
}
