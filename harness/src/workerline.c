#include "greenbench/workerline.h"
#include "workerline_json.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

typedef enum {
  K_LANGUAGE,
  K_ALGORITHM,
  K_ORDER,
  K_SIZE,
  K_SEED,
  K_SORTS,
  K_COMPARISONS,
  K_WRITES,
  K_INPUT_HASH,
  K_LOOP_NS,
  K_SORTED,
  K_STARTUP_ONLY,
  K_RUNTIME,
  K_COUNT
} key_id;

enum { IN_SORT = 1, IN_STARTUP = 2, IN_BOTH = 3 };

static const gbi_wl_key keys[K_COUNT] = {
    [K_LANGUAGE] = {"language", IN_BOTH},
    [K_ALGORITHM] = {"algorithm", IN_BOTH},
    [K_ORDER] = {"order", IN_BOTH},
    [K_SIZE] = {"size", IN_BOTH},
    [K_SEED] = {"seed", IN_BOTH},
    [K_SORTS] = {"sorts", IN_BOTH},
    [K_COMPARISONS] = {"comparisons", IN_SORT},
    [K_WRITES] = {"writes", IN_SORT},
    [K_INPUT_HASH] = {"input_hash", IN_BOTH},
    [K_LOOP_NS] = {"loop_ns", IN_SORT},
    [K_SORTED] = {"sorted", IN_SORT},
    [K_STARTUP_ONLY] = {"startup_only", IN_STARTUP},
    [K_RUNTIME] = {"runtime", IN_BOTH},
};

static int get_language(const cJSON *v, gb_worker_line *l, gb_err *err) {
  char q[GBI_WL_QUOTED_SIZE];
  const char *s = "";
  gb_language lang;
  int rc = gbi_wl_string(v, keys[K_LANGUAGE].name, &s, err);
  if (rc == 0 && gb_language_parse(s, &lang) == 0) {
    snprintf(l->language, sizeof l->language, "%s", gb_language_name(lang));
    return 0;
  }
  return rc < 0 ? rc
                : gbi_wl_bad(err, "\"language\" must be c, python or node, got %s",
                             gbi_wl_quote(s, strlen(s), q));
}

static int get_algorithm(const cJSON *v, gb_worker_line *l, gb_err *err) {
  char q[GBI_WL_QUOTED_SIZE];
  const char *s = "";
  int rc = gbi_wl_string(v, keys[K_ALGORITHM].name, &s, err);
  if (rc == 0 && gb_algorithm_parse(s, &l->algorithm) < 0)
    rc = gbi_wl_bad(err, "\"algorithm\" must be bubble, insertion or quick, got %s",
                    gbi_wl_quote(s, strlen(s), q));
  return rc;
}

static int get_order(const cJSON *v, gb_worker_line *l, gb_err *err) {
  char q[GBI_WL_QUOTED_SIZE];
  const char *s = "";
  int rc = gbi_wl_string(v, keys[K_ORDER].name, &s, err);
  if (rc == 0 && gb_order_parse(s, &l->order) < 0)
    rc = gbi_wl_bad(err, "\"order\" must be random, sorted, reversed or nearly, got %s",
                    gbi_wl_quote(s, strlen(s), q));
  return rc;
}

