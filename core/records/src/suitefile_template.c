/* The placeholders of a suite's argv templates: the scanner the reader
 * checks them with, and their expansion for one process
 * (greenbench/suitefile.h). */
#include "greenbench/numparse.h"
#include "greenbench/suitefile.h"
#include "records_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

gbi_piece_kind gbi_suite_next_piece(const char **s, const char **p, size_t *n) {
  const char *c = *s;
  *p = c;
  *n = 0;
  if (!*c)
    return GBI_PIECE_END;
  if ((c[0] == '{' && c[1] == '{') || (c[0] == '}' && c[1] == '}')) {
    *n = 1;
    *s = c + 2;
    return GBI_PIECE_TEXT;
  }
  if (c[0] == '}') {
    *s = c + 1;
    return GBI_PIECE_LONE_CLOSE;
  }
  if (c[0] == '{') {
    const char *close = strchr(c + 1, '}');
    const char *open = strchr(c + 1, '{');
    *p = c + 1;
    if (!close || (open && open < close)) {
      *n = strlen(c + 1);
      *s = c + 1 + *n;
      return GBI_PIECE_UNCLOSED;
    }
    *n = (size_t)(close - c - 1);
    *s = close + 1;
    return GBI_PIECE_NAME;
  }
  *n = strcspn(c, "{}");
  *s = c + *n;
  return GBI_PIECE_TEXT;
}

bool gb_suite_name_ok(const char *s) {
  size_t n = strlen(s);
  if (n < 1 || n > GB_SUITE_NAME_MAX || s[0] < 'a' || s[0] > 'z')
    return false;
  return strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_-") == n;
}

static bool is(const char *p, size_t n, const char *name) {
  return strlen(name) == n && memcmp(p, name, n) == 0;
}

int gb_suite_value_text(const gb_suite_parameter *p, uint64_t v, char *buf, size_t len) {
  if (p->named && v >= p->n_values)
    return -EINVAL;
  char text[GB_SUITE_VALUE_TEXT_MAX];
  int n = p->named ? snprintf(text, sizeof text, "%s", p->names[v])
                   : snprintf(text, sizeof text, "%" PRIu64, v);
  if ((size_t)n >= len) {
    if (len)
      buf[0] = '\0';
    return -ENOSPC;
  }
  memcpy(buf, text, (size_t)n + 1);
  return n;
}

int gb_suite_params_join(const gb_suite_workload *w, const uint64_t *values, const char *sep,
                         char *buf, size_t len) {
  size_t o = 0;
  if (len)
    buf[0] = '\0';
  for (size_t i = 0; i < w->n_parameters; i++) {
    char text[GB_SUITE_VALUE_TEXT_MAX];
    if (gb_suite_value_text(&w->parameters[i], values[i], text, sizeof text) < 0)
      return -EINVAL;
    int n = snprintf(buf + o, len - o, "%s%s=%s", i ? sep : "", w->parameters[i].name, text);
    if (n < 0 || (size_t)n >= len - o)
      return -ENOSPC;
    o += (size_t)n;
  }
  return len ? (int)o : -ENOSPC;
}

int gb_suite_value_parse(const gb_suite_parameter *p, const char *s, size_t len, uint64_t *v) {
  uint64_t x = 0;
  if (p->named) {
    while (x < p->n_values && !is(s, len, p->names[x]))
      x++;
  } else if ((len > 1 && s[0] == '0') || gb_parse_u64_n(s, len, 0, GB_SUITE_VALUE_MAX, &x) < 0)
    return -EINVAL;
  size_t i = 0;
  while (i < p->n_values && p->values[i] != x)
    i++;
  if (i == p->n_values)
    return -EINVAL;
  *v = x;
  return 0;
}

/* The text of placeholder p[0..n) under v into buf[cap]; false when v gives
 * it no value. */
