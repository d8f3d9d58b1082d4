#include "greenbench/select.h"

#include "greenbench/numparse.h"
#include "greenbench/text.h"

#include <errno.h>
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
static int parse_size_items(char *buf, uint32_t *out, size_t *n, gb_err *err) {
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
    out[count++] = (uint32_t)v;
  }
  *n = count;
  return 0;
}

int gb_select_parse_sizes(const char *list, uint32_t sizes[GB_MAX_SIZES], size_t *n,
                          gb_err *err) {
  uint32_t out[GB_MAX_SIZES];
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

/* Keeps the profile's sizes that the selection names, in profile order. */
static int select_sizes(gb_settings *s, const char *list, gb_err *err) {
  uint32_t want[GB_MAX_SIZES], kept[GB_MAX_SIZES];
  size_t nwant, nkept = 0;
  int rc = gb_select_parse_sizes(list, want, &nwant, err);
  if (rc < 0)
    return rc;
  for (size_t w = 0; w < nwant; w++) {
    size_t i = 0;
    while (i < s->nsizes && s->sizes[i] != want[w])
      i++;
    if (i == s->nsizes)
      return gb_err_set(err, EINVAL, "size %u is not one of the %s profile's sizes", want[w],
                        s->profile);
  }
  for (size_t i = 0; i < s->nsizes; i++)
    for (size_t w = 0; w < nwant; w++)
      if (s->sizes[i] == want[w])
        kept[nkept++] = s->sizes[i];
  memcpy(s->sizes, kept, nkept * sizeof *kept);
  s->nsizes = nkept;
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

int gb_settings_select(gb_settings *s, const char *expr, gb_err *err) {
  if (!expr || !*expr)
    return 0;
  char *copy = strdup(expr), *save = NULL;
  if (!copy)
    return gb_err_set(err, ENOMEM, "out of memory");
  gb_settings t = *s;
  int rc = 0;
  unsigned seen = 0;
  for (char *term = strtok_r(copy, " ;\t", &save); term && rc == 0;
       term = strtok_r(NULL, " ;\t", &save))
    rc = apply_term(&t, term, &seen, err);
  free(copy);
  if (rc == 0 && (!t.languages || !t.algorithms || !t.orders || !t.nsizes))
    rc = gb_err_set(err, EINVAL, "selection '%s' leaves no case of the %s profile", SHOWN(expr),
                    s->profile);
  if (rc == 0)
    *s = t;
  return rc;
}
