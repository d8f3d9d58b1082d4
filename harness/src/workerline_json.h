/* What the two worker-line parsers share: the sorts' line (workerline.c)
 * and the generic contract line of a suite (contractline.c). One line of
 * JSON, framed, parsed and checked field by field with the same strictness
 * and the same messages ("worker output: ..."). Private to the harness. */
#ifndef GREENBENCH_WORKERLINE_JSON_H
#define GREENBENCH_WORKERLINE_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "greenbench/error.h"

struct cJSON;

/* Bytes of untrusted input quoted in a message, and the room they can take
 * once escaped (\xNN is four bytes each, plus quotes and "..."). */
#define GBI_WL_QUOTE_MAX 40
#define GBI_WL_QUOTED_SIZE (GBI_WL_QUOTE_MAX * 4 + 8)

/* -EPROTO "worker output: <message>". */
__attribute__((format(printf, 2, 3))) int gbi_wl_bad(gb_err *err, const char *fmt, ...);

/* s[0..n) in double quotes, cut at GBI_WL_QUOTE_MAX bytes, anything but
 * printable ASCII escaped (gb_str_quote): one printable line whatever s is. */
const char *gbi_wl_quote(const char *s, size_t n, char out[GBI_WL_QUOTED_SIZE]);

/* "true", "a number", "an object"...: what v is, for a message. */
const char *gbi_wl_type_name(const struct cJSON *v);

/* buf[0..len) as one JSON object followed by exactly one "\n" and nothing
 * else (no NUL, nothing before '{' or after the object). Returns 0 and
 * *root (cJSON_Delete it) or -EPROTO naming what is wrong. */
GB_MUST_USE int gbi_wl_frame(const char *buf, size_t len, struct cJSON **root, gb_err *err);

/* v as a whole number min..max: -EPROTO naming key otherwise. */
GB_MUST_USE int gbi_wl_uint(const struct cJSON *v, const char *key, uint64_t min, uint64_t max,
                            uint64_t *out, gb_err *err);

/* v as a string (*out points into v). */
GB_MUST_USE int gbi_wl_string(const struct cJSON *v, const char *key, const char **out,
                              gb_err *err);

/* v as 16 lowercase hex digits: the value and its text. */
GB_MUST_USE int gbi_wl_hash(const struct cJSON *v, const char *key, uint64_t *h, char hex[17],
                            gb_err *err);

/* v as 1 to max printable ASCII characters into out[max + 1]. */
GB_MUST_USE int gbi_wl_printable(const struct cJSON *v, const char *key, size_t max, char *out,
                                 gb_err *err);

/* v is true. */
GB_MUST_USE int gbi_wl_true(const struct cJSON *v, const char *key, gb_err *err);

/* The text of the line (without its "\n"): every number a plain decimal
 * integer, no string holding \u0000 (which cJSON would cut short). */
GB_MUST_USE int gbi_wl_check_text(const char *s, size_t n, gb_err *err);

/* A key of a kind of line: in, a bit set of the kinds of line that hold it. */
typedef struct {
  const char *name;
  int in;
} gbi_wl_key;

#define GBI_WL_KEYS_MAX 16

/* Reads field k of a line from v into out. */
typedef int (*gbi_wl_field_fn)(int k, const struct cJSON *v, void *out, gb_err *err);

/* The whole parse of one line: framed (gbi_wl_frame); exactly the keys[n]
 * (n <= GBI_WL_KEYS_MAX) whose `in` has a bit of `in`, each once ("missing
 * key \"x\" for <what>", "unexpected key ...", "key \"x\" appears twice");
 * each read by field(k, value, out) in the order of keys; then the text
 * (gbi_wl_check_text). Returns 0 or the first failure (out then partly
 * filled: parse into a copy). */
GB_MUST_USE int gbi_wl_parse(const char *buf, size_t len, const gbi_wl_key *keys, size_t n,
                             int in, const char *what, gbi_wl_field_fn field, void *out,
                             gb_err *err);

#endif
