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
#include "meta_table.h"
#include "records_internal.h"

typedef gbi_meta_field field;

typedef struct gbi_meta_jctx {
  const char *path;
  gb_err *err;
  bool refused; /* the writer refused a value (else it ran out of memory) */
} jctx;

const char *const gbi_meta_zone_kind_names[] = {"package", "dram"};
GB_REC_NAME_FUNCS(gb_meta_zone_kind, gbi_meta_zone_kind_names)

/* ---- Places and messages ------------------------------------------------ */

#define PLACE(base, f, type) ((type *)((char *)(base) + (f)->off))
#define FLAG_AT(base, off) ((bool *)((char *)(base) + (off)))
#define COUNT(base, f) ((size_t *)((char *)(base) + (f)->n_off))

/* "settings.runs" from the place "settings" and the key "runs". */
static const char *key_path(char *buf, size_t len, const char *at, const char *key) {
  snprintf(buf, len, "%s%s%s", at, at[0] && key && key[0] ? "." : "", key ? key : "");
  return buf;
}

/* -EINVAL, with the message "<path>: <at>: <fmt...>". */
#define FAIL(j, at, fmt, ...)                                                                  \
  gb_err_set((j)->err, EINVAL, "%s: %s: " fmt, (j)->path, at, ##__VA_ARGS__)

static int bad(jctx *j, const char *at, const char *what, const cJSON *v) {
  return FAIL(j, at, "expected %s, got %s", what, gbi_json_type_name(v));
}

static int copy_str(jctx *j, const cJSON *v, const char *at, char *dst, size_t cap) {
  if (!cJSON_IsString(v))
    return bad(j, at, "a string", v);
  size_t n = strlen(v->valuestring);
  if (n >= cap)
    return FAIL(j, at, "longer than %zu bytes", cap - 1);
  memcpy(dst, v->valuestring, n + 1);
  return 0;
}

/* Adds item to o (an array when key is NULL); false, item freed, on failure. */
static bool add(cJSON *o, const char *key, cJSON *item) {
  if (item && (key ? cJSON_AddItemToObject(o, key, item) : cJSON_AddItemToArray(o, item)))
    return true;
  cJSON_Delete(item);
  return false;
}

/* o with item added (an array's when key is NULL), or NULL with both freed. */
static cJSON *add_or_drop(cJSON *o, const char *key, cJSON *item) {
  if (add(o, key, item))
    return o;
  cJSON_Delete(o);
  return NULL;
}

/* ---- Fields the table cannot describe, read and written by hand --------- */

/* An object of strings, names not empty and at most GB_META_MAX_ENV. */
static int parse_env(jctx *j, const cJSON *o, const char *at, void *base) {
  gb_meta *m = base;
  if (!cJSON_IsObject(o))
    return bad(j, at, "an object", o);
  int rc = 0;
  for (const cJSON *v = o->child; rc == 0 && v; v = v->next) {
    char k[GB_EXCERPT_CAP + 16];
    gb_excerpt_buf name; /* the file's text, escaped: a message stays one line */
    if (m->n_harness_env == GB_META_MAX_ENV)
      return FAIL(j, at, "more than 32 variables");
    size_t n = strlen(v->string);
    if (n == 0 || n >= sizeof m->harness_env[0].name)
      return FAIL(j, at, "a variable name that is empty or too long");
    memcpy(m->harness_env[m->n_harness_env].name, v->string, n + 1);
    rc = copy_str(j, v, key_path(k, sizeof k, at, gb_excerpt(&name, v->string)),
                  m->harness_env[m->n_harness_env].value, sizeof m->harness_env[0].value);
    m->n_harness_env += rc == 0;
  }
  return rc;
}

static bool write_env(const void *base, cJSON *parent, const char *key) {
  const gb_meta *m = base;
  cJSON *o = cJSON_CreateObject();
  for (size_t i = 0; o && i < m->n_harness_env && i < GB_META_MAX_ENV; i++)
    o = add_or_drop(o, m->harness_env[i].name, cJSON_CreateString(m->harness_env[i].value));
  return add(parent, key, o);
}

/* NULL for a mask past its names, which gb_settings_check refuses first. */
static cJSON *write_mask(unsigned mask, gbi_rec_name_set names) {
  cJSON *a = mask >> names.n ? NULL : cJSON_CreateArray();
  for (unsigned v = 0; a && gb_bits_next(mask, &v); v++)
    a = add_or_drop(a, NULL, cJSON_CreateString(names.names[v]));
  return a;
}

static int parse_omit(jctx *j, const cJSON *v, const char *at, void *base);
static bool write_omit(const void *base, cJSON *parent, const char *key);

/* ---- The table ------------------------------------------------------------ */

static const field uint_entry[] = {{NULL, GB_MT_UINT, .size = sizeof(uint64_t)}},
                   text_entry[] = {{NULL, GB_MT_TEXT, .size = sizeof(char *)}};

#define T gb_meta_calibration
static const field calibration_fields[] = {
    ENUM("language", language, gb_language_names),
    ENUM("algorithm", algorithm, gb_algorithm_names),
    ENUM("order", order, gb_order_names),
    UINT("size", size),
    UINT("sorts", sorts, .min = 1),
    ARRAY("warmup_loop_ns", warmup_loop_ns, n_warmup_loop_ns, uint_entry),
};
static const field calibration_entry[] = {ENTRY(T, calibration_fields)};
/* The first four, a configuration, are also an entry of settings.omit. */
static const field config_entry[] = {
    FIELD(NULL, GB_MT_OBJECT, .sub = calibration_fields, .n_sub = 4)};
#undef T
#define T gb_meta_startup
static const field startup_fields[] = {
    ENUM("language", language, gb_language_names),
    ENUM("order", order, gb_order_names),
    UINT("size", size),
    UINT("launches", launches, .min = 1),
};
static const field startup_entry[] = {ENTRY(T, startup_fields)};
#undef T
#define T gb_meta_zone
static const field zone_fields[] = {
    STR("name", name),
    STR("path", path),
    ENUM("kind", kind, gbi_meta_zone_kind_names),
    UINT("socket", socket),
    UINT("max_energy_range_uj", max_energy_range_uj, .min = 1),
};
static const field zone_entry[] = {ENTRY(T, zone_fields)};
#undef T

#define T gb_meta
/* The settings' bounds are gb_settings_check's (gb_meta_check runs it). */
static const field settings_fields[] = {
    MASK("languages", settings.languages, gb_language_names),
    MASK("algorithms", settings.algorithms, gb_algorithm_names),
    MASK("orders", settings.orders, gb_order_names),
    ARRAY("sizes", settings.sizes, settings.nsizes, uint_entry),
    UINT("runs", settings.runs),
    UINT("warmups", settings.warmups),
    UINT("target_ms", settings.target_ms),
    ENUM("energy", settings.energy, gbi_energy_mode_names),
    UINT("seed", settings.seed),
    UINT("order_seed", settings.order_seed),
    STR("python", python),
    STR("node", node),
    UINT("timeout_s", settings.timeout_s),
    HOOK("omit", settings.omit, omit, .flags = GB_MF_OPT),
};
static const field plan_fields[] = {
    UINT("configurations", plan.configurations),
    UINT("sort_runs", plan.sort_runs),
    UINT("startup_runs", plan.startup_runs),
    UINT("measured_runs", plan.measured_runs),
};
static const field energy_fields[] = {
    ENUM("status", energy.status, gbi_rec_energy_names),
    STR("reason", energy.reason),
    STR("source", energy.source, FLAG(GB_MF_OPT, energy.has_source)),
    {"cross_check", GB_MT_STR, AT(energy.cross_check), .flags = GB_MF_HAS | GB_MF_NULL,
     .has_off = offsetof(T, energy.has_source), .null_off = offsetof(T, energy.has_cross)},
    ARRAY("zones", energy.zones, energy.n_zones, zone_entry),
};
static const field machine_fields[] = {
    STR("label", machine.label, FLAG(GB_MF_OPT, machine.has_label)),
    STR("cpu_model", machine.cpu_model),
    STR("kernel", machine.kernel),
    STR("governor", machine.governor, NULLS(machine.has_governor)),
    STR("turbo", machine.turbo, NULLS(machine.has_turbo)),
    UINT("cpus_online", machine.cpus_online, .min = 1),
};
static const field pinning_fields[] = {
    STR("cpus", pinning.cpus),
    BOOL("rule_held", pinning.rule_held),
    STR("reason", pinning.reason),
    UINT("numa_node", pinning.numa_node, NULLS(pinning.has_numa_node)),
    BOOL("memory_bound", pinning.memory_bound),
};
/* A language's runtime may be absent (""): the language is not in the settings. */
_Static_assert(GB_LANGUAGE_COUNT == 3, "a runtime field per language");
static const field runtime_fields[] = {
    STR("c", runtimes[GB_C], .flags = GB_MF_OPT | GB_MF_SKIP_EMPTY),
    STR("python", runtimes[GB_PYTHON], .flags = GB_MF_OPT | GB_MF_SKIP_EMPTY),
    STR("node", runtimes[GB_NODE], .flags = GB_MF_OPT | GB_MF_SKIP_EMPTY),
};
static const field meta_fields[] = {
    {"format", GB_MT_FIXED, .fixed = GB_META_FORMAT, .flags = GB_MF_TEXT},
    STR("tool_version", tool_version, .flags = GB_MF_NONEMPTY),
    /* Its size takes in command_line, which gb_meta_parse builds from it. */
    {"command", GB_MT_ARRAY, .off = offsetof(T, command), .n_off = offsetof(T, n_command),
     .size = offsetof(T, settings) - offsetof(T, command), .sub = text_entry, .n_sub = 1,
     .flags = GB_MF_HEAP | GB_MF_NONEMPTY, .max = SIZE_MAX},
    ENUM("profile", settings.profile, gbi_profile_names),
    OBJECT("settings", settings_fields),
    OBJECT("plan", plan_fields),
    HEAP_ARRAY("calibration", calibration, n_calibration, calibration_entry),
    HEAP_ARRAY("startup", startup, n_startup, startup_entry),
    OBJECT("energy", energy_fields),
    OBJECT("machine", machine_fields),
    OBJECT("pinning", pinning_fields),
    OBJECT("runtimes", runtime_fields),
    HOOK("harness_env", harness_env, env, FLAG(GB_MF_OPT, has_harness_env),
         .n_off = offsetof(T, n_harness_env)),
    STR("access", access, FLAG(GB_MF_OPT, has_access)),
    STR("spawner", spawner, FLAG(GB_MF_OPT, has_access)),
    STR("git_commit", git_commit, .flags = GB_MF_NONEMPTY),
    STR("started_at", started_at),
    STR("finished_at", finished_at, NULLS(has_finished_at)),
    BOOL("completed", completed),
    UINT("runs_done", runs_done),
};
const field gbi_meta_root[] = {ENTRY(T, meta_fields)};
#undef T

/* The first entry of the array f: at its place, or at the pointer there. */
static char *entries(const field *f, const void *base) {
  return f->flags & GB_MF_HEAP ? *PLACE(base, f, char *) : PLACE(base, f, char);
}

/* ---- Reading ------------------------------------------------------------ */

static int parse_value(jctx *j, const field *f, const cJSON *v, const char *at, void *base);

static int parse_array(jctx *j, const field *f, const cJSON *arr, const char *at, void *base) {
  const field *e = f->sub;
  size_t *n = COUNT(base, f), k = 0;
  if (!arr->child && (f->flags & GB_MF_NONEMPTY))
    return FAIL(j, at, "empty");
  for (const cJSON *v = arr->child; v; v = v->next, k++) {
    if (k == f->max)
      return FAIL(j, at, "too many entries");
    if ((f->flags & GB_MF_HEAP) && gbi_meta_grow(PLACE(base, f, void *), k, e->size) < 0)
      return gb_err_set(j->err, ENOMEM, "%s: out of memory", j->path);
    char entry[96], *slot = entries(f, base) + k * e->size;
    memset(slot, 0, e->size);
    snprintf(entry, sizeof entry, "%s[%zu]", at, k);
    /* An object entry is named by its index, a scalar one by its array. */
    int rc = parse_value(j, e, v, e->type == GB_MT_OBJECT ? entry : at, slot);
    if (rc < 0)
      return rc;
    *n = k + 1;
  }
  return 0;
}

/* A list of the settings (a bitmask, settings.h) as an array of names,
 * each read as an enum: known and listed once. */
static int parse_mask(jctx *j, const field *f, const cJSON *arr, const char *at,
                      unsigned *mask) {
  const field name = {NULL, GB_MT_ENUM, .names = f->names};
  size_t k = 0;
  for (const cJSON *v = arr->child; v; v = v->next, k++) {
    unsigned i;
    int rc =
        k == f->names.n ? FAIL(j, at, "too many entries") : parse_value(j, &name, v, at, &i);
    if (rc < 0)
      return rc;
    if (*mask >> i & 1u)
      return FAIL(j, at, "lists %s twice", f->names.names[i]);
    *mask |= 1u << i;
  }
  return 0;
}

static int parse_field(jctx *j, const field *f, const cJSON *o, const char *at, void *base) {
  char k[128];
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, f->key);
  key_path(k, sizeof k, at, f->key);
  if ((f->flags & GB_MF_HAS) && !*FLAG_AT(base, f->has_off))
    return 0; /* an optional group that is absent */
  if (!v)
    return (f->flags & GB_MF_OPT) && !(f->flags & GB_MF_HAS) ? 0 : FAIL(j, k, "missing");
  if (f->flags & GB_MF_NULL) {
    *FLAG_AT(base, f->null_off) = !cJSON_IsNull(v);
    if (cJSON_IsNull(v))
      return 0;
    bool text = f->type == GB_MT_STR; /* else an integer */
    if (text ? !cJSON_IsString(v) : !cJSON_IsNumber(v))
      return bad(j, k, text ? "a string or null" : "an integer or null", v);
  }
  return parse_value(j, f, v, k, base);
}

