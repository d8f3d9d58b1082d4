/* Counts and input hashes of every algorithm on every order, as each
 * worker's own sorts produce them, against gb_expected_compute and against
 * each other (the done-when: sizes 250, 500, 1000 and 2000). */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdlib.h>

#include "output.h"
#include "workers.h"

/* Runs every configuration in all three languages and checks each line
 * against the C library and against the C worker's line. */
static void check_configs(const parity_config *cfgs, size_t ncfg) {
  size_t n = ncfg * GB_LANGUAGE_COUNT;
  parity_run *runs = calloc(n, sizeof *runs);
  cr_assert(runs);
  for (size_t k = 0; k < n; k++) {
    parity_worker(&runs[k], (gb_language)(k % GB_LANGUAGE_COUNT));
    parity_config_args(&runs[k], &cfgs[k / GB_LANGUAGE_COUNT], false);
  }
  parity_run_all(runs, n, PARITY_PARALLEL);
  for (size_t i = 0; i < ncfg; i++) {
    const parity_config *c = &cfgs[i];
    gb_expected e;
    cr_assert_eq(gb_expected_compute(c->alg, c->order, c->size, c->seed, &e), 0);
    parity_run *r = &runs[i * GB_LANGUAGE_COUNT];
    cJSON *lines[GB_LANGUAGE_COUNT];
    for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++) {
      lines[l] = parity_expect_line(&r[l], false);
      parity_expect_result(&r[l], lines[l], l, c, &e);
    }
    for (int l = 1; l < GB_LANGUAGE_COUNT; l++)
      parity_expect_same(&r[0], lines[0], &r[l], lines[l]);
    for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++) {
      cJSON_Delete(lines[l]);
      parity_run_free(&r[l]);
    }
  }
  free(runs);
}

/* Every order at the given sizes. A few sorts per process at the smaller
 * sizes, as counts are per sort and every sort must count the same. */
static void check_algorithm(gb_algorithm alg, const size_t *sizes, size_t nsizes) {
  parity_config cfgs[GB_ORDER_COUNT * 8];
  size_t n = 0;
  cr_assert_leq(nsizes, 8);
  for (size_t s = 0; s < nsizes; s++)
    for (gb_order o = 0; o < GB_ORDER_COUNT; o++)
      cfgs[n++] = (parity_config){.alg = alg,
                                  .order = o,
                                  .size = sizes[s],
                                  .seed = GB_DEFAULT_SEED,
                                  .sorts = sizes[s] <= 500 ? 3 : 1};
  check_configs(cfgs, n);
}

static const size_t study_sizes[] = {250, 500, 1000, 2000};
static const size_t edge_sizes[] = {1, 2, 3};

Test(counts, bubble_every_order_at_250_to_2000, .timeout = 120) {
  check_algorithm(GB_BUBBLE, study_sizes, 4);
}

Test(counts, insertion_every_order_at_250_to_2000, .timeout = 120) {
  check_algorithm(GB_INSERTION, study_sizes, 4);
}

Test(counts, quick_every_order_at_250_to_2000, .timeout = 120) {
  check_algorithm(GB_QUICK, study_sizes, 4);
}

Test(counts, every_algorithm_and_order_at_sizes_1_2_3, .timeout = 60) {
  for (gb_algorithm a = 0; a < GB_ALGORITHM_COUNT; a++)
    check_algorithm(a, edge_sizes, 3);
}

Test(counts, other_seeds_give_the_same_counts_everywhere, .timeout = 60) {
  parity_config cfgs[] = {
      {GB_QUICK, GB_RANDOM, 1000, 1u, 1},
      {GB_INSERTION, GB_NEARLY, 1000, 0xFFFFFFFFu, 1},
      {GB_BUBBLE, GB_RANDOM, 250, 123456789u, 2},
  };
  check_configs(cfgs, sizeof cfgs / sizeof cfgs[0]);
}

Test(counts, quick_on_4000_random_gives_the_published_counts, .timeout = 60) {
  parity_run runs[GB_LANGUAGE_COUNT] = {0};
  parity_config c = {GB_QUICK, GB_RANDOM, 4000, GB_DEFAULT_SEED, 1};
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++) {
    parity_worker(&runs[l], l);
    parity_config_args(&runs[l], &c, false);
  }
  parity_run_all(runs, GB_LANGUAGE_COUNT, PARITY_PARALLEL);
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++) {
    cJSON *j = parity_expect_line(&runs[l], false);
    /* Algorithm-Energy-C's published numbers, written out, not computed. */
    uint64_t cmp = parity_json_u64(j, "comparisons"), wr = parity_json_u64(j, "writes");
    cr_expect(cmp == 55119 && wr == 56984,
              "%s: %" PRIu64 " comparisons and %" PRIu64 " writes, published: 55119 and 56984",
              parity_cmdline(&runs[l]), cmp, wr);
    cJSON_Delete(j);
    parity_run_free(&runs[l]);
  }
}
