/* Reading meta.json: every required field with its type, through cJSON.
 * Values that depend on other fields are left to gb_meta_check. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/meta.h"
#include "greenbench/numparse.h"
#include "greenbench/records.h"
#include "json_unique.h"

typedef struct {
  const char *path;
  gb_err *err;
} jctx;

static const char *type_name(const cJSON *v) {
  if (cJSON_IsString(v))
    return "a string";
  if (cJSON_IsNumber(v))
    return "a number";
  if (cJSON_IsBool(v))
    return "a boolean";
  if (cJSON_IsNull(v))
    return "null";
  if (cJSON_IsArray(v))
    return "an array";
  return "an object";
}

/* "settings.runs" from the prefix "settings" and the key "runs". */
static const char *key_path(char *buf, size_t len, const char *at, const char *key) {
  snprintf(buf, len, "%s%s%s", at, at[0] && key[0] ? "." : "", key);
  return buf;
}

static int bad(jctx *j, const char *at, const char *key, const char *what, const cJSON *v) {
  char k[128];
  return gb_err_set(j->err, EINVAL, "%s: %s: expected %s, got %s", j->path,
                    key_path(k, sizeof k, at, key), what, v ? type_name(v) : "nothing");
}

static int bad_value(jctx *j, const char *at, const char *key, const char *why) {
  char k[128];
  return gb_err_set(j->err, EINVAL, "%s: %s: %s", j->path, key_path(k, sizeof k, at, key), why);
}

static int member(jctx *j, const cJSON *obj, const char *at, const char *key,
                  const cJSON **out) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!v) {
    char k[128];
    return gb_err_set(j->err, EINVAL, "%s: %s: missing", j->path,
                      key_path(k, sizeof k, at, key));
  }
  *out = v;
  return 0;
}

static int get_typed(jctx *j, const cJSON *obj, const char *at, const char *key,
                     cJSON_bool (*is)(const cJSON *), const char *what, const cJSON **out) {
  const cJSON *v = NULL;
  int rc = member(j, obj, at, key, &v);
  if (rc < 0)
    return rc;
  if (!is(v))
    return bad(j, at, key, what, v);
  *out = v;
  return 0;
}

static int get_object(jctx *j, const cJSON *obj, const char *at, const char *key,
                      const cJSON **out) {
  return get_typed(j, obj, at, key, cJSON_IsObject, "an object", out);
}

static int get_array(jctx *j, const cJSON *obj, const char *at, const char *key,
                     const cJSON **out) {
  return get_typed(j, obj, at, key, cJSON_IsArray, "an array", out);
}

static int copy_str(jctx *j, const cJSON *v, const char *at, const char *key, char *dst,
                    size_t cap) {
  if (!cJSON_IsString(v))
    return bad(j, at, key, "a string", v);
  size_t n = strlen(v->valuestring);
  if (n >= cap) {
    char why[64];
    snprintf(why, sizeof why, "longer than %zu bytes", cap - 1);
    return bad_value(j, at, key, why);
  }
  memcpy(dst, v->valuestring, n + 1);
  return 0;
}

static int get_str(jctx *j, const cJSON *obj, const char *at, const char *key, char *dst,
                   size_t cap) {
  const cJSON *v = NULL;
  int rc = member(j, obj, at, key, &v);
  return rc < 0 ? rc : copy_str(j, v, at, key, dst, cap);
}

/* A string, or null (*has = false). */
static int get_str_null(jctx *j, const cJSON *obj, const char *at, const char *key, char *dst,
                        size_t cap, bool *has) {
  const cJSON *v = NULL;
  int rc = member(j, obj, at, key, &v);
  if (rc < 0)
    return rc;
  *has = !cJSON_IsNull(v);
  if (!*has) {
    dst[0] = '\0';
    return 0;
  }
  if (!cJSON_IsString(v))
    return bad(j, at, key, "a string or null", v);
  return copy_str(j, v, at, key, dst, cap);
}

/* A number's own text (keep_number_text), not cJSON's double: plain
 * decimal digits without a leading zero, 0 .. 2^64-1, read exactly. */
