/* What a campaign plans, asked of its meta.json's settings: the lists it
 * holds, the configurations and startup groups it measures, and how many.
 * The statistics, the reader's rules and meta.json's checks ask it. */
#include "greenbench/meta.h"

bool gb_meta_has_language(const gb_meta *m, gb_language l) {
  return (unsigned)l < 32 && (m->settings.languages >> l & 1u);
}
bool gb_meta_has_algorithm(const gb_meta *m, gb_algorithm a) {
  return (unsigned)a < 32 && (m->settings.algorithms >> a & 1u);
}
bool gb_meta_has_order(const gb_meta *m, gb_order o) {
  return (unsigned)o < 32 && (m->settings.orders >> o & 1u);
}

bool gb_meta_plans(const gb_meta *m, gb_language l, gb_algorithm a, gb_order o, uint64_t size) {
  return gb_settings_plans(&m->settings, l, a, o, gb_settings_size_index(&m->settings, size));
}

bool gb_meta_plans_startup(const gb_meta *m, gb_language l, gb_order o, uint64_t size) {
  for (gb_algorithm a = 0; a < GB_ALGORITHM_COUNT; a++)
    if (gb_meta_plans(m, l, a, o, size))
      return true;
  return false;
}

size_t gb_meta_planned_configs(const gb_meta *m) {
  size_t n = 0;
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++)
    for (gb_algorithm a = 0; a < GB_ALGORITHM_COUNT; a++)
      for (gb_order o = 0; o < GB_ORDER_COUNT; o++)
        for (size_t z = 0; z < m->settings.nsizes; z++)
          n += gb_settings_plans(&m->settings, l, a, o, z);
  return n;
}

size_t gb_meta_planned_startups(const gb_meta *m) {
  size_t n = 0;
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++)
    for (gb_order o = 0; o < GB_ORDER_COUNT; o++)
      for (size_t z = 0; z < m->settings.nsizes; z++)
        n += gb_meta_plans_startup(m, l, o, m->settings.sizes[z]);
  return n;
}
