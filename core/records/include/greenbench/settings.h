/* A campaign's settings: what it measures and how, the one struct the
 * command line and the suite fill, the harness plans and runs from, and
 * meta.json records as "profile" and "settings" (ADR 0021). Its bounds are
 * named here once and held by gb_settings_check. */
#ifndef GREENBENCH_SETTINGS_H
#define GREENBENCH_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "greenbench/error.h"
#include "greenbench/workload.h"

/* The most input sizes a campaign lists: a size index is a bit of
 * gb_settings.omit (16 bits). */
#define GB_MAX_SIZES 16
/* The bounds of the settings, which `greenbench run`'s options give,
 * gb_settings_check holds, and the records reader applies to meta.json: a
 * campaign has 1 .. GB_MAX_RUNS runs per configuration, 1 .. GB_MAX_WARMUPS
 * warm-ups (each warm-up's loop time is recorded), a target of 1 ..
 * GB_MAX_TARGET_MS ms, an input seed from 1 and a timeout of 1 ..
 * GB_MAX_TIMEOUT_S s per worker process. */
#define GB_MAX_RUNS 10000
#define GB_MAX_WARMUPS 64
#define GB_MAX_TARGET_MS 60000
#define GB_MAX_TIMEOUT_S 86400
/* A worker process that runs longer than this is killed and recorded. */
#define GB_DEFAULT_TIMEOUT_S 60

/* The whole-number settings, each once: X(key, option, lo, hi, profiled).
 * key is its member of gb_settings and its name in meta.json's settings and
 * gb_settings_check's messages; option is `greenbench run`'s; lo..hi its
 * bounds; profiled says whether a value other than the profile's makes the
 * campaign "custom". gb_settings_check and `greenbench run` both walk this
 * list, so a new whole-number setting is a member of gb_settings and one line
 * here (then its meta.json field, its --help line, the man page and the
 * completion). The order seed is apart: any 64-bit value, random when not
 * given. */
#define GB_SETTINGS_NUMBERS(X)                                                                 \
  X(runs, "--runs", 1, GB_MAX_RUNS, true)                                                      \
  X(warmups, "--warmups", 1, GB_MAX_WARMUPS, true)                                             \
  X(target_ms, "--target-ms", 1, GB_MAX_TARGET_MS, true)                                       \
  X(seed, "--seed", 1, UINT32_MAX, true)                                                       \
  X(timeout_s, "--timeout-s", 1, GB_MAX_TIMEOUT_S, false)

typedef enum {
  GB_PROFILE_SMOKE,
  GB_PROFILE_STUDY,
  GB_PROFILE_CUSTOM,
  GB_PROFILE_COUNT
} gb_profile;
typedef enum {
  GB_ENERGY_AUTO,
  GB_ENERGY_ON,
  GB_ENERGY_OFF,
  GB_ENERGY_MODE_COUNT
} gb_energy_mode;

/* "smoke", "auto", ...; NULL out of range. Parse: 0 or -EINVAL. */
const char *gb_profile_name(gb_profile v);
const char *gb_energy_mode_name(gb_energy_mode v);
GB_MUST_USE int gb_profile_parse(const char *name, gb_profile *out);
GB_MUST_USE int gb_energy_mode_parse(const char *name, gb_energy_mode *out);

/* What a campaign measures. The lists of languages, algorithms and orders
 * are bitmasks over their enums (bit 1 << value; meta.json lists them in
 * enum order), sizes are kept in the order given. The configurations are
 * the product of the four lists less those omitted: bit z of omit[l][a][o]
 * leaves out language l, algorithm a, order o at sizes[z]. A selection that
 * is not a product ("C quicksort, and Python at 2000") is the smallest
 * product that holds it with the rest omitted. Numbers are 64-bit, as
 * meta.json holds them, so that a recorded value outside its bounds is read
 * whole and refused by gb_settings_check. */
typedef struct {
  gb_profile profile; /* smoke, study, or custom when any number differs */
  unsigned languages, algorithms, orders;
  uint64_t sizes[GB_MAX_SIZES];
  size_t nsizes;
  uint64_t runs;      /* measured runs per configuration and startup group */
  uint64_t warmups;   /* warm-up runs per configuration */
  uint64_t target_ms; /* shortest sort loop wanted per process */
  gb_energy_mode energy;
  uint64_t seed;       /* input seed, 1 .. 2^32-1 */
  uint64_t order_seed; /* shuffle seed */
  uint64_t timeout_s;  /* per worker process */
  uint16_t omit[GB_LANGUAGE_COUNT][GB_ALGORITHM_COUNT][GB_ORDER_COUNT];
} gb_settings;

_Static_assert(GB_MAX_SIZES <= 16, "a size index is a bit of gb_settings.omit");

/* The next value at or after *v in a list's bitmask: true with *v set to
 * it, false when there is none. Walks a list in enum order:
 *   for (unsigned l = 0; gb_bits_next(s->languages, &l); l++) */
static inline bool gb_bits_next(unsigned mask, unsigned *v) {
  while (*v < 32 && !(mask >> *v & 1u))
    ++*v;
  return *v < 32;
}

/* How many values a list's bitmask holds. */
static inline size_t gb_bits_count(unsigned mask) {
  return (size_t)__builtin_popcount(mask);
}

/* Whether s can be run: each list names at least one value and none that is
 * not in its set, 1 .. GB_MAX_SIZES sizes of 1 .. GB_MAX_SIZE, each once,
 * every number inside its bounds above, the profile and the energy mode
 * among theirs. gb_campaign_run checks its settings so, whoever built them,
 * and the records reader checks meta.json's. 0 or -EINVAL naming the setting
 * ("settings.runs: 0 is outside 1..10000", "settings.languages: empty"). */
GB_MUST_USE int gb_settings_check(const gb_settings *s, gb_err *err);

/* Whether s measures language l, algorithm a, order o at sizes[z]: each is
 * in its list and the configuration is not omitted. */
bool gb_settings_plans(const gb_settings *s, gb_language l, gb_algorithm a, gb_order o,
                       size_t z);

/* The index of size in s->sizes, or s->nsizes when it is not listed. */
size_t gb_settings_size_index(const gb_settings *s, uint64_t size);

/* Fills *out with a profile's settings ("smoke" or "study"); order_seed is
 * left 0 for the caller. Returns 0 or -EINVAL for another name. */
GB_MUST_USE int gb_settings_profile(const char *name, gb_settings *out, gb_err *err);

#endif
