#include "greenbench/select.h"

#include "greenbench/numparse.h"
#include "greenbench/text.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const key_names[] = {"language", "algorithm", "order", "size"};

static int parse_item(gb_select_key key, const char *item, unsigned *bit) {
  int v = -1, rc = -EINVAL;
  if (key == GB_KEY_LANGUAGE) {
    gb_language l;
    rc = gb_language_parse(item, &l);
    v = (int)l;
  } else if (key == GB_KEY_ALGORITHM) {
    gb_algorithm a;
    rc = gb_algorithm_parse(item, &a);
    v = (int)a;
  } else if (key == GB_KEY_ORDER) {
    gb_order o;
    rc = gb_order_parse(item, &o);
    v = (int)o;
  }
  if (rc == 0)
    *bit = 1u << v;
  return rc;
}

/* A user's text quoted in a message: escaped and cut (gb_excerpt). */
#define SHOWN(s) gb_excerpt(&(gb_excerpt_buf){{0}}, (s))

/* A copy of a comma-separated list to split, or NULL (message set) when it
 * is malformed or memory runs out. Any length is accepted. */
static char *list_copy(const char *list, const char *what, gb_err *err) {
  if (!list[0] || list[0] == ',' || list[strlen(list) - 1] == ',' || strstr(list, ",,")) {
    gb_err_set(err, EINVAL, "bad %s list '%s'", what, SHOWN(list));
    return NULL;
  }
  char *copy = strdup(list);
  if (!copy)
    gb_err_set(err, ENOMEM, "out of memory");
  return copy;
}

static const char *expected_items(gb_select_key key) {
  return key == GB_KEY_LANGUAGE    ? "c, python or node"
         : key == GB_KEY_ALGORITHM ? "bubble, insertion or quick"
                                   : "random, sorted, reversed or nearly";
}

/* The items of buf (a list_copy) into *mask. */
static int parse_items(gb_select_key key, char *buf, unsigned *mask, gb_err *err) {
  char *save = NULL;
  unsigned m = 0;
  for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
    unsigned bit = 0;
    if (parse_item(key, item, &bit) < 0)
      return gb_err_set(err, EINVAL, "unknown %s '%s' (expected %s)", key_names[key],
                        SHOWN(item), expected_items(key));
    if (m & bit)
      return gb_err_set(err, EINVAL, "%s '%s' given twice", key_names[key], item);
    m |= bit;
  }
  *mask = m;
  return 0;
}

int gb_select_parse_mask(gb_select_key key, const char *list, unsigned *mask, gb_err *err) {
  char *buf = list_copy(list, key_names[key], err);
  if (!buf)
    return -EINVAL;
  int rc = parse_items(key, buf, mask, err);
  free(buf);
  return rc;
}

/* The sizes in buf (a list_copy) into out[GB_MAX_SIZES]. */
static int parse_size_items(char *buf, uint64_t *out, size_t *n, gb_err *err) {
  char *save = NULL;
  size_t count = 0;
  for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
    uint64_t v;
    if (gb_parse_u64(item, 1, GB_MAX_SIZE, &v) < 0)
      return gb_err_set(err, EINVAL, "size must be an integer from 1 to %u, got '%s'",
                        GB_MAX_SIZE, SHOWN(item));
    for (size_t i = 0; i < count; i++)
      if (out[i] == v)
        return gb_err_set(err, EINVAL, "size %u given twice", (unsigned)v);
    if (count == GB_MAX_SIZES)
      return gb_err_set(err, EINVAL, "more than %d sizes in the list", GB_MAX_SIZES);
    out[count++] = v;
  }
  *n = count;
  return 0;
}

int gb_select_parse_sizes(const char *list, uint64_t sizes[GB_MAX_SIZES], size_t *n,
                          gb_err *err) {
  uint64_t out[GB_MAX_SIZES];
  size_t count = 0;
  char *buf = list_copy(list, "size", err);
  if (!buf)
    return -EINVAL;
  int rc = parse_size_items(buf, out, &count, err);
  free(buf);
  if (rc < 0)
    return rc;
  memcpy(sizes, out, count * sizeof *out);
  *n = count;
  return 0;
}

