/* The suite file reader (greenbench/suitefile.h, ADR 0022): every rule is
 * checked here, before anything runs, and the first one broken is one line
 * naming the file and the JSON path of the value. */
#include "greenbench/suitefile.h"
#include "greenbench/files.h"
#include "greenbench/paths.h"
#include "greenbench/text.h"
#include "records_internal.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#define AT_MAX 160
#define SHOWN_MAX 48
#define SHOWN_SIZE (SHOWN_MAX * 4 + 8)

typedef struct {
  const char *path;
  gb_err *err;
} ctx;

__attribute__((format(printf, 3, 4))) static int fail(ctx *c, const char *at, const char *fmt,
                                                      ...) {
  char msg[sizeof c->err->msg];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return gb_err_set(c->err, EINVAL, "suite %s: %s%s%s", c->path, at, at[0] ? ": " : "", msg);
}

/* A JSON path into out[AT_MAX] (cut short, never overrun, when a key is
 * long). */
__attribute__((format(printf, 2, 3))) static void at_of(char *out, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(out, AT_MAX, fmt, ap);
  va_end(ap);
}

static const char *shown(const char *s, size_t n, char out[SHOWN_SIZE]) {
  gb_str_quote(s, n, SHOWN_MAX, out, SHOWN_SIZE);
  return out;
}

static int oom(ctx *c) {
  return gb_err_set(c->err, ENOMEM, "suite %s: out of memory", c->path);
}

/* The member key of object o at `at`, or a "missing" failure (optional:
 * *v NULL and 0). */
static int member(ctx *c, const cJSON *o, const char *at, const char *key, bool optional,
                  const cJSON **v) {
  *v = cJSON_GetObjectItemCaseSensitive(o, key);
  if (*v || optional)
    return 0;
  return fail(c, at, "missing \"%s\"", key);
}

/* o must be an object whose keys are all among keys[] (n of them) or, when
 * w is given, the names of w's parameters. */
static int object_of(ctx *c, const cJSON *o, const char *at, const char *const *keys, size_t n,
                     const gb_suite_workload *w) {
  char q[SHOWN_SIZE];
  if (!cJSON_IsObject(o))
    return fail(c, at, "expected an object, got %s", gbi_json_type_name(o));
  for (const cJSON *m = o->child; m; m = m->next) {
    bool known = false;
    for (size_t i = 0; i < n && !known; i++)
      known = strcmp(m->string, keys[i]) == 0;
    for (size_t i = 0; w && i < w->n_parameters && !known; i++)
      known = strcmp(m->string, w->parameters[i].name) == 0;
    if (!known)
      return fail(c, at, "unknown key %s", shown(m->string, strlen(m->string), q));
  }
  return 0;
}

static int array_of(ctx *c, const cJSON *v, const char *at, size_t min, size_t max, size_t *n) {
  if (!cJSON_IsArray(v))
    return fail(c, at, "expected an array, got %s", gbi_json_type_name(v));
  size_t k = (size_t)cJSON_GetArraySize(v);
  if (k < min || k > max)
    return fail(c, at, "must have %zu to %zu entries, has %zu", min, max, k);
  *n = k;
  return 0;
}

static int string_of(ctx *c, const cJSON *v, const char *at, const char **s) {
  if (!cJSON_IsString(v) || !v->valuestring)
    return fail(c, at, "expected a string, got %s", gbi_json_type_name(v));
  *s = v->valuestring;
  return 0;
}

static int name_text(ctx *c, const char *s, const char *at, char out[GB_SUITE_NAME_MAX + 1]) {
  char q[SHOWN_SIZE];
  if (!gb_suite_name_ok(s))
    return fail(c, at,
                "a name must be 1 to %d characters of a-z, 0-9, _ and -, starting with a "
                "letter, got %s",
                GB_SUITE_NAME_MAX, shown(s, strlen(s), q));
  memcpy(out, s, strlen(s) + 1);
  return 0;
}

static int name_of(ctx *c, const cJSON *v, const char *at, char out[GB_SUITE_NAME_MAX + 1]) {
  const char *s = "";
  int rc = string_of(c, v, at, &s);
  return rc < 0 ? rc : name_text(c, s, at, out);
}

