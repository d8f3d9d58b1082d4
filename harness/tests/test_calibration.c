/* The calibration rule (calibration.h): the first warm-up's prediction from
 * a calibrated configuration, the reference it is taken from, and the
 * warm-ups asked for on scripted loop times, extension included. Exact
 * figures; nothing runs. */
#include <criterion/criterion.h>

#include "greenbench/calibration.h"

#define MS 1000000ull

static gb_plan plan_of(const char *profile) {
  gb_settings s;
  gb_plan p;
  gb_err err;
  cr_assert_eq(gb_settings_profile(profile, &s, &err), 0);
  cr_assert_eq(gb_plan_build(&s, &p, &err), 0, "%s", err.msg);
  return p;
}

static size_t index_of(const gb_plan *p, gb_language l, gb_algorithm a, gb_order o,
                       uint32_t size) {
  for (size_t i = 0; i < p->nconfigs; i++)
    if (p->configs[i].language == l && p->configs[i].algorithm == a &&
        p->configs[i].order == o && p->configs[i].size == size)
      return i;
  cr_assert_fail("configuration not planned");
  return 0;
}

Test(calibration_prediction, the_work_of_a_sort_counts_the_copy_and_the_check) {
  cr_assert_eq(gb_sort_work((gb_counts){4950, 2500}, 100), 4950u + 2500u + 200u);
  cr_assert_eq(gb_sort_work((gb_counts){0, 0}, 1), 2u);
}

Test(calibration_prediction, scales_the_reference_time_per_sort_by_the_work) {
  /* The reference ran 4000 sorts of 1000 operations in 20 ms (5 us a sort);
   * a sort of 2500 operations takes 12.5 us, so 24 ms take 1920. */
  cr_assert_eq(gb_predict_sorts(4000, 20 * MS, 1000, 2500, 20 * MS), 1920u);
  /* The sibling at twice the size of an n^2 sort: a quarter of the sorts. */
  cr_assert_eq(gb_predict_sorts(1000, 24 * MS, 10000, 40000, 20 * MS), 250u);
  /* Exact, and rounded up: 1600 for 3000 operations, 1600.53 for 2999. */
  cr_assert_eq(gb_predict_sorts(4000, 20 * MS, 1000, 3000, 20 * MS), 1600u);
  cr_assert_eq(gb_predict_sorts(4000, 20 * MS, 1000, 2999, 20 * MS), 1601u);
  /* The same configuration is gb_calibrate_sorts. */
  cr_assert_eq(gb_predict_sorts(7, 100 * MS, 123, 123, 200 * MS),
               gb_calibrate_sorts(7, 100 * MS, 200 * MS));
  /* A sort that outlasts the aim still runs once; the worker's maximum
   * bounds the other end. */
  cr_assert_eq(gb_predict_sorts(1, 500 * MS, 10, 100, 200 * MS), 1u);
  cr_assert_eq(gb_predict_sorts(1000000, 1, 1000, 1, 60000 * MS), GB_MAX_SORTS);
  cr_assert_eq(gb_predict_sorts(GB_MAX_SORTS, 1, UINT64_MAX, 1, 60000 * MS), GB_MAX_SORTS);
  cr_assert_eq(gb_predict_sorts(1, UINT64_MAX, 1, UINT64_MAX, 1), 1u);
}

Test(calibration_prediction, an_unusable_prediction_is_none) {
  /* 0 means "no prediction": the first warm-up then probes with one sort. */
  cr_assert_eq(gb_predict_sorts(0, 20 * MS, 1000, 1000, 20 * MS), 0u);
  cr_assert_eq(gb_predict_sorts(100, 0, 1000, 1000, 20 * MS),
               0u); /* a loop too short to time */
  cr_assert_eq(gb_predict_sorts(100, 20 * MS, 0, 1000, 20 * MS), 0u);
  cr_assert_eq(gb_predict_sorts(100, 20 * MS, 1000, 0, 20 * MS), 0u);
  cr_assert_eq(gb_predict_sorts(100, 20 * MS, 1000, 1000, 0), 0u);
  gb_calibration k;
  gb_calibration_start(&k, 2, 20 * MS, 0);
  cr_assert_eq(gb_calibration_next(&k), 1u);
}

