/* The bootstrap's random numbers: xoshiro256** 1.0 (Blackman & Vigna,
 * "Scrambled linear pseudorandom number generators", ACM TOMS 47(4), 2021),
 * its state filled from splitmix64 as its authors recommend. Integer
 * arithmetic only, so a seed gives the same stream on every platform and
 * with every compiler. Not for cryptography. */
#ifndef GREENBENCH_RNG_H
#define GREENBENCH_RNG_H

#include <stdint.h>

typedef struct {
  uint64_t s[4];
} gb_rng;

/* One splitmix64 step (Steele, Lea & Flood, OOPSLA 2014): advances *state
 * by the golden-ratio increment and returns the mixed value. */
uint64_t gb_splitmix64_next(uint64_t *state);

/* Fills the xoshiro state with four splitmix64 outputs from seed. Any seed,
 * including 0, is valid: splitmix64 never gives four zeros in a row. */
void gb_rng_seed(gb_rng *r, uint64_t seed);

/* A stream for one (seed, stream) pair, so a configuration's resamples
 * depend on the study seed and its own index, never on the order in which
 * configurations are processed: gb_rng_seed(r, seed ^ m), where m is the
 * first splitmix64 output from state `stream`. Streams 0, 1, ... of one seed
 * start from distinct states (m is a bijection of the index). */
void gb_rng_seed_stream(gb_rng *r, uint64_t seed, uint64_t stream);

/* The next 64-bit output of xoshiro256**. */
uint64_t gb_rng_next(gb_rng *r);

/* A uniform integer in [0, bound), without modulo bias, by Lemire's
 * multiply-and-reject method (ACM TOMACS 29(1), 2019). bound must be >= 1.
 * Consumes one output, or more on the rare rejections. */
uint64_t gb_rng_below(gb_rng *r, uint64_t bound);

#endif
