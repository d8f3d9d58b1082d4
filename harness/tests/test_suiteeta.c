/* The progress line's ETA of a suite campaign (suiteeta.h): nothing before a
 * configuration is calibrated, then every item ahead at its own costs or at
 * its nearest calibrated configuration's, on hand-made plans. */
#include <criterion/criterion.h>
#include <string.h>

#include "greenbench/estimate.h"
#include "suiteeta.h"

#define MS 1000000ull
#define P GB_ESTIMATE_PROCESS_NS

/* Languages 0 and 1 x workload 0 (n = 10, 100, 1000) and workload 1
 * (n = 10): 8 configurations, each with one work run and one startup batch,
 * work runs first. */
typedef struct {
  gb_suite_config configs[8];
  gb_planned_run runs[16];
  gb_suite_plan p;
  gbi_suite_cost cost[8];
} fixture;

static void setup_plan(fixture *f) {
  memset(f, 0, sizeof *f);
  static const uint64_t n[4] = {10, 100, 1000, 10};
  for (size_t i = 0; i < 8; i++)
    f->configs[i] = (gb_suite_config){.language = i / 4,
                                      .workload = i % 4 == 3,
                                      .set = i % 4 == 3 ? 0 : i % 4,
                                      .kase = i % 4,
                                      .values = {n[i % 4]}};
  for (size_t k = 0; k < 2; k++)
    for (size_t i = 0; i < 8; i++)
      f->runs[k * 8 + i] = (gb_planned_run){k ? GB_RUN_STARTUP : GB_RUN_SORT, (uint32_t)i, 0};
  f->p = (gb_suite_plan){
      .configs = f->configs, .nconfigs = 8, .ncases = 4, .runs = f->runs, .nruns = 16};
}

/* Configuration i calibrated: warm-ups of w ms, a run of r ms of which the
 * start-up is s ms, 2 warm-ups per startup group. */
static void know(fixture *f, size_t i, uint64_t w, uint64_t r, uint64_t s) {
  gbi_warmup_time last = {(r - s) * MS, r * MS};
  gbi_suite_cost_config(&f->cost[i], w * MS, last, r * MS, 2);
}

Test(suite_eta, nothing_known_means_no_estimate) {
  fixture f;
  setup_plan(&f);
  gb_eta e = {0};
  gbi_suite_eta_ahead(&e, &f.p, f.cost, 0, 0, 0);
  cr_assert_eq(e.planned, 0u); /* the progress line reads "?" */
  cr_assert_eq(gb_eta_left_ns(&e), 0u);
  for (size_t i = 0; i < 8; i++)
    cr_assert_eq(gbi_suite_eta_reference(&f.p, f.cost, i), 8u);
}

Test(suite_eta, costs_of_a_calibrated_configuration) {
  gbi_suite_cost c = {0};
  gbi_warmup_time last = {80 * MS, 100 * MS}; /* 20 ms of start-up */
  gbi_suite_cost_config(&c, 700 * MS, last, 250 * MS, 3);
  cr_assert(c.known);
  cr_assert_eq(c.warmups_ns, 700 * MS);
  cr_assert_eq(c.startup_warmups_ns, 3 * (20 * MS + P));
  cr_assert_eq(c.run_ns, 500 * MS + P); /* the run, and as long idle */
  cr_assert_eq(c.batch_ns, c.run_ns);   /* until its group is calibrated */
  double single[3] = {30e6, 10e6, 20e6};
  gbi_suite_cost_startup(&c, 12, single, 3);
  cr_assert_eq(c.batch_ns, 2 * 12 * 20 * MS + P); /* the median launch */
  gbi_suite_cost_startup(&c, 5, single, 0);       /* no warm-up: unchanged */
  cr_assert_eq(c.batch_ns, 2 * 12 * 20 * MS + P);
}

Test(suite_eta, the_reference_is_the_nearest_calibrated_configuration) {
  fixture f;
  setup_plan(&f);
  know(&f, 0, 100, 50, 10); /* language 0, workload 0, n = 10 */
  cr_assert_eq(gbi_suite_eta_reference(&f.p, f.cost, 0), 0u); /* itself */
  for (size_t i = 1; i < 8; i++)                              /* the only one known */
    cr_assert_eq(gbi_suite_eta_reference(&f.p, f.cost, i), 0u);
  know(&f, 2, 100, 50, 10); /* language 0, workload 0, n = 1000 */
  cr_assert_eq(gbi_suite_eta_reference(&f.p, f.cost, 1), 0u); /* n = 100: 10 is the nearer */
  know(&f, 4, 100, 50, 10); /* language 1, workload 0, n = 10 */
  cr_assert_eq(gbi_suite_eta_reference(&f.p, f.cost, 6), 4u); /* same language first */
  cr_assert_eq(gbi_suite_eta_reference(&f.p, f.cost, 7), 4u); /* then another workload */
  cr_assert_eq(gbi_suite_eta_reference(&f.p, f.cost, 3), 0u);
  know(&f, 1, 100, 50, 10);
  f.cost[0].known = false;
  cr_assert_eq(gbi_suite_eta_reference(&f.p, f.cost, 0), 1u); /* 100 is nearer 10 than 1000 */
}

Test(suite_eta, one_calibrated_configuration_stands_for_the_rest) {
  fixture f;
  setup_plan(&f);
  know(&f, 0, 300, 50, 10);
  gb_eta e = {0};
  gbi_suite_eta_ahead(&e, &f.p, f.cost, 1, 0, 0);
  cr_assert_eq(e.planned, 7u + 8u + 16u);
  cr_assert_eq(e.ahead_ns[GB_ETA_WARMUPS], 7 * 300 * MS + 8 * 2 * (10 * MS + P));
  cr_assert_eq(e.ahead_ns[GB_ETA_SORT], 8 * (100 * MS + P));
  cr_assert_eq(e.ahead_ns[GB_ETA_STARTUP], 8 * (100 * MS + P));
  /* Nothing measured yet: the model stands. */
  cr_assert_eq(gb_eta_left_ns(&e), 7 * 300 * MS + 16 * (10 * MS + P) + 16 * (100 * MS + P));
}

Test(suite_eta, rebuilt_as_items_are_done_keeping_what_was_measured) {
  fixture f;
  setup_plan(&f);
  for (size_t i = 0; i < 8; i++)
    know(&f, i, 300, 50 + 10 * i, 10);
  gb_eta e = {0};
  gb_eta_done(&e, GB_ETA_WARMUPS, 300 * MS, 600 * MS);
  gbi_suite_eta_ahead(&e, &f.p, f.cost, 8, 8, 12); /* the last 4 startup batches */
  cr_assert_eq(e.ahead_ns[GB_ETA_WARMUPS], 0u);
  cr_assert_eq(e.ahead_ns[GB_ETA_SORT], 0u);
  uint64_t want = 0;
  for (size_t i = 4; i < 8; i++)
    want += 2 * (50 + 10 * i) * MS + P;
  cr_assert_eq(e.ahead_ns[GB_ETA_STARTUP], want);
  cr_assert_eq(e.took_ns[GB_ETA_WARMUPS], 600 * MS); /* kept */
  gbi_suite_eta_ahead(&e, &f.p, f.cost, 8, 8, 16);
  cr_assert_eq(gb_eta_left_ns(&e), 0u);
  cr_assert_gt(e.planned, 0u); /* the last line still shows an estimate, 0m00s */
}
