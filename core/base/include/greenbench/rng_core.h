/* xoshiro256** and Lemire's bounded draw as inline functions over a bare
 * state, so the bootstrap's inner loop can keep the state in registers.
 * rng.c's gb_rng_next and gb_rng_below are built from these, so every
 * caller sees one stream (rng.h has the contracts and references). */
#ifndef GREENBENCH_RNG_CORE_H
#define GREENBENCH_RNG_CORE_H

#include <stdint.h>

static inline uint64_t rng_core_rotl(uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

/* The next output of xoshiro256** from state s[4], advancing it. */
static inline uint64_t rng_core_next(uint64_t s[4]) {
  uint64_t result = rng_core_rotl(s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rng_core_rotl(s[3], 45);
  return result;
}

/* Lemire's rejection threshold for bound >= 1: 2^64 mod bound. */
static inline uint64_t rng_core_threshold(uint64_t bound) {
  return (0 - bound) % bound;
}

/* gb_rng_below(s, bound) with its threshold computed once by the caller
 * (threshold == rng_core_threshold(bound)): the same draws and outputs,
 * since threshold < bound means a low word at or above bound is never
 * rejected either way. */
static inline uint64_t rng_core_below(uint64_t s[4], uint64_t bound, uint64_t threshold) {
  __extension__ typedef unsigned __int128 u128;
  u128 m = (u128)rng_core_next(s) * bound;
  while ((uint64_t)m < threshold) {
    m = (u128)rng_core_next(s) * bound;
  }
  return (uint64_t)(m >> 64);
}

#endif
