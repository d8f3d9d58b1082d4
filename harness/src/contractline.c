/* The generic contract line of a suite's programs
 * (greenbench/contractline.h), on the checks it shares with the sorts'
 * line (workerline_json.h). */
#include "greenbench/contractline.h"
#include "workerline_json.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

typedef enum {
  K_LOOP_NS,
  K_COUNTERS,
  K_INPUT_HASH,
  K_OUTPUT_HASH,
  K_RUNTIME,
  K_STARTUP_ONLY,
  K_COUNT
} key_id;

enum { IN_MEASURED = 1, IN_STARTUP = 2, IN_BOTH = 3 };

static const gbi_wl_key keys[K_COUNT] = {
    [K_LOOP_NS] = {"loop_ns", IN_MEASURED},   [K_COUNTERS] = {"counters", IN_MEASURED},
    [K_INPUT_HASH] = {"input_hash", IN_BOTH}, [K_OUTPUT_HASH] = {"output_hash", IN_MEASURED},
    [K_RUNTIME] = {"runtime", IN_BOTH},       [K_STARTUP_ONLY] = {"startup_only", IN_STARTUP},
};

static int get_counters(const cJSON *v, gb_contract_line *l, gb_err *err) {
  char q[GBI_WL_QUOTED_SIZE];
  if (!cJSON_IsObject(v))
    return gbi_wl_bad(err, "\"counters\" must be an object, got %s", gbi_wl_type_name(v));
  for (const cJSON *c = v->child; c; c = c->next) {
    const char *name = c->string ? c->string : "";
    if (!gb_suite_name_ok(name))
      return gbi_wl_bad(err,
                        "counter %s is not a name (1 to %d of a-z, 0-9, _ and -, starting "
                        "with a letter)",
                        gbi_wl_quote(name, strlen(name), q), GB_SUITE_NAME_MAX);
    if (gb_contractline_counter(l, name))
      return gbi_wl_bad(err, "counter \"%s\" appears twice", name);
    if (l->n_counters == GB_SUITE_COUNTERS_MAX)
      return gbi_wl_bad(err, "more than %d counters", GB_SUITE_COUNTERS_MAX);
    gb_suite_counter *k = &l->counters[l->n_counters];
    int rc = gbi_wl_uint(c, name, 0, GB_WORKERLINE_UINT_MAX, &k->value, err);
    if (rc < 0)
      return rc;
    memcpy(k->name, name, strlen(name) + 1);
    l->n_counters++;
  }
  return 0;
}

static int read_field(int field, const cJSON *v, void *out, gb_err *err) {
  gb_contract_line *l = out;
  key_id k = (key_id)field;
  switch (k) {
  case K_LOOP_NS:
    return gbi_wl_uint(v, keys[k].name, 0, GB_WORKERLINE_UINT_MAX, &l->loop_ns, err);
  case K_COUNTERS:
    return get_counters(v, l, err);
  case K_INPUT_HASH:
    return gbi_wl_hash(v, keys[k].name, &l->input_hash, l->input_hash_hex, err);
  case K_OUTPUT_HASH:
    return gbi_wl_hash(v, keys[k].name, &l->output_hash, l->output_hash_hex, err);
  case K_RUNTIME:
    return gbi_wl_printable(v, keys[k].name, GB_WORKERLINE_RUNTIME_MAX, l->runtime, err);
  default: /* K_STARTUP_ONLY */
    return gbi_wl_true(v, keys[k].name, err);
  }
}

int gb_contractline_parse(const char *buf, size_t len, gb_contract_kind kind,
                          gb_contract_line *out, gb_err *err) {
  if (kind != GB_CONTRACT_MEASURED && kind != GB_CONTRACT_STARTUP)
    return gb_err_set(err, EINVAL, "unknown kind of contract line %d", (int)kind);
  gb_contract_line l = {.kind = kind};
  int rc = gbi_wl_parse(buf, len, keys, K_COUNT,
                        kind == GB_CONTRACT_MEASURED ? IN_MEASURED : IN_STARTUP,
                        kind == GB_CONTRACT_MEASURED ? "a measured run" : "a startup-only run",
                        read_field, &l, err);
  if (rc == 0)
    *out = l;
  return rc;
}

const gb_suite_counter *gb_contractline_counter(const gb_contract_line *l, const char *name) {
  for (size_t i = 0; i < l->n_counters; i++)
    if (strcmp(l->counters[i].name, name) == 0)
      return &l->counters[i];
  return NULL;
}

/* The counters of a and of b (n and list) agree: every one of b's is a's,
 * with the same value, and a has no other. */
static int same_counters(const gb_contract_line *a, size_t n, const gb_suite_counter *list,
                         const char *other, gb_err *err) {
  for (size_t i = 0; i < n; i++) {
    const gb_suite_counter *mine = gb_contractline_counter(a, list[i].name);
    if (!mine)
      return gb_err_set(err, EPROTO, "counter %s is missing; %s is %" PRIu64, list[i].name,
                        other, list[i].value);
    if (mine->value != list[i].value)
      return gb_err_set(err, EPROTO, "counter %s %" PRIu64 " differs from %s %" PRIu64,
                        list[i].name, mine->value, other, list[i].value);
  }
  for (size_t i = 0; i < a->n_counters; i++) {
    size_t j = 0;
    while (j < n && strcmp(list[j].name, a->counters[i].name) != 0)
      j++;
    if (j == n)
      return gb_err_set(err, EPROTO, "counter %s %" PRIu64 " is not in %s", a->counters[i].name,
                        a->counters[i].value, other);
  }
  return 0;
}

int gb_contractline_compare(const gb_contract_line *a, const gb_contract_line *b,
                            const char *other_name, gb_err *err) {
  char other[80];
  snprintf(other, sizeof other, "%s's", other_name);
  if (a->input_hash != b->input_hash)
    return gb_err_set(err, EPROTO, "input_hash %s differs from %s %s", a->input_hash_hex, other,
                      b->input_hash_hex);
  if (a->output_hash != b->output_hash)
    return gb_err_set(err, EPROTO, "output_hash %s differs from %s %s", a->output_hash_hex,
                      other, b->output_hash_hex);
  return same_counters(a, b->n_counters, b->counters, other, err);
}

int gb_contractline_expect(const gb_contract_line *l, const gb_suite_expect *e, gb_err *err) {
  if (e->has_output_hash && strcmp(l->output_hash_hex, e->output_hash) != 0)
    return gb_err_set(err, EPROTO, "output_hash %s differs from expect %s", l->output_hash_hex,
                      e->output_hash);
  return e->has_counters ? same_counters(l, e->n_counters, e->counters, "expect", err) : 0;
}
