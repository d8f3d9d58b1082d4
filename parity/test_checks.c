/* Every worker checks every result (exit 3 when a sort is wrong), startup
 * mode does not sort, and the C sort loop is not optimised away (docs/methods.md
 * #7). */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "scratch.h"
#include "workers.h"

/* What the C worker says when sort `k` of `sorts` is wrong, with the
 * "worker: error: " prefix that all three share. */
static const char *check_message(int k, const parity_config *c) {
  static char msg[256];
  snprintf(msg, sizeof msg,
           "worker: error: check failed: sort %d of %" PRIu64 " did not give 0..%zu (%s, %s, "
           "size %zu)",
           k, c->sorts, c->size - 1, gb_algorithm_name(c->alg), gb_order_name(c->order),
           c->size);
  return msg;
}

static void expect_check_failure(const parity_run *r, int k, const parity_config *c) {
  const char *line = parity_expect_failure(r, 3);
  cr_assert_str_eq(line, check_message(k, c), "%s: wrong message", parity_cmdline(r));
}

/* Each algorithm, with the study line and with --contract generic: the
 * check and its message do not depend on the line. */
Test(checks, broken_c_build_exits_3_for_every_algorithm, .timeout = 30) {
  enum { N = GB_ALGORITHM_COUNT * 2 };
  parity_run runs[N] = {0};
  parity_config c[N];
  for (int k = 0; k < N; k++) {
    c[k] = (parity_config){(gb_algorithm)(k / 2), GB_RANDOM, 100, GB_DEFAULT_SEED, 2};
    parity_arg(&runs[k], PARITY_WORKER_C_BROKEN);
    parity_config_args(&runs[k], &c[k], false);
    if (k % 2)
      parity_args(&runs[k], "--contract", "generic", NULL);
  }
  parity_run_all(runs, N, PARITY_PARALLEL);
  for (int k = 0; k < N; k++) {
    expect_check_failure(&runs[k], 1, &c[k]);
    parity_run_free(&runs[k]);
  }
}

/* How one script language is broken: the file, and two textual patches. The
 * first turns bubble sort's comparison around, so the very first result is
 * wrong; the second leaves the last element unsorted from the second sort on,
 * so only a check of every result, not just the first, can see it. */
typedef struct {
  gb_language lang;
  const char *src, *name, *later_name, *env;
  const char *cmp_from, *cmp_to;
  const char *later_from, *later_to;
} breakage;

static const breakage python_breakage = {
    GB_PYTHON,
    PARITY_WORKER_PY,
    "worker.py",
    "later-worker.py",
    NULL,
    "if a[j] > a[j + 1]:",
    "if a[j] < a[j + 1]:",
    "sort(a.algorithm, work, a.size, c)",
    "sort(a.algorithm, work, a.size if k == 0 else a.size - 1, c)",
};

static const breakage node_breakage = {
    GB_NODE,
    PARITY_WORKER_JS,
    "worker.js",
    "later-worker.js",
    "NODE_PATH=" PARITY_NODE_MODULES,
    "if (a[j] > a[j + 1]) {",
    "if (a[j] < a[j + 1]) {",
    "sort(a.algorithm, work, a.size, c);",
    "sort(a.algorithm, work, k === 0 ? a.size : a.size - 1, c);",
};

static void add_run(parity_run *r, const breakage *b, const char *script,
                    const parity_config *c, bool generic) {
  parity_worker_script(r, b->lang, script);
  parity_config_args(r, c, false);
  if (generic)
    parity_args(r, "--contract", "generic", NULL);
  r->env_add = b->env;
}

static void check_breakage(const breakage *b) {
  char dir[PARITY_PATH_MAX], cmp[PARITY_PATH_MAX], later[PARITY_PATH_MAX];
  char *cmp_text = parity_patched_text(b->src, b->cmp_from, b->cmp_to);
  char *later_text = parity_patched_text(b->src, b->later_from, b->later_to);
  parity_scratch_dir(dir);
  parity_scratch_write(dir, b->name, cmp_text, strlen(cmp_text), cmp);
  parity_scratch_write(dir, b->later_name, later_text, strlen(later_text), later);
  free(cmp_text);
  free(later_text);

  parity_config bad = {GB_BUBBLE, GB_RANDOM, 100, GB_DEFAULT_SEED, 1};
  /* On reversed input the element left unsorted at the end is 0: never in
   * place by chance. */
  parity_config later_bad = {GB_QUICK, GB_REVERSED, 100, GB_DEFAULT_SEED, 3};
  parity_config fine = {GB_QUICK, GB_RANDOM, 100, GB_DEFAULT_SEED, 1};
  /* The two failures again with --contract generic: the same checks. */
  parity_run runs[5] = {0};
  add_run(&runs[0], b, cmp, &bad, false);
  add_run(&runs[1], b, later, &later_bad, false);
  add_run(&runs[2], b, cmp, &fine, false);
  add_run(&runs[3], b, cmp, &bad, true);
  add_run(&runs[4], b, later, &later_bad, true);
  parity_run_all(runs, 5, PARITY_PARALLEL);
  parity_scratch_remove(dir);

  expect_check_failure(&runs[0], 1, &bad);
  expect_check_failure(&runs[1], 2, &later_bad);
  expect_check_failure(&runs[3], 1, &bad);
  expect_check_failure(&runs[4], 2, &later_bad);
  /* The same copy still sorts correctly with the sorts it did not break, so
   * the exit 3 above came from the broken sort, not from a copy that cannot
   * run. */
  gb_expected e;
  cr_assert_eq(gb_expected_compute(fine.alg, fine.order, fine.size, fine.seed, &e), 0);
  cJSON *j = parity_expect_line(&runs[2], false);
  parity_expect_result(&runs[2], j, b->lang, &fine, &e);
  cJSON_Delete(j);
  for (int i = 0; i < 5; i++)
    parity_run_free(&runs[i]);
}

