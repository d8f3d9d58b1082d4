#include "json_out.h"

#include "textbuf.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

int gbi_jb_take(gbi_jb *b, cJSON *root, const char *what, char **out, size_t *len,
                gb_err *err) {
  gbi_tb_numeric loc;
  gbi_tb_c_numeric(&loc); /* cJSON prints doubles with sprintf */
  char *text = b->ok ? cJSON_Print(root) : NULL;
  gbi_tb_restore_numeric(&loc);
  cJSON_Delete(root);
  return gbi_text_file(text, out, len, what, err);
}

cJSON *gbi_jb_put(gbi_jb *b, cJSON *parent, const char *key, cJSON *item) {
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

cJSON *gbi_jb_obj(gbi_jb *b, cJSON *parent, const char *key) {
  return gbi_jb_put(b, parent, key, cJSON_CreateObject());
}

cJSON *gbi_jb_arr(gbi_jb *b, cJSON *parent, const char *key) {
  return gbi_jb_put(b, parent, key, cJSON_CreateArray());
}

void gbi_jb_str(gbi_jb *b, cJSON *parent, const char *key, const char *v) {
  gbi_jb_put(b, parent, key, v ? cJSON_CreateString(v) : cJSON_CreateNull());
}

void gbi_jb_bool(gbi_jb *b, cJSON *parent, const char *key, bool v) {
  gbi_jb_put(b, parent, key, cJSON_CreateBool(v));
}

void gbi_jb_null(gbi_jb *b, cJSON *parent, const char *key) {
  gbi_jb_put(b, parent, key, cJSON_CreateNull());
}

void gbi_jb_u64(gbi_jb *b, cJSON *parent, const char *key, uint64_t v) {
  char digits[24];
  snprintf(digits, sizeof digits, "%" PRIu64, v);
  gbi_jb_put(b, parent, key, cJSON_CreateRaw(digits));
}

void gbi_jb_i64(gbi_jb *b, cJSON *parent, const char *key, int64_t v) {
  char digits[24];
  snprintf(digits, sizeof digits, "%" PRId64, v);
  gbi_jb_put(b, parent, key, cJSON_CreateRaw(digits));
}

void gbi_jb_num(gbi_jb *b, cJSON *parent, const char *key, double v) {
  gbi_jb_put(b, parent, key, isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull());
}

void gbi_jb_u64_or_null(gbi_jb *b, cJSON *parent, const char *key, bool has, uint64_t v) {
  if (has) {
    gbi_jb_u64(b, parent, key, v);
  } else {
    gbi_jb_null(b, parent, key);
  }
}

/* The four keys every interval has, whatever it is an interval of. */
static cJSON *interval_of(gbi_jb *b, cJSON *parent, const char *key, double point, double lo,
                          double hi, size_t n_used) {
  cJSON *x = gbi_jb_obj(b, parent, key);
  gbi_jb_num(b, x, "point", point);
  gbi_jb_num(b, x, "low", lo);
  gbi_jb_num(b, x, "high", hi);
  gbi_jb_u64(b, x, "resamples_used", n_used);
  return x;
}

cJSON *gbi_jb_interval(gbi_jb *b, cJSON *parent, const char *key, bool has,
                       const gb_interval *iv) {
  if (!has || !iv->available || isnan(iv->point)) {
    gbi_jb_null(b, parent, key);
    return NULL;
  }
  return interval_of(b, parent, key, iv->point, iv->lo, iv->hi, iv->n_used);
}

void gbi_jb_rho(gbi_jb *b, cJSON *parent, const char *key, const gb_rho_interval *r) {
  interval_of(b, parent, key, r->point.rho, r->lo, r->hi, r->n_used);
}

void gbi_jb_readings(gbi_jb *b, cJSON *o, const size_t counts[4]) {
  for (int r = 0; r < 4; r++) {
    gbi_jb_u64(b, o, gb_reading_name((gb_reading)r), counts[r]);
  }
}

static void tally(gbi_jb *b, cJSON *parent, const char *key, const gb_an_tally *t) {
  const gb_ratio_tally *y = &t->tally;
  cJSON *o = gbi_jb_obj(b, parent, key);
  gbi_jb_u64(b, o, "ratios", y->total);
  gbi_jb_u64(b, o, "defined", y->defined);
  gbi_jb_readings(b, o, y->readings);
  gbi_jb_u64(b, o, "excluding_one", y->excluding_one);
  gbi_jb_num(b, o, "expected_by_chance", y->expected_by_chance);
  gbi_jb_u64(b, o, "chance_bound", t->chance_bound);
  gbi_jb_u64(b, o, "chance_bound_binomial", t->plain_bound);
  gbi_jb_u64(b, o, "null_campaigns", t->calibrated ? t->null_campaigns : 0);
  gbi_jb_num(b, o, "null_rate", t->calibrated ? t->null_rate : NAN);
}

void gbi_jb_tallies(gbi_jb *b, cJSON *parent, const gb_analysis *a) {
  cJSON *t = gbi_jb_obj(b, parent, "tallies");
  tally(b, t, "all", &a->tally_all);
  tally(b, t, "languages", &a->tally_languages);
  tally(b, t, "orders", &a->tally_orders);
}

void gbi_jb_config_key(gbi_jb *b, cJSON *o, const gb_an_config *c) {
  gbi_jb_str(b, o, "language", gb_language_name(c->language));
  gbi_jb_str(b, o, "algorithm", gb_algorithm_name(c->algorithm));
  gbi_jb_str(b, o, "order", gb_order_name(c->order));
  gbi_jb_u64(b, o, "size", c->size);
}

void gbi_jb_group_key(gbi_jb *b, cJSON *o, const gb_an_group *g) {
  bool lang = g->family == GB_AN_LANGUAGES;
  gbi_jb_str(b, o, "language", gb_language_name(g->la));
  gbi_jb_str(b, o, "against_language", gb_language_name(lang ? g->lb : g->la));
  gbi_jb_str(b, o, "algorithm", gb_algorithm_name(g->algorithm));
  gbi_jb_str(b, o, "order", lang ? NULL : gb_order_name(g->order));
  gbi_jb_str(b, o, "against_order", lang ? NULL : gb_order_name(GB_RANDOM));
}
