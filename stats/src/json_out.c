#include "json_out.h"

#include "textbuf.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

int gb_jb_take(gb_jb *b, cJSON *root, const char *what, char **out, size_t *len, gb_err *err) {
  gb_tb_numeric loc;
  gb_tb_c_numeric(&loc); /* cJSON prints doubles with sprintf */
  char *text = b->ok ? cJSON_Print(root) : NULL;
  gb_tb_restore_numeric(&loc);
  cJSON_Delete(root);
  return gb_text_file(text, out, len, what, err);
}

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

/* The four keys every interval has, whatever it is an interval of. */
static cJSON *interval_of(gb_jb *b, cJSON *parent, const char *key, double point, double lo,
                          double hi, size_t n_used) {
  cJSON *x = gb_jb_obj(b, parent, key);
  gb_jb_num(b, x, "point", point);
  gb_jb_num(b, x, "low", lo);
  gb_jb_num(b, x, "high", hi);
  gb_jb_u64(b, x, "resamples_used", n_used);
  return x;
}

cJSON *gb_jb_interval(gb_jb *b, cJSON *parent, const char *key, bool has,
                      const gb_interval *iv) {
  if (!has || !iv->available || isnan(iv->point)) {
    gb_jb_null(b, parent, key);
    return NULL;
  }
  return interval_of(b, parent, key, iv->point, iv->lo, iv->hi, iv->n_used);
}

void gb_jb_rho(gb_jb *b, cJSON *parent, const char *key, const gb_rho_interval *r) {
  interval_of(b, parent, key, r->point.rho, r->lo, r->hi, r->n_used);
}

void gb_jb_readings(gb_jb *b, cJSON *o, const size_t counts[4]) {
  for (int r = 0; r < 4; r++) {
    gb_jb_u64(b, o, gb_reading_name((gb_reading)r), counts[r]);
  }
}

static void tally(gb_jb *b, cJSON *parent, const char *key, const gb_an_tally *t) {
  const gb_ratio_tally *y = &t->tally;
  cJSON *o = gb_jb_obj(b, parent, key);
  gb_jb_u64(b, o, "ratios", y->total);
  gb_jb_u64(b, o, "defined", y->defined);
  gb_jb_readings(b, o, y->readings);
  gb_jb_u64(b, o, "excluding_one", y->excluding_one);
  gb_jb_num(b, o, "expected_by_chance", y->expected_by_chance);
  gb_jb_u64(b, o, "chance_bound", t->chance_bound);
  gb_jb_u64(b, o, "chance_bound_binomial", t->plain_bound);
  gb_jb_u64(b, o, "null_campaigns", t->calibrated ? t->null_campaigns : 0);
  gb_jb_num(b, o, "null_rate", t->calibrated ? t->null_rate : NAN);
}

void gb_jb_tallies(gb_jb *b, cJSON *parent, const gb_analysis *a) {
  cJSON *t = gb_jb_obj(b, parent, "tallies");
  tally(b, t, "all", &a->tally_all);
  tally(b, t, "languages", &a->tally_languages);
  tally(b, t, "orders", &a->tally_orders);
}

void gb_jb_config_key(gb_jb *b, cJSON *o, const gb_an_config *c) {
  gb_jb_str(b, o, "language", gb_language_name(c->language));
  gb_jb_str(b, o, "algorithm", gb_algorithm_name(c->algorithm));
  gb_jb_str(b, o, "order", gb_order_name(c->order));
  gb_jb_u64(b, o, "size", c->size);
}

void gb_jb_group_key(gb_jb *b, cJSON *o, const gb_an_group *g) {
  bool lang = g->family == GB_AN_LANGUAGES;
  gb_jb_str(b, o, "language", gb_language_name(g->la));
  gb_jb_str(b, o, "against_language", gb_language_name(lang ? g->lb : g->la));
  gb_jb_str(b, o, "algorithm", gb_algorithm_name(g->algorithm));
  gb_jb_str(b, o, "order", lang ? NULL : gb_order_name(g->order));
  gb_jb_str(b, o, "against_order", lang ? NULL : gb_order_name(GB_RANDOM));
}