/* A whole number 0 .. GB_SUITE_VALUE_MAX, read from its own text. */
static int whole_of(ctx *c, const cJSON *v, const char *at, uint64_t *out) {
  if (!cJSON_IsNumber(v))
    return fail(c, at, "expected a whole number, got %s", gbi_json_type_name(v));
  if (!gbi_json_whole(v, GB_SUITE_VALUE_MAX, out))
    return fail(c, at, "expected a whole number from 0 to 2^53-1 in plain decimal, got %s",
                v->valuestring ? v->valuestring : "?");
  return 0;
}

/* Text of at most max bytes; printable ASCII only (ascii) or no control
 * characters. */
static int text_of(ctx *c, const cJSON *v, const char *at, size_t min, size_t max, bool ascii,
                   const char **out) {
  char q[SHOWN_SIZE];
  const char *s = "";
  int rc = string_of(c, v, at, &s);
  size_t n = rc == 0 ? strlen(s) : 0;
  bool ok = n >= min && n <= max;
  for (size_t i = 0; rc == 0 && ok && i < n; i++)
    ok = (unsigned char)s[i] >= 0x20 && s[i] != 0x7f && (!ascii || (unsigned char)s[i] < 0x7f);
  if (rc == 0 && !ok)
    rc = fail(c, at, "must be %zu to %zu %s, got %s", min, max,
              ascii ? "printable ASCII characters" : "bytes without control characters",
              shown(s, n, q));
  *out = s;
  return rc;
}

static int hash16_of(ctx *c, const cJSON *v, const char *at, char out[17]) {
  char q[SHOWN_SIZE];
  const char *s = "";
  int rc = string_of(c, v, at, &s);
  if (rc == 0 && (strlen(s) != 16 || strspn(s, "0123456789abcdef") != 16))
    rc = fail(c, at, "must be 16 lowercase hex digits, got %s", shown(s, strlen(s), q));
  if (rc == 0)
    memcpy(out, s, 17);
  return rc;
}

/* ---- Templates ----------------------------------------------------------- */

static const char *const template_keys[GB_SUITE_TEMPLATE_COUNT] = {"command", "startup",
                                                                   "version", "build"};

static int template_of(ctx *c, const cJSON *v, const char *at, gb_suite_template *t) {
  size_t n = 0;
  int rc = array_of(c, v, at, 1, GB_SUITE_ARGS_MAX, &n);
  if (rc < 0)
    return rc;
  if (!(t->args = calloc(n, sizeof *t->args)))
    return oom(c);
  const cJSON *a = v->child;
  for (size_t i = 0; i < n; i++, a = a->next) {
    char here[AT_MAX];
    const char *s = "";
    at_of(here, "%s[%zu]", at, i);
    if ((rc = string_of(c, a, here, &s)) < 0)
      return rc;
    if (strlen(s) > GB_SUITE_ARG_MAX)
      return fail(c, here, "longer than %d bytes", GB_SUITE_ARG_MAX);
    if (i == 0 && !s[0])
      return fail(c, here, "the program to run is empty");
    if (!(t->args[i] = strdup(s)))
      return oom(c);
    t->n = i + 1;
  }
  return 0;
}

enum { B_REPS, B_SEED, B_WORKLOAD, B_SUITEDIR, B_BUILDDIR, B_WORKERS, B_COUNT };
static const char *const builtins[B_COUNT] = {"reps",     "seed",     "workload",
                                              "suitedir", "builddir", "workers"};
/* Which builtins each kind of template may use, and what a message says. */
#define B_FOLDERS (1u << B_SUITEDIR | 1u << B_BUILDDIR | 1u << B_WORKERS)
static const unsigned allowed[GB_SUITE_TEMPLATE_COUNT] = {
    [GB_SUITE_COMMAND] = (1u << B_COUNT) - 1,
    [GB_SUITE_STARTUP] = (1u << B_COUNT) - 1,
    [GB_SUITE_VERSION] = B_FOLDERS,
    [GB_SUITE_BUILD] = B_FOLDERS | 1u << B_WORKLOAD};
static const char *const allowed_text[GB_SUITE_TEMPLATE_COUNT] = {
    "", "", "only {suitedir}, {builddir} and {workers}",
    "only {suitedir}, {builddir}, {workers} and {workload}"};