static int to_uint(jctx *j, const cJSON *v, const char *at, const char *key, uint64_t *out) {
  if (!cJSON_IsNumber(v))
    return bad(j, at, key, "an integer", v);
  const char *s = v->valuestring;
  if (!s || (s[0] == '0' && s[1]) || gb_parse_u64(s, 0, UINT64_MAX, out) < 0)
    return bad_value(j, at, key, "not an integer in 0..2^64-1");
  return 0;
}

static int get_uint(jctx *j, const cJSON *obj, const char *at, const char *key, uint64_t *out) {
  const cJSON *v = NULL;
  int rc = member(j, obj, at, key, &v);
  return rc < 0 ? rc : to_uint(j, v, at, key, out);
}

static int get_uint_null(jctx *j, const cJSON *obj, const char *at, const char *key,
                         uint64_t *out, bool *has) {
  const cJSON *v = NULL;
  int rc = member(j, obj, at, key, &v);
  if (rc < 0)
    return rc;
  *has = !cJSON_IsNull(v);
  *out = 0;
  if (!*has)
    return 0;
  if (!cJSON_IsNumber(v))
    return bad(j, at, key, "an integer or null", v);
  return to_uint(j, v, at, key, out);
}

static int get_bool(jctx *j, const cJSON *obj, const char *at, const char *key, bool *out) {
  const cJSON *v = NULL;
  int rc = get_typed(j, obj, at, key, cJSON_IsBool, "true or false", &v);
  if (rc == 0)
    *out = cJSON_IsTrue(v);
  return rc;
}

/* A name of a value set: the string is checked by parse, which sets *out. */
typedef int (*name_parse)(const char *name, int *out);

static int to_name(jctx *j, const cJSON *v, const char *at, const char *key, name_parse parse,
                   int *out) {
  if (!cJSON_IsString(v))
    return bad(j, at, key, "a string", v);
  if (parse(v->valuestring, out) < 0) {
    char why[96];
    snprintf(why, sizeof why, "unknown value '%.40s'", v->valuestring);
    return bad_value(j, at, key, why);
  }
  return 0;
}

static int get_name(jctx *j, const cJSON *obj, const char *at, const char *key,
                    name_parse parse, int *out) {
  const cJSON *v = NULL;
  int rc = member(j, obj, at, key, &v);
  return rc < 0 ? rc : to_name(j, v, at, key, parse, out);
}

#define PARSER(fn, type)                                                                       \
  static int fn##_int(const char *name, int *out) {                                            \
    type v;                                                                                    \
    int rc = fn(name, &v);                                                                     \
    if (rc == 0)                                                                               \
      *out = (int)v;                                                                           \
    return rc;                                                                                 \
  }
PARSER(gb_language_parse, gb_language)
PARSER(gb_algorithm_parse, gb_algorithm)
PARSER(gb_order_parse, gb_order)
PARSER(gb_rec_energy_parse, gb_rec_energy)
PARSER(gb_meta_profile_parse, gb_meta_profile)
PARSER(gb_meta_energy_mode_parse, gb_meta_energy_mode)
PARSER(gb_meta_zone_kind_parse, gb_meta_zone_kind)

/* A JSON array of at most max values, *n set: names read by parse into
 * names[0..), or, with parse NULL, integers into uints[0..). */
static int get_values(jctx *j, const cJSON *obj, const char *at, const char *key,
                      name_parse parse, int *names, uint64_t *uints, size_t max, size_t *n) {
  const cJSON *arr = NULL, *v;
  int rc = get_array(j, obj, at, key, &arr);
  size_t k = 0;
  for (v = arr ? arr->child : NULL; rc == 0 && v; v = v->next, k++) {
    if (k == max)
      return bad_value(j, at, key, "too many entries");
    rc = parse ? to_name(j, v, at, key, parse, &names[k]) : to_uint(j, v, at, key, &uints[k]);
  }
  if (rc == 0)
    *n = k;
  return rc;
}

static int get_names(jctx *j, const cJSON *obj, const char *at, const char *key,
                     name_parse parse, int *out, size_t max, size_t *n) {
  return get_values(j, obj, at, key, parse, out, NULL, max, n);
}

