/* A suite campaign's meta.json (greenbench/suiterecords.h): one table of
 * fields read and written by meta.json's table engine (meta_codec.c), the
 * strict JSON reader (json_unique.c), and the rules across fields, which
 * hold on writing as on reading. Unlike the study's meta.json, an unknown
 * key is refused: the format is new and has no older readers to spare. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/suiterecords.h"

#include "meta_table.h"
#include "records_internal.h"

#define PATH "meta.json"

typedef gbi_meta_field field;

#define T gb_srec_language
static const field language_fields[] = {
    STR("name", name),
    STR("title", title),
    STR("version", version),
};
static const field language_entry[] = {ENTRY(T, language_fields)};
#undef T

#define T gb_srec_meta
static const field suite_fields[] = {
    STR("name", suite_name),
    STR("hash", suite_hash),
};
/* The whole numbers from their one list, so that a new one is recorded. */
static const field settings_fields[] = {
#define NUMBER(key, option, lo, hi, profiled) UINT(#key, settings.key),
    GB_SETTINGS_NUMBERS(NUMBER)
#undef NUMBER
        UINT("order_seed", settings.order_seed),
    ENUM("energy", settings.energy, gbi_energy_mode_names),
};
static const field energy_fields[] = {
    ENUM("status", energy_status, gbi_rec_energy_names),
    STR("reason", energy_reason),
};
static const field machine_fields[] = {
    UINT("cpus_online", cpus_online, .min = 1),
    STR("pinning", pinning),
    STR("label", machine_label, FLAG(GB_MF_OPT, has_label)),
};
static const field meta_fields[] = {
    {"format", GB_MT_FIXED, .fixed = GB_SUITE_RECORDS_FORMAT},
    OBJECT("suite", suite_fields),
    STR("greenbench_version", greenbench_version, .flags = GB_MF_NONEMPTY),
    ENUM("profile", settings.profile, gbi_profile_names),
    OBJECT("settings", settings_fields),
    OBJECT("energy", energy_fields),
    OBJECT("machine", machine_fields),
    ARRAY("languages", languages, n_languages, language_entry, .flags = GB_MF_NONEMPTY),
    UINT("started_unix_ns", started_unix_ns),
    UINT("finished_unix_ns", finished_unix_ns),
    BOOL("complete", complete),
};
static const field meta_root[] = {ENTRY(T, meta_fields)};
#undef T

/* ---- Rules across fields ---------------------------------------------- */

static int refuse(gb_err *err, const char *at, const char *why, const char *value) {
  gb_excerpt_buf b;
  return gb_err_set(err, EINVAL, PATH ": %s: %s%s%s%s", at, value ? "'" : "",
                    value ? gb_excerpt(&b, value) : "", value ? "' " : "", why);
}

static bool is_hex32(const char *s) {
  size_t n = 0;
  for (; s[n]; n++)
    if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f')))
      return false;
  return n == GB_SUITE_HASH_LEN;
}

static bool printable(const char *s) {
  for (; *s; s++)
    if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
      return false;
  return true;
}

static int check_languages(const gb_srec_meta *m, gb_err *err) {
  char at[48];
  for (size_t i = 0; i < m->n_languages; i++) {
    const gb_srec_language *l = &m->languages[i];
    snprintf(at, sizeof at, "languages[%zu].name", i);
    if (!gb_suite_name_ok(l->name))
      return refuse(err, at, "is not a suite name", l->name);
    for (size_t k = 0; k < i; k++)
      if (strcmp(m->languages[k].name, l->name) == 0)
        return refuse(err, at, "appears twice", l->name);
    snprintf(at, sizeof at, "languages[%zu].title", i);
    if (!l->title[0] || !printable(l->title))
      return refuse(err, at, "is not 1 or more printable ASCII characters", l->title);
  }
  return 0;
}

static int check_rules(const gb_srec_meta *m, gb_err *err) {
  gb_err e;
  if (!gb_suite_name_ok(m->suite_name))
    return refuse(err, "suite.name", "is not a suite name", m->suite_name);
  if (!is_hex32(m->suite_hash))
    return refuse(err, "suite.hash", "is not 32 lowercase hex digits", m->suite_hash);
  if (!m->greenbench_version[0])
    return refuse(err, "greenbench_version", "empty", NULL);
  if (m->has_label && !gb_meta_label_valid(m->machine_label))
    return refuse(err, "machine.label", "is not a label (1 to 63 letters, digits, '_' or '-')",
                  m->machine_label);
  if (gbi_settings_check_numbers(&m->settings, &e) < 0)
    return gb_err_set(err, EINVAL, PATH ": %s", e.msg);
  if (m->n_languages == 0 || m->n_languages > GB_SUITE_LANGUAGES_MAX)
    return refuse(err, "languages", m->n_languages ? "too many entries" : "empty", NULL);
  int rc = check_languages(m, err);
  if (rc < 0)
    return rc;
  if (m->complete && m->finished_unix_ns == 0)
    return refuse(err, "finished_unix_ns", "is 0, but complete is true", NULL);
  if (m->finished_unix_ns && m->finished_unix_ns < m->started_unix_ns)
    return refuse(err, "finished_unix_ns", "is before started_unix_ns", NULL);
  return 0;
}