static bool same(const char *p, size_t n, const char *name) {
  return strlen(name) == n && memcmp(p, name, n) == 0;
}

static bool has_parameter(const gb_suite_workload *w, const char *p, size_t n) {
  for (size_t i = 0; i < w->n_parameters; i++)
    if (same(p, n, w->parameters[i].name))
      return true;
  return false;
}

/* A placeholder p[0..n) of a template of kind k at `at`. */
static int check_placeholder(ctx *c, const gb_suite *s, gb_suite_template_kind k,
                             const char *at, const char *p, size_t n) {
  char q[SHOWN_SIZE];
  for (int b = 0; b < B_COUNT; b++)
    if (same(p, n, builtins[b]))
      return allowed[k] >> b & 1 ? 0
                                 : fail(c, at, "placeholder {%s} is not allowed in %s (%s)",
                                        builtins[b], template_keys[k], allowed_text[k]);
  bool any = false;
  for (size_t w = 0; w < s->n_workloads && !any; w++)
    any = has_parameter(&s->workloads[w], p, n);
  bool printable = n <= SHOWN_MAX;
  for (size_t i = 0; printable && i < n; i++)
    printable = p[i] >= 0x20 && p[i] < 0x7f;
  if (!printable)
    return fail(c, at, "unknown placeholder {%s}", shown(p, n, q));
  if (!any)
    return fail(c, at, "unknown placeholder {%.*s}", (int)n, p);
  if (k == GB_SUITE_VERSION || k == GB_SUITE_BUILD)
    return fail(c, at, "placeholder {%.*s} is not allowed in %s (%s)", (int)n, p,
                template_keys[k], allowed_text[k]);
  for (size_t w = 0; w < s->n_workloads; w++)
    if (!has_parameter(&s->workloads[w], p, n))
      return fail(c, at,
                  "placeholder {%.*s} is not a parameter of workload %s (workloads[%zu])",
                  (int)n, p, s->workloads[w].name, w);
  return 0;
}

/* Where check_template marks {reps} in its used[]. */
#define USED_REPS (GB_SUITE_WORKLOADS_MAX * GB_SUITE_PARAMETERS_MAX)

/* Every placeholder of t well formed and allowed; used[w][i] set for each
 * parameter i of workload w that t names, used[USED_REPS] for {reps}. */
static int check_template(ctx *c, const gb_suite *s, gb_suite_template_kind k,
                          const gb_suite_template *t, const char *at, bool *used) {
  for (size_t i = 0; i < t->n; i++) {
    char here[AT_MAX];
    at_of(here, "%s[%zu]", at, i);
    const char *str = t->args[i], *p;
    size_t n;
    for (gbi_piece_kind pk; (pk = gbi_suite_next_piece(&str, &p, &n)) != GBI_PIECE_END;) {
      int rc = 0;
      if (pk == GBI_PIECE_UNCLOSED)
        rc = fail(c, here, "a { that no } closes (write {{ for a literal brace)");
      else if (pk == GBI_PIECE_LONE_CLOSE)
        rc = fail(c, here, "a } that no { opens (write }} for a literal brace)");
      else if (pk == GBI_PIECE_NAME)
        rc = check_placeholder(c, s, k, here, p, n);
      if (rc < 0)
        return rc;
      if (pk == GBI_PIECE_NAME && same(p, n, "reps"))
        used[USED_REPS] = true;
      for (size_t w = 0; pk == GBI_PIECE_NAME && w < s->n_workloads; w++)
        for (size_t j = 0; j < s->workloads[w].n_parameters; j++)
          if (same(p, n, s->workloads[w].parameters[j].name))
            used[w * GB_SUITE_PARAMETERS_MAX + j] = true;
    }
  }
  return 0;
}

/* The placeholders of language l's templates, every parameter of every
 * workload used by its command and its startup, and {reps} by its command:
 * the harness calibrates how many repetitions each process runs, and a
 * command that ignored it would time a loop of another length. */
