/* Known answers for the C workload library. Cross-language parity is in
 * parity/; these pin down the C code on its own. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>

#include "greenbench/workload.h"

Test(xorshift, first_outputs_of_default_seed) {
  gb_xorshift32 g;
  cr_assert_eq(gb_xorshift32_init(&g, GB_DEFAULT_SEED), 0);
  /* Marsaglia's xorshift32 with shifts 13, 17, 5 from 2463534242. */
  cr_assert_eq(gb_xorshift32_next(&g), 723471715u);
  cr_assert_eq(gb_xorshift32_next(&g), 2497366906u);
  cr_assert_eq(gb_xorshift32_next(&g), 2064144800u);
}

Test(xorshift, zero_seed_is_refused) {
  gb_xorshift32 g = {.x = 7};
  cr_assert_eq(gb_xorshift32_init(&g, 0), -EINVAL);
  cr_assert_eq(g.x, 7u, "a refused seed must leave the state alone");
}

Test(sorts, quick_on_4000_random_matches_published_counts) {
  gb_expected e;
  cr_assert_eq(gb_expected_compute(GB_QUICK, GB_RANDOM, 4000, GB_DEFAULT_SEED, &e), 0);
  cr_assert_eq(e.counts.comparisons, 55119u);
  cr_assert_eq(e.counts.writes, 56984u);
}

Test(sorts, bubble_compares_the_same_whatever_the_order) {
  for (gb_order o = 0; o < GB_ORDER_COUNT; o++) {
    gb_expected e;
    cr_assert_eq(gb_expected_compute(GB_BUBBLE, o, 100, GB_DEFAULT_SEED, &e), 0);
    cr_assert_eq(e.counts.comparisons, 100u * 99u / 2u);
  }
}

Test(sorts, closed_forms_on_sorted_and_reversed) {
  gb_expected e;
  cr_assert_eq(gb_expected_compute(GB_INSERTION, GB_SORTED, 1000, 1, &e), 0);
  cr_assert_eq(e.counts.comparisons, 999u);
  cr_assert_eq(e.counts.writes, 0u);
  cr_assert_eq(gb_expected_compute(GB_INSERTION, GB_REVERSED, 1000, 1, &e), 0);
  cr_assert_eq(e.counts.comparisons, 1000u * 999u / 2u);
  cr_assert_eq(e.counts.writes, 1000u * 999u / 2u + 999u);
  cr_assert_eq(gb_expected_compute(GB_BUBBLE, GB_REVERSED, 1000, 1, &e), 0);
  cr_assert_eq(e.counts.writes, 1000u * 999u);
  /* Lomuto on sorted input: every element is <= the pivot, all self-swaps. */
  cr_assert_eq(gb_expected_compute(GB_QUICK, GB_SORTED, 1000, 1, &e), 0);
  cr_assert_eq(e.counts.comparisons, 1000u * 999u / 2u);
  cr_assert_eq(e.counts.writes, 0u);
}

Test(inputs, every_order_is_a_permutation) {
  enum { N = 1237 };
  for (gb_order o = 0; o < GB_ORDER_COUNT; o++) {
    int a[N], seen[N] = {0};
    cr_assert_eq(gb_input_fill(a, N, o, 99), 0);
    for (int i = 0; i < N; i++) {
      cr_assert(a[i] >= 0 && a[i] < N);
      cr_assert_eq(seen[a[i]]++, 0, "%s repeats %d", gb_order_name(o), a[i]);
    }
  }
}

Test(inputs, bad_arguments_are_refused) {
  int a[4];
  cr_assert_eq(gb_input_fill(a, 0, GB_RANDOM, 1), -EINVAL);
  cr_assert_eq(gb_input_fill(a, 4, GB_RANDOM, 0), -EINVAL);
  cr_assert_eq(gb_input_fill(a, 4, (gb_order)9, 1), -EINVAL);
}

Test(inputs, nearly_swaps_n_over_20_pairs) {
  enum { N = 2000 };
  int a[N];
  cr_assert_eq(gb_input_fill(a, N, GB_NEARLY, GB_DEFAULT_SEED), 0);
  int moved = 0;
  for (int i = 0; i < N; i++)
    moved += a[i] != i;
  /* 100 swaps move at most 200 positions; self-pairs and overlaps move fewer. */
  cr_assert(moved > 150 && moved <= 200, "moved %d", moved);
}

Test(hash, empty_and_known_values) {
  char hex[17];
  /* XXH64 of no bytes with seed 0. */
  gb_hash_hex(gb_input_hash(NULL, 0), hex);
  cr_assert_str_eq(hex, "ef46db3751d8e999");
  int one[1] = {0};
  gb_hash_hex(gb_input_hash(one, 1), hex);
  cr_assert_eq(strlen(hex), 16u);
}

Test(names, round_trip) {
  for (gb_algorithm a = 0; a < GB_ALGORITHM_COUNT; a++) {
    gb_algorithm back;
    cr_assert_eq(gb_algorithm_parse(gb_algorithm_name(a), &back), 0);
    cr_assert_eq(back, a);
  }
  gb_order o;
  cr_assert_eq(gb_order_parse("Random", &o), -EINVAL);
  cr_assert_null(gb_order_name(GB_ORDER_COUNT));
}
