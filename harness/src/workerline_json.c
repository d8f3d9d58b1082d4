/* What the sorts' worker line and a suite's contract line share: see
 * workerline_json.h. */
#include "workerline_json.h"
#include "greenbench/text.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

int gbi_wl_bad(gb_err *err, const char *fmt, ...) {
  char msg[sizeof err->msg];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return gb_err_set(err, EPROTO, "worker output: %s", msg);
}

/* s[0..n) in double quotes, cut at GBI_WL_QUOTE_MAX bytes, anything but printable
 * ASCII escaped (gb_str_quote), so a huge or binary line still gives a
 * one-line message. */
const char *gbi_wl_quote(const char *s, size_t n, char out[GBI_WL_QUOTED_SIZE]) {
  gb_str_quote(s, n, GBI_WL_QUOTE_MAX, out, GBI_WL_QUOTED_SIZE);
  return out;
}

static const char *quote_str(const char *s, char out[GBI_WL_QUOTED_SIZE]) {
  return gbi_wl_quote(s, strlen(s), out);
}

/* One line: something, then "\n", and nothing else. */
static int check_framing(const char *buf, size_t len, gb_err *err) {
  char q[GBI_WL_QUOTED_SIZE];
  if (len == 0)
    return gbi_wl_bad(err, "nothing on stdout; expected one line of JSON");
  const char *nul = memchr(buf, '\0', len);
  if (nul)
    return gbi_wl_bad(err, "NUL byte at byte %zu of %zu", (size_t)(nul - buf), len);
  const char *nl = memchr(buf, '\n', len);
  if (!nl)
    return gbi_wl_bad(err, "no newline at the end of its %zu bytes: %s", len,
                      gbi_wl_quote(buf, len, q));
  if (nl != buf + len - 1)
    return gbi_wl_bad(err, "more than one line: %zu bytes follow the first newline: %s",
                      (size_t)(buf + len - nl - 1),
                      gbi_wl_quote(nl + 1, (size_t)(buf + len - nl - 1), q));
  if (buf[0] != '{')
    return gbi_wl_bad(err, "does not start with '{': %s", gbi_wl_quote(buf, len - 1, q));
  return 0;
}

/* The object must end exactly at the newline: cJSON would otherwise stop at
 * the closing brace and ignore what follows. */
static int parse_json(const char *buf, size_t len, cJSON **out, gb_err *err) {
  char q[GBI_WL_QUOTED_SIZE];
  size_t body = len - 1;
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithLengthOpts(buf, body, &end, 0);
  size_t at = end && end >= buf && end <= buf + body ? (size_t)(end - buf) : 0;
  if (!root)
    return gbi_wl_bad(err, "not valid JSON (at byte %zu: %s)", at,
                      gbi_wl_quote(buf + at, body - at, q));
  if (!cJSON_IsObject(root) || at != body) {
    cJSON_Delete(root);
    return gbi_wl_bad(err, "data after the JSON object at byte %zu: %s", at,
                      gbi_wl_quote(buf + at, body - at, q));
  }
  *out = root;
  return 0;
}

int gbi_wl_frame(const char *buf, size_t len, cJSON **root, gb_err *err) {
  int rc = check_framing(buf, len, err);
  return rc < 0 ? rc : parse_json(buf, len, root, err);
}

