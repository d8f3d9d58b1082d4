/* meta.json as one table of fields (key, type, place in gb_meta, bounds,
 * optional), which drives the reader (gb_meta_parse), the writer
 * (gb_meta_to_json) and the per-field half of gb_meta_check, as the column
 * table of records.c drives runs.csv. Rules across fields are in meta.c. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/meta.h"
#include "greenbench/numparse.h"
#include "records_internal.h"

typedef enum { T_STR, T_UINT, T_BOOL, T_ENUM, T_OBJECT, T_ARRAY, T_HOOK } ftype;

enum {
  F_OPT = 1,          /* may be absent; with has_off, present sets that flag */
  F_FOLLOW = 2,       /* read and written only when the flag at has_off is set */
  F_NULL = 4,         /* may be null: the flag at null_off says it is not */
  F_NONEMPTY = 8,     /* a string or array that must not be empty */
  F_UNIQUE = 16,      /* an array without repeats */
  F_HEAP = 32,        /* an array at a pointer, grown by gbi_meta_grow */
  F_HAS = 64,         /* has_off is set */
  F_SKIP_EMPTY = 128, /* text written only when not empty */
};

typedef struct field field;

typedef struct {
  const char *path;
  gb_err *err;
} jctx;

/* A field the table cannot describe, read and written by hand. */
typedef struct {
  int (*parse)(jctx *j, const cJSON *v, const char *at, void *base);
  bool (*write)(const void *base, cJSON *parent, const char *key);
} hook;

struct field {
  const char *key;
  ftype type;
  unsigned flags;
  size_t off, size;         /* the value, an array's entries, or what a hook keeps */
  size_t has_off, null_off; /* bool flags (F_HAS, F_NULL) */
  size_t n_off, max;        /* arrays: the count (size_t) and the most entries */
  gbi_rec_name_set names;   /* enums, stored as unsigned */
  uint64_t min, hi;         /* integers' bounds */
  const char *why;          /* said after a value out of bounds */
  const field *sub;         /* objects: members; arrays: the entry */
  size_t n_sub;
  const hook *fn;
};

_Static_assert(sizeof(gb_language) == sizeof(unsigned) &&
                   sizeof(gb_algorithm) == sizeof(unsigned) &&
                   sizeof(gb_order) == sizeof(unsigned) &&
                   sizeof(gb_profile) == sizeof(unsigned) &&
                   sizeof(gb_energy_mode) == sizeof(unsigned) &&
                   sizeof(gb_meta_zone_kind) == sizeof(unsigned) &&
                   sizeof(gb_rec_energy) == sizeof(unsigned),
               "enums are read and written through unsigned");

const char *const gbi_meta_zone_kind_names[] = {"package", "dram"};
GB_REC_NAME_FUNCS(gb_meta_zone_kind, gbi_meta_zone_kind_names)

/* ---- Places and messages ------------------------------------------------ */

#define PLACE(base, f, type) ((type *)((char *)(base) + (f)->off))
#define FLAG_AT(base, off) ((bool *)((char *)(base) + (off)))
#define COUNT(base, f) ((size_t *)((char *)(base) + (f)->n_off))

static const char *type_name(const cJSON *v) {
  if (!v)
    return "nothing";
  if (cJSON_IsString(v))
    return "a string";
  if (cJSON_IsNumber(v))
    return "a number";
  if (cJSON_IsBool(v))
    return "a boolean";
  if (cJSON_IsNull(v))
    return "null";
  return cJSON_IsArray(v) ? "an array" : "an object";
}

/* "settings.runs" from the place "settings" and the key "runs". */
static const char *key_path(char *buf, size_t len, const char *at, const char *key) {
  snprintf(buf, len, "%s%s%s", at, at[0] && key && key[0] ? "." : "", key ? key : "");
  return buf;
}

static int bad(jctx *j, const char *at, const char *what, const cJSON *v) {
  return gb_err_set(j->err, EINVAL, "%s: %s: expected %s, got %s", j->path, at, what,
                    type_name(v));
}

static int bad_value(jctx *j, const char *at, const char *why) {
  return gb_err_set(j->err, EINVAL, "%s: %s: %s", j->path, at, why);
}

static int copy_str(jctx *j, const cJSON *v, const char *at, char *dst, size_t cap) {
  if (!cJSON_IsString(v))
    return bad(j, at, "a string", v);
  size_t n = strlen(v->valuestring);
  if (n >= cap) {
    char why[64];
    snprintf(why, sizeof why, "longer than %zu bytes", cap - 1);
    return bad_value(j, at, why);
  }
  memcpy(dst, v->valuestring, n + 1);
  return 0;
}

