#include "contract_check.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static char problem[256];

static const char *const measured_keys[] = {"loop_ns",     "counters", "input_hash",
                                            "output_hash", "runtime",  NULL};
static const char *const startup_keys[] = {"startup_only", "input_hash", "runtime", NULL};

static bool whole(const cJSON *v) {
  /* cJSON holds numbers as doubles: exact for whole numbers up to 2^53. */
  return cJSON_IsNumber(v) && v->valuedouble >= 0 && v->valuedouble <= 9007199254740991.0 &&
         floor(v->valuedouble) == v->valuedouble;
}

static bool is_hash(const cJSON *v) {
  const char *s = cJSON_GetStringValue(v);
  return s && strlen(s) == 16 && strspn(s, "0123456789abcdef") == 16;
}

static bool is_runtime(const cJSON *v) {
  const char *s = cJSON_GetStringValue(v);
  size_t len = s ? strlen(s) : 0;
  if (len < 1 || len > 127)
    return false;
  for (size_t i = 0; i < len; i++)
    if (s[i] < 0x20 || s[i] > 0x7e)
      return false;
  return true;
}

static bool is_name(const char *s) {
  size_t len = strlen(s);
  return len >= 1 && len <= 32 && s[0] >= 'a' && s[0] <= 'z' &&
         strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_-") == len;
}

static const char *fail(const char *fmt, const char *what) {
  snprintf(problem, sizeof problem, fmt, what);
  return problem;
}

static const char *check_counters(const cJSON *c) {
  if (!cJSON_IsObject(c))
    return "counters is not an object";
  int count = 0;
  for (const cJSON *v = c->child; v; v = v->next, count++) {
    if (!is_name(v->string))
      return fail("counter name %s is not [a-z][a-z0-9_-]{0,31}", v->string);
    if (!whole(v))
      return fail("counter %s is not a whole number 0..2^53-1", v->string);
    for (const cJSON *w = c->child; w != v; w = w->next)
      if (strcmp(w->string, v->string) == 0)
        return fail("counter %s is there twice", v->string);
  }
  return count > 8 ? "more than 8 counters" : NULL;
}

static const char *check_value(const char *key, const cJSON *v) {
  if (strcmp(key, "loop_ns") == 0)
    return whole(v) ? NULL : "loop_ns is not a whole number 0..2^53-1";
  if (strcmp(key, "counters") == 0)
    return check_counters(v);
  if (strcmp(key, "startup_only") == 0)
    return cJSON_IsTrue(v) ? NULL : "startup_only is not true";
  if (strcmp(key, "runtime") == 0)
    return is_runtime(v) ? NULL : "runtime is not 1..127 printable ASCII characters";
  return is_hash(v) ? NULL : fail("%s is not 16 lowercase hex digits", key);
}

static const char *check_keys(const cJSON *j, const char *const *keys) {
  size_t want = 0;
  for (; keys[want]; want++) {
    int seen = 0;
    for (const cJSON *v = j->child; v; v = v->next)
      seen += strcmp(v->string, keys[want]) == 0;
    if (seen != 1)
      return fail(seen ? "key %s is there more than once" : "key %s is missing", keys[want]);
    const char *p = check_value(keys[want], cJSON_GetObjectItemCaseSensitive(j, keys[want]));
    if (p)
      return p;
  }
  if ((size_t)cJSON_GetArraySize(j) != want)
    return "the line has keys the contract does not name";
  return NULL;
}

const char *contract_problem(const char *out, size_t len, bool startup, cJSON **json) {
  const char *nl = memchr(out, '\n', len);
  if (len == 0 || strlen(out) != len)
    return "nothing printed, or a NUL byte";
  if (!nl || nl != out + len - 1)
    return "not exactly one line ending in a newline";
  if (out[0] != '{')
    return "the line does not start with {";
  const char *end = NULL;
  cJSON *j = cJSON_ParseWithOpts(out, &end, false);
  if (!j || end != nl || !cJSON_IsObject(j)) {
    cJSON_Delete(j);
    return "not one JSON object alone on the line";
  }
  const char *p = check_keys(j, startup ? startup_keys : measured_keys);
  if (p) {
    cJSON_Delete(j);
    return p;
  }
  *json = j;
  return NULL;
}

double contract_number(const cJSON *line, const char *key, bool counter) {
  const cJSON *o = counter ? cJSON_GetObjectItemCaseSensitive(line, "counters") : line;
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

const char *contract_string(const cJSON *line, const char *key) {
  return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(line, key));
}

const char *contract_fnv(const char *text, char *buf) {
  uint64_t h = 0xcbf29ce484222325u;
  for (const unsigned char *s = (const unsigned char *)text; *s; s++) {
    h ^= *s;
    h *= 0x100000001b3u;
  }
  snprintf(buf, 17, "%016" PRIx64, h);
  return buf;
}