static int check_language(ctx *c, const gb_suite *s, size_t l) {
  bool used[USED_REPS + 1];
  for (int k = 0; k < GB_SUITE_TEMPLATE_COUNT; k++) {
    char at[AT_MAX];
    at_of(at, "languages[%zu].%s", l, template_keys[k]);
    memset(used, 0, sizeof used);
    int rc = check_template(c, s, (gb_suite_template_kind)k, &s->languages[l].t[k], at, used);
    if (rc == 0 && k == GB_SUITE_COMMAND && !used[USED_REPS])
      rc = fail(c, at,
                "does not use {reps}, the number of repetitions of its timed loop, which the "
                "harness chooses");
    for (size_t w = 0; rc == 0 && k <= GB_SUITE_STARTUP && w < s->n_workloads; w++)
      for (size_t j = 0; rc == 0 && j < s->workloads[w].n_parameters; j++)
        if (!used[w * GB_SUITE_PARAMETERS_MAX + j])
          rc = fail(c, at,
                    "does not use {%s}, a parameter of workload %s (workloads[%zu]), so "
                    "processes with different values of it would be the same",
                    s->workloads[w].parameters[j].name, s->workloads[w].name, w);
    if (rc < 0)
      return rc;
  }
  return 0;
}

/* ---- Languages ----------------------------------------------------------- */

static int language_of(ctx *c, const cJSON *v, size_t i, gb_suite_language *l) {
  static const char *const keys[] = {"name", "title", "command", "startup", "version", "build"};
  char at[AT_MAX], here[AT_MAX];
  at_of(at, "languages[%zu]", i);
  const cJSON *m;
  const char *title = NULL;
  int rc = object_of(c, v, at, keys, sizeof keys / sizeof *keys, NULL);
  if (rc == 0 && (rc = member(c, v, at, "name", false, &m)) == 0) {
    at_of(here, "%s.name", at);
    rc = name_of(c, m, here, l->name);
  }
  if (rc == 0 && (rc = member(c, v, at, "title", true, &m)) == 0 && m) {
    at_of(here, "%s.title", at);
    rc = text_of(c, m, here, 1, GB_SUITE_TITLE_MAX, true, &title);
  }
  if (rc == 0)
    snprintf(l->title, sizeof l->title, "%s", title ? title : l->name);
  for (int k = 0; rc == 0 && k < GB_SUITE_TEMPLATE_COUNT; k++) {
    at_of(here, "%s.%s", at, template_keys[k]);
    if ((rc = member(c, v, at, template_keys[k], k == GB_SUITE_BUILD, &m)) == 0 && m)
      rc = template_of(c, m, here, &l->t[k]);
  }
  return rc;
}

/* ---- Workloads ----------------------------------------------------------- */

static int parameter_of(ctx *c, const cJSON *v, const char *at, gb_suite_parameter *p) {
  static const char *const keys[] = {"name", "values"};
  char here[AT_MAX];
  const cJSON *m;
  size_t n = 0;
  int rc = object_of(c, v, at, keys, 2, NULL);
  if (rc == 0 && (rc = member(c, v, at, "name", false, &m)) == 0) {
    at_of(here, "%s.name", at);
    rc = name_of(c, m, here, p->name);
  }
  for (int b = 0; rc == 0 && b < B_COUNT; b++)
    if (strcmp(p->name, builtins[b]) == 0)
      rc = fail(c, here, "%s is the name of the placeholder {%s}, not free for a parameter",
                p->name, p->name);
  if (rc == 0 && (rc = member(c, v, at, "values", false, &m)) == 0) {
    at_of(here, "%s.values", at);
    rc = array_of(c, m, here, 1, GB_SUITE_VALUES_MAX, &n);
  }
  const cJSON *e = rc == 0 ? m->child : NULL;
  /* All names when the first is a string (each value its index), else all
   * whole numbers. */
  p->named = e && cJSON_IsString(e);
  for (size_t i = 0; rc == 0 && i < n; i++, e = e->next) {
    at_of(here, "%s.values[%zu]", at, i);
    if (!p->named)
      rc = whole_of(c, e, here, &p->values[i]);
    else if (!cJSON_IsString(e))
      rc = fail(c, here, "expected a name, as values[0] is, got %s", gbi_json_type_name(e));
    else if ((rc = name_of(c, e, here, p->names[i])) == 0)
      p->values[i] = i;
    for (size_t j = 0; rc == 0 && j < i; j++)
      if (p->named ? strcmp(p->names[j], p->names[i]) == 0 : p->values[j] == p->values[i])
        rc = p->named ? fail(c, here, "%s is already values[%zu]", p->names[i], j)
                      : fail(c, here, "%" PRIu64 " is already values[%zu]", p->values[i], j);
    p->n_values = i + 1;
  }
  return rc;
}