static int get_uints(jctx *j, const cJSON *obj, const char *at, const char *key, uint64_t *out,
                     size_t max, size_t *n) {
  return get_values(j, obj, at, key, NULL, NULL, out, max, n);
}

/* ---- Sections --------------------------------------------------------- */

static int parse_command(jctx *j, const cJSON *root, gb_meta *m) {
  const cJSON *arr = NULL, *v;
  int rc = get_array(j, root, "", "command", &arr);
  if (rc < 0)
    return rc;
  size_t n = (size_t)cJSON_GetArraySize(arr), k = 0;
  if (n == 0)
    return bad_value(j, "", "command", "empty");
  const char **argv = calloc(n, sizeof *argv);
  if (!argv)
    return gb_err_set(j->err, ENOMEM, "%s: out of memory", j->path);
  cJSON_ArrayForEach(v, arr) {
    if (!cJSON_IsString(v)) {
      free(argv);
      return bad(j, "", "command", "an array of strings", v);
    }
    argv[k++] = v->valuestring;
  }
  rc = gb_meta_set_command(m, n, argv, j->err);
  free(argv);
  return rc;
}

/* Arrays of languages, algorithms and orders, stored as their enums. */
static int parse_lists(jctx *j, const cJSON *s, gb_meta_settings *st) {
  int l[GB_LANGUAGE_COUNT], a[GB_ALGORITHM_COUNT], o[GB_ORDER_COUNT];
  int rc;
  if ((rc = get_names(j, s, "settings", "languages", gb_language_parse_int, l,
                      GB_LANGUAGE_COUNT, &st->n_languages)) < 0 ||
      (rc = get_names(j, s, "settings", "algorithms", gb_algorithm_parse_int, a,
                      GB_ALGORITHM_COUNT, &st->n_algorithms)) < 0 ||
      (rc = get_names(j, s, "settings", "orders", gb_order_parse_int, o, GB_ORDER_COUNT,
                      &st->n_orders)) < 0)
    return rc;
  for (size_t i = 0; i < st->n_languages; i++)
    st->languages[i] = (gb_language)l[i];
  for (size_t i = 0; i < st->n_algorithms; i++)
    st->algorithms[i] = (gb_algorithm)a[i];
  for (size_t i = 0; i < st->n_orders; i++)
    st->orders[i] = (gb_order)o[i];
  return get_uints(j, s, "settings", "sizes", st->sizes, GB_META_MAX_SIZES, &st->n_sizes);
}

/* Reads the entry v of a list, named at ("calibration[3]"), into m. */
typedef int (*entry_parse)(jctx *j, const cJSON *v, const char *at, gb_meta *m);

/* Each entry of the array obj[key] (obj itself at `at`) through one. */
static int parse_list(jctx *j, const cJSON *obj, const char *at, const char *key, gb_meta *m,
                      entry_parse one) {
  const cJSON *arr = NULL, *v;
  int rc = get_array(j, obj, at, key, &arr);
  size_t i = 0;
  for (v = arr ? arr->child : NULL; rc == 0 && v; v = v->next) {
    char k[64], entry[96];
    snprintf(entry, sizeof entry, "%s[%zu]", key_path(k, sizeof k, at, key), i++);
    rc = one(j, v, entry, m);
  }
  return rc;
}

/* An entry of settings.omit: a configuration of the lists, each once. */
static int parse_omit(jctx *j, const cJSON *v, const char *at, gb_meta *m) {
  gb_meta_settings *st = &m->settings;
  int l = 0, a = 0, o = 0, rc;
  uint64_t size = 0;
  if (!cJSON_IsObject(v))
    return bad(j, at, "", "an object", v);
  if ((rc = get_name(j, v, at, "language", gb_language_parse_int, &l)) < 0 ||
      (rc = get_name(j, v, at, "algorithm", gb_algorithm_parse_int, &a)) < 0 ||
      (rc = get_name(j, v, at, "order", gb_order_parse_int, &o)) < 0 ||
      (rc = get_uint(j, v, at, "size", &size)) < 0)
    return rc;
  size_t z = 0;
  while (z < st->n_sizes && st->sizes[z] != size)
    z++;
  if (z == st->n_sizes || !gb_meta_has_language(m, (gb_language)l) ||
      !gb_meta_has_algorithm(m, (gb_algorithm)a) || !gb_meta_has_order(m, (gb_order)o))
    return bad_value(j, at, "", "a configuration not in the settings' lists");
  if (st->omit[l][a][o] >> z & 1u)
    return bad_value(j, at, "", "the same configuration as an earlier entry");
  st->omit[l][a][o] |= 1u << z;
  return 0;
}