/* A number's own text (keep_number_text), not cJSON's double: plain
 * decimal digits without a leading zero, 0 .. 2^64-1, read exactly. */
static int to_uint(jctx *j, const cJSON *v, const char *at, uint64_t *out) {
  if (!cJSON_IsNumber(v))
    return bad(j, at, "an integer", v);
  const char *s = v->valuestring;
  if (!s || (s[0] == '0' && s[1]) || gb_parse_u64(s, 0, UINT64_MAX, out) < 0)
    return bad_value(j, at, "not an integer in 0..2^64-1");
  return 0;
}

/* Every number is written as its exact decimal digits (a raw item): cJSON's
 * own numbers are doubles, printed with 15 significant digits when that
 * round-trips within an epsilon, which loses the last digits of a seed. */
static cJSON *exact_uint(uint64_t v) {
  char digits[24];
  snprintf(digits, sizeof digits, "%" PRIu64, v);
  return cJSON_CreateRaw(digits);
}

/* Adds item to o (an array when key is NULL); false, item freed, on failure. */
static bool add(cJSON *o, const char *key, cJSON *item) {
  if (item && (key ? cJSON_AddItemToObject(o, key, item) : cJSON_AddItemToArray(o, item)))
    return true;
  cJSON_Delete(item);
  return false;
}

/* ---- Fields the table cannot describe, read and written by hand --------- */

static int parse_format(jctx *j, const cJSON *v, const char *at, void *base) {
  (void)base;
  char format[GB_META_NAME_MAX];
  int rc = copy_str(j, v, at, format, sizeof format);
  if (rc == 0 && strcmp(format, GB_META_FORMAT) != 0)
    rc = bad_value(j, at, "not " GB_META_FORMAT);
  return rc;
}

static bool write_format(const void *base, cJSON *parent, const char *key) {
  (void)base;
  return add(parent, key, cJSON_CreateString(GB_META_FORMAT));
}

static int parse_command(jctx *j, const cJSON *arr, const char *at, void *base) {
  if (!cJSON_IsArray(arr))
    return bad(j, at, "an array", arr);
  size_t n = (size_t)cJSON_GetArraySize(arr), k = 0;
  if (n == 0)
    return bad_value(j, at, "empty");
  const char **argv = calloc(n, sizeof *argv);
  if (!argv)
    return gb_err_set(j->err, ENOMEM, "%s: out of memory", j->path);
  const cJSON *v;
  cJSON_ArrayForEach(v, arr) {
    if (!cJSON_IsString(v)) {
      free(argv);
      return bad(j, at, "an array of strings", v);
    }
    argv[k++] = v->valuestring;
  }
  int rc = gb_meta_set_command(base, n, argv, j->err);
  free(argv);
  return rc;
}

static bool write_command(const void *base, cJSON *parent, const char *key) {
  const gb_meta *m = base;
  return add(parent, key,
             m->n_command
                 ? cJSON_CreateStringArray((const char *const *)m->command, (int)m->n_command)
                 : NULL);
}

/* An object of strings, names not empty and at most GB_META_MAX_ENV. */
static int parse_env(jctx *j, const cJSON *o, const char *at, void *base) {
  gb_meta *m = base;
  if (!cJSON_IsObject(o))
    return bad(j, at, "an object", o);
  int rc = 0;
  for (const cJSON *v = o->child; rc == 0 && v; v = v->next) {
    char k[128];
    if (m->n_harness_env == GB_META_MAX_ENV)
      return bad_value(j, at, "more than 32 variables");
    size_t n = strlen(v->string);
    if (n == 0 || n >= sizeof m->harness_env[0].name)
      return bad_value(j, at, "a variable name that is empty or too long");
    memcpy(m->harness_env[m->n_harness_env].name, v->string, n + 1);
    rc = copy_str(j, v, key_path(k, sizeof k, at, v->string),
                  m->harness_env[m->n_harness_env].value, sizeof m->harness_env[0].value);
    m->n_harness_env += rc == 0;
  }
  return rc;
}

static bool write_env(const void *base, cJSON *parent, const char *key) {
  const gb_meta *m = base;
  cJSON *o = cJSON_CreateObject();
  for (size_t i = 0; o && i < m->n_harness_env && i < GB_META_MAX_ENV; i++)
    if (!add(o, m->harness_env[i].name, cJSON_CreateString(m->harness_env[i].value))) {
      cJSON_Delete(o);
      o = NULL;
    }
  return add(parent, key, o);
}