/* Keeps the profile's sizes that the selection names, in profile order; the
 * omitted bits follow their sizes. */
static int select_sizes(gb_settings *s, const char *list, gb_err *err) {
  uint64_t want[GB_MAX_SIZES], kept[GB_MAX_SIZES];
  size_t nwant, nkept = 0;
  int rc = gb_select_parse_sizes(list, want, &nwant, err);
  if (rc < 0)
    return rc;
  for (size_t w = 0; w < nwant; w++) {
    size_t i = 0;
    while (i < s->nsizes && s->sizes[i] != want[w])
      i++;
    if (i == s->nsizes)
      return gb_err_set(err, EINVAL, "size %" PRIu64 " is not one of the %s profile's sizes",
                        want[w], gb_profile_name(s->profile));
  }
  uint16_t omit[GB_LANGUAGE_COUNT][GB_ALGORITHM_COUNT][GB_ORDER_COUNT] = {{{0}}};
  for (size_t i = 0; i < s->nsizes; i++)
    for (size_t w = 0; w < nwant; w++)
      if (s->sizes[i] == want[w]) {
        for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++)
          for (gb_algorithm a = 0; a < GB_ALGORITHM_COUNT; a++)
            for (gb_order o = 0; o < GB_ORDER_COUNT; o++)
              omit[l][a][o] |= (uint16_t)((s->omit[l][a][o] >> i & 1u) << nkept);
        kept[nkept++] = s->sizes[i];
      }
  memcpy(s->sizes, kept, nkept * sizeof *kept);
  s->nsizes = nkept;
  memcpy(s->omit, omit, sizeof omit);
  return 0;
}

/* Applies one KEY=LIST term; *seen has bit 1 << key set for each key
 * already given, since a second term for the same key can only be a
 * mistake: terms are AND-ed, so language=python with language=c selects
 * nothing and language=c twice says nothing more. */
static int apply_term(gb_settings *s, char *term, unsigned *seen, gb_err *err) {
  char *eq = strchr(term, '=');
  if (!eq)
    return gb_err_set(err, EINVAL, "selection term '%s' is not KEY=LIST", SHOWN(term));
  *eq = '\0';
  const char *list = eq + 1;
  for (int k = 0; k < 4; k++) {
    if (strcmp(term, key_names[k]) != 0)
      continue;
    if (*seen >> k & 1)
      return gb_err_set(err, EINVAL,
                        "%s is given in two terms, but terms are AND-ed (a case must match "
                        "all of them): list the alternatives in one term, %s=A,B",
                        key_names[k], key_names[k]);
    *seen |= 1u << k;
    if (k == GB_KEY_SIZE)
      return select_sizes(s, list, err);
    unsigned mask;
    int rc = gb_select_parse_mask((gb_select_key)k, list, &mask, err);
    if (rc < 0)
      return rc;
    unsigned *field = k == GB_KEY_LANGUAGE    ? &s->languages
                      : k == GB_KEY_ALGORITHM ? &s->algorithms
                                              : &s->orders;
    *field &= mask;
    return 0;
  }
  return gb_err_set(err, EINVAL,
                    "unknown selection key '%s' (expected language, algorithm, order or size)",
                    SHOWN(term));
}

/* One alternative, the terms between two '|', applied to *t. */
static int apply_product(gb_settings *t, char *alt, gb_err *err) {
  char *save = NULL;
  unsigned seen = 0;
  int rc = 0;
  for (char *term = strtok_r(alt, " ;\t", &save); term && rc == 0;
       term = strtok_r(NULL, " ;\t", &save))
    rc = apply_term(t, term, &seen, err);
  return rc;
}