/* A value of parameter p at `at`: a whole number, or one of its names. */
static int value_of(ctx *c, const cJSON *v, const char *at, const gb_suite_parameter *p,
                    uint64_t *out) {
  char q[SHOWN_SIZE];
  if (p->named && !cJSON_IsString(v))
    return fail(c, at, "expected one of the names of parameter %s, got %s", p->name,
                gbi_json_type_name(v));
  if (p->named && gb_suite_value_parse(p, v->valuestring, strlen(v->valuestring), out) < 0)
    return fail(c, at, "%s is not one of the values of parameter %s",
                shown(v->valuestring, strlen(v->valuestring), q), p->name);
  if (p->named)
    return 0;
  int rc = whole_of(c, v, at, out);
  size_t j = 0;
  while (rc == 0 && j < p->n_values && p->values[j] != *out)
    j++;
  if (rc == 0 && j == p->n_values)
    rc = fail(c, at, "%" PRIu64 " is not one of the values of parameter %s", *out, p->name);
  return rc;
}

static int counters_of(ctx *c, const cJSON *v, const char *at, gb_suite_expect *e) {
  char here[AT_MAX];
  if (!cJSON_IsObject(v))
    return fail(c, at, "expected an object, got %s", gbi_json_type_name(v));
  if (cJSON_GetArraySize(v) > GB_SUITE_COUNTERS_MAX)
    return fail(c, at, "more than %d counters", GB_SUITE_COUNTERS_MAX);
  int rc = 0;
  for (const cJSON *m = v->child; rc == 0 && m; m = m->next) {
    gb_suite_counter *k = &e->counters[e->n_counters];
    /* A bad name is shown quoted, never put into the path raw. */
    rc = name_text(c, m->string, at, k->name);
    at_of(here, "%s.%s", at, k->name);
    if (rc == 0)
      rc = whole_of(c, m, here, &k->value);
    e->n_counters += rc == 0;
  }
  e->has_counters = rc == 0;
  return rc;
}

static int expect_of(ctx *c, const cJSON *v, const char *at, const gb_suite_workload *w,
                     gb_suite_expect *e) {
  static const char *const keys[] = {"output_hash", "counters"};
  char here[AT_MAX];
  const cJSON *m;
  int rc = object_of(c, v, at, keys, 2, w);
  for (size_t i = 0; rc == 0 && i < w->n_parameters; i++) {
    const gb_suite_parameter *p = &w->parameters[i];
    at_of(here, "%s.%s", at, p->name);
    if ((rc = member(c, v, at, p->name, false, &m)) == 0)
      rc = value_of(c, m, here, p, &e->values[i]);
  }
  if (rc == 0 && (rc = member(c, v, at, "output_hash", true, &m)) == 0 && m) {
    at_of(here, "%s.output_hash", at);
    e->has_output_hash = (rc = hash16_of(c, m, here, e->output_hash)) == 0;
  }
  if (rc == 0 && (rc = member(c, v, at, "counters", true, &m)) == 0 && m) {
    at_of(here, "%s.counters", at);
    rc = counters_of(c, m, here, e);
  }
  if (rc == 0 && !e->has_output_hash && !e->has_counters)
    rc = fail(c, at, "gives neither \"output_hash\" nor \"counters\"");
  return rc;
}

static int expects_of(ctx *c, const cJSON *v, const char *at, gb_suite_workload *w) {
  char here[AT_MAX];
  size_t n = 0;
  int rc = array_of(c, v, at, 0, GB_SUITE_EXPECT_MAX, &n);
  if (rc == 0 && n && !(w->expect = calloc(n, sizeof *w->expect)))
    rc = oom(c);
  const cJSON *e = rc == 0 ? v->child : NULL;
  for (size_t i = 0; rc == 0 && i < n; i++, e = e->next) {
    at_of(here, "%s[%zu]", at, i);
    rc = expect_of(c, e, here, w, &w->expect[i]);
    const gb_suite_expect *before =
        rc == 0 ? gb_suite_find_expect(w, w->expect[i].values) : NULL;
    if (before)
      rc = fail(c, here, "the same parameters as %s[%zu]", at, (size_t)(before - w->expect));
    w->n_expect = i + 1;
  }
  return rc;
}