static int parse_settings(jctx *j, const cJSON *root, gb_meta *m) {
  gb_meta_settings *st = &m->settings;
  const cJSON *s = NULL;
  int rc, mode = 0;
  if ((rc = get_object(j, root, "", "settings", &s)) < 0 || (rc = parse_lists(j, s, st)) < 0 ||
      (rc = get_uint(j, s, "settings", "runs", &st->runs)) < 0 ||
      (rc = get_uint(j, s, "settings", "warmups", &st->warmups)) < 0 ||
      (rc = get_uint(j, s, "settings", "target_ms", &st->target_ms)) < 0 ||
      (rc = get_name(j, s, "settings", "energy", gb_meta_energy_mode_parse_int, &mode)) < 0 ||
      (rc = get_uint(j, s, "settings", "seed", &st->seed)) < 0 ||
      (rc = get_uint(j, s, "settings", "order_seed", &st->order_seed)) < 0 ||
      (rc = get_str(j, s, "settings", "python", st->python, sizeof st->python)) < 0 ||
      (rc = get_str(j, s, "settings", "node", st->node, sizeof st->node)) < 0 ||
      (rc = get_uint(j, s, "settings", "timeout_s", &st->timeout_s)) < 0 ||
      /* optional: records before it have none */
      (cJSON_GetObjectItemCaseSensitive(s, "omit") &&
       (rc = parse_list(j, s, "settings", "omit", m, parse_omit)) < 0))
    return rc;
  st->energy = (gb_meta_energy_mode)mode;
  return 0;
}

static int parse_plan(jctx *j, const cJSON *root, gb_meta_plan *p) {
  const cJSON *o = NULL;
  int rc;
  if ((rc = get_object(j, root, "", "plan", &o)) < 0 ||
      (rc = get_uint(j, o, "plan", "configurations", &p->configurations)) < 0 ||
      (rc = get_uint(j, o, "plan", "sort_runs", &p->sort_runs)) < 0 ||
      (rc = get_uint(j, o, "plan", "startup_runs", &p->startup_runs)) < 0)
    return rc;
  return get_uint(j, o, "plan", "measured_runs", &p->measured_runs);
}

static int parse_calibration(jctx *j, const cJSON *o, const char *at, gb_meta *m) {
  gb_meta_calibration c = {0};
  int l = 0, a = 0, ord = 0, rc;
  if (!cJSON_IsObject(o))
    return bad(j, at, "", "an object", o);
  if ((rc = get_name(j, o, at, "language", gb_language_parse_int, &l)) < 0 ||
      (rc = get_name(j, o, at, "algorithm", gb_algorithm_parse_int, &a)) < 0 ||
      (rc = get_name(j, o, at, "order", gb_order_parse_int, &ord)) < 0 ||
      (rc = get_uint(j, o, at, "size", &c.size)) < 0 ||
      (rc = get_uint(j, o, at, "sorts", &c.sorts)) < 0 ||
      (rc = get_uints(j, o, at, "warmup_loop_ns", c.warmup_loop_ns, GB_META_MAX_WARMUPS,
                      &c.n_warmup_loop_ns)) < 0)
    return rc;
  c.language = (gb_language)l;
  c.algorithm = (gb_algorithm)a;
  c.order = (gb_order)ord;
  return gb_meta_add_calibration(m, &c, j->err);
}