static int parse_fields(jctx *j, const cJSON *o, const char *at, const field *fs, size_t n,
                        void *base) {
  for (size_t i = 0; i < n; i++) /* the members of optional groups that are present */
    if ((fs[i].flags & GB_MF_OPT) && (fs[i].flags & GB_MF_HAS) &&
        cJSON_GetObjectItemCaseSensitive(o, fs[i].key))
      *FLAG_AT(base, fs[i].has_off) = true;
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < n; i++)
    rc = parse_field(j, &fs[i], o, at, base);
  return rc;
}

/* The value v of f (not null) at its place in base. */
static int parse_value(jctx *j, const field *f, const cJSON *v, const char *at, void *base) {
  switch (f->type) {
  case GB_MT_STR:
    return copy_str(j, v, at, PLACE(base, f, char), f->size);
  case GB_MT_UINT: /* from the number's own text (keep_number_text), not cJSON's double */
    if (!cJSON_IsNumber(v))
      return bad(j, at, "an integer", v);
    if (!gbi_json_whole(v, UINT64_MAX, PLACE(base, f, uint64_t)))
      return FAIL(j, at, "not an integer in 0..2^64-1");
    return 0;
  case GB_MT_TEXT: /* owned text, an entry of a list of strings: named by its list */
    if (!cJSON_IsString(v))
      return bad(j, at, "an array of strings", v);
    if (!(*PLACE(base, f, char *) = strdup(v->valuestring)))
      return gb_err_set(j->err, ENOMEM, "%s: out of memory", j->path);
    return 0;
  case GB_MT_BOOL:
    if (!cJSON_IsBool(v))
      return bad(j, at, "true or false", v);
    *PLACE(base, f, bool) = cJSON_IsTrue(v);
    return 0;
  case GB_MT_ENUM: {
    if (!cJSON_IsString(v))
      return bad(j, at, "a string", v);
    int i = gbi_rec_set_find(f->names, v->valuestring, strlen(v->valuestring));
    gb_excerpt_buf shown; /* the file's text, escaped: the message stays one line */
    if (i < 0)
      return FAIL(j, at, "unknown value '%s'", gb_excerpt(&shown, v->valuestring));
    *PLACE(base, f, unsigned) = (unsigned)i;
    return 0;
  }
  case GB_MT_FIXED: {
    char text[GB_META_NAME_MAX];
    int rc = f->flags & GB_MF_TEXT ? copy_str(j, v, at, text, sizeof text) : 0;
    if (rc == 0 && (!cJSON_IsString(v) || strcmp(v->valuestring, f->fixed) != 0))
      rc = FAIL(j, at, "not %s", f->fixed);
    return rc;
  }
  case GB_MT_OBJECT:
    return cJSON_IsObject(v) ? parse_fields(j, v, at, f->sub, f->n_sub, base)
                             : bad(j, at, "an object", v);
  case GB_MT_ARRAY:
  case GB_MT_MASK:
    if (!cJSON_IsArray(v))
      return bad(j, at, "an array", v);
    return f->type == GB_MT_ARRAY ? parse_array(j, f, v, at, base)
                                  : parse_mask(j, f, v, at, PLACE(base, f, unsigned));
  default:
    return f->parse(j, v, at, base);
  }
}

