/* The strict reading of a JSON file (meta.json, suite files): see
 * records_internal.h. */
#include "records_internal.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/numparse.h"

#define KEY_MAX 200

/* Objects up to this many members are checked pair by pair (meta.json's
 * have tens); larger ones by sorting their keys, so that no file makes
 * the check quadratic. */
#define PAIRWISE_MAX 64

static int key_cmp(const void *a, const void *b) {
  const cJSON *x = *(const cJSON *const *)a, *y = *(const cJSON *const *)b;
  return strcmp(x->string ? x->string : "", y->string ? y->string : "");
}

/* A member of the large object o (n members) whose key another has, or
 * NULL; *oom is set when there was no memory to sort. */
static const cJSON *repeated_sorted(const cJSON *o, size_t n, bool *oom) {
  const cJSON **keys = malloc(n * sizeof *keys), *dup = NULL;
  if (!keys) {
    *oom = true;
    return NULL;
  }
  size_t k = 0;
  for (const cJSON *c = o->child; c; c = c->next)
    keys[k++] = c;
  qsort(keys, n, sizeof *keys, key_cmp);
  for (size_t i = 1; i < n && !dup; i++)
    dup = key_cmp(&keys[i - 1], &keys[i]) == 0 ? keys[i] : NULL;
  free(keys);
  return dup;
}

/* The first member of object o whose key an earlier member has, or NULL. */
static const cJSON *repeated(const cJSON *o, bool *oom) {
  size_t n = (size_t)cJSON_GetArraySize(o); /* an object's members too */
  if (n > PAIRWISE_MAX)
    return repeated_sorted(o, n, oom);
  for (const cJSON *a = o->child; a; a = a->next)
    for (const cJSON *b = o->child; b != a; b = b->next)
      if (a->string && b->string && strcmp(a->string, b->string) == 0)
        return a;
  return NULL;
}

/* at, extended by the member or element c of v, into buf; a key's control
 * bytes as \xHH, so that the message stays one line. Returns buf. */
static const char *place(char *buf, const char *at, const cJSON *v, const cJSON *c, size_t i) {
  if (cJSON_IsArray(v)) {
    snprintf(buf, KEY_MAX, "%s[%zu]", at, i);
    return buf;
  }
  int n = snprintf(buf, KEY_MAX, "%s%s", at, at[0] ? "." : "");
  size_t o = n < 0 ? 0 : (size_t)n, shown = 0;
  for (const char *k = c->string ? c->string : ""; *k && shown < 100 && o + 5 < KEY_MAX;
       k++, shown++) {
    unsigned char b = (unsigned char)*k;
    o += (size_t)snprintf(buf + o, KEY_MAX - o, b < 0x20 || b == 0x7f ? "\\x%02x" : "%c", b);
  }
  return buf;
}

const char *gbi_json_type_name(const cJSON *v) {
  return !v                  ? "nothing"
         : cJSON_IsString(v) ? "a string"
         : cJSON_IsNumber(v) ? "a number"
         : cJSON_IsBool(v)   ? "a boolean"
         : cJSON_IsNull(v)   ? "null"
         : cJSON_IsArray(v)  ? "an array"
                             : "an object";
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

/* One walk of a parsed document, in the order of its text. */
typedef struct {
  const char *p, *end; /* the text, from where the next number is sought */
  bool keys;           /* look for a repeated key: only in a whole document */
  bool dup, oom;       /* a key is repeated (its place in at); out of memory */
  char at[KEY_MAX];
} walk_ctx;

/* cJSON keeps a number only as a double, exact to 2^53; the records hold
 * 64-bit integers. Numbers come in the text in the order of the tree, so
 * the number item v gets the next number's text as its valuestring (which
 * cJSON_Delete frees). */
static void keep_number_text(cJSON *v, walk_ctx *w) {
  size_t n = 0;
  const char *s = next_number(w->p, w->end, &n);
  if (s && !(v->valuestring = cJSON_malloc(n + 1)))
    w->oom = true;
  else if (s) {
    memcpy(v->valuestring, s, n);
    v->valuestring[n] = '\0';
    w->p = s + n;
  }
}

/* Keeps the numbers' text under v (reached at `at`) and, while none is
 * found, finds the first repeated key of an object, in document order. */
static void walk(cJSON *v, const char *at, walk_ctx *w) {
  if (cJSON_IsNumber(v))
    keep_number_text(v, w);
  const cJSON *dup = w->keys && !w->dup && cJSON_IsObject(v) ? repeated(v, &w->oom) : NULL;
  if (dup) {
    place(w->at, at, v, dup, 0);
    w->dup = true;
  }
  size_t i = 0;
  for (cJSON *c = v->child; c && !w->oom; c = c->next, i++) {
    char here[KEY_MAX];
    walk(c, place(here, at, v, c, i), w);
  }
}

int gbi_json_parse_strict(const char *json, size_t len, const char *path, const char *what,
                          cJSON **out, gb_err *err) {
  const char *end = json;
  cJSON *root = cJSON_ParseWithLengthOpts(json, len, &end, 0);
  bool whole = root && only_space(end, json + len);
  walk_ctx w = {json, json + len, whole, false, false, ""};
  if (root)
    walk(root, "", &w);
  int rc = 0;
  if (w.oom)
    rc = gb_err_set(err, ENOMEM, "%s: out of memory", path);
  else if (!whole)
    rc = gb_err_set(err, EINVAL, "%s:%zu: malformed JSON", path, line_at(json, len, end));
  else if (w.dup)
    rc = gb_err_set(err, EINVAL,
                    "%s: %s: the key appears twice in one object; a JSON reader keeps only "
                    "one of them, so %s must not repeat a key",
                    path, w.at, what);
  if (rc == 0)
    *out = root;
  else
    cJSON_Delete(root);
  return rc;
}

bool gbi_json_whole(const cJSON *v, uint64_t max, uint64_t *out) {
  const char *s = cJSON_IsNumber(v) ? v->valuestring : NULL;
  return s && !(s[0] == '0' && s[1]) && gb_parse_u64(s, 0, max, out) == 0;
}