static bool value_of(const char *p, size_t n, const gb_suite_vars *v, char *buf, size_t cap) {
  const gb_suite_workload *w = v->workload;
  const char *text = NULL;
  uint64_t num = 0;
  bool has_num = false;
  if (is(p, n, "reps"))
    has_num = v->has_reps, num = v->reps;
  else if (is(p, n, "seed"))
    has_num = v->has_seed, num = v->seed;
  else if (is(p, n, "workload"))
    text = w ? w->name : NULL;
  else if (is(p, n, "suitedir"))
    text = v->suitedir;
  else if (is(p, n, "builddir"))
    text = v->builddir;
  else if (is(p, n, "workers"))
    text = v->workers;
  if (has_num)
    snprintf(buf, cap, "%" PRIu64, num);
  else if (text)
    snprintf(buf, cap, "%s", text);
  for (size_t i = 0; w && v->values && !text && !has_num && i < w->n_parameters; i++)
    if (is(p, n, w->parameters[i].name))
      return gb_suite_value_text(&w->parameters[i], v->values[i], buf, cap) >= 0;
  return has_num || text;
}

/* One argument: 0 and *out (malloc'd), or -EINVAL / -ENOMEM. */
static int expand_one(const char *tmpl, size_t i, const gb_suite_vars *v, char **out,
                      gb_err *err) {
  char *buf = malloc(GB_SUITE_ARG_MAX + 1);
  char val[GB_SUITE_ARG_MAX + 1];
  size_t len = 0;
  if (!buf)
    return gb_err_set(err, ENOMEM, "out of memory");
  const char *s = tmpl, *p;
  size_t n;
  for (gbi_piece_kind k; (k = gbi_suite_next_piece(&s, &p, &n)) != GBI_PIECE_END;) {
    const char *add = p;
    size_t addn = n;
    if (k == GBI_PIECE_NAME && value_of(p, n, v, val, sizeof val)) {
      add = val;
      addn = strlen(val);
    } else if (k != GBI_PIECE_TEXT) {
      free(buf);
      return gb_err_set(err, EINVAL, "argument %zu: %s {%.*s}", i,
                        k == GBI_PIECE_NAME ? "no value for placeholder" : "bad brace at",
                        (int)(n > 40 ? 40 : n), p);
    }
    if (len + addn > GB_SUITE_ARG_MAX) {
      free(buf);
      return gb_err_set(err, EINVAL, "argument %zu: longer than %d bytes once expanded", i,
                        GB_SUITE_ARG_MAX);
    }
    memcpy(buf + len, add, addn);
    len += addn;
  }
  buf[len] = '\0';
  *out = buf;
  return 0;
}

int gb_suite_expand(const gb_suite_template *t, const gb_suite_vars *v, char ***argv,
                    gb_err *err) {
  char **a = calloc(t->n + 1, sizeof *a);
  if (!a)
    return gb_err_set(err, ENOMEM, "out of memory");
  for (size_t i = 0; i < t->n; i++) {
    int rc = expand_one(t->args[i], i, v, &a[i], err);
    if (rc < 0) {
      gb_suite_argv_free(a);
      return rc;
    }
  }
  *argv = a;
  return 0;
}

bool gb_suite_uses(const gb_suite *s, const char *name) {
  for (size_t l = 0; l < s->n_languages; l++)
    for (int t = 0; t < GB_SUITE_TEMPLATE_COUNT; t++)
      for (size_t i = 0; i < s->languages[l].t[t].n; i++) {
        const char *str = s->languages[l].t[t].args[i], *p;
        size_t n;
        for (gbi_piece_kind k; (k = gbi_suite_next_piece(&str, &p, &n)) != GBI_PIECE_END;)
          if (k == GBI_PIECE_NAME && is(p, n, name))
            return true;
      }
  return false;
}

void gb_suite_argv_free(char **argv) {
  for (char **a = argv; a && *a; a++)
    free(*a);
  free(argv);
}

const gb_suite_expect *gb_suite_find_expect(const gb_suite_workload *w,
                                            const uint64_t *values) {
  for (size_t e = 0; e < w->n_expect; e++) {
    size_t i = 0;
    while (i < w->n_parameters && w->expect[e].values[i] == values[i])
      i++;
    if (i == w->n_parameters)
      return &w->expect[e];
  }
  return NULL;
}