/* The cases a selection chose, by the base settings' size index. */
typedef bool chosen_cells[GB_LANGUAGE_COUNT][GB_ALGORITHM_COUNT][GB_ORDER_COUNT][GB_MAX_SIZES];

/* Marks in *chosen the cases t plans, t being base narrowed by one product. */
static size_t mark_chosen(const gb_settings *base, const gb_settings *t, chosen_cells *chosen) {
  size_t n = 0;
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++)
    for (gb_algorithm a = 0; a < GB_ALGORITHM_COUNT; a++)
      for (gb_order o = 0; o < GB_ORDER_COUNT; o++)
        for (size_t z = 0; z < t->nsizes; z++) {
          if (!gb_settings_plans(t, l, a, o, z))
            continue;
          size_t b = 0;
          while (base->sizes[b] != t->sizes[z])
            b++;
          (*chosen)[l][a][o][b] = true;
          n++;
        }
  return n;
}

/* base narrowed to the chosen cases: the smallest product that holds them,
 * less the rest. */
static gb_settings union_of(const gb_settings *base, const chosen_cells *chosen) {
  gb_settings u = *base;
  u.languages = u.algorithms = u.orders = 0;
  u.nsizes = 0;
  memset(u.omit, 0, sizeof u.omit);
  bool size_in[GB_MAX_SIZES] = {false};
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++)
    for (gb_algorithm a = 0; a < GB_ALGORITHM_COUNT; a++)
      for (gb_order o = 0; o < GB_ORDER_COUNT; o++)
        for (size_t z = 0; z < base->nsizes; z++)
          if ((*chosen)[l][a][o][z]) {
            u.languages |= 1u << l;
            u.algorithms |= 1u << a;
            u.orders |= 1u << o;
            size_in[z] = true;
          }
  size_t index[GB_MAX_SIZES];
  for (size_t z = 0; z < base->nsizes; z++)
    if (size_in[z]) {
      index[z] = u.nsizes;
      u.sizes[u.nsizes++] = base->sizes[z];
    }
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++)
    for (gb_algorithm a = 0; a < GB_ALGORITHM_COUNT; a++)
      for (gb_order o = 0; o < GB_ORDER_COUNT; o++)
        for (size_t z = 0; z < base->nsizes; z++)
          if ((u.languages >> l & 1) && (u.algorithms >> a & 1) && (u.orders >> o & 1) &&
              size_in[z] && !(*chosen)[l][a][o][z])
            u.omit[l][a][o] |= (uint16_t)(1u << index[z]);
  return u;
}

int gb_settings_select(gb_settings *s, const char *expr, gb_err *err) {
  if (!expr || !*expr)
    return 0;
  char *copy = strdup(expr);
  if (!copy)
    return gb_err_set(err, ENOMEM, "out of memory");
  static chosen_cells zero;
  chosen_cells chosen;
  memcpy(chosen, zero, sizeof chosen);
  int rc = 0;
  for (char *alt = copy, *next; alt && rc == 0; alt = next) {
    next = strchr(alt, '|');
    if (next)
      *next++ = '\0';
    alt += strspn(alt, " ;\t");
    for (size_t n = strlen(alt); n > 0 && strchr(" ;\t", alt[n - 1]); n--)
      alt[n - 1] = '\0';
    if (!*alt) {
      rc = gb_err_set(err, EINVAL, "selection '%s' has an empty alternative around '|'",
                      SHOWN(expr));
      break;
    }
    char shown[sizeof(gb_excerpt_buf)];
    gb_str_copy(shown, sizeof shown, SHOWN(alt));
    gb_settings t = *s;
    if ((rc = apply_product(&t, alt, err)) == 0 && mark_chosen(s, &t, &chosen) == 0)
      rc = gb_err_set(err, EINVAL, "selection '%s' leaves no case of the %s profile", shown,
                      gb_profile_name(s->profile));
  }
  free(copy);
  if (rc == 0)
    *s = union_of(s, &chosen);
  return rc;
}
