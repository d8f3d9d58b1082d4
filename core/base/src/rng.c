#include "greenbench/rng.h"

#include "greenbench/rng_core.h"

uint64_t gb_splitmix64_next(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

void gb_rng_seed(gb_rng *r, uint64_t seed) {
  for (int i = 0; i < 4; i++) {
    r->s[i] = gb_splitmix64_next(&seed);
  }
}

void gb_rng_seed_stream(gb_rng *r, uint64_t seed, uint64_t stream) {
  /* Mixing the index (rather than adding it to the seed) keeps streams from
   * being shifted copies of one splitmix64 sequence. */
  gb_rng_seed(r, seed ^ gb_splitmix64_next(&stream));
}

uint64_t gb_rng_next(gb_rng *r) {
  return rng_core_next(r->s);
}

uint64_t gb_rng_below(gb_rng *r, uint64_t bound) {
  /* The high word of x * bound is uniform on [0, bound) once the low words
   * below 2^64 mod bound are rejected; the modulo is needed only when the
   * low word is small enough that a rejection is possible at all. */
  __extension__ typedef unsigned __int128 u128;
  u128 m = (u128)rng_core_next(r->s) * bound;
  uint64_t low = (uint64_t)m;
  if (low < bound) {
    uint64_t threshold = rng_core_threshold(bound);
    while (low < threshold) {
      m = (u128)rng_core_next(r->s) * bound;
      low = (uint64_t)m;
    }
  }
  return (uint64_t)(m >> 64);
}
