/* Known answers for the generators. The constants were computed
 * independently with a short Python script on unbounded ints, masking to 64
 * bits, written from the algorithms' published reference code
 * (prng.di.unimi.it: splitmix64.c, xoshiro256starstar.c) and from Lemire
 * (2019), Algorithm 5. The splitmix64 values for seed 1234567 and the
 * xoshiro256** values for state {1, 2, 3, 4} are also the vectors other
 * implementations test against (e.g. Rust's rand_xoshiro). */
#include "greenbench/rng.h"

#include "greenbench/rng_core.h"

#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdint.h>
#include <string.h>

Test(rng, splitmix64_reference) {
  uint64_t state = 1234567;
  const uint64_t want[] = {6457827717110365317u, 3203168211198807973u, 9817491932198370423u,
                           4593380528125082431u, 16408922859458223821u};
  for (int i = 0; i < 5; i++) {
    cr_assert_eq(gb_splitmix64_next(&state), want[i], "output %d", i);
  }
}

Test(rng, xoshiro256starstar_reference) {
  gb_rng r = {{1, 2, 3, 4}};
  const uint64_t want[] = {
      11520u, 0u, 1509978240u, 1215971899390074240u, 1216172134540287360u, 607988272756665600u};
  for (int i = 0; i < 6; i++) {
    cr_assert_eq(gb_rng_next(&r), want[i], "output %d", i);
  }
}

Test(rng, seed_fills_state_from_splitmix64) {
  gb_rng r;
  gb_rng_seed(&r, 0);
  cr_assert_eq(r.s[0], 0xe220a8397b1dcdafu);
  cr_assert_eq(r.s[1], 0x6e789e6aa1b965f4u);
  cr_assert_eq(r.s[2], 0x06c45d188009454fu);
  cr_assert_eq(r.s[3], 0xf88bb8a8724c81ecu);
  cr_assert_eq(gb_rng_next(&r), 0x99ec5f36cb75f2b4u);
  cr_assert_eq(gb_rng_next(&r), 0xbf6e1f784956452au);
  cr_assert_eq(gb_rng_next(&r), 0x1a5f849d4933e6e0u);
}

Test(rng, stream_reference_and_distinct_streams) {
  gb_rng r, zero, plain;
  gb_rng_seed_stream(&r, 42, 7);
  cr_assert_eq(gb_rng_next(&r), 0x24bfb39aeb008c15u);
  cr_assert_eq(gb_rng_next(&r), 0xd858489e7fc02496u);
  cr_assert_eq(gb_rng_next(&r), 0x3deebe24036964f3u);
  gb_rng_seed_stream(&zero, 42, 0);
  gb_rng_seed(&plain, 42);
  cr_assert_neq(gb_rng_next(&zero), gb_rng_next(&plain));
  uint64_t first[64];
  for (uint64_t s = 0; s < 64; s++) {
    gb_rng_seed_stream(&r, 42, s);
    first[s] = gb_rng_next(&r);
    for (uint64_t t = 0; t < s; t++) {
      cr_assert_neq(first[s], first[t], "streams %lu and %lu", (unsigned long)s,
                    (unsigned long)t);
    }
  }
}

Test(rng, below_reference) {
  gb_rng r;
  gb_rng_seed(&r, 42);
  const uint64_t want[] = {2, 11, 20, 27, 29, 23, 21, 25, 22, 17, 20, 8};
  for (int i = 0; i < 12; i++) {
    cr_assert_eq(gb_rng_below(&r, 30), want[i], "draw %d", i);
  }
}

/* With bound 2^63 + 1 almost half the outputs are rejected: the Python
 * reference used 18 outputs for these 8 draws, so this exercises the
 * rejection loop and its threshold. */
Test(rng, below_rejection_reference) {
  gb_rng r, count;
  gb_rng_seed(&r, 42);
  const uint64_t bound = (UINT64_C(1) << 63) + 1;
  const uint64_t want[] = {9147776489032658738u, 7099593415032875292u, 6633989454467100377u,
                           7022439175346172479u, 2681029139591840946u, 7388145106668446555u,
                           8095973720557042685u, 7852687488934748778u};
  for (int i = 0; i < 8; i++) {
    cr_assert_eq(gb_rng_below(&r, bound), want[i], "draw %d", i);
  }
  gb_rng_seed(&count, 42);
  for (int i = 0; i < 18; i++) {
    (void)gb_rng_next(&count);
  }
  cr_assert_eq(gb_rng_next(&r), gb_rng_next(&count), "consumed exactly 18 outputs");
}

Test(rng, below_in_range_and_uniform) {
  gb_rng r;
  gb_rng_seed(&r, 2463534242u);
  for (int i = 0; i < 1000; i++) {
    cr_assert_eq(gb_rng_below(&r, 1), 0);
  }
  enum { BINS = 30, DRAWS = 300000 };
  long hist[BINS] = {0};
  for (int i = 0; i < DRAWS; i++) {
    uint64_t v = gb_rng_below(&r, BINS);
    cr_assert_lt(v, BINS);
    hist[v]++;
  }
  /* 10,000 expected per bin, sd about 98: 6 sd is generous for a seeded
   * stream, yet far tighter than a biased or broken draw would give. */
  for (int b = 0; b < BINS; b++) {
    cr_assert(hist[b] > 10000 - 600 && hist[b] < 10000 + 600, "bin %d: %ld", b, hist[b]);
  }
}

/* The bootstrap's inline draw (rng_core.h), with its threshold computed
 * once, gives gb_rng_below's values and consumes the same outputs, for
 * small bounds and for one that rejects almost half. */
Test(rng, core_below_matches_below) {
  const uint64_t bounds[] = {1, 2, 3, 30, 60, 1000, (UINT64_C(1) << 63) + 1};
  for (size_t k = 0; k < sizeof bounds / sizeof *bounds; k++) {
    gb_rng r;
    gb_rng_seed_stream(&r, 2463534242u, k);
    uint64_t s[4] = {r.s[0], r.s[1], r.s[2], r.s[3]};
    uint64_t threshold = rng_core_threshold(bounds[k]);
    for (int i = 0; i < 5000; i++) {
      uint64_t want = gb_rng_below(&r, bounds[k]);
      cr_assert_eq(rng_core_below(s, bounds[k], threshold), want, "bound %" PRIu64 " draw %d",
                   bounds[k], i);
    }
    cr_assert_eq(memcmp(s, r.s, sizeof s), 0, "same state after the draws");
  }
}