Test(calibration_target, within_25_percent_of_the_aim_inclusive) {
  /* Target 20 ms: aim 24 ms, band 18 to 30 ms. */
  cr_assert(gb_calibration_on_target(18 * MS, 100, 20 * MS));
  cr_assert_not(gb_calibration_on_target(18 * MS - 1, 100, 20 * MS));
  cr_assert(gb_calibration_on_target(30 * MS, 100, 20 * MS));
  cr_assert_not(gb_calibration_on_target(30 * MS + 1, 100, 20 * MS));
  /* One sort longer than the band cannot get closer; a short one can. */
  cr_assert(gb_calibration_on_target(90 * MS, 1, 20 * MS));
  cr_assert_not(gb_calibration_on_target(90 * MS, 2, 20 * MS));
  cr_assert_not(gb_calibration_on_target(1 * MS, 1, 20 * MS));
  /* Exact where 6/5 of the target is not a whole number of ns. */
  cr_assert(gb_calibration_on_target(9, 5, 10)); /* aim 12: band 9 to 15 */
  cr_assert_not(gb_calibration_on_target(8, 5, 10));
  cr_assert(gb_calibration_on_target(15, 5, 10));
  cr_assert_not(gb_calibration_on_target(16, 5, 10));
}

Test(calibration_reference, the_sibling_size_of_the_same_algorithm_and_order) {
  gb_plan p = plan_of("smoke");
  bool usable[128] = {false};
  cr_assert_leq(p.nconfigs, 128u);
  size_t i = index_of(&p, GB_C, GB_QUICK, GB_RANDOM, 200);
  cr_assert_eq(gb_calibration_reference(&p, i, usable), p.nconfigs, "nothing calibrated yet");
  size_t small = index_of(&p, GB_C, GB_QUICK, GB_RANDOM, 100);
  size_t other_order = index_of(&p, GB_C, GB_QUICK, GB_SORTED, 200);
  size_t other_alg = index_of(&p, GB_C, GB_BUBBLE, GB_RANDOM, 200);
  usable[other_alg] = true;
  cr_assert_eq(gb_calibration_reference(&p, i, usable), other_alg);
  usable[other_order] = true; /* the same algorithm comes first */
  cr_assert_eq(gb_calibration_reference(&p, i, usable), other_order);
  usable[small] = true; /* then the same order */
  cr_assert_eq(gb_calibration_reference(&p, i, usable), small);
  usable[i] = true; /* never itself */
  cr_assert_eq(gb_calibration_reference(&p, i, usable), small);
  /* Another language's configuration is never a reference. */
  bool python_only[128] = {false};
  python_only[index_of(&p, GB_PYTHON, GB_QUICK, GB_RANDOM, 200)] = true;
  cr_assert_eq(gb_calibration_reference(&p, i, python_only), p.nconfigs);
  gb_plan_free(&p);
}

Test(calibration_reference, the_nearest_size_by_ratio_then_the_latest) {
  gb_plan p = plan_of("study"); /* sizes 250, 500, 1000, 2000 */
  bool usable[256] = {false};
  cr_assert_leq(p.nconfigs, 256u);
  size_t i = index_of(&p, GB_NODE, GB_BUBBLE, GB_NEARLY, 1000);
  size_t s250 = index_of(&p, GB_NODE, GB_BUBBLE, GB_NEARLY, 250);
  size_t s500 = index_of(&p, GB_NODE, GB_BUBBLE, GB_NEARLY, 500);
  size_t s2000 = index_of(&p, GB_NODE, GB_BUBBLE, GB_NEARLY, 2000);
  usable[s250] = usable[s2000] = true; /* ratios 4 and 2 */
  cr_assert_eq(gb_calibration_reference(&p, i, usable), s2000);
  usable[s500] = true; /* ratios 2 and 2: the later in the plan */
  cr_assert_eq(gb_calibration_reference(&p, i, usable), s2000);
  usable[s2000] = false;
  cr_assert_eq(gb_calibration_reference(&p, i, usable), s500);
  gb_plan_free(&p);
}

