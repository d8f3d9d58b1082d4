/* gb_meta to meta.json, for the harness: the same struct gb_meta_parse
 * fills, so the writer and the reader cannot drift apart. */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdio.h>

#include "greenbench/meta.h"
#include "greenbench/records.h"

/* Adds to one object and remembers any failure, so that a build is a flat
 * list of adds and one check at the end. Every number here is an unsigned
 * 64-bit integer, written as its exact decimal digits (a raw item): cJSON's
 * own numbers are doubles, printed with 15 significant digits when that
 * round-trips within an epsilon, which loses the last digits of a seed. */
typedef struct {
  cJSON *o;
  bool ok;
} builder;

static void add_item(builder *b, const char *key, cJSON *item) {
  if (!item || !cJSON_AddItemToObject(b->o, key, item)) {
    cJSON_Delete(item);
    b->ok = false;
  }
}

static void add_str(builder *b, const char *key, const char *v) {
  add_item(b, key, v ? cJSON_CreateString(v) : NULL);
}

static void add_str_null(builder *b, const char *key, bool has, const char *v) {
  add_item(b, key, has ? cJSON_CreateString(v) : cJSON_CreateNull());
}

/* v as a JSON number of exact decimal digits, in any locale. */
static cJSON *exact_uint(uint64_t v) {
  char digits[24];
  snprintf(digits, sizeof digits, "%" PRIu64, v);
  return cJSON_CreateRaw(digits);
}

static void add_uint(builder *b, const char *key, uint64_t v) {
  add_item(b, key, exact_uint(v));
}

static void add_bool(builder *b, const char *key, bool v) {
  add_item(b, key, cJSON_CreateBool(v));
}

/* Appends x to arr; false, x freed, when x is NULL or the append fails. */
static bool append(cJSON *arr, cJSON *x) {
  if (x && cJSON_AddItemToArray(arr, x))
    return true;
  cJSON_Delete(x);
  return false;
}

/* An array of n entries made by make(base + i * size). */
static cJSON *entries(const void *base, size_t n, size_t size, cJSON *(*make)(const void *)) {
  cJSON *a = cJSON_CreateArray();
  for (size_t i = 0; a && i < n; i++) {
    if (!append(a, make((const char *)base + i * size))) {
      cJSON_Delete(a);
      return NULL;
    }
  }
  return a;
}

static cJSON *make_uint(const void *p) {
  return exact_uint(*(const uint64_t *)p);
}

static cJSON *uint_array(const uint64_t *v, size_t n) {
  return entries(v, n, sizeof *v, make_uint);
}

/* names[0..n) as a JSON array; NULL for a name out of range (NULL) or a
 * list longer than its value set (n > max). */
static cJSON *name_array(const char *const *names, size_t n, size_t max) {
  if (n > max)
    return NULL;
  for (size_t i = 0; i < n; i++)
    if (!names[i])
      return NULL;
  return cJSON_CreateStringArray(names, (int)n);
}

/* Begins a nested object; end() adds it to the parent. */
static builder begin(void) {
  builder b = {cJSON_CreateObject(), true};
  b.ok = b.o != NULL;
  return b;
}

/* The object built, or NULL (freed) when an add failed. */
static cJSON *done(builder *b) {
  if (b->ok)
    return b->o;
  cJSON_Delete(b->o);
  return NULL;
}

static void end(builder *parent, const char *key, builder *child) {
  add_item(parent, key, done(child));
}

static void add_config(builder *b, gb_language l, gb_algorithm a, gb_order o, uint64_t size) {
  add_str(b, "language", gb_language_name(l));
  add_str(b, "algorithm", gb_algorithm_name(a));
  add_str(b, "order", gb_order_name(o));
  add_uint(b, "size", size);
}

/* settings.omit: one object per omitted configuration, in canonical order;
 * left out when none is omitted, as records before the field had none. */
