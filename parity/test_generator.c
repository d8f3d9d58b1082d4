/* The generator and the inputs, as each worker's own code produces them
 * (--dump-xorshift, --dump-input), against the C library. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdlib.h>

#include "output.h"
#include "workers.h"

static void add_seed(parity_run *r, uint32_t seed) {
  if (seed != GB_DEFAULT_SEED) {
    parity_arg(r, "--seed");
    parity_argf(r, "%" PRIu32, seed);
  }
}

Test(generator, xorshift32_first_10000_outputs_of_four_seeds, .timeout = 60) {
  enum { COUNT = 10000, SEEDS = 4 };
  /* The default, the smallest, the largest and an ordinary seed. */
  static const uint32_t seeds[SEEDS] = {GB_DEFAULT_SEED, 1u, 0xFFFFFFFFu, 123456789u};
  parity_run runs[SEEDS * GB_LANGUAGE_COUNT] = {0};
  for (size_t k = 0; k < SEEDS * GB_LANGUAGE_COUNT; k++) {
    parity_worker(&runs[k], (gb_language)(k % GB_LANGUAGE_COUNT));
    parity_args(&runs[k], "--dump-xorshift", "10000", NULL);
    add_seed(&runs[k], seeds[k / GB_LANGUAGE_COUNT]);
  }
  parity_run_all(runs, SEEDS * GB_LANGUAGE_COUNT, PARITY_PARALLEL);
  for (size_t k = 0; k < SEEDS * GB_LANGUAGE_COUNT; k++) {
    uint32_t *got = parity_expect_numbers(&runs[k], COUNT);
    gb_xorshift32 g;
    cr_assert_eq(gb_xorshift32_init(&g, seeds[k / GB_LANGUAGE_COUNT]), 0);
    for (size_t i = 0; i < COUNT; i++) {
      uint32_t want = gb_xorshift32_next(&g);
      cr_assert_eq(got[i], want, "%s: output %zu is %" PRIu32 ", the C library gives %" PRIu32,
                   parity_cmdline(&runs[k]), i + 1, got[i], want);
    }
    free(got);
    parity_run_free(&runs[k]);
  }
}

/* Each language's --dump-input of order o at every size, with seed. */
static void check_inputs(gb_order o, const size_t *sizes, size_t nsizes, uint32_t seed) {
  size_t n = nsizes * GB_LANGUAGE_COUNT;
  parity_run *runs = calloc(n, sizeof *runs);
  cr_assert(runs);
  for (size_t k = 0; k < n; k++) {
    parity_worker(&runs[k], (gb_language)(k % GB_LANGUAGE_COUNT));
    parity_args(&runs[k], "--dump-input", "--order", gb_order_name(o), "--size", NULL);
    parity_argf(&runs[k], "%zu", sizes[k / GB_LANGUAGE_COUNT]);
    add_seed(&runs[k], seed);
  }
  parity_run_all(runs, n, PARITY_PARALLEL);
  for (size_t k = 0; k < n; k++) {
    size_t size = sizes[k / GB_LANGUAGE_COUNT];
    int *want = malloc(size * sizeof *want);
    cr_assert(want && gb_input_fill(want, size, o, seed) == 0);
    uint32_t *got = parity_expect_numbers(&runs[k], size);
    for (size_t i = 0; i < size; i++)
      cr_assert_eq(got[i], (uint32_t)want[i], "%s: element %zu is %" PRIu32 ", C gives %d",
                   parity_cmdline(&runs[k]), i, got[i], want[i]);
    free(got);
    free(want);
    parity_run_free(&runs[k]);
  }
  free(runs);
}

/* 19 and 20 straddle the first swap of nearly (n/20); 4097 is past a power of
 * two; 100,000 is the largest. */
static const size_t eight_sizes[] = {1, 2, 19, 20, 250, 1000, 4097, 100000};
#define EIGHT (sizeof eight_sizes / sizeof eight_sizes[0])

Test(inputs, random_at_eight_sizes, .timeout = 60) {
  check_inputs(GB_RANDOM, eight_sizes, EIGHT, GB_DEFAULT_SEED);
}

Test(inputs, sorted_at_eight_sizes, .timeout = 60) {
  check_inputs(GB_SORTED, eight_sizes, EIGHT, GB_DEFAULT_SEED);
}

Test(inputs, reversed_at_eight_sizes, .timeout = 60) {
  check_inputs(GB_REVERSED, eight_sizes, EIGHT, GB_DEFAULT_SEED);
}

Test(inputs, nearly_at_eight_sizes, .timeout = 60) {
  check_inputs(GB_NEARLY, eight_sizes, EIGHT, GB_DEFAULT_SEED);
}

Test(inputs, random_and_nearly_with_other_seeds, .timeout = 60) {
  static const size_t sizes[] = {20, 1000};
  check_inputs(GB_RANDOM, sizes, 2, 1u);
  check_inputs(GB_RANDOM, sizes, 2, 0xFFFFFFFFu);
  check_inputs(GB_NEARLY, sizes, 2, 1u);
  check_inputs(GB_NEARLY, sizes, 2, 0xFFFFFFFFu);
}