static int parse_startup(jctx *j, const cJSON *o, const char *at, gb_meta *m) {
  gb_meta_startup s = {0};
  int l = 0, ord = 0, rc;
  if (!cJSON_IsObject(o))
    return bad(j, at, "", "an object", o);
  if ((rc = get_name(j, o, at, "language", gb_language_parse_int, &l)) < 0 ||
      (rc = get_name(j, o, at, "order", gb_order_parse_int, &ord)) < 0 ||
      (rc = get_uint(j, o, at, "size", &s.size)) < 0 ||
      (rc = get_uint(j, o, at, "launches", &s.launches)) < 0)
    return rc;
  s.language = (gb_language)l;
  s.order = (gb_order)ord;
  return gb_meta_add_startup(m, &s, j->err);
}

static int parse_zone(jctx *j, const cJSON *o, const char *at, gb_meta *m) {
  if (m->energy.n_zones == GB_META_MAX_ZONES)
    return bad_value(j, "energy", "zones", "too many entries");
  gb_meta_zone *z = &m->energy.zones[m->energy.n_zones++];
  int kind = 0, rc;
  if (!cJSON_IsObject(o))
    return bad(j, at, "", "an object", o);
  if ((rc = get_str(j, o, at, "name", z->name, sizeof z->name)) < 0 ||
      (rc = get_str(j, o, at, "path", z->path, sizeof z->path)) < 0 ||
      (rc = get_name(j, o, at, "kind", gb_meta_zone_kind_parse_int, &kind)) < 0 ||
      (rc = get_uint(j, o, at, "socket", &z->socket)) < 0 ||
      (rc = get_uint(j, o, at, "max_energy_range_uj", &z->max_energy_range_uj)) < 0)
    return rc;
  z->kind = (gb_meta_zone_kind)kind;
  return 0;
}

static int parse_energy(jctx *j, const cJSON *root, gb_meta *m) {
  const cJSON *e = NULL;
  int rc, status = 0;
  if ((rc = get_object(j, root, "", "energy", &e)) < 0 ||
      (rc = get_name(j, e, "energy", "status", gb_rec_energy_parse_int, &status)) < 0 ||
      (rc = get_str(j, e, "energy", "reason", m->energy.reason, sizeof m->energy.reason)) < 0)
    return rc;
  m->energy.status = (gb_rec_energy)status;
  /* Optional: older records, and campaigns that read no energy, have none. */
  m->energy.has_source = cJSON_GetObjectItemCaseSensitive(e, "source") != NULL;
  if (m->energy.has_source &&
      ((rc = get_str(j, e, "energy", "source", m->energy.source, sizeof m->energy.source)) <
           0 ||
       (rc = get_str_null(j, e, "energy", "cross_check", m->energy.cross_check,
                          sizeof m->energy.cross_check, &m->energy.has_cross)) < 0))
    return rc;
  return parse_list(j, e, "energy", "zones", m, parse_zone);
}

static int parse_machine(jctx *j, const cJSON *root, gb_meta *m) {
  const cJSON *o = NULL;
  int rc;
  if ((rc = get_object(j, root, "", "machine", &o)) < 0 ||
      (rc = get_str(j, o, "machine", "cpu_model", m->machine.cpu_model,
                    sizeof m->machine.cpu_model)) < 0 ||
      (rc = get_str(j, o, "machine", "kernel", m->machine.kernel, sizeof m->machine.kernel)) <
          0 ||
      (rc = get_str_null(j, o, "machine", "governor", m->machine.governor,
                         sizeof m->machine.governor, &m->machine.has_governor)) < 0 ||
      (rc = get_str_null(j, o, "machine", "turbo", m->machine.turbo, sizeof m->machine.turbo,
                         &m->machine.has_turbo)) < 0)
    return rc;
  if ((rc = get_uint(j, o, "machine", "cpus_online", &m->machine.cpus_online)) < 0)
    return rc;
  /* Optional: older records have no label. */
  m->machine.has_label = cJSON_GetObjectItemCaseSensitive(o, "label") != NULL;
  if (!m->machine.has_label)
    return 0;
  return get_str(j, o, "machine", "label", m->machine.label, sizeof m->machine.label);
}