static void add_omit(builder *settings, const gb_meta_settings *s) {
  cJSON *arr = NULL;
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++)
    for (gb_algorithm a = 0; a < GB_ALGORITHM_COUNT; a++)
      for (gb_order o = 0; o < GB_ORDER_COUNT; o++)
        for (size_t z = 0; z < s->n_sizes && z < GB_META_MAX_SIZES; z++) {
          if (!(s->omit[l][a][o] >> z & 1u))
            continue;
          if (!arr && !(arr = cJSON_CreateArray())) {
            settings->ok = false;
            return;
          }
          builder e = begin();
          add_config(&e, l, a, o, s->sizes[z]);
          if (!append(arr, done(&e))) {
            cJSON_Delete(arr);
            settings->ok = false;
            return;
          }
        }
  if (arr)
    add_item(settings, "omit", arr);
}

static void add_settings(builder *root, const gb_meta_settings *s) {
  builder b = begin();
  const char *names[GB_ORDER_COUNT];
  for (size_t i = 0; i < s->n_languages && i < GB_LANGUAGE_COUNT; i++)
    names[i] = gb_language_name(s->languages[i]);
  add_item(&b, "languages", name_array(names, s->n_languages, GB_LANGUAGE_COUNT));
  for (size_t i = 0; i < s->n_algorithms && i < GB_ALGORITHM_COUNT; i++)
    names[i] = gb_algorithm_name(s->algorithms[i]);
  add_item(&b, "algorithms", name_array(names, s->n_algorithms, GB_ALGORITHM_COUNT));
  for (size_t i = 0; i < s->n_orders && i < GB_ORDER_COUNT; i++)
    names[i] = gb_order_name(s->orders[i]);
  add_item(&b, "orders", name_array(names, s->n_orders, GB_ORDER_COUNT));
  add_item(&b, "sizes",
           s->n_sizes <= GB_META_MAX_SIZES ? uint_array(s->sizes, s->n_sizes) : NULL);
  add_uint(&b, "runs", s->runs);
  add_uint(&b, "warmups", s->warmups);
  add_uint(&b, "target_ms", s->target_ms);
  add_str(&b, "energy", gb_meta_energy_mode_name(s->energy));
  add_uint(&b, "seed", s->seed);
  add_uint(&b, "order_seed", s->order_seed);
  add_str(&b, "python", s->python);
  add_str(&b, "node", s->node);
  add_uint(&b, "timeout_s", s->timeout_s);
  add_omit(&b, s);
  end(root, "settings", &b);
}

static void add_plan(builder *root, const gb_meta_plan *p) {
  builder b = begin();
  add_uint(&b, "configurations", p->configurations);
  add_uint(&b, "sort_runs", p->sort_runs);
  add_uint(&b, "startup_runs", p->startup_runs);
  add_uint(&b, "measured_runs", p->measured_runs);
  end(root, "plan", &b);
}

static cJSON *calibration_entry(const gb_meta_calibration *c) {
  builder b = begin();
  add_config(&b, c->language, c->algorithm, c->order, c->size);
  add_uint(&b, "sorts", c->sorts);
  add_item(&b, "warmup_loop_ns",
           c->n_warmup_loop_ns <= GB_META_MAX_WARMUPS
               ? uint_array(c->warmup_loop_ns, c->n_warmup_loop_ns)
               : NULL);
  return done(&b);
}

static cJSON *startup_entry(const gb_meta_startup *s) {
  builder b = begin();
  add_str(&b, "language", gb_language_name(s->language));
  add_str(&b, "order", gb_order_name(s->order));
  add_uint(&b, "size", s->size);
  add_uint(&b, "launches", s->launches);
  return done(&b);
}

static cJSON *zone_entry(const gb_meta_zone *z) {
  builder b = begin();
  add_str(&b, "name", z->name);
  add_str(&b, "path", z->path);
  add_str(&b, "kind", gb_meta_zone_kind_name(z->kind));
  add_uint(&b, "socket", z->socket);
  add_uint(&b, "max_energy_range_uj", z->max_energy_range_uj);
  return done(&b);
}