static int read_field(int field, const cJSON *v, void *out, gb_err *err) {
  gb_worker_line *l = out;
  key_id k = (key_id)field;
  uint64_t seed = 0;
  int rc;
  switch (k) {
  case K_LANGUAGE:
    return get_language(v, l, err);
  case K_ALGORITHM:
    return get_algorithm(v, l, err);
  case K_ORDER:
    return get_order(v, l, err);
  case K_SIZE:
    return gbi_wl_uint(v, keys[k].name, 1, GB_MAX_SIZE, &l->size, err);
  case K_SEED:
    rc = gbi_wl_uint(v, keys[k].name, 1, UINT32_MAX, &seed, err);
    l->seed = (uint32_t)seed;
    return rc;
  case K_SORTS:
    return gbi_wl_uint(v, keys[k].name, 1, GB_MAX_SORTS, &l->sorts, err);
  case K_COMPARISONS:
    return gbi_wl_uint(v, keys[k].name, 0, GB_WORKERLINE_UINT_MAX, &l->comparisons, err);
  case K_WRITES:
    return gbi_wl_uint(v, keys[k].name, 0, GB_WORKERLINE_UINT_MAX, &l->writes, err);
  case K_LOOP_NS:
    return gbi_wl_uint(v, keys[k].name, 0, GB_WORKERLINE_UINT_MAX, &l->loop_ns, err);
  case K_INPUT_HASH:
    return gbi_wl_hash(v, keys[k].name, &l->input_hash, l->input_hash_hex, err);
  case K_RUNTIME:
    return gbi_wl_printable(v, keys[k].name, GB_WORKERLINE_RUNTIME_MAX, l->runtime, err);
  default: /* K_SORTED, K_STARTUP_ONLY */
    return gbi_wl_true(v, keys[k].name, err);
  }
}

int gb_workerline_parse(const char *buf, size_t len, gb_workerline_kind kind,
                        gb_worker_line *out, gb_err *err) {
  if (kind != GB_WORKERLINE_SORT && kind != GB_WORKERLINE_STARTUP)
    return gb_err_set(err, EINVAL, "unknown kind of worker line %d", (int)kind);
  gb_worker_line l = {.kind = kind};
  int rc = gbi_wl_parse(
      buf, len, keys, K_COUNT, kind == GB_WORKERLINE_SORT ? IN_SORT : IN_STARTUP,
      kind == GB_WORKERLINE_SORT ? "a sorting run" : "a startup-only run", read_field, &l, err);
  if (rc == 0)
    *out = l;
  return rc;
}

static int differs(gb_err *err, const char *field, const char *got, const char *asked) {
  return gbi_wl_bad(err, "\"%s\" is %s but %s was asked for", field, got, asked);
}

static int differs_u(gb_err *err, const char *field, uint64_t got, uint64_t asked) {
  char g[24], a[24];
  snprintf(g, sizeof g, "%llu", (unsigned long long)got);
  snprintf(a, sizeof a, "%llu", (unsigned long long)asked);
  return differs(err, field, g, a);
}

static const char *or_unknown(const char *name) {
  return name ? name : "(unknown)";
}

int gb_workerline_check(const gb_worker_line *line, const gb_worker_request *req, gb_err *err) {
  static const char *const kinds[] = {"a sorting run", "a startup-only run"};
  if (line->kind != req->kind)
    return gbi_wl_bad(err, "a line for %s, but %s was asked for", kinds[line->kind != 0],
                      kinds[req->kind != 0]);
  if (!req->language || strcmp(line->language, req->language) != 0)
    return differs(err, "language", line->language, or_unknown(req->language));
  if (line->algorithm != req->algorithm)
    return differs(err, "algorithm", gb_algorithm_name(line->algorithm),
                   or_unknown(gb_algorithm_name(req->algorithm)));
  if (line->order != req->order)
    return differs(err, "order", gb_order_name(line->order),
                   or_unknown(gb_order_name(req->order)));
  if (line->size != req->size)
    return differs_u(err, "size", line->size, req->size);
  if (line->seed != req->seed)
    return differs_u(err, "seed", line->seed, req->seed);
  if (line->sorts != req->sorts)
    return differs_u(err, "sorts", line->sorts, req->sorts);
  return 0;
}

int gb_workerline_read(const char *buf, size_t len, const gb_worker_request *req,
                       gb_worker_line *out, gb_err *err) {
  gb_worker_line l;
  int rc = gb_workerline_parse(buf, len, req->kind, &l, err);
  if (rc == 0)
    rc = gb_workerline_check(&l, req, err);
  if (rc == 0)
    *out = l;
  return rc;
}
