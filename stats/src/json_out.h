/* Building JSON output with cJSON, private to the stats library's writers
 * (summary.json, compare.json, datapackage.json). Adds remember any failure, so a writer
 * builds with a flat list of adds and checks `ok` once at the end. Numbers:
 * integers as their exact digits (a JSON double holds 2^53 at most),
 * figures as doubles, null where a figure does not exist (NAN or not
 * finite). gbi_jb_take prints the result in the "C" locale: cJSON formats
 * doubles with sprintf. */
#ifndef GREENBENCH_JSON_OUT_H
#define GREENBENCH_JSON_OUT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "greenbench/error.h"

typedef struct {
  bool ok; /* start true; false once an add failed */
} gbi_jb;

/* Prints root (freed) as the file `what` into *out, malloc'd and
 * NUL-terminated, *len without the NUL (gbi_text_file): in the "C" locale,
 * so doubles have a dot. -ENOMEM when an add failed (b->ok false) or
 * printing does. */
GB_MUST_USE int gbi_jb_take(gbi_jb *b, cJSON *root, const char *what, char **out, size_t *len,
                            gb_err *err);

/* Adds item to parent under key (an object's member) or, with key NULL, to
 * an array; returns item, or NULL (item freed, b->ok false) on failure. */
cJSON *gbi_jb_put(gbi_jb *b, cJSON *parent, const char *key, cJSON *item);
cJSON *gbi_jb_obj(gbi_jb *b, cJSON *parent, const char *key);
cJSON *gbi_jb_arr(gbi_jb *b, cJSON *parent, const char *key);
void gbi_jb_str(gbi_jb *b, cJSON *parent, const char *key, const char *v); /* NULL: null */
void gbi_jb_bool(gbi_jb *b, cJSON *parent, const char *key, bool v);
void gbi_jb_null(gbi_jb *b, cJSON *parent, const char *key);
void gbi_jb_u64(gbi_jb *b, cJSON *parent, const char *key, uint64_t v);
void gbi_jb_i64(gbi_jb *b, cJSON *parent, const char *key, int64_t v);
void gbi_jb_num(gbi_jb *b, cJSON *parent, const char *key, double v);
void gbi_jb_u64_or_null(gbi_jb *b, cJSON *parent, const char *key, bool has, uint64_t v);

/* The same, short, for a writer whose state s holds its builder as s->jb
 * (compare_json.c, report_summary.c): put_num(s, o, "point", x). */
#define put(s, ...) gbi_jb_put(&(s)->jb, __VA_ARGS__)
#define put_obj(s, ...) gbi_jb_obj(&(s)->jb, __VA_ARGS__)
#define put_arr(s, ...) gbi_jb_arr(&(s)->jb, __VA_ARGS__)
#define put_str(s, ...) gbi_jb_str(&(s)->jb, __VA_ARGS__)
#define put_bool(s, ...) gbi_jb_bool(&(s)->jb, __VA_ARGS__)
#define put_null(s, ...) gbi_jb_null(&(s)->jb, __VA_ARGS__)
#define put_u64(s, ...) gbi_jb_u64(&(s)->jb, __VA_ARGS__)
#define put_i64(s, ...) gbi_jb_i64(&(s)->jb, __VA_ARGS__)
#define put_num(s, ...) gbi_jb_num(&(s)->jb, __VA_ARGS__)
#define put_u64_or_null(s, ...) gbi_jb_u64_or_null(&(s)->jb, __VA_ARGS__)
/* An array under key holding put_item(s, array, &items[i]) for each of the
 * n items, in order: put_list(s, root, "ratios", put_ratio, a->ratios,
 * a->n_ratios). */
#define put_list(s, parent, key, put_item, items, n)                                           \
  do {                                                                                         \
    cJSON *list_ = put_arr(s, parent, key);                                                    \
    for (size_t i_ = 0; i_ < (n); i_++) {                                                      \
      put_item(s, list_, &(items)[i_]);                                                        \
    }                                                                                          \
  } while (0)

/* ---- Shapes of the analysis that several files write -------------------- */

#include "greenbench/analysis.h"

/* {"point", "low", "high", "resamples_used"} of a figure's bootstrap
 * interval, or null when has is false or iv has no point (not available,
 * or NAN). Returns the object, for a writer's keys of its own, or NULL
 * (null written, or a failed add). */
cJSON *gbi_jb_interval(gbi_jb *b, cJSON *parent, const char *key, bool has,
                       const gb_interval *iv);
/* The same four keys of a rank agreement. */
void gbi_jb_rho(gbi_jb *b, cJSON *parent, const char *key, const gb_rho_interval *r);
/* The four power readings' counts (gb_reading_name: count) into o. */
void gbi_jb_readings(gbi_jb *b, cJSON *o, const size_t counts[4]);
/* "tallies": {"all", "languages", "orders"}, each {"ratios", "defined", the
 * four readings, "excluding_one", "expected_by_chance", "chance_bound"}. */
void gbi_jb_tallies(gbi_jb *b, cJSON *parent, const gb_analysis *a);
/* A configuration's key into o: "language", "algorithm", "order", "size". */
void gbi_jb_config_key(gbi_jb *b, cJSON *o, const gb_an_config *c);
/* A ratio group's key into o: "language", "against_language", "algorithm",
 * "order" and "against_order" (null for a group of languages). */
void gbi_jb_group_key(gbi_jb *b, cJSON *o, const gb_an_group *g);

#endif