/* Runs the rule on scripted loop times (one per warm-up, in ms, the last
 * repeated), and returns how many warm-ups it asked for; sorts[] gets each
 * warm-up's sorts. */
static unsigned script(gb_calibration *k, const uint64_t *loops_ms, size_t nloops,
                       uint64_t *sorts, size_t cap) {
  unsigned n = 0;
  for (uint64_t s; (s = gb_calibration_next(k)) != 0; n++) {
    cr_assert_lt(n, cap, "more warm-ups than the rule allows");
    sorts[n] = s;
    gb_calibration_record(k, s, loops_ms[n < nloops ? n : nloops - 1] * MS);
  }
  return n;
}

Test(calibration_rule, a_predicted_first_warmup_then_the_sorts_its_loop_predicts) {
  gb_calibration k;
  uint64_t sorts[16];
  gb_calibration_start(&k, 2, 20 * MS, 500);
  cr_assert_not(gb_calibration_usable(&k), "not before a warm-up");
  /* 500 sorts in 12 ms: the second runs 1000 and lands on 24 ms. */
  const uint64_t loops[] = {12, 24};
  cr_assert_eq(script(&k, loops, 2, sorts, 16), 2u);
  cr_assert_eq(sorts[0], 500u);
  cr_assert_eq(sorts[1], 1000u);
  cr_assert_eq(gb_calibration_sorts(&k), 1000u);
  cr_assert(gb_calibration_usable(&k));
}

Test(calibration_rule, never_fewer_than_the_warmups_even_on_target) {
  gb_calibration k;
  uint64_t sorts[16];
  gb_calibration_start(&k, 3, 20 * MS, 1000);
  const uint64_t loops[] = {24};
  cr_assert_eq(script(&k, loops, 1, sorts, 16), 3u);
  cr_assert_eq(sorts[2], 1000u);
}

Test(calibration_rule, extends_while_the_last_loop_misses_its_aim) {
  gb_calibration k;
  uint64_t sorts[16];
  gb_calibration_start(&k, 2, 20 * MS, 500);
  /* The second warm-up's loop is 40 ms (above 30): a third runs 600 sorts,
   * then a fourth at 16 ms (below 18) runs 900, which lands. */
  const uint64_t loops[] = {12, 40, 16, 24};
  cr_assert_eq(script(&k, loops, 4, sorts, 16), 4u);
  cr_assert_eq(sorts[2], 600u);
  cr_assert_eq(sorts[3], 900u);
  cr_assert_eq(gb_calibration_sorts(&k), 900u);
  cr_assert(gb_calibration_usable(&k));
}

Test(calibration_rule, at_most_five_more_then_not_a_reference) {
  gb_calibration k;
  uint64_t sorts[16];
  gb_calibration_start(&k, 2, 20 * MS, 100);
  const uint64_t loops[] = {5, 60}; /* every loop from the second on is 60 ms */
  cr_assert_eq(script(&k, loops, 2, sorts, 16), 2u + GB_CALIBRATION_EXTRA_WARMUPS);
  cr_assert_not(gb_calibration_usable(&k), "its loop still misses: it predicts nothing");
  cr_assert_eq(gb_calibration_sorts(&k), gb_calibrate_sorts(sorts[6], 60 * MS, 20 * MS));
}

Test(calibration_rule, the_probe_and_a_sort_longer_than_the_aim) {
  gb_calibration k;
  uint64_t sorts[16];
  gb_calibration_start(&k, 1, 200 * MS, 0);
  const uint64_t loops[] = {900};
  cr_assert_eq(script(&k, loops, 1, sorts, 16), 1u);
  cr_assert_eq(sorts[0], 1u);
  cr_assert_eq(gb_calibration_sorts(&k), 1u);
  cr_assert(gb_calibration_usable(&k), "one sort of 900 ms cannot get closer");
}