static int workload_of(ctx *c, const cJSON *v, size_t i, gb_suite_workload *w) {
  static const char *const keys[] = {"name", "parameters", "expect"};
  char at[AT_MAX], here[AT_MAX];
  at_of(at, "workloads[%zu]", i);
  const cJSON *m;
  size_t n = 0;
  int rc = object_of(c, v, at, keys, 3, NULL);
  if (rc == 0 && (rc = member(c, v, at, "name", false, &m)) == 0) {
    at_of(here, "%s.name", at);
    rc = name_of(c, m, here, w->name);
  }
  if (rc == 0 && (rc = member(c, v, at, "parameters", false, &m)) == 0) {
    at_of(here, "%s.parameters", at);
    rc = array_of(c, m, here, 1, GB_SUITE_PARAMETERS_MAX, &n);
  }
  const cJSON *p = rc == 0 ? m->child : NULL;
  for (size_t j = 0; rc == 0 && j < n; j++, p = p->next) {
    at_of(here, "%s.parameters[%zu]", at, j);
    rc = parameter_of(c, p, here, &w->parameters[j]);
    for (size_t k = 0; rc == 0 && k < j; k++)
      if (strcmp(w->parameters[k].name, w->parameters[j].name) == 0)
        rc = fail(c, here, "parameter %s is already parameters[%zu]", w->parameters[j].name, k);
    w->n_parameters = j + 1;
  }
  if (rc == 0 && (rc = member(c, v, at, "expect", true, &m)) == 0 && m) {
    at_of(here, "%s.expect", at);
    rc = expects_of(c, m, here, w);
  }
  return rc;
}

/* ---- The file ------------------------------------------------------------ */

/* Names unique in a list of n structs of size `size`, each starting with
 * its name. */
static int unique_names(ctx *c, const void *list, size_t n, size_t size, const char *what) {
  const char *base = list;
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < i; j++)
      if (strcmp(base + i * size, base + j * size) == 0) {
        char at[AT_MAX];
        at_of(at, "%s[%zu].name", what, i);
        return fail(c, at, "%s is already the name of %s[%zu]", base + i * size, what, j);
      }
  return 0;
}

static int list_of(ctx *c, const cJSON *root, const char *key, size_t max, size_t size,
                   void **out, size_t *n) {
  const cJSON *m;
  int rc = member(c, root, "", key, false, &m);
  if (rc == 0)
    rc = array_of(c, m, key, 1, max, n);
  if (rc == 0 && !(*out = calloc(*n, size)))
    rc = oom(c);
  return rc;
}

static int suite_of(ctx *c, const cJSON *root, gb_suite *s) {
  static const char *const keys[] = {"format", "name", "description", "languages", "workloads"};
  char q[SHOWN_SIZE];
  const cJSON *m;
  const char *text = "";
  int rc = object_of(c, root, "", keys, 5, NULL);
  if (rc == 0 && (rc = member(c, root, "", "format", false, &m)) == 0 &&
      (rc = string_of(c, m, "format", &text)) == 0 && strcmp(text, GB_SUITE_FORMAT) != 0)
    rc = fail(c, "format", "must be \"%s\", got %s", GB_SUITE_FORMAT,
              shown(text, strlen(text), q));
  if (rc == 0 && (rc = member(c, root, "", "name", false, &m)) == 0)
    rc = name_of(c, m, "name", s->name);
  text = "";
  if (rc == 0 && (rc = member(c, root, "", "description", true, &m)) == 0 && m)
    rc = text_of(c, m, "description", 0, GB_SUITE_DESCRIPTION_MAX, false, &text);
  if (rc == 0 && !(s->description = strdup(text)))
    rc = oom(c);
  if (rc == 0)
    rc = list_of(c, root, "workloads", GB_SUITE_WORKLOADS_MAX, sizeof *s->workloads,
                 (void **)&s->workloads, &s->n_workloads);
  const cJSON *e = rc == 0 ? cJSON_GetObjectItemCaseSensitive(root, "workloads")->child : NULL;
  for (size_t i = 0; rc == 0 && i < s->n_workloads; i++, e = e->next)
    rc = workload_of(c, e, i, &s->workloads[i]);
  if (rc == 0)
    rc = unique_names(c, s->workloads, s->n_workloads, sizeof *s->workloads, "workloads");
  if (rc == 0)
    rc = list_of(c, root, "languages", GB_SUITE_LANGUAGES_MAX, sizeof *s->languages,
                 (void **)&s->languages, &s->n_languages);
  e = rc == 0 ? cJSON_GetObjectItemCaseSensitive(root, "languages")->child : NULL;
  for (size_t i = 0; rc == 0 && i < s->n_languages; i++, e = e->next)
    rc = language_of(c, e, i, &s->languages[i]);
  if (rc == 0)
    rc = unique_names(c, s->languages, s->n_languages, sizeof *s->languages, "languages");
  for (size_t i = 0; rc == 0 && i < s->n_languages; i++)
    rc = check_language(c, s, i);
  return rc;
}