static int parse_pinning(jctx *j, const cJSON *root, gb_meta *m) {
  const cJSON *o = NULL;
  int rc;
  if ((rc = get_object(j, root, "", "pinning", &o)) < 0 ||
      (rc = get_str(j, o, "pinning", "cpus", m->pinning.cpus, sizeof m->pinning.cpus)) < 0 ||
      (rc = get_bool(j, o, "pinning", "rule_held", &m->pinning.rule_held)) < 0 ||
      (rc = get_str(j, o, "pinning", "reason", m->pinning.reason, sizeof m->pinning.reason)) <
          0 ||
      (rc = get_uint_null(j, o, "pinning", "numa_node", &m->pinning.numa_node,
                          &m->pinning.has_numa_node)) < 0)
    return rc;
  return get_bool(j, o, "pinning", "memory_bound", &m->pinning.memory_bound);
}

/* Runtimes of languages that are not in the settings may be absent. */
static int parse_runtimes(jctx *j, const cJSON *root, gb_meta *m) {
  const cJSON *o = NULL;
  int rc = get_object(j, root, "", "runtimes", &o);
  for (int l = 0; rc == 0 && l < GB_LANGUAGE_COUNT; l++) {
    const char *name = gb_language_name((gb_language)l);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    if (v)
      rc = copy_str(j, v, "runtimes", name, m->runtimes[l], sizeof m->runtimes[l]);
  }
  return rc;
}

/* Optional (older records have none): an object of strings, names not empty
 * and at most GB_META_MAX_ENV of them. */
static int parse_harness_env(jctx *j, const cJSON *root, gb_meta *m) {
  if (!cJSON_GetObjectItemCaseSensitive(root, "harness_env"))
    return 0;
  const cJSON *o = NULL;
  int rc = get_object(j, root, "", "harness_env", &o);
  m->has_harness_env = rc == 0;
  for (const cJSON *v = o ? o->child : NULL; rc == 0 && v; v = v->next) {
    if (m->n_harness_env == GB_META_MAX_ENV)
      return bad_value(j, "", "harness_env", "more than 32 variables");
    size_t n = strlen(v->string);
    if (n == 0 || n >= sizeof m->harness_env[0].name)
      return bad_value(j, "", "harness_env", "a variable name that is empty or too long");
    memcpy(m->harness_env[m->n_harness_env].name, v->string, n + 1);
    rc = copy_str(j, v, "harness_env", v->string, m->harness_env[m->n_harness_env].value,
                  sizeof m->harness_env[0].value);
    m->n_harness_env += rc == 0;
  }
  return rc;
}

static int parse_header(jctx *j, const cJSON *root, gb_meta *m) {
  char format[GB_META_NAME_MAX];
  int rc, profile = 0;
  if ((rc = get_str(j, root, "", "format", format, sizeof format)) < 0)
    return rc;
  if (strcmp(format, GB_META_FORMAT) != 0)
    return bad_value(j, "", "format", "not " GB_META_FORMAT);
  if ((rc = get_str(j, root, "", "tool_version", m->tool_version, sizeof m->tool_version)) <
          0 ||
      (rc = parse_command(j, root, m)) < 0 ||
      (rc = get_name(j, root, "", "profile", gb_meta_profile_parse_int, &profile)) < 0)
    return rc;
  m->profile = (gb_meta_profile)profile;
  return 0;
}

/* "access" and "spawner": optional (older records lack them), both or neither. */
static int parse_access(jctx *j, const cJSON *root, gb_meta *m) {
  m->has_access = cJSON_GetObjectItemCaseSensitive(root, "access") ||
                  cJSON_GetObjectItemCaseSensitive(root, "spawner");
  if (!m->has_access)
    return 0;
  int rc = get_str(j, root, "", "access", m->access, sizeof m->access);
  return rc < 0 ? rc : get_str(j, root, "", "spawner", m->spawner, sizeof m->spawner);
}

static int parse_progress(jctx *j, const cJSON *root, gb_meta *m) {
  int rc;
  if ((rc = get_str(j, root, "", "git_commit", m->git_commit, sizeof m->git_commit)) < 0 ||
      (rc = get_str(j, root, "", "started_at", m->started_at, sizeof m->started_at)) < 0 ||
      (rc = get_str_null(j, root, "", "finished_at", m->finished_at, sizeof m->finished_at,
                         &m->has_finished_at)) < 0 ||
      (rc = get_bool(j, root, "", "completed", &m->completed)) < 0)
    return rc;
  return get_uint(j, root, "", "runs_done", &m->runs_done);
}