/* A list of the settings (a bitmask, settings.h) as an array of names:
 * each known and listed once; written in enum order. */
static int parse_mask(jctx *j, const cJSON *arr, const char *at, unsigned *mask,
                      gbi_rec_name_set names) {
  if (!cJSON_IsArray(arr))
    return bad(j, at, "an array", arr);
  size_t k = 0;
  for (const cJSON *v = arr->child; v; v = v->next, k++) {
    if (k == names.n)
      return bad_value(j, at, "too many entries");
    if (!cJSON_IsString(v))
      return bad(j, at, "a string", v);
    int i = gbi_rec_set_find(names, v->valuestring, strlen(v->valuestring));
    if (i < 0) {
      char why[96];
      snprintf(why, sizeof why, "unknown value '%.40s'", v->valuestring);
      return bad_value(j, at, why);
    }
    if (*mask >> i & 1u)
      return gb_err_set(j->err, EINVAL, "%s: %s: lists %s twice", j->path, at, names.names[i]);
    *mask |= 1u << i;
  }
  return 0;
}

static bool write_mask(unsigned mask, gbi_rec_name_set names, cJSON *parent, const char *key) {
  cJSON *a = mask >> names.n ? NULL : cJSON_CreateArray();
  for (unsigned v = 0; a && gb_bits_next(mask, &v); v++)
    if (!add(a, NULL, cJSON_CreateString(names.names[v]))) {
      cJSON_Delete(a);
      a = NULL;
    }
  return add(parent, key, a);
}

/* parse_<list> and write_<list> for settings.<list>. */
#define MASK_HOOK(list, names)                                                                 \
  static int parse_##list(jctx *j, const cJSON *v, const char *at, void *base) {               \
    return parse_mask(j, v, at, &((gb_meta *)base)->settings.list, GB_REC_SET(names));         \
  }                                                                                            \
  static bool write_##list(const void *base, cJSON *parent, const char *key) {                 \
    return write_mask(((const gb_meta *)base)->settings.list, GB_REC_SET(names), parent, key); \
  }
MASK_HOOK(languages, gb_language_names)
MASK_HOOK(algorithms, gb_algorithm_names)
MASK_HOOK(orders, gb_order_names)

static int parse_omit(jctx *j, const cJSON *v, const char *at, void *base);
static bool write_omit(const void *base, cJSON *parent, const char *key);
static const hook command_hook = {parse_command, write_command},
                  format_hook = {parse_format, write_format}, env_hook = {parse_env, write_env},
                  omit_hook = {parse_omit, write_omit},
                  languages_hook = {parse_languages, write_languages},
                  algorithms_hook = {parse_algorithms, write_algorithms},
                  orders_hook = {parse_orders, write_orders};

/* ---- The table ------------------------------------------------------------ */

#define AT(f) .off = offsetof(T, f), .size = sizeof(((T *)0)->f)
#define FLAG(k, f) .has_off = offsetof(T, f), .flags = (k) | F_HAS
#define NULLS(f) .null_off = offsetof(T, f), .flags = F_NULL
#define STR(k, f, ...)                                                                         \
  { k, T_STR, AT(f), __VA_ARGS__ }
#define UINT(k, f, lo, hi_, ...)                                                               \
  { k, T_UINT, AT(f), .min = lo, .hi = hi_, __VA_ARGS__ }
#define ANY_UINT(k, f, ...) UINT(k, f, 0, UINT64_MAX, __VA_ARGS__)
#define BOOL(k, f)                                                                             \
  { k, T_BOOL, AT(f) }
#define ENUM(k, f, set)                                                                        \
  {                                                                                            \
    k, T_ENUM, AT(f), .names = { set, sizeof set / sizeof *set }                               \
  }
#define OBJECT(k, t)                                                                           \
  { k, T_OBJECT, .sub = t, .n_sub = sizeof t / sizeof *t }
#define ARRAY(k, f, n, entry, ...)                                                             \
  {                                                                                            \
    k, T_ARRAY, AT(f), .n_off = offsetof(T, n), .sub = entry, .n_sub = 1,                      \
                       .max = sizeof(((T *)0)->f) / sizeof(((T *)0)->f[0]), __VA_ARGS__        \
  }
