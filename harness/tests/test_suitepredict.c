/* A suite configuration's first warm-up predicted from a calibrated one
 * (suitepredict.h): the reference (same language and workload, the same
 * named values, the nearest numbers, usable), and the repetitions it
 * predicts, scaled down only. */
#include <criterion/criterion.h>
#include <string.h>

#include "suitepredict.h"

#define MS 1000000ull

/* Workload 0: n (10, 100, 1000); workload 1: order (named: up, down) x n
 * (10, 20). Language 0 runs w0's 3 sets then w1's 4; language 1 the same. */
typedef struct {
  gb_suite_workload w[2];
  gb_suite s;
  gb_suite_config configs[14];
  gb_suite_plan p;
  gbi_calibration done[14];
} fixture;

static void setup_plan(fixture *f) {
  memset(f, 0, sizeof *f);
  f->w[0].n_parameters = 1;
  f->w[0].parameters[0] =
      (gb_suite_parameter){.name = "n", .n_values = 3, .values = {10, 100, 1000}};
  f->w[1].n_parameters = 2;
  f->w[1].parameters[0] =
      (gb_suite_parameter){.name = "order", .named = true, .n_values = 2, .values = {0, 1}};
  f->w[1].parameters[1] = (gb_suite_parameter){.name = "n", .n_values = 2, .values = {10, 20}};
  f->s.n_workloads = 2;
  f->s.workloads = f->w;
  f->s.n_languages = 2;
  size_t at = 0;
  for (size_t l = 0; l < 2; l++)
    for (size_t w = 0; w < 2; w++)
      for (size_t i = 0, n = gb_suite_sets(&f->w[w]); i < n; i++, at++) {
        f->configs[at] = (gb_suite_config){.language = l, .workload = w, .set = i};
        gb_suite_set_values(&f->w[w], i, f->configs[at].values);
      }
  f->p = (gb_suite_plan){.configs = f->configs, .nconfigs = at};
}

/* Configuration i calibrated: its last warm-up ran sorts in loop_ns. */
static void calibrated(fixture *f, size_t i, uint64_t sorts, uint64_t loop_ns) {
  gbi_calibration_start(&f->done[i], 1, 10 * MS, 0);
  gbi_calibration_record(&f->done[i], sorts, loop_ns);
}

Test(suite_predict, none_without_a_usable_reference_of_the_language_and_workload) {
  fixture f;
  setup_plan(&f);
  cr_assert_eq(f.p.nconfigs, 14u);
  for (size_t i = 0; i < 14; i++)
    cr_assert_eq(gbi_suite_predict_reps(&f.s, &f.p, i, f.done, 10 * MS), 0u);
  calibrated(&f, 0, 1000, 12 * MS);                              /* language 0, n = 10 */
  cr_assert_eq(gbi_suite_reference(&f.s, &f.p, 3, f.done), 14u); /* another workload */
  cr_assert_eq(gbi_suite_reference(&f.s, &f.p, 7, f.done), 14u); /* another language */
  cr_assert_eq(gbi_suite_reference(&f.s, &f.p, 0, f.done), 14u); /* only those before it */
  calibrated(&f, 1, 1000, 1 * MS); /* n = 100: its last loop far off target */
  cr_assert_eq(gbi_suite_reference(&f.s, &f.p, 2, f.done), 0u, "an unusable one is skipped");
}

Test(suite_predict, the_nearest_values_and_the_same_names) {
  fixture f;
  setup_plan(&f);
  calibrated(&f, 0, 1000, 12 * MS);
  calibrated(&f, 1, 1000, 12 * MS);
  cr_assert_eq(gbi_suite_reference(&f.s, &f.p, 2, f.done), 1u); /* 1000: 100 is nearer */
  /* w1: up/10, up/20, down/10, down/20 at 3..6. */
  calibrated(&f, 3, 1000, 12 * MS);
  cr_assert_eq(gbi_suite_reference(&f.s, &f.p, 4, f.done), 3u);
  cr_assert_eq(gbi_suite_reference(&f.s, &f.p, 5, f.done), 14u, "down is not up");
  calibrated(&f, 5, 1000, 12 * MS);
  cr_assert_eq(gbi_suite_reference(&f.s, &f.p, 6, f.done), 5u);
  /* A tie: the latest. */
  f.configs[1].values[0] = 10;
  cr_assert_eq(gbi_suite_reference(&f.s, &f.p, 2, f.done), 1u);
}

Test(suite_predict, the_reps_scale_down_for_larger_values_only) {
  fixture f;
  setup_plan(&f);
  /* n = 100: 1000 reps in 10 ms, so 1200 for the aim of 12 ms. */
  f.configs[0].values[0] = 100;
  f.configs[1].values[0] = 10;
  calibrated(&f, 0, 1000, 10 * MS);
  cr_assert_eq(gbi_suite_predict_reps(&f.s, &f.p, 1, f.done, 10 * MS), 1200u,
               "smaller values: never more reps than the reference's rate gives");
  cr_assert_eq(gbi_suite_predict_reps(&f.s, &f.p, 2, f.done, 10 * MS), 120u,
               "10 x larger: 10 x fewer");
  calibrated(&f, 0, 1000, 0); /* a loop too short to time predicts nothing */
  cr_assert_eq(gbi_suite_predict_reps(&f.s, &f.p, 2, f.done, 10 * MS), 0u);
}