/* ---- Unknown keys ------------------------------------------------------ */

static int unknown_keys(const cJSON *o, const field *fs, size_t n, const char *at, gb_err *err);

static int unknown_in(const cJSON *v, const field *f, const char *at, gb_err *err) {
  if (f->type == GB_MT_OBJECT && cJSON_IsObject(v))
    return unknown_keys(v, f->sub, f->n_sub, at, err);
  if (f->type != GB_MT_ARRAY || !cJSON_IsArray(v) || f->sub->type != GB_MT_OBJECT)
    return 0;
  size_t i = 0;
  for (const cJSON *e = v->child; e; e = e->next, i++) {
    char entry[192];
    snprintf(entry, sizeof entry, "%s[%zu]", at, i);
    int rc = cJSON_IsObject(e) ? unknown_keys(e, f->sub->sub, f->sub->n_sub, entry, err) : 0;
    if (rc < 0)
      return rc;
  }
  return 0;
}

/* The first member of o, in document order, that no field names. */
static int unknown_keys(const cJSON *o, const field *fs, size_t n, const char *at,
                        gb_err *err) {
  for (const cJSON *v = o->child; v; v = v->next) {
    const field *f = NULL;
    for (size_t i = 0; i < n && !f; i++)
      f = strcmp(fs[i].key, v->string) == 0 ? &fs[i] : NULL;
    char here[160];
    snprintf(here, sizeof here, "%s%s%s", at, at[0] ? "." : "", v->string);
    if (!f) {
      gb_excerpt_buf b;
      snprintf(here, sizeof here, "%s%s%s", at, at[0] ? "." : "", gb_excerpt(&b, v->string));
      return gb_err_set(err, EINVAL, PATH ": %s: unknown key", here);
    }
    int rc = unknown_in(v, f, here, err);
    if (rc < 0)
      return rc;
  }
  return 0;
}

/* ---- Writing and reading ----------------------------------------------- */

/* The tree of m into *out, or -EINVAL with the message of the first value
 * the reader would refuse, or -ENOMEM. */
static int to_json(const gb_srec_meta *m, cJSON **out, gb_err *err) {
  cJSON *o = NULL;
  int rc = gbi_meta_table_write(meta_root, m, PATH, &o, err);
  if (rc == 0 && (rc = check_rules(m, err)) == 0)
    *out = o;
  else
    cJSON_Delete(o);
  return rc;
}

int gb_srec_meta_write(const gb_srec_meta *m, char **text, gb_err *err) {
  cJSON *o = NULL;
  int rc = to_json(m, &o, err);
  if (rc < 0)
    return rc;
  char *s = cJSON_Print(o);
  cJSON_Delete(o);
  size_t n = s ? strlen(s) : 0;
  char *out = s ? realloc(s, n + 2) : NULL;
  if (!out) {
    free(s);
    return gb_err_set(err, ENOMEM, PATH ": out of memory");
  }
  memcpy(out + n, "\n", 2);
  *text = out;
  return 0;
}

int gb_srec_meta_parse(const char *text, size_t len, gb_srec_meta *out, gb_err *err) {
  cJSON *root = NULL;
  int rc = gbi_json_parse_strict(text, len, PATH, PATH, &root, err);
  if (rc < 0)
    return rc;
  gb_srec_meta *m = calloc(1, sizeof *m);
  if (!m)
    rc = gb_err_set(err, ENOMEM, PATH ": out of memory");
  else if (!cJSON_IsObject(root))
    rc = gb_err_set(err, EINVAL, PATH ": expected a JSON object, got %s",
                    gbi_json_type_name(root));
  if (rc == 0)
    rc = unknown_keys(root, meta_fields, NELEM(meta_fields), "", err);
  if (rc == 0)
    rc = gbi_meta_table_parse(root, meta_root, PATH, m, err);
  cJSON *check = NULL;
  if (rc == 0) /* the bounds the writer holds */
    rc = to_json(m, &check, err);
  cJSON_Delete(check);
  cJSON_Delete(root);
  if (rc == 0)
    *out = *m;
  free(m);
  return rc;
}