Test(checks, broken_python_sorts_exit_3, .timeout = 30) {
  check_breakage(&python_breakage);
}

Test(checks, broken_node_sorts_exit_3, .timeout = 30) {
  check_breakage(&node_breakage);
}

Test(checks, startup_only_prints_the_startup_line_and_does_not_sort, .timeout = 60) {
  /* A billion bubble sorts of 100,000 elements would never end: a worker that
   * sorted would hit the timeout. */
  parity_config c = {GB_BUBBLE, GB_REVERSED, 100000, GB_DEFAULT_SEED, 1000000000};
  parity_run runs[GB_LANGUAGE_COUNT] = {0};
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++) {
    parity_worker(&runs[l], l);
    parity_config_args(&runs[l], &c, true);
    runs[l].timeout_s = 20;
  }
  parity_run_all(runs, GB_LANGUAGE_COUNT, PARITY_PARALLEL);
  /* Only the hash: computing the counts would mean sorting too. */
  gb_expected e = {0};
  int *input = malloc(c.size * sizeof *input);
  cr_assert(input && gb_input_fill(input, c.size, c.order, c.seed) == 0);
  e.input_hash = gb_input_hash(input, c.size);
  free(input);
  cJSON *lines[GB_LANGUAGE_COUNT];
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++) {
    lines[l] = parity_expect_line(&runs[l], true);
    parity_expect_result(&runs[l], lines[l], l, &c, &e);
  }
  for (int l = 1; l < GB_LANGUAGE_COUNT; l++)
    parity_expect_same(&runs[0], lines[0], &runs[l], lines[l]);
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++) {
    cJSON_Delete(lines[l]);
    parity_run_free(&runs[l]);
  }
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* Median loop_ns of five C worker runs of c, one at a time so they do not
 * compete with each other for the CPUs. */
static uint64_t median_loop_ns(const parity_config *c, const gb_expected *e) {
  uint64_t ns[5];
  for (int i = 0; i < 5; i++) {
    parity_run r = {0};
    parity_worker(&r, GB_C);
    parity_config_args(&r, c, false);
    parity_run_all(&r, 1, 1);
    cJSON *j = parity_expect_line(&r, false);
    parity_expect_result(&r, j, GB_C, c, e);
    ns[i] = parity_json_u64(j, "loop_ns");
    cJSON_Delete(j);
    parity_run_free(&r);
  }
  qsort(ns, 5, sizeof ns[0], cmp_u64);
  return ns[2];
}

Test(checks, c_loop_time_grows_with_the_number_of_sorts, .timeout = 60) {
  /* Loops of about 25 and 250 ms: long enough that a neighbour on a busy
   * 2-CPU machine (ctest -j2) cannot swamp them, as it did loops of 5 ms. */
  parity_config few = {GB_QUICK, GB_RANDOM, 2000, GB_DEFAULT_SEED, 1000};
  parity_config many = few;
  many.sorts = 10000;
  gb_expected e;
  cr_assert_eq(gb_expected_compute(few.alg, few.order, few.size, few.seed, &e), 0);
  uint64_t t_few = median_loop_ns(&few, &e), t_many = median_loop_ns(&many, &e);
  /* Ten times the work; a loop the optimiser had removed would take about
   * the same time either way. 3 leaves room for a noisy, shared machine. */
  cr_assert_gt(t_few, 0, "loop_ns is 0 for 1000 sorts");
  cr_assert_gt((double)t_many / (double)t_few, 3.0,
               "10000 sorts took %" PRIu64 " ns, 1000 sorts %" PRIu64 " ns: ratio below 3",
               t_many, t_few);
}