/* ---- Writing, which checks each field on its own ------------------------- */

/* The writer refuses what the reader would: a value out of its bounds, an
 * enum out of range, required text or a required list empty, a list with
 * repeats or past its room. So the checks of single fields in gb_meta_check
 * are a write (gbi_meta_check_fields), and cannot drift from the table. */

/* NULL, after the message for a value that is not written. */
static cJSON *refuse(jctx *j, const char *at, const char *why) {
  j->refused = true;
  (void)FAIL(j, at, "%s", why);
  return NULL;
}

static cJSON *write_value(jctx *j, const field *f, const void *base, const char *at);

static bool write_members(jctx *j, const field *fs, size_t n, const void *base, cJSON *o,
                          const char *at) {
  for (const field *f = fs; f < fs + n; f++) {
    char k[128];
    if (((f->flags & GB_MF_HAS) && !*FLAG_AT(base, f->has_off)) ||
        ((f->flags & GB_MF_SKIP_EMPTY) && !PLACE(base, f, const char)[0]))
      continue;
    if (f->type == GB_MT_HOOK ? !f->write(base, o, f->key)
        : (f->flags & GB_MF_NULL) && !*FLAG_AT(base, f->null_off)
            ? !add(o, f->key, cJSON_CreateNull())
            : !add(o, f->key, write_value(j, f, base, key_path(k, sizeof k, at, f->key))))
      return false;
  }
  return true;
}

