#include "greenbench/workerline.h"
#include "greenbench/text.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Bytes of untrusted input quoted in a message, and the room they can take
 * once escaped (\xNN is four bytes each, plus quotes and "..."). */
#define QUOTE_MAX 40
#define QUOTED_SIZE (QUOTE_MAX * 4 + 8)

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

static const struct {
  const char *name;
  int in;
} keys[K_COUNT] = {
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

__attribute__((format(printf, 2, 3))) static int bad(gb_err *err, const char *fmt, ...) {
  char msg[sizeof err->msg];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return gb_err_set(err, EPROTO, "worker output: %s", msg);
}

/* s[0..n) in double quotes, cut at QUOTE_MAX bytes, anything but printable
 * ASCII escaped (gb_str_quote), so a huge or binary line still gives a
 * one-line message. */
static const char *quote(const char *s, size_t n, char out[QUOTED_SIZE]) {
  gb_str_quote(s, n, QUOTE_MAX, out, QUOTED_SIZE);
  return out;
}

static const char *quote_str(const char *s, char out[QUOTED_SIZE]) {
  return quote(s, strlen(s), out);
}

/* One line: something, then "\n", and nothing else. */
static int check_framing(const char *buf, size_t len, gb_err *err) {
  char q[QUOTED_SIZE];
  if (len == 0)
    return bad(err, "nothing on stdout; expected one line of JSON");
  const char *nul = memchr(buf, '\0', len);
  if (nul)
    return bad(err, "NUL byte at byte %zu of %zu", (size_t)(nul - buf), len);
  const char *nl = memchr(buf, '\n', len);
  if (!nl)
    return bad(err, "no newline at the end of its %zu bytes: %s", len, quote(buf, len, q));
  if (nl != buf + len - 1)
    return bad(err, "more than one line: %zu bytes follow the first newline: %s",
               (size_t)(buf + len - nl - 1), quote(nl + 1, (size_t)(buf + len - nl - 1), q));
  if (buf[0] != '{')
    return bad(err, "does not start with '{': %s", quote(buf, len - 1, q));
  return 0;
}

/* The object must end exactly at the newline: cJSON would otherwise stop at
 * the closing brace and ignore what follows. */
static int parse_json(const char *buf, size_t len, cJSON **out, gb_err *err) {
  char q[QUOTED_SIZE];
  size_t body = len - 1;
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithLengthOpts(buf, body, &end, 0);
  size_t at = end && end >= buf && end <= buf + body ? (size_t)(end - buf) : 0;
  if (!root)
    return bad(err, "not valid JSON (at byte %zu: %s)", at, quote(buf + at, body - at, q));
  if (!cJSON_IsObject(root) || at != body) {
    cJSON_Delete(root);
    return bad(err, "data after the JSON object at byte %zu: %s", at,
               quote(buf + at, body - at, q));
  }
  *out = root;
  return 0;
}

static int key_index(const char *name) {
  for (int k = 0; k < K_COUNT; k++)
    if (strcmp(keys[k].name, name) == 0)
      return k;
  return -1;
}

/* Exactly the keys of this kind of line, each once. */
static int check_keys(const cJSON *root, gb_workerline_kind kind, const cJSON *found[K_COUNT],
                      gb_err *err) {
  char q[QUOTED_SIZE];
  int in = kind == GB_WORKERLINE_SORT ? IN_SORT : IN_STARTUP;
  const char *what = kind == GB_WORKERLINE_SORT ? "a sorting run" : "a startup-only run";
  memset(found, 0, K_COUNT * sizeof found[0]);
  for (const cJSON *c = root->child; c; c = c->next) {
    int k = c->string ? key_index(c->string) : -1;
    if (k < 0 || !(keys[k].in & in))
      return bad(err, "unexpected key %s for %s", quote_str(c->string ? c->string : "", q),
                 what);
    if (found[k])
      return bad(err, "key \"%s\" appears twice", keys[k].name);
    found[k] = c;
  }
  for (int k = 0; k < K_COUNT; k++)
    if ((keys[k].in & in) && !found[k])
      return bad(err, "missing key \"%s\" for %s", keys[k].name, what);
  return 0;
}

static const char *type_name(const cJSON *v) {
  if (cJSON_IsTrue(v))
    return "true";
  if (cJSON_IsFalse(v))
    return "false";
  if (cJSON_IsNull(v))
    return "null";
  if (cJSON_IsNumber(v))
    return "a number";
  if (cJSON_IsString(v))
    return "a string";
  return cJSON_IsArray(v) ? "an array" : "an object";
}

static int get_uint(const cJSON *v, key_id k, uint64_t min, uint64_t max, uint64_t *out,
                    gb_err *err) {
  if (!cJSON_IsNumber(v))
    return bad(err, "\"%s\" must be a number, got %s", keys[k].name, type_name(v));
  double d = v->valuedouble;
  /* The range test comes first: converting an out-of-range double is undefined. */
  if (d >= (double)min && d <= (double)max && d == (double)(uint64_t)d) {
    *out = (uint64_t)d;
    return 0;
  }
  char shown[40];
  snprintf(shown, sizeof shown,
           d > -1e18 && d < 1e18 && d == (double)(long long)d ? "%.0f" : "%.15g", d);
  return bad(err, "\"%s\" must be an integer from %llu to %llu, got %s", keys[k].name,
             (unsigned long long)min, (unsigned long long)max, shown);
}

static int get_string(const cJSON *v, key_id k, const char **out, gb_err *err) {
  if (!cJSON_IsString(v) || !v->valuestring)
    return bad(err, "\"%s\" must be a string, got %s", keys[k].name, type_name(v));
  *out = v->valuestring;
  return 0;
}

static int get_language(const cJSON *v, gb_worker_line *l, gb_err *err) {
  char q[QUOTED_SIZE];
  const char *s = "";
  gb_language lang;
  int rc = get_string(v, K_LANGUAGE, &s, err);
  if (rc == 0 && gb_language_parse(s, &lang) == 0) {
    snprintf(l->language, sizeof l->language, "%s", gb_language_name(lang));
    return 0;
  }
  return rc < 0 ? rc
                : bad(err, "\"language\" must be c, python or node, got %s", quote_str(s, q));
}

static int get_algorithm(const cJSON *v, gb_worker_line *l, gb_err *err) {
  char q[QUOTED_SIZE];
  const char *s = "";
  int rc = get_string(v, K_ALGORITHM, &s, err);
  if (rc == 0 && gb_algorithm_parse(s, &l->algorithm) < 0)
    rc = bad(err, "\"algorithm\" must be bubble, insertion or quick, got %s", quote_str(s, q));
  return rc;
}

static int get_order(const cJSON *v, gb_worker_line *l, gb_err *err) {
  char q[QUOTED_SIZE];
  const char *s = "";
  int rc = get_string(v, K_ORDER, &s, err);
  if (rc == 0 && gb_order_parse(s, &l->order) < 0)
    rc = bad(err, "\"order\" must be random, sorted, reversed or nearly, got %s",
             quote_str(s, q));
  return rc;
}

static int hex_digit(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static int get_hash(const cJSON *v, gb_worker_line *l, gb_err *err) {
  char q[QUOTED_SIZE];
  const char *s = "";
  int rc = get_string(v, K_INPUT_HASH, &s, err);
  if (rc < 0)
    return rc;
  uint64_t h = 0;
  size_t n = strlen(s);
  for (size_t i = 0; i < n && n == 16; i++) {
    int d = hex_digit(s[i]);
    if (d < 0)
      break;
    h = h << 4 | (uint64_t)d;
    if (i == 15) {
      l->input_hash = h;
      memcpy(l->input_hash_hex, s, 17);
      return 0;
    }
  }
  return bad(err, "\"input_hash\" must be 16 lowercase hex digits, got %s", quote_str(s, q));
}

static int get_runtime(const cJSON *v, gb_worker_line *l, gb_err *err) {
  char q[QUOTED_SIZE];
  const char *s = "";
  int rc = get_string(v, K_RUNTIME, &s, err);
  if (rc < 0)
    return rc;
  size_t n = strlen(s);
  bool printable = n > 0 && n <= GB_WORKERLINE_RUNTIME_MAX;
  for (size_t i = 0; printable && i < n; i++)
    printable = s[i] >= 0x20 && s[i] < 0x7f;
  if (!printable)
    return bad(err, "\"runtime\" must be 1 to %d printable ASCII characters, got %s",
               GB_WORKERLINE_RUNTIME_MAX, quote_str(s, q));
  memcpy(l->runtime, s, n + 1);
  return 0;
}

static int get_true(const cJSON *v, key_id k, gb_err *err) {
  if (cJSON_IsTrue(v))
    return 0;
  return bad(err, "\"%s\" must be true, got %s", keys[k].name, type_name(v));
}

static int read_field(key_id k, const cJSON *v, gb_worker_line *l, gb_err *err) {
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
    return get_uint(v, k, 1, GB_MAX_SIZE, &l->size, err);
  case K_SEED:
    rc = get_uint(v, k, 1, UINT32_MAX, &seed, err);
    l->seed = (uint32_t)seed;
    return rc;
  case K_SORTS:
    return get_uint(v, k, 1, GB_MAX_SORTS, &l->sorts, err);
  case K_COMPARISONS:
    return get_uint(v, k, 0, GB_WORKERLINE_UINT_MAX, &l->comparisons, err);
  case K_WRITES:
    return get_uint(v, k, 0, GB_WORKERLINE_UINT_MAX, &l->writes, err);
  case K_LOOP_NS:
    return get_uint(v, k, 0, GB_WORKERLINE_UINT_MAX, &l->loop_ns, err);
  case K_INPUT_HASH:
    return get_hash(v, l, err);
  case K_RUNTIME:
    return get_runtime(v, l, err);
  default: /* K_SORTED, K_STARTUP_ONLY */
    return get_true(v, k, err);
  }
}

/* A string starting at s[i] == '"': sets *end to its closing quote. */
static int scan_string(const char *s, size_t n, size_t i, size_t *end, gb_err *err) {
  for (size_t j = i + 1; j < n; j++) {
    if (s[j] == '\\' && j + 5 < n && memcmp(s + j + 1, "u0000", 5) == 0)
      return bad(err, "\\u0000 in a string at byte %zu", j);
    if (s[j] == '\\')
      j++;
    else if (s[j] == '"') {
      *end = j;
      return 0;
    }
  }
  return bad(err, "unterminated string at byte %zu", i);
}

static bool in_number(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

static int check_number(const char *tok, size_t n, const char *key, size_t keylen,
                        gb_err *err) {
  bool plain = n >= 1 && n <= 16 && !(n > 1 && tok[0] == '0');
  for (size_t i = 0; plain && i < n; i++)
    plain = tok[i] >= '0' && tok[i] <= '9';
  if (plain)
    return 0;
  char qk[QUOTED_SIZE], qt[QUOTED_SIZE];
  return bad(err, "%s is written as %s; expected a plain decimal integer",
             quote(key, keylen, qk), quote(tok, n, qt));
}

/* cJSON keeps only a double, and is laxer than JSON, so the text is checked
 * too: every number is a plain decimal integer ("1.0", "1e3", "-0" and "01"
 * give valid doubles but are not what a worker prints), and no string holds
 * \u0000, which cJSON decodes into a NUL that silently cuts the C string
 * short ("gcc\u0000junk" would read as "gcc"). Runs after the tree checks, so
 * every number here is the value of a key and every string passed its own
 * check (which refuses raw control characters). */
static int check_text(const char *s, size_t n, gb_err *err) {
  const char *str = "", *key = "";
  size_t strn = 0, keyn = 0;
  for (size_t i = 0; i < n;) {
    size_t end = i + 1;
    int rc = 0;
    if (s[i] == '"') {
      rc = scan_string(s, n, i, &end, err);
      str = s + i + 1;
      strn = end - i - 1;
      end++;
    } else if (s[i] == ':') {
      key = str;
      keyn = strn;
    } else if (s[i] == '-' || (s[i] >= '0' && s[i] <= '9')) {
      for (end = i; end < n && in_number(s[end]); end++)
        ;
      rc = check_number(s + i, end - i, key, keyn, err);
    }
    if (rc < 0)
      return rc;
    i = end;
  }
  return 0;
}

int gb_workerline_parse(const char *buf, size_t len, gb_workerline_kind kind,
                        gb_worker_line *out, gb_err *err) {
  if (kind != GB_WORKERLINE_SORT && kind != GB_WORKERLINE_STARTUP)
    return gb_err_set(err, EINVAL, "unknown kind of worker line %d", (int)kind);
  cJSON *root = NULL;
  const cJSON *found[K_COUNT];
  gb_worker_line l = {.kind = kind};
  int rc = check_framing(buf, len, err);
  if (rc == 0)
    rc = parse_json(buf, len, &root, err);
  if (rc == 0)
    rc = check_keys(root, kind, found, err);
  for (int k = 0; rc == 0 && k < K_COUNT; k++)
    if (found[k])
      rc = read_field((key_id)k, found[k], &l, err);
  if (rc == 0)
    rc = check_text(buf, len - 1, err);
  cJSON_Delete(root);
  if (rc == 0)
    *out = l;
  return rc;
}

static int differs(gb_err *err, const char *field, const char *got, const char *asked) {
  return bad(err, "\"%s\" is %s but %s was asked for", field, got, asked);
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
    return bad(err, "a line for %s, but %s was asked for", kinds[line->kind != 0],
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