#define HEAP_ARRAY(k, f, n, entry)                                                             \
  {                                                                                            \
    k, T_ARRAY, AT(f), .n_off = offsetof(T, n), .sub = entry, .n_sub = 1, .flags = F_HEAP,     \
                       .max = SIZE_MAX                                                         \
  }
#define HOOK(k, f, h, ...)                                                                     \
  { k, T_HOOK, AT(f), .fn = &h, __VA_ARGS__ }
#define ENTRY(t, fields)                                                                       \
  { NULL, T_OBJECT, .size = sizeof(t), .sub = fields, .n_sub = sizeof fields / sizeof *fields }

static const field uint_entry[] = {{NULL, T_UINT, .size = sizeof(uint64_t), .hi = UINT64_MAX}};

#define T gb_meta_calibration
static const field calibration_fields[] = {
    ENUM("language", language, gb_language_names),
    ENUM("algorithm", algorithm, gb_algorithm_names),
    ENUM("order", order, gb_order_names),
    ANY_UINT("size", size),
    UINT("sorts", sorts, 1, UINT64_MAX),
    ARRAY("warmup_loop_ns", warmup_loop_ns, n_warmup_loop_ns, uint_entry),
};
static const field calibration_entry[] = {ENTRY(T, calibration_fields)};
/* The first four, a configuration, are also an entry of settings.omit. */
#define CONFIG_FIELDS 4
#undef T
#define T gb_meta_startup
static const field startup_fields[] = {
    ENUM("language", language, gb_language_names),
    ENUM("order", order, gb_order_names),
    ANY_UINT("size", size),
    UINT("launches", launches, 1, UINT64_MAX),
};
static const field startup_entry[] = {ENTRY(T, startup_fields)};
#undef T
#define T gb_meta_zone
static const field zone_fields[] = {
    STR("name", name),
    STR("path", path),
    ENUM("kind", kind, gbi_meta_zone_kind_names),
    ANY_UINT("socket", socket),
    UINT("max_energy_range_uj", max_energy_range_uj, 1, UINT64_MAX),
};
static const field zone_entry[] = {ENTRY(T, zone_fields)};
#undef T

#define T gb_meta
/* The settings' bounds are gb_settings_check's (gb_meta_check runs it). */
static const field settings_fields[] = {
    HOOK("languages", settings.languages, languages_hook),
    HOOK("algorithms", settings.algorithms, algorithms_hook),
    HOOK("orders", settings.orders, orders_hook),
    ARRAY("sizes", settings.sizes, settings.nsizes, uint_entry),
    ANY_UINT("runs", settings.runs),
    ANY_UINT("warmups", settings.warmups),
    ANY_UINT("target_ms", settings.target_ms),
    ENUM("energy", settings.energy, gbi_energy_mode_names),
    ANY_UINT("seed", settings.seed),
    ANY_UINT("order_seed", settings.order_seed),
    STR("python", python),
    STR("node", node),
    ANY_UINT("timeout_s", settings.timeout_s),
    HOOK("omit", settings.omit, omit_hook, .flags = F_OPT),
};
static const field plan_fields[] = {
    ANY_UINT("configurations", plan.configurations),
    ANY_UINT("sort_runs", plan.sort_runs),
    ANY_UINT("startup_runs", plan.startup_runs),
    ANY_UINT("measured_runs", plan.measured_runs),
};
static const field energy_fields[] = {
    ENUM("status", energy.status, gbi_rec_energy_names),
    STR("reason", energy.reason),
    STR("source", energy.source, FLAG(F_OPT, energy.has_source)),
    {"cross_check", T_STR, AT(energy.cross_check), .flags = F_FOLLOW | F_HAS | F_NULL,
     .has_off = offsetof(T, energy.has_source), .null_off = offsetof(T, energy.has_cross)},
    ARRAY("zones", energy.zones, energy.n_zones, zone_entry),
};
static const field machine_fields[] = {
    STR("label", machine.label, FLAG(F_OPT, machine.has_label)),
    STR("cpu_model", machine.cpu_model),
    STR("kernel", machine.kernel),
    STR("governor", machine.governor, NULLS(machine.has_governor)),
    STR("turbo", machine.turbo, NULLS(machine.has_turbo)),
    UINT("cpus_online", machine.cpus_online, 1, UINT64_MAX),
};
static const field pinning_fields[] = {
    STR("cpus", pinning.cpus),
    BOOL("rule_held", pinning.rule_held),
    STR("reason", pinning.reason),
    ANY_UINT("numa_node", pinning.numa_node, NULLS(pinning.has_numa_node)),
    BOOL("memory_bound", pinning.memory_bound),
};
/* A language's runtime may be absent (""): the language is not in the settings. */
_Static_assert(GB_LANGUAGE_COUNT == 3, "a runtime field per language");
static const field runtime_fields[] = {
    STR("c", runtimes[GB_C], .flags = F_OPT | F_SKIP_EMPTY),
    STR("python", runtimes[GB_PYTHON], .flags = F_OPT | F_SKIP_EMPTY),
    STR("node", runtimes[GB_NODE], .flags = F_OPT | F_SKIP_EMPTY),
};
static const field meta_fields[] = {
    {"format", T_HOOK, .fn = &format_hook},
    STR("tool_version", tool_version, .flags = F_NONEMPTY),
    {"command", T_HOOK, .off = offsetof(T, command),
     .size = offsetof(T, settings) - offsetof(T, command), .fn = &command_hook},
    ENUM("profile", settings.profile, gbi_profile_names),
    OBJECT("settings", settings_fields),
    OBJECT("plan", plan_fields),
    HEAP_ARRAY("calibration", calibration, n_calibration, calibration_entry),
    HEAP_ARRAY("startup", startup, n_startup, startup_entry),
    OBJECT("energy", energy_fields),
    OBJECT("machine", machine_fields),
    OBJECT("pinning", pinning_fields),
    OBJECT("runtimes", runtime_fields),
    HOOK("harness_env", harness_env, env_hook, FLAG(F_OPT, has_harness_env),
         .n_off = offsetof(T, n_harness_env)),
    STR("access", access, FLAG(F_OPT, has_access)),
    STR("spawner", spawner, FLAG(F_OPT, has_access)),
    STR("git_commit", git_commit, .flags = F_NONEMPTY),
    STR("started_at", started_at),
    STR("finished_at", finished_at, NULLS(has_finished_at)),
    BOOL("completed", completed),
    ANY_UINT("runs_done", runs_done),
};
static const field meta_root[] = {ENTRY(T, meta_fields)};
#undef T