static cJSON *write_array(jctx *j, const field *f, const void *base, const char *at) {
  const field *e = f->sub;
  const char *p = entries(f, base);
  size_t n = p ? *COUNT(base, f) : 0;
  if (n > f->max)
    return refuse(j, at, "too many entries");
  cJSON *a = cJSON_CreateArray();
  for (size_t i = 0; a && i < n; i++) {
    char entry[96];
    snprintf(entry, sizeof entry, "%s[%zu]", at, i);
    a = add_or_drop(a, NULL,
                    write_value(j, e, p + i * e->size, e->type == GB_MT_OBJECT ? entry : at));
  }
  return a;
}

static cJSON *write_value(jctx *j, const field *f, const void *base, const char *at) {
  switch (f->type) {
  case GB_MT_STR:
    if ((f->flags & GB_MF_NONEMPTY) && !PLACE(base, f, const char)[0])
      return refuse(j, at, "empty");
    return cJSON_CreateString(PLACE(base, f, const char));
  case GB_MT_TEXT:
    return cJSON_CreateString(*PLACE(base, f, const char *const));
  case GB_MT_FIXED:
    return cJSON_CreateString(f->fixed);
  case GB_MT_UINT: {
    /* Every number is written as its exact decimal digits (a raw item):
     * cJSON's own numbers are doubles, printed with 15 significant digits
     * when that round-trips within an epsilon, which loses the last digits
     * of a seed. Below its bound, the digits are the message. */
    uint64_t v = *PLACE(base, f, const uint64_t);
    char digits[24];
    snprintf(digits, sizeof digits, "%" PRIu64, v);
    return v >= f->min ? cJSON_CreateRaw(digits) : refuse(j, at, digits);
  }
  case GB_MT_BOOL:
    return cJSON_CreateBool(*PLACE(base, f, const bool));
  case GB_MT_ENUM: {
    const char *name = gbi_rec_set_name(f->names, *PLACE(base, f, const unsigned));
    return name ? cJSON_CreateString(name) : refuse(j, at, "value out of range");
  }
  case GB_MT_MASK:
    return write_mask(*PLACE(base, f, const unsigned), f->names);
  case GB_MT_OBJECT: {
    cJSON *o = cJSON_CreateObject();
    if (o && write_members(j, f->sub, f->n_sub, base, o, at))
      return o;
    cJSON_Delete(o);
    return NULL;
  }
  default:
    return write_array(j, f, base, at);
  }
}

