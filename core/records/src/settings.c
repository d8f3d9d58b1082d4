/* A campaign's settings: the names of profiles and energy modes, the
 * bounds, what the lists plan, and the built-in profiles. */
#include "greenbench/settings.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "greenbench/text.h"
#include "records_internal.h"

const char *const gbi_profile_names[] = {"smoke", "study", "custom"};
const char *const gbi_energy_mode_names[] = {"auto", "on", "off"};
GB_REC_NAME_FUNCS(gb_profile, gbi_profile_names)
GB_REC_NAME_FUNCS(gb_energy_mode, gbi_energy_mode_names)

/* value outside lo..hi: the message naming key. */
static int out_of(gb_err *err, const char *key, uint64_t value, uint64_t lo, uint64_t hi) {
  return gb_err_set(err, EINVAL, "settings.%s: %" PRIu64 " is outside %" PRIu64 "..%" PRIu64,
                    key, value, lo, hi);
}

static int check_lists(const gb_settings *s, gb_err *err) {
  const struct {
    const char *key;
    unsigned mask, count; /* count: the values of its set */
  } lists[] = {
      {"languages", s->languages, GB_LANGUAGE_COUNT},
      {"algorithms", s->algorithms, GB_ALGORITHM_COUNT},
      {"orders", s->orders, GB_ORDER_COUNT},
  };
  for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
    if (lists[i].mask == 0)
      return gb_err_set(err, EINVAL, "settings.%s: empty", lists[i].key);
    if (lists[i].mask >> lists[i].count)
      return out_of(err, lists[i].key, lists[i].mask, 1, (1u << lists[i].count) - 1);
  }
  if (s->nsizes == 0)
    return gb_err_set(err, EINVAL, "settings.sizes: empty");
  if (s->nsizes > GB_MAX_SIZES)
    return gb_err_set(err, EINVAL, "settings.sizes: too many entries");
  for (size_t z = 0; z < s->nsizes; z++) {
    if (s->sizes[z] < 1 || s->sizes[z] > GB_MAX_SIZE)
      return out_of(err, "sizes", s->sizes[z], 1, GB_MAX_SIZE);
    if (gb_settings_size_index(s, s->sizes[z]) < z)
      return gb_err_set(err, EINVAL, "settings.sizes: lists %" PRIu64 " twice", s->sizes[z]);
  }
  return 0;
}

int gbi_settings_check_numbers(const gb_settings *s, gb_err *err) {
  const struct {
    const char *key;
    uint64_t value, lo, hi;
  } numbers[] = {
#define ROW(key, option, lo, hi, profiled) {#key, s->key, lo, hi},
      GB_SETTINGS_NUMBERS(ROW)
#undef ROW
          {"energy", (unsigned)s->energy, 0, GB_ENERGY_MODE_COUNT - 1},
      {"profile", (unsigned)s->profile, 0, GB_PROFILE_COUNT - 1},
  };
  for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++)
    if (numbers[i].value < numbers[i].lo || numbers[i].value > numbers[i].hi)
      return out_of(err, numbers[i].key, numbers[i].value, numbers[i].lo, numbers[i].hi);
  return 0;
}

int gb_settings_check(const gb_settings *s, gb_err *err) {
  int rc = check_lists(s, err);
  return rc < 0 ? rc : gbi_settings_check_numbers(s, err);
}

size_t gb_settings_size_index(const gb_settings *s, uint64_t size) {
  size_t z = 0;
  while (z < s->nsizes && s->sizes[z] != size)
    z++;
  return z;
}

bool gb_settings_plans(const gb_settings *s, gb_language l, gb_algorithm a, gb_order o,
                       size_t z) {
  return (unsigned)l < GB_LANGUAGE_COUNT && (unsigned)a < GB_ALGORITHM_COUNT &&
         (unsigned)o < GB_ORDER_COUNT && z < s->nsizes && z < GB_MAX_SIZES &&
         (s->languages >> l & 1) && (s->algorithms >> a & 1) && (s->orders >> o & 1) &&
         !(s->omit[l][a][o] >> z & 1);
}

/* What each profile sets; both measure every language, algorithm and order
 * with the default seed and timeout. */
static const gb_settings profiles[] = {
    /* The study's own numbers (study.md, Method). */
    {.profile = GB_PROFILE_STUDY,
     .sizes = {250, 500, 1000, 2000},
     .nsizes = 4,
     .runs = 30,
     .warmups = 3,
     .target_ms = 200,
     .energy = GB_ENERGY_ON},
    /* Small enough to finish in well under three minutes on a 2-CPU machine. */
    {.profile = GB_PROFILE_SMOKE,
     .sizes = {100, 200},
     .nsizes = 2,
     .runs = 5,
     .warmups = 2,
     .target_ms = 20,
     .energy = GB_ENERGY_AUTO},
};

int gb_settings_profile(const char *name, gb_settings *out, gb_err *err) {
  for (size_t i = 0; i < sizeof profiles / sizeof profiles[0]; i++) {
    if (strcmp(name, gb_profile_name(profiles[i].profile)) == 0) {
      gb_settings s = profiles[i];
      s.languages = (1u << GB_LANGUAGE_COUNT) - 1;
      s.algorithms = (1u << GB_ALGORITHM_COUNT) - 1;
      s.orders = (1u << GB_ORDER_COUNT) - 1;
      s.seed = GB_DEFAULT_SEED;
      s.timeout_s = GB_DEFAULT_TIMEOUT_S;
      *out = s;
      return 0;
    }
  }
  return gb_err_set(err, EINVAL, "unknown profile '%s' (expected smoke or study)",
                    gb_excerpt(&(gb_excerpt_buf){{0}}, name));
}
