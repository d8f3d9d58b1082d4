#include "greenbench/rng.h"

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

static uint64_t rotl(uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

uint64_t gb_rng_next(gb_rng *r) {
  uint64_t *s = r->s;
  uint64_t result = rotl(s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

uint64_t gb_rng_below(gb_rng *r, uint64_t bound) {
  /* The high word of x * bound is uniform on [0, bound) once the low words
   * below 2^64 mod bound are rejected; the modulo is needed only when the
   * low word is small enough that a rejection is possible at all. */
  __extension__ typedef unsigned __int128 u128;
  u128 m = (u128)gb_rng_next(r) * bound;
  uint64_t low = (uint64_t)m;
  if (low < bound) {
    uint64_t threshold = (0 - bound) % bound;
    while (low < threshold) {
      m = (u128)gb_rng_next(r) * bound;
      low = (uint64_t)m;
    }
  }
  return (uint64_t)(m >> 64);
}