const char *gbi_wl_type_name(const cJSON *v) {
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

int gbi_wl_uint(const cJSON *v, const char *key, uint64_t min, uint64_t max, uint64_t *out,
                gb_err *err) {
  if (!cJSON_IsNumber(v))
    return gbi_wl_bad(err, "\"%s\" must be a number, got %s", key, gbi_wl_type_name(v));
  double d = v->valuedouble;
  /* The range test comes first: converting an out-of-range double is undefined. */
  if (d >= (double)min && d <= (double)max && d == (double)(uint64_t)d) {
    *out = (uint64_t)d;
    return 0;
  }
  char shown[40];
  snprintf(shown, sizeof shown,
           d > -1e18 && d < 1e18 && d == (double)(long long)d ? "%.0f" : "%.15g", d);
  return gbi_wl_bad(err, "\"%s\" must be an integer from %llu to %llu, got %s", key,
                    (unsigned long long)min, (unsigned long long)max, shown);
}

static int hex_digit(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int gbi_wl_string(const cJSON *v, const char *key, const char **out, gb_err *err) {
  if (!cJSON_IsString(v) || !v->valuestring)
    return gbi_wl_bad(err, "\"%s\" must be a string, got %s", key, gbi_wl_type_name(v));
  *out = v->valuestring;
  return 0;
}

int gbi_wl_hash(const cJSON *v, const char *key, uint64_t *h, char hex[17], gb_err *err) {
  char q[GBI_WL_QUOTED_SIZE];
  const char *s = "";
  int rc = gbi_wl_string(v, key, &s, err);
  if (rc < 0)
    return rc;
  uint64_t x = 0;
  size_t n = strlen(s);
  for (size_t i = 0; i < n && n == 16; i++) {
    int d = hex_digit(s[i]);
    if (d < 0)
      break;
    x = x << 4 | (uint64_t)d;
    if (i == 15) {
      *h = x;
      memcpy(hex, s, 17);
      return 0;
    }
  }
  return gbi_wl_bad(err, "\"%s\" must be 16 lowercase hex digits, got %s", key,
                    quote_str(s, q));
}

int gbi_wl_printable(const cJSON *v, const char *key, size_t max, char *out, gb_err *err) {
  char q[GBI_WL_QUOTED_SIZE];
  const char *s = "";
  int rc = gbi_wl_string(v, key, &s, err);
  if (rc < 0)
    return rc;
  size_t n = strlen(s);
  bool printable = n > 0 && n <= max;
  for (size_t i = 0; printable && i < n; i++)
    printable = s[i] >= 0x20 && s[i] < 0x7f;
  if (!printable)
    return gbi_wl_bad(err, "\"%s\" must be 1 to %zu printable ASCII characters, got %s", key,
                      max, quote_str(s, q));
  memcpy(out, s, n + 1);
  return 0;
}

int gbi_wl_true(const cJSON *v, const char *key, gb_err *err) {
  if (cJSON_IsTrue(v))
    return 0;
  return gbi_wl_bad(err, "\"%s\" must be true, got %s", key, gbi_wl_type_name(v));
}

/* A string starting at s[i] == '"': sets *end to its closing quote. */
static int scan_string(const char *s, size_t n, size_t i, size_t *end, gb_err *err) {
  for (size_t j = i + 1; j < n; j++) {
    if (s[j] == '\\' && j + 5 < n && memcmp(s + j + 1, "u0000", 5) == 0)
      return gbi_wl_bad(err, "\\u0000 in a string at byte %zu", j);
    if (s[j] == '\\')
      j++;
    else if (s[j] == '"') {
      *end = j;
      return 0;
    }
  }
  return gbi_wl_bad(err, "unterminated string at byte %zu", i);
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
  char qk[GBI_WL_QUOTED_SIZE], qt[GBI_WL_QUOTED_SIZE];
  return gbi_wl_bad(err, "%s is written as %s; expected a plain decimal integer",
                    gbi_wl_quote(key, keylen, qk), gbi_wl_quote(tok, n, qt));
}

/* cJSON keeps only a double, and is laxer than JSON, so the text is checked
 * too: every number is a plain decimal integer ("1.0", "1e3", "-0" and "01"
 * give valid doubles but are not what a worker prints), and no string holds
 * \u0000, which cJSON decodes into a NUL that silently cuts the C string
 * short ("gcc\u0000junk" would read as "gcc"). Runs after the tree checks, so
 * every number here is the value of a key and every string passed its own
 * check (which refuses raw control characters). */
int gbi_wl_check_text(const char *s, size_t n, gb_err *err) {
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

static int check_keys(const cJSON *root, const gbi_wl_key *keys, size_t n, int in,
                      const char *what, const cJSON **found, gb_err *err) {
  char q[GBI_WL_QUOTED_SIZE];
  for (const cJSON *c = root->child; c; c = c->next) {
    const char *s = c->string ? c->string : "";
    size_t k = 0;
    while (k < n && strcmp(keys[k].name, s) != 0)
      k++;
    if (k == n || !(keys[k].in & in))
      return gbi_wl_bad(err, "unexpected key %s for %s", gbi_wl_quote(s, strlen(s), q), what);
    if (found[k])
      return gbi_wl_bad(err, "key \"%s\" appears twice", keys[k].name);
    found[k] = c;
  }
  for (size_t k = 0; k < n; k++)
    if ((keys[k].in & in) && !found[k])
      return gbi_wl_bad(err, "missing key \"%s\" for %s", keys[k].name, what);
  return 0;
}

int gbi_wl_parse(const char *buf, size_t len, const gbi_wl_key *keys, size_t n, int in,
                 const char *what, gbi_wl_field_fn field, void *out, gb_err *err) {
  cJSON *root = NULL;
  const cJSON *found[GBI_WL_KEYS_MAX] = {0};
  if (n > GBI_WL_KEYS_MAX)
    return gb_err_set(err, EINVAL, "%zu keys, more than %d", n, GBI_WL_KEYS_MAX);
  int rc = gbi_wl_frame(buf, len, &root, err);
  if (rc == 0)
    rc = check_keys(root, keys, n, in, what, found, err);
  for (size_t k = 0; rc == 0 && k < n; k++)
    if (found[k])
      rc = field((int)k, found[k], out, err);
  if (rc == 0)
    rc = gbi_wl_check_text(buf, len - 1, err);
  cJSON_Delete(root);
  return rc;
}