/* ---- Reading ------------------------------------------------------------ */

static int parse_fields(jctx *j, const cJSON *o, const char *at, const field *fs, size_t n,
                        void *base);
static int parse_value(jctx *j, const field *f, const cJSON *v, const char *at, void *base);

static int parse_array(jctx *j, const field *f, const cJSON *arr, const char *at, void *base) {
  const field *e = f->sub;
  size_t *n = COUNT(base, f), k = 0;
  for (const cJSON *v = arr->child; v; v = v->next, k++) {
    if (k == f->max)
      return bad_value(j, at, "too many entries");
    char entry[96];
    void *slot;
    if (f->flags & F_HEAP) {
      if (gbi_meta_grow(PLACE(base, f, void *), k, e->size) < 0)
        return gb_err_set(j->err, ENOMEM, "%s: out of memory", j->path);
      slot = *PLACE(base, f, char *) + k * e->size;
      memset(slot, 0, e->size);
    } else {
      slot = PLACE(base, f, char) + k * e->size;
    }
    snprintf(entry, sizeof entry, "%s[%zu]", at, k);
    int rc;
    if (e->type != T_OBJECT)
      rc = parse_value(j, e, v, at, slot); /* a scalar entry is named by its array */
    else if (cJSON_IsObject(v))
      rc = parse_fields(j, v, entry, e->sub, e->n_sub, slot);
    else
      rc = bad(j, entry, "an object", v);
    if (rc < 0)
      return rc;
    *n = k + 1;
  }
  return 0;
}

/* The value v of f (not null) at its place in base. */
static int parse_value(jctx *j, const field *f, const cJSON *v, const char *at, void *base) {
  switch (f->type) {
  case T_STR:
    return copy_str(j, v, at, PLACE(base, f, char), f->size);
  case T_UINT:
    return to_uint(j, v, at, PLACE(base, f, uint64_t));
  case T_BOOL:
    if (!cJSON_IsBool(v))
      return bad(j, at, "true or false", v);
    *PLACE(base, f, bool) = cJSON_IsTrue(v);
    return 0;
  case T_ENUM: {
    if (!cJSON_IsString(v))
      return bad(j, at, "a string", v);
    int i = gbi_rec_set_find(f->names, v->valuestring, strlen(v->valuestring));
    if (i < 0) {
      char why[96];
      snprintf(why, sizeof why, "unknown value '%.40s'", v->valuestring);
      return bad_value(j, at, why);
    }
    *PLACE(base, f, unsigned) = (unsigned)i;
    return 0;
  }
  case T_OBJECT:
    return cJSON_IsObject(v) ? parse_fields(j, v, at, f->sub, f->n_sub, base)
                             : bad(j, at, "an object", v);
  case T_ARRAY:
    return cJSON_IsArray(v) ? parse_array(j, f, v, at, base) : bad(j, at, "an array", v);
  default:
    return f->fn->parse(j, v, at, base);
  }
}