static cJSON *make_calibration(const void *p) {
  return calibration_entry(p);
}
static cJSON *make_startup(const void *p) {
  return startup_entry(p);
}
static cJSON *make_zone(const void *p) {
  return zone_entry(p);
}

static void add_energy(builder *root, const gb_meta *m) {
  builder b = begin();
  add_str(&b, "status", gb_rec_energy_name(m->energy.status));
  add_str(&b, "reason", m->energy.reason);
  if (m->energy.has_source) {
    add_str(&b, "source", m->energy.source);
    add_str_null(&b, "cross_check", m->energy.has_cross, m->energy.cross_check);
  }
  add_item(&b, "zones",
           m->energy.n_zones <= GB_META_MAX_ZONES
               ? entries(m->energy.zones, m->energy.n_zones, sizeof *m->energy.zones, make_zone)
               : NULL);
  end(root, "energy", &b);
}

static void add_machine(builder *root, const gb_meta *m) {
  builder b = begin();
  if (m->machine.has_label)
    add_str(&b, "label", m->machine.label);
  add_str(&b, "cpu_model", m->machine.cpu_model);
  add_str(&b, "kernel", m->machine.kernel);
  add_str_null(&b, "governor", m->machine.has_governor, m->machine.governor);
  add_str_null(&b, "turbo", m->machine.has_turbo, m->machine.turbo);
  add_uint(&b, "cpus_online", m->machine.cpus_online);
  end(root, "machine", &b);
}

static void add_pinning(builder *root, const gb_meta *m) {
  builder b = begin();
  add_str(&b, "cpus", m->pinning.cpus);
  add_bool(&b, "rule_held", m->pinning.rule_held);
  add_str(&b, "reason", m->pinning.reason);
  add_item(&b, "numa_node",
           m->pinning.has_numa_node ? exact_uint(m->pinning.numa_node) : cJSON_CreateNull());
  add_bool(&b, "memory_bound", m->pinning.memory_bound);
  end(root, "pinning", &b);
}

static void add_runtimes(builder *root, const gb_meta *m) {
  builder b = begin();
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++)
    if (m->runtimes[l][0])
      add_str(&b, gb_language_name(l), m->runtimes[l]);
  end(root, "runtimes", &b);
}

static void add_harness_env(builder *root, const gb_meta *m) {
  if (!m->has_harness_env)
    return;
  builder b = begin();
  for (size_t i = 0; i < m->n_harness_env && i < GB_META_MAX_ENV; i++)
    add_str(&b, m->harness_env[i].name, m->harness_env[i].value);
  end(root, "harness_env", &b);
}

static void add_head(builder *b, const gb_meta *m) {
  add_str(b, "format", GB_META_FORMAT);
  add_str(b, "tool_version", m->tool_version);
  add_item(b, "command",
           m->n_command
               ? cJSON_CreateStringArray((const char *const *)m->command, (int)m->n_command)
               : NULL);
  add_str(b, "profile", gb_meta_profile_name(m->profile));
}

cJSON *gb_meta_to_json(const gb_meta *m) {
  builder b = begin();
  add_head(&b, m);
  add_settings(&b, &m->settings);
  add_plan(&b, &m->plan);
  add_item(&b, "calibration",
           entries(m->calibration, m->n_calibration, sizeof *m->calibration, make_calibration));
  add_item(&b, "startup", entries(m->startup, m->n_startup, sizeof *m->startup, make_startup));
  add_energy(&b, m);
  add_machine(&b, m);
  add_pinning(&b, m);
  add_runtimes(&b, m);
  add_harness_env(&b, m);
  if (m->has_access) {
    add_str(&b, "access", m->access);
    add_str(&b, "spawner", m->spawner);
  }
  add_str(&b, "git_commit", m->git_commit);
  add_str(&b, "started_at", m->started_at);
  add_str_null(&b, "finished_at", m->has_finished_at, m->finished_at);
  add_bool(&b, "completed", m->completed);
  add_uint(&b, "runs_done", m->runs_done);
  return done(&b);
}