/* cJSON decodes \u0000 into a NUL that cuts a string short without a word:
 * an argument "a\u0000b" would run as "a". The text is refused instead. */
static int no_nul_escape(ctx *c, const char *text, size_t len) {
  bool in = false;
  size_t line = 1;
  for (size_t i = 0; i < len; i++) {
    line += text[i] == '\n';
    if (text[i] == '"')
      in = !in;
    else if (in && text[i] == '\\' && i + 1 < len) {
      if (i + 5 < len && memcmp(text + i + 1, "u0000", 5) == 0)
        return gb_err_set(
            c->err, EINVAL,
            "suite %s:%zu: \\u0000 in a string; no argument or name can hold a NUL", c->path,
            line);
      i++;
    }
  }
  return 0;
}

/* path's folder (gb_path_dir), which is never longer than path or ".". */
static char *dir_of(const char *path) {
  size_t len = strlen(path) + 2;
  char *d = malloc(len);
  if (d && gb_path_dir(d, len, path) < 0) {
    free(d);
    d = NULL;
  }
  return d;
}

int gb_suite_parse(const char *text, size_t len, const char *path, gb_suite *out, gb_err *err) {
  ctx c = {path, err};
  char shown_path[sizeof err->msg];
  snprintf(shown_path, sizeof shown_path, "suite %s", path);
  gb_suite s = {0};
  cJSON *root = NULL;
  int rc = no_nul_escape(&c, text, len);
  if (rc == 0)
    rc = gbi_json_parse_strict(text, len, shown_path, "a suite file", &root, err);
  if (rc == 0 && (!(s.path = strdup(path)) || !(s.dir = dir_of(path))))
    rc = oom(&c);
  if (rc == 0)
    rc = suite_of(&c, root, &s);
  cJSON_Delete(root);
  if (rc < 0) {
    gb_suite_free(&s);
    return rc;
  }
  XXH128_canonical_t h;
  XXH128_canonicalFromHash(&h, XXH3_128bits(text, len));
  gbi_pack_hex(&h, s.hash);
  *out = s;
  return 0;
}

int gb_suite_load(const char *path, gb_suite *out, gb_err *err) {
  char *buf = malloc(GB_SUITE_FILE_MAX + 1);
  size_t len = 0;
  gb_err e;
  if (!buf)
    return gb_err_set(err, ENOMEM, "suite %s: out of memory", path);
  int rc = gb_read_small_file(path, buf, GB_SUITE_FILE_MAX + 1, &len, &e);
  if (rc < 0)
    rc = gb_err_set(err, -rc, "suite %s: %s", path, e.msg);
  else
    rc = gb_suite_parse(buf, len, path, out, err);
  free(buf);
  return rc;
}

static void template_free(gb_suite_template *t) {
  for (size_t i = 0; t->args && i < t->n; i++)
    free(t->args[i]);
  free(t->args);
}

void gb_suite_free(gb_suite *s) {
  for (size_t i = 0; s->languages && i < s->n_languages; i++)
    for (int k = 0; k < GB_SUITE_TEMPLATE_COUNT; k++)
      template_free(&s->languages[i].t[k]);
  for (size_t i = 0; s->workloads && i < s->n_workloads; i++)
    free(s->workloads[i].expect);
  free(s->languages);
  free(s->workloads);
  free(s->path);
  free(s->dir);
  free(s->description);
  memset(s, 0, sizeof *s);
}
