/* --contract generic (docs/design.md, "The worker contract"): every worker's
 * line is one the harness's own parser of a suite's contract line accepts
 * (greenbench/contractline.h), in the documented key order; it agrees with
 * the other languages on everything but loop_ns and runtime, carries the
 * study line's counts and input hash, and its output_hash is the C
 * library's hash of 0..n-1. --contract study is the default line. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "contract.h"
#include "output.h"
#include "workers.h"

enum { FORMS = 2 }; /* each configuration runs with the study line, then the generic one */

/* The runs of configuration i in language l: the default (study) line and
 * the generic one, --contract generic put first for odd i and last for
 * even i (its place must not matter). */
static void add_runs(parity_run *r, const parity_config *c, size_t i, gb_language l,
                     bool startup) {
  parity_worker(&r[0], l);
  parity_config_args(&r[0], c, startup);
  parity_worker(&r[1], l);
  if (i % 2)
    parity_args(&r[1], "--contract", "generic", NULL);
  parity_config_args(&r[1], c, startup);
  if (i % 2 == 0)
    parity_args(&r[1], "--contract", "generic", NULL);
  r[0].timeout_s = r[1].timeout_s = startup ? 20 : 0;
}

/* Checks the study and the generic line of one language against each other
 * and against what the C library computes (e; counts only when measured). */
static void check_language(parity_run *r, gb_language l, const parity_config *c,
                           const gb_expected *e, bool startup, gb_contract_line *g) {
  cJSON *study = parity_expect_line(&r[0], startup);
  parity_expect_result(&r[0], study, l, c, e);
  parity_expect_contract_line(&r[1], startup ? GB_CONTRACT_STARTUP : GB_CONTRACT_MEASURED, g);
  const char *hash = cJSON_GetObjectItemCaseSensitive(study, "input_hash")->valuestring;
  cr_assert_str_eq(g->input_hash_hex, hash, "%s: input_hash %s, the study line's %s",
                   parity_cmdline(&r[1]), g->input_hash_hex, hash);
  if (!startup) {
    char identity[17];
    parity_identity_hash(c->size, identity);
    cr_assert_str_eq(g->output_hash_hex, identity,
                     "%s: output_hash %s, the C library hashes 0..%zu as %s",
                     parity_cmdline(&r[1]), g->output_hash_hex, c->size - 1, identity);
    uint64_t cmp = parity_json_u64(study, "comparisons"), wr = parity_json_u64(study, "writes");
    cr_assert(g->counters[0].value == cmp && g->counters[1].value == wr,
              "%s: counters %" PRIu64 " and %" PRIu64 ", the study line's %" PRIu64
              " and %" PRIu64,
              parity_cmdline(&r[1]), g->counters[0].value, g->counters[1].value, cmp, wr);
  }
  cJSON_Delete(study);
}

/* Runs every configuration in all three languages in both forms; each
 * language's generic line must be the C worker's but for loop_ns and
 * runtime, and the harness's parity comparison must accept them. */
static void check_generic(const parity_config *cfgs, size_t ncfg, bool startup) {
  size_t n = ncfg * GB_LANGUAGE_COUNT * FORMS;
  parity_run *runs = calloc(n, sizeof *runs);
  cr_assert(runs);
  for (size_t k = 0; k < n; k += FORMS) {
    size_t i = k / (GB_LANGUAGE_COUNT * FORMS);
    add_runs(&runs[k], &cfgs[i], i, (gb_language)(k / FORMS % GB_LANGUAGE_COUNT), startup);
  }
  parity_run_all(runs, n, PARITY_PARALLEL);
  for (size_t i = 0; i < ncfg; i++) {
    const parity_config *c = &cfgs[i];
    gb_expected e = {0}; /* a startup run does not sort: the input hash alone */
    int *input = malloc(c->size * sizeof *input);
    cr_assert(input && gb_input_fill(input, c->size, c->order, c->seed) == 0);
    e.input_hash = gb_input_hash(input, c->size);
    free(input);
    if (!startup)
      cr_assert_eq(gb_expected_compute(c->alg, c->order, c->size, c->seed, &e), 0);
    parity_run *r = &runs[i * GB_LANGUAGE_COUNT * FORMS];
    gb_contract_line g[GB_LANGUAGE_COUNT];
    char first[1024], other[1024];
    for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++)
      check_language(&r[l * FORMS], l, c, &e, startup, &g[l]);
    parity_contract_render(&g[0], false, first, sizeof first);
    for (gb_language l = 1; l < GB_LANGUAGE_COUNT; l++) {
      gb_err err = {{0}};
      parity_contract_render(&g[l], false, other, sizeof other);
      cr_assert_str_eq(other, first, "the workers disagree:\n%s\n%s\nand\n%s\n%s",
                       parity_cmdline(&r[1]), r[1].out, parity_cmdline(&r[l * FORMS + 1]),
                       r[l * FORMS + 1].out);
      if (!startup)
        cr_assert_eq(gb_contractline_compare(&g[0], &g[l], "worker-c", &err), 0, "%s: %s",
                     parity_cmdline(&r[l * FORMS + 1]), err.msg);
    }
    for (size_t k = 0; k < GB_LANGUAGE_COUNT * FORMS; k++)
      parity_run_free(&r[k]);
  }
  free(runs);
}