cJSON *gb_meta_to_json(const gb_meta *m) {
  jctx j = {"meta.json", NULL, false};
  return write_value(&j, gbi_meta_root, m, "");
}

int gbi_meta_check_fields(const gb_meta *m, const char *path, gb_err *err) {
  cJSON *o = NULL;
  int rc = gbi_meta_table_write(gbi_meta_root, m, path, &o, err);
  cJSON_Delete(o);
  return rc;
}

/* ---- settings.omit ---------------------------------------------------- */

/* The entries of settings.omit: configurations of the lists, each once. */
static int parse_omit(jctx *j, const cJSON *arr, const char *at, void *base) {
  gb_settings *s = &((gb_meta *)base)->settings;
  if (!cJSON_IsArray(arr))
    return bad(j, at, "an array", arr);
  size_t i = 0;
  for (const cJSON *v = arr->child; v; v = v->next) {
    char entry[96];
    gb_meta_calibration c = {0}; /* its configuration's fields */
    snprintf(entry, sizeof entry, "%s[%zu]", at, i++);
    int rc = parse_value(j, config_entry, v, entry, &c);
    if (rc < 0)
      return rc;
    size_t z = gb_settings_size_index(s, c.size);
    uint16_t *bits = &s->omit[c.language][c.algorithm][c.order];
    if (*bits >> z & 1u) /* only set at a size of the lists */
      return FAIL(j, entry, "the same configuration as an earlier entry");
    if (!gb_settings_plans(s, c.language, c.algorithm, c.order, z))
      return FAIL(j, entry, "a configuration not in the settings' lists");
    *bits |= (uint16_t)(1u << z);
  }
  return 0;
}