static int parse_root(jctx *j, const cJSON *root, gb_meta *m) {
  int rc;
  if (!cJSON_IsObject(root))
    return gb_err_set(j->err, EINVAL, "%s: expected a JSON object, got %s", j->path,
                      type_name(root));
  if ((rc = parse_header(j, root, m)) < 0 || (rc = parse_settings(j, root, m)) < 0 ||
      (rc = parse_plan(j, root, &m->plan)) < 0 ||
      (rc = parse_list(j, root, "", "calibration", m, parse_calibration)) < 0 ||
      (rc = parse_list(j, root, "", "startup", m, parse_startup)) < 0 ||
      (rc = parse_energy(j, root, m)) < 0 || (rc = parse_machine(j, root, m)) < 0 ||
      (rc = parse_pinning(j, root, m)) < 0 || (rc = parse_runtimes(j, root, m)) < 0 ||
      (rc = parse_harness_env(j, root, m)) < 0 || (rc = parse_access(j, root, m)) < 0 ||
      (rc = parse_progress(j, root, m)) < 0)
    return rc;
  return gb_meta_check(m, j->path, j->err);
}

static size_t line_at(const char *s, size_t len, const char *at) {
  size_t line = 1;
  for (const char *p = s; p < s + len && p < at; p++)
    line += *p == '\n';
  return line;
}

static bool only_space(const char *p, const char *end) {
  for (; p < end; p++)
    if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
      return false;
  return true;
}

/* The next number token of valid JSON text at *p (skipping strings, where
 * digits are not numbers), its length in *n; NULL when there is none. */
static const char *next_number(const char *p, const char *end, size_t *n) {
  while (p < end) {
    if (*p == '"') {
      for (p++; p < end && *p != '"'; p++)
        p += *p == '\\';
      p++;
    } else if (*p == '-' || (*p >= '0' && *p <= '9')) {
      const char *start = p;
      while (p < end && *p && strchr("0123456789+-.eE", *p))
        p++;
      *n = (size_t)(p - start);
      return start;
    } else {
      p++;
    }
  }
  return NULL;
}

/* cJSON keeps a number only as a double, exact to 2^53; the records hold
 * 64-bit integers. Numbers come in the text in the order of the tree, so
 * each number item under v gets its own text as its valuestring (which
 * cJSON_Delete frees). false when out of memory. */
static bool keep_number_text(cJSON *v, const char **p, const char *end) {
  for (; v; v = v->next) {
    size_t n = 0;
    const char *s = cJSON_IsNumber(v) ? next_number(*p, end, &n) : NULL;
    if (s) {
      if (!(v->valuestring = cJSON_malloc(n + 1)))
        return false;
      memcpy(v->valuestring, s, n);
      v->valuestring[n] = '\0';
      *p = s + n;
    }
    if (v->child && !keep_number_text(v->child, p, end))
      return false;
  }
  return true;
}

int gb_meta_parse(const char *json, size_t len, const char *path, gb_meta *out, gb_err *err) {
  const char *end = json, *scan = json;
  cJSON *root = cJSON_ParseWithLengthOpts(json, len, &end, 0);
  if (root && !keep_number_text(root, &scan, json + len)) {
    cJSON_Delete(root);
    return gb_err_set(err, ENOMEM, "%s: out of memory", path);
  }
  if (!root || !only_space(end, json + len)) {
    cJSON_Delete(root);
    return gb_err_set(err, EINVAL, "%s:%zu: malformed JSON", path, line_at(json, len, end));
  }
  gb_meta *m = malloc(sizeof *m);
  if (!m) {
    cJSON_Delete(root);
    return gb_err_set(err, ENOMEM, "%s: out of memory", path);
  }
  gb_meta_init(m);
  jctx j = {path, err};
  int rc = gb_json_check_unique_keys(root, path, err);
  if (rc == 0)
    rc = parse_root(&j, root, m);
  cJSON_Delete(root);
  if (rc == 0)
    *out = *m;
  else
    gb_meta_free(m);
  free(m);
  return rc;
}