static int parse_field(jctx *j, const field *f, const cJSON *o, const char *at, void *base) {
  char k[128];
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, f->key);
  key_path(k, sizeof k, at, f->key);
  if ((f->flags & F_HAS) && !*FLAG_AT(base, f->has_off))
    return 0; /* an optional group that is absent */
  if (!v && (f->flags & F_OPT) && !(f->flags & F_HAS))
    return 0;
  if (!v)
    return gb_err_set(j->err, EINVAL, "%s: %s: missing", j->path, k);
  if (f->flags & F_NULL) {
    *FLAG_AT(base, f->null_off) = !cJSON_IsNull(v);
    if (cJSON_IsNull(v))
      return 0;
    if (f->type == T_STR && !cJSON_IsString(v))
      return bad(j, k, "a string or null", v);
    if (f->type == T_UINT && !cJSON_IsNumber(v))
      return bad(j, k, "an integer or null", v);
  }
  return parse_value(j, f, v, k, base);
}

static int parse_fields(jctx *j, const cJSON *o, const char *at, const field *fs, size_t n,
                        void *base) {
  for (size_t i = 0; i < n; i++) /* the members of optional groups that are present */
    if ((fs[i].flags & F_OPT) && (fs[i].flags & F_HAS) &&
        cJSON_GetObjectItemCaseSensitive(o, fs[i].key))
      *FLAG_AT(base, fs[i].has_off) = true;
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < n; i++)
    rc = parse_field(j, &fs[i], o, at, base);
  return rc;
}

/* ---- Writing -------------------------------------------------------------- */

static bool write_fields(const field *fs, size_t n, const void *base, cJSON *o);

static cJSON *value_json(const field *f, const void *base) {
  const field *e = f->sub;
  switch (f->type) {
  case T_STR:
    return cJSON_CreateString(PLACE(base, f, const char));
  case T_UINT:
    return exact_uint(*PLACE(base, f, const uint64_t));
  case T_BOOL:
    return cJSON_CreateBool(*PLACE(base, f, const bool));
  case T_ENUM: {
    const char *name = gbi_rec_set_name(f->names, *PLACE(base, f, const unsigned));
    return name ? cJSON_CreateString(name) : NULL;
  }
  case T_OBJECT: {
    cJSON *o = cJSON_CreateObject();
    if (o && write_fields(f->sub, f->n_sub, base, o))
      return o;
    cJSON_Delete(o);
    return NULL;
  }
  default: { /* T_ARRAY */
    size_t n = *COUNT(base, f);
    const char *at =
        f->flags & F_HEAP ? *PLACE(base, f, const char *const) : PLACE(base, f, const char);
    cJSON *a = n <= f->max ? cJSON_CreateArray() : NULL;
    for (size_t i = 0; a && i < n; i++)
      if (!add(a, NULL, value_json(e, at + i * e->size))) {
        cJSON_Delete(a);
        return NULL;
      }
    return a;
  }
  }
}

static bool write_fields(const field *fs, size_t n, const void *base, cJSON *o) {
  for (const field *f = fs; f < fs + n; f++) {
    if (((f->flags & F_HAS) && !*FLAG_AT(base, f->has_off)) ||
        ((f->flags & F_SKIP_EMPTY) && !PLACE(base, f, const char)[0]))
      continue;
    if (f->type == T_HOOK ? !f->fn->write(base, o, f->key)
        : (f->flags & F_NULL) && !*FLAG_AT(base, f->null_off)
            ? !add(o, f->key, cJSON_CreateNull())
            : !add(o, f->key, value_json(f, base)))
      return false;
  }
  return true;
}

cJSON *gb_meta_to_json(const gb_meta *m) {
  return value_json(meta_root, m);
}

/* ---- Checking the values of each field --------------------------------- */

static int check_value(jctx *j, const field *f, const void *base, const char *at);

/* Entry i of the array f as text, for "lists c twice". */
static void entry_text(const field *e, const char *p, char *buf, size_t len) {
  if (e->type == T_ENUM)
    snprintf(buf, len, "%s", gbi_rec_set_name(e->names, *(const unsigned *)p));
  else
    snprintf(buf, len, "%" PRIu64, *(const uint64_t *)p);
}