Test(contract, generic_lines_carry_the_study_lines_counts_and_hashes, .timeout = 120) {
  static const parity_config cfgs[] = {
      {GB_QUICK, GB_RANDOM, 4000, GB_DEFAULT_SEED, 1},
      {GB_BUBBLE, GB_REVERSED, 250, 123456789u, 3},
      {GB_INSERTION, GB_NEARLY, 1000, 1u, 2},
      {GB_BUBBLE, GB_NEARLY, 500, GB_DEFAULT_SEED, 1},
      {GB_QUICK, GB_SORTED, 1, GB_DEFAULT_SEED, 1},
      {GB_INSERTION, GB_RANDOM, 2, 0xFFFFFFFFu, 2},
  };
  check_generic(cfgs, sizeof cfgs / sizeof cfgs[0], false);
}

Test(contract, generic_startup_lines_carry_the_input_hash_and_do_not_sort, .timeout = 60) {
  /* A billion bubble sorts of 100,000 elements would never end: a worker that
   * sorted would hit the 20 s limit. */
  static const parity_config cfgs[] = {
      {GB_BUBBLE, GB_REVERSED, 100000, GB_DEFAULT_SEED, 1000000000},
      {GB_QUICK, GB_RANDOM, 4000, 7u, 1},
  };
  check_generic(cfgs, sizeof cfgs / sizeof cfgs[0], true);
}

Test(contract, the_design_example_gives_the_published_values, .timeout = 60) {
  parity_run runs[GB_LANGUAGE_COUNT] = {0};
  parity_config c = {GB_QUICK, GB_RANDOM, 4000, GB_DEFAULT_SEED, 1};
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++) {
    parity_worker(&runs[l], l);
    parity_args(&runs[l], "--contract", "generic", NULL);
    parity_config_args(&runs[l], &c, false);
  }
  parity_run_all(runs, GB_LANGUAGE_COUNT, PARITY_PARALLEL);
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++) {
    gb_contract_line g;
    parity_expect_contract_line(&runs[l], GB_CONTRACT_MEASURED, &g);
    /* docs/design.md's example, written out, not computed. */
    cr_expect(g.counters[0].value == 55119 && g.counters[1].value == 56984 &&
                  strcmp(g.input_hash_hex, "9f662f292f0c2286") == 0 &&
                  strcmp(g.output_hash_hex, "15e1b3691cca01be") == 0,
              "%s: %s", parity_cmdline(&runs[l]), runs[l].out);
    parity_run_free(&runs[l]);
  }
}

Test(contract, contract_study_is_the_default_line, .timeout = 60) {
  parity_config c = {GB_INSERTION, GB_RANDOM, 300, 99u, 2};
  parity_run runs[GB_LANGUAGE_COUNT * FORMS] = {0};
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++) {
    parity_worker(&runs[l * FORMS], l);
    parity_config_args(&runs[l * FORMS], &c, false);
    parity_worker(&runs[l * FORMS + 1], l);
    parity_args(&runs[l * FORMS + 1], "--contract", "study", NULL);
    parity_config_args(&runs[l * FORMS + 1], &c, false);
  }
  parity_run_all(runs, GB_LANGUAGE_COUNT * FORMS, PARITY_PARALLEL);
  gb_expected e;
  cr_assert_eq(gb_expected_compute(c.alg, c.order, c.size, c.seed, &e), 0);
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++) {
    parity_run *r = &runs[l * FORMS];
    cJSON *plain = parity_expect_line(&r[0], false), *study = parity_expect_line(&r[1], false);
    parity_expect_result(&r[1], study, l, &c, &e);
    parity_expect_same(&r[0], plain, &r[1], study);
    cJSON_Delete(plain);
    cJSON_Delete(study);
    parity_run_free(&r[0]);
    parity_run_free(&r[1]);
  }
}
