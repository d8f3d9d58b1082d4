#include <errno.h>
#include <string.h>

#include "greenbench/workload.h"

const char *const gb_language_names[GB_LANGUAGE_COUNT] = {"c", "python", "node"};
const char *const gb_language_titles[GB_LANGUAGE_COUNT] = {"C", "Python", "Node.js"};
const char *const gb_algorithm_names[GB_ALGORITHM_COUNT] = {"bubble", "insertion", "quick"};
const char *const gb_order_names[GB_ORDER_COUNT] = {"random", "sorted", "reversed", "nearly"};

/* The index of name in names[0..n-1], or -EINVAL. */
static int find(const char *const *names, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (strcmp(name, names[i]) == 0)
      return i;
  return -EINVAL;
}

const char *gb_language_name(gb_language l) {
  return (unsigned)l < GB_LANGUAGE_COUNT ? gb_language_names[l] : NULL;
}

const char *gb_language_title(gb_language l) {
  return (unsigned)l < GB_LANGUAGE_COUNT ? gb_language_titles[l] : "?";
}

const char *gb_algorithm_name(gb_algorithm a) {
  return (unsigned)a < GB_ALGORITHM_COUNT ? gb_algorithm_names[a] : NULL;
}

const char *gb_order_name(gb_order o) {
  return (unsigned)o < GB_ORDER_COUNT ? gb_order_names[o] : NULL;
}

int gb_language_parse(const char *name, gb_language *out) {
  int i = find(gb_language_names, GB_LANGUAGE_COUNT, name);
  if (i >= 0)
    *out = (gb_language)i;
  return i < 0 ? i : 0;
}

int gb_algorithm_parse(const char *name, gb_algorithm *out) {
  int i = find(gb_algorithm_names, GB_ALGORITHM_COUNT, name);
  if (i >= 0)
    *out = (gb_algorithm)i;
  return i < 0 ? i : 0;
}

int gb_order_parse(const char *name, gb_order *out) {
  int i = find(gb_order_names, GB_ORDER_COUNT, name);
  if (i >= 0)
    *out = (gb_order)i;
  return i < 0 ? i : 0;
}