static int check_array(jctx *j, const field *f, const void *base, const char *at) {
  const field *e = f->sub;
  size_t n = *COUNT(base, f);
  const char *p =
      f->flags & F_HEAP ? *PLACE(base, f, const char *const) : PLACE(base, f, const char);
  if (n > f->max)
    return bad_value(j, at, "too many entries");
  if (n == 0 && (f->flags & F_NONEMPTY))
    return bad_value(j, at, "empty");
  for (size_t i = 0; i < n; i++) {
    char entry[96], text[64];
    snprintf(entry, sizeof entry, "%s[%zu]", at, i);
    int rc = check_value(j, e, p + i * e->size, e->type == T_OBJECT ? entry : at);
    if (rc < 0)
      return rc;
    for (size_t k = 0; (f->flags & F_UNIQUE) && k < i; k++)
      if (memcmp(p + k * e->size, p + i * e->size, e->size) == 0) {
        entry_text(e, p + i * e->size, text, sizeof text);
        return gb_err_set(j->err, EINVAL, "%s: %s: lists %s twice", j->path, at, text);
      }
  }
  return 0;
}

static int check_value(jctx *j, const field *f, const void *base, const char *at) {
  switch (f->type) {
  case T_STR:
    return (f->flags & F_NONEMPTY) && !PLACE(base, f, const char)[0] ? bad_value(j, at, "empty")
                                                                     : 0;
  case T_UINT: {
    uint64_t v = *PLACE(base, f, const uint64_t);
    if (v >= f->min && v <= f->hi)
      return 0;
    return gb_err_set(j->err, EINVAL, "%s: %s: %" PRIu64 "%s", j->path, at, v,
                      f->why ? f->why : "");
  }
  case T_ENUM:
    return *PLACE(base, f, const unsigned) < f->names.n
               ? 0
               : bad_value(j, at, "value out of range");
  case T_OBJECT:
    for (const field *m = f->sub; m < f->sub + f->n_sub; m++) {
      char k[128];
      int rc = (m->flags & F_HAS) && !*FLAG_AT(base, m->has_off) ? 0
               : (m->flags & F_NULL) && !*FLAG_AT(base, m->null_off)
                   ? 0
                   : check_value(j, m, base, key_path(k, sizeof k, at, m->key));
      if (rc < 0)
        return rc;
    }
    return 0;
  case T_ARRAY:
    return check_array(j, f, base, at);
  default:
    return 0;
  }
}

int gbi_meta_check_fields(const gb_meta *m, const char *path, gb_err *err) {
  jctx j = {path, err};
  return check_value(&j, meta_root, m, "");
}

/* ---- settings.omit ---------------------------------------------------- */

/* An entry of settings.omit: a configuration of the lists, each once. */
static int parse_omit_entry(jctx *j, const cJSON *v, const char *at, gb_meta *m) {
  gb_meta_calibration c = {0}; /* its configuration's fields */
  int rc = cJSON_IsObject(v) ? parse_fields(j, v, at, calibration_fields, CONFIG_FIELDS, &c)
                             : bad(j, at, "an object", v);
  if (rc < 0)
    return rc;
  size_t z = gb_settings_size_index(&m->settings, c.size);
  uint16_t *bits = &m->settings.omit[c.language][c.algorithm][c.order];
  if (!gb_meta_has_size(m, c.size) || !gb_meta_has_language(m, c.language) ||
      !gb_meta_has_algorithm(m, c.algorithm) || !gb_meta_has_order(m, c.order))
    return bad_value(j, at, "a configuration not in the settings' lists");
  if (*bits >> z & 1u)
    return bad_value(j, at, "the same configuration as an earlier entry");
  *bits |= (uint16_t)(1u << z);
  return 0;
}

static int parse_omit(jctx *j, const cJSON *arr, const char *at, void *base) {
  if (!cJSON_IsArray(arr))
    return bad(j, at, "an array", arr);
  size_t i = 0;
  int rc = 0;
  for (const cJSON *v = arr->child; rc == 0 && v; v = v->next) {
    char entry[96];
    snprintf(entry, sizeof entry, "%s[%zu]", at, i++);
    rc = parse_omit_entry(j, v, entry, base);
  }
  return rc;
}

/* One object per omitted configuration, in canonical order; left out when
 * none is omitted, as records before the field had none. */