/* One object per omitted configuration, in canonical order; left out when
 * none is omitted, as records before the field had none. */
static bool write_omit(const void *base, cJSON *parent, const char *key) {
  const gb_settings *s = &((const gb_meta *)base)->settings;
  cJSON *arr = NULL;
  gb_meta_calibration c = {0};
  jctx quiet = {"", NULL, false}; /* a configuration that the lists hold, never refused */
  for (c.language = 0; c.language < GB_LANGUAGE_COUNT; c.language++)
    for (c.algorithm = 0; c.algorithm < GB_ALGORITHM_COUNT; c.algorithm++)
      for (c.order = 0; c.order < GB_ORDER_COUNT; c.order++)
        for (size_t z = 0; z < s->nsizes && z < GB_MAX_SIZES; z++) {
          if (!(s->omit[c.language][c.algorithm][c.order] >> z & 1u))
            continue;
          if (!arr && !add(parent, key, arr = cJSON_CreateArray()))
            return false;
          c.size = s->sizes[z];
          if (!add(arr, NULL, write_value(&quiet, config_entry, &c, "")))
            return false;
        }
  return true;
}

int gb_meta_parse(const char *json, size_t len, const char *path, gb_meta *out, gb_err *err) {
  cJSON *root = NULL;
  gb_meta *m = NULL; /* zeroed, as gb_meta_init does */
  int rc = gbi_json_parse_strict(json, len, path, "meta.json", &root, err);
  if (rc == 0 && !(m = calloc(1, sizeof *m)))
    rc = gb_err_set(err, ENOMEM, "%s: out of memory", path);
  else if (rc == 0 && !cJSON_IsObject(root))
    rc = gb_err_set(err, EINVAL, "%s: expected a JSON object, got %s", path,
                    gbi_json_type_name(root));
  if (rc == 0 && (rc = gbi_meta_table_parse(root, gbi_meta_root, path, m, err)) == 0 &&
      !(m->command_line = gbi_meta_command_line(m->n_command, m->command)))
    rc = gb_err_set(err, ENOMEM, "%s: out of memory", path);
  if (rc == 0 && (rc = gb_meta_check(m, path, err)) == 0)
    *out = *m;
  else if (m)
    gb_meta_free(m);
  cJSON_Delete(root);
  free(m);
  return rc;
}

/* ---- The table on any struct ------------------------------------------- */

int gbi_meta_table_parse(const cJSON *o, const field *root, const char *path, void *base,
                         gb_err *err) {
  jctx j = {path, err, false};
  return parse_value(&j, root, o, "", base);
}

int gbi_meta_table_write(const field *root, const void *base, const char *path, cJSON **out,
                         gb_err *err) {
  jctx j = {path, err, false};
  *out = write_value(&j, root, base, "");
  return *out ? 0 : j.refused ? -EINVAL : gb_err_set(err, ENOMEM, "%s: out of memory", path);
}
