#include "json_out.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

cJSON *gb_jb_put(gb_jb *b, cJSON *parent, const char *key, cJSON *item) {
  bool added =
      parent && item &&
      (key ? cJSON_AddItemToObject(parent, key, item) : cJSON_AddItemToArray(parent, item));
  if (!added) {
    cJSON_Delete(item);
    b->ok = false;
    return NULL;
  }
  return item;
}

cJSON *gb_jb_obj(gb_jb *b, cJSON *parent, const char *key) {
  return gb_jb_put(b, parent, key, cJSON_CreateObject());
}

cJSON *gb_jb_arr(gb_jb *b, cJSON *parent, const char *key) {
  return gb_jb_put(b, parent, key, cJSON_CreateArray());
}

void gb_jb_str(gb_jb *b, cJSON *parent, const char *key, const char *v) {
  gb_jb_put(b, parent, key, v ? cJSON_CreateString(v) : cJSON_CreateNull());
}

void gb_jb_bool(gb_jb *b, cJSON *parent, const char *key, bool v) {
  gb_jb_put(b, parent, key, cJSON_CreateBool(v));
}

void gb_jb_null(gb_jb *b, cJSON *parent, const char *key) {
  gb_jb_put(b, parent, key, cJSON_CreateNull());
}

void gb_jb_u64(gb_jb *b, cJSON *parent, const char *key, uint64_t v) {
  char digits[24];
  snprintf(digits, sizeof digits, "%" PRIu64, v);
  gb_jb_put(b, parent, key, cJSON_CreateRaw(digits));
}

void gb_jb_i64(gb_jb *b, cJSON *parent, const char *key, int64_t v) {
  char digits[24];
  snprintf(digits, sizeof digits, "%" PRId64, v);
  gb_jb_put(b, parent, key, cJSON_CreateRaw(digits));
}

void gb_jb_num(gb_jb *b, cJSON *parent, const char *key, double v) {
  gb_jb_put(b, parent, key, isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull());
}

void gb_jb_u64_or_null(gb_jb *b, cJSON *parent, const char *key, bool has, uint64_t v) {
  if (has) {
    gb_jb_u64(b, parent, key, v);
  } else {
    gb_jb_null(b, parent, key);
  }
}

void gb_jb_tally(gb_jb *b, cJSON *parent, const char *key, const gb_an_tally *t) {
  const gb_ratio_tally *y = &t->tally;
  cJSON *o = gb_jb_obj(b, parent, key);
  gb_jb_u64(b, o, "ratios", y->total);
  gb_jb_u64(b, o, "defined", y->defined);
  for (int r = 0; r < 4; r++) {
    gb_jb_u64(b, o, gb_reading_name((gb_reading)r), y->readings[r]);
  }
  gb_jb_u64(b, o, "excluding_one", y->excluding_one);
  gb_jb_num(b, o, "expected_by_chance", y->expected_by_chance);
  gb_jb_u64(b, o, "chance_bound", t->chance_bound);
}

void gb_jb_group_key(gb_jb *b, cJSON *o, const gb_an_group *g) {
  bool lang = g->family == GB_AN_LANGUAGES;
  gb_jb_str(b, o, "language", gb_language_name(g->la));
  gb_jb_str(b, o, "against_language", gb_language_name(lang ? g->lb : g->la));
  gb_jb_str(b, o, "algorithm", gb_algorithm_name(g->algorithm));
  gb_jb_str(b, o, "order", lang ? NULL : gb_order_name(g->order));
  gb_jb_str(b, o, "against_order", lang ? NULL : gb_order_name(GB_RANDOM));
}

void gb_jb_rho(gb_jb *b, cJSON *parent, const char *key, const gb_rho_interval *r) {
  cJSON *x = gb_jb_obj(b, parent, key);
  gb_jb_num(b, x, "point", r->point.rho);
  gb_jb_num(b, x, "low", r->lo);
  gb_jb_num(b, x, "high", r->hi);
  gb_jb_u64(b, x, "resamples_used", r->n_used);
}