static bool write_omit(const void *base, cJSON *parent, const char *key) {
  const gb_settings *s = &((const gb_meta *)base)->settings;
  cJSON *arr = NULL;
  gb_meta_calibration c = {0};
  for (c.language = 0; c.language < GB_LANGUAGE_COUNT; c.language++)
    for (c.algorithm = 0; c.algorithm < GB_ALGORITHM_COUNT; c.algorithm++)
      for (c.order = 0; c.order < GB_ORDER_COUNT; c.order++)
        for (size_t z = 0; z < s->nsizes && z < GB_MAX_SIZES; z++) {
          if (!(s->omit[c.language][c.algorithm][c.order] >> z & 1u))
            continue;
          if (!arr && !add(parent, key, arr = cJSON_CreateArray()))
            return false;
          c.size = s->sizes[z];
          cJSON *e = cJSON_CreateObject();
          if (!e || !write_fields(calibration_fields, CONFIG_FIELDS, &c, e)) {
            cJSON_Delete(e);
            return false;
          }
          if (!add(arr, NULL, e))
            return false;
        }
  return true;
}

/* ---- The text ------------------------------------------------------------ */

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
  gb_meta *m = NULL;
  int rc;
  if (root && !keep_number_text(root, &scan, json + len))
    rc = gb_err_set(err, ENOMEM, "%s: out of memory", path);
  else if (!root || !only_space(end, json + len))
    rc = gb_err_set(err, EINVAL, "%s:%zu: malformed JSON", path, line_at(json, len, end));
  else if (!(m = malloc(sizeof *m)))
    rc = gb_err_set(err, ENOMEM, "%s: out of memory", path);
  else if ((rc = gbi_json_check_unique_keys(root, path, err)) == 0) {
    jctx j = {path, err};
    gb_meta_init(m);
    rc = cJSON_IsObject(root) ? parse_fields(&j, root, "", meta_fields, meta_root->n_sub, m)
                              : gb_err_set(err, EINVAL, "%s: expected a JSON object, got %s",
                                           path, type_name(root));
    if (rc == 0)
      rc = gb_meta_check(m, path, err);
    if (rc == 0)
      *out = *m;
    else
      gb_meta_free(m);
  }
  cJSON_Delete(root);
  free(m);
  return rc;
}

/* ---- The table's cover of the structs ---------------------------------- */

/* Marks in covered[] the bytes of base's struct that the fields fs hold; an
 * array of objects is checked on its own (cover_check). */
static int cover_check(const field *entry, const char **bad_struct, size_t *bad_off);

static int mark(const field *fs, size_t n, bool *covered, const char **bs, size_t *bo) {
  for (const field *f = fs; f < fs + n; f++) {
    int rc = 0;
    memset(covered + f->off, 1, f->size);
    if (f->flags & F_HAS)
      covered[f->has_off] = true;
    if (f->flags & F_NULL)
      covered[f->null_off] = true;
    if (f->type == T_ARRAY || (f->type == T_HOOK && f->n_off))
      memset(covered + f->n_off, 1, sizeof(size_t));
    if (f->type == T_OBJECT)
      rc = mark(f->sub, f->n_sub, covered, bs, bo);
    if (f->type == T_ARRAY && f->sub->type == T_OBJECT)
      rc = cover_check(f->sub, bs, bo);
    if (rc < 0)
      return rc;
  }
  return 0;
}

static int cover_check(const field *entry, const char **bs, size_t *bo) {
  bool *covered = calloc(entry->size, 1);
  if (!covered)
    return -ENOMEM;
  int rc = mark(entry->sub, entry->n_sub, covered, bs, bo);
  for (size_t w = 0; rc == 0 && w < entry->size; w += 8) {
    bool any = false;
    for (size_t b = w; b < w + 8 && b < entry->size; b++)
      any |= covered[b];
    if (!any) {
      *bs = entry->sub[0].key;
      *bo = w;
      rc = -EINVAL;
    }
  }
  free(covered);
  return rc;
}

int gb_meta_table_covers(gb_err *err) {
  const char *first_key = NULL;
  size_t off = 0;
  int rc = cover_check(meta_root, &first_key, &off);
  if (rc == -EINVAL)
    return gb_err_set(err, EINVAL,
                      "the struct whose first field is '%s' holds bytes %zu..%zu that no "
                      "field of the meta.json table reads or writes",
                      first_key, off, off + 7);
  return rc < 0 ? gb_err_set(err, -rc, "out of memory") : 0;
}
