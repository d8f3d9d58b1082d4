/* The chance count calibrated for the campaign's own design (chance.c):
 * simulated campaigns under equal power set the bound the verdict counts
 * against; the study's plain binomial figure stays beside it. */
#include "greenbench/analysis.h"

#include "alloc_fail.h"
#include "analysis_internal.h"
#include "helper_report.h"

#include <criterion/criterion.h>
#include <math.h>

static gb_analysis *analyse(const gb_records *r, size_t campaigns) {
  gb_analysis_opts o = GB_ANALYSIS_OPTS_DEFAULT;
  o.chance_campaigns = campaigns;
  return gbt_analyse_with(r, &o);
}

/* By default every tally is calibrated by 20 simulated campaigns: the
 * bound is at least the binomial bound at the simulated rate. On
 * report-energy (18 ratios, 3 runs each) the simulated rate is far above
 * 5%, so the calibrated bound (5) is above the plain one (3). */
Test(chance, default_tallies_are_calibrated) {
  gb_records *r = gbt_load("report-energy");
  gb_analysis *a = analyse(r, GB_ANALYSIS_CHANCE_CAMPAIGNS);
  const gb_an_tally *t[3] = {&a->tally_all, &a->tally_languages, &a->tally_orders};
  for (int f = 0; f < 3; f++) {
    cr_assert(t[f]->calibrated, "tally %d", f);
    cr_assert_eq(t[f]->null_campaigns, 20);
    cr_assert(t[f]->null_rate > 0.0 && t[f]->null_rate < 1.0, "tally %d", f);
    cr_assert_float_eq(t[f]->null_mean, t[f]->null_rate * (double)t[f]->tally.defined, 1e-12);
    cr_assert_geq(t[f]->chance_bound,
                  gbi_analysis_chance_bound(t[f]->tally.defined, t[f]->null_rate));
  }
  cr_assert_eq(a->tally_all.plain_bound, 3);
  cr_assert_eq(a->tally_all.chance_bound, 5);
  gb_analysis_free(a);
  gb_records_free(r);
}

/* The same records give the same calibration, bit for bit. */
Test(chance, calibration_is_reproducible) {
  gb_records *r = gbt_load("report-verdict-differs");
  gb_analysis *a = analyse(r, 20), *b = analyse(r, 20);
  cr_assert_eq(a->tally_all.null_rate, b->tally_all.null_rate);
  cr_assert_eq(a->tally_all.chance_bound, b->tally_all.chance_bound);
  gb_analysis_free(a);
  gb_analysis_free(b);
  gb_records_free(r);
}

/* chance_campaigns 0 keeps the study's plain binomial bound, and so does a
 * campaign without energy, where no power ratio is defined. */
Test(chance, plain_without_campaigns_or_energy) {
  gb_records *r = gbt_load("report-energy");
  gb_analysis *a = analyse(r, 0);
  cr_assert_not(a->tally_all.calibrated);
  cr_assert_eq(a->tally_all.chance_bound, a->tally_all.plain_bound);
  cr_assert_eq(a->tally_all.chance_bound, 3);
  gb_analysis_free(a);
  gb_records_free(r);
  r = gbt_load("report-off");
  a = analyse(r, 20);
  cr_assert_not(a->tally_all.calibrated);
  cr_assert_eq(a->tally_all.null_campaigns, 0);
  gb_analysis_free(a);
  gb_records_free(r);
}

/* The verdict counts against the calibrated bound, not the plain one: one
 * interval excluding 1 is chance under the binomial (bound 1 of 4) but not
 * when equal-power campaigns of the design never exceed 0. */
Test(chance, the_verdict_counts_against_the_calibrated_bound) {
  gb_an_tally t = {.chance_bound = 0, .plain_bound = 1, .calibrated = true};
  t.tally.total = t.tally.defined = 4;
  t.tally.readings[GB_READING_SAME] = 4;
  t.tally.excluding_one = 1;
  cr_assert_eq(gb_analysis_verdict(&t), GB_AN_VERDICT_YES_BUT_DIFFERS);
  t.chance_bound = 1;
  cr_assert_eq(gb_analysis_verdict(&t), GB_AN_VERDICT_YES);
}

/* The verdict fixtures keep their verdicts under calibration (the
 * equal-power one, report-verdict-yes, excludes 1 nowhere). */
Test(chance, verdict_fixtures_keep_their_verdicts) {
  static const struct {
    const char *name;
    gb_an_verdict verdict;
  } cases[] = {{"report-verdict-yes", GB_AN_VERDICT_YES},
               {"report-verdict-differs", GB_AN_VERDICT_YES_BUT_DIFFERS},
               {"report-verdict-no", GB_AN_VERDICT_NO},
               {"report-verdict-noisy", GB_AN_VERDICT_TOO_NOISY}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    gb_records *r = gbt_load(cases[i].name);
    gb_analysis *a = analyse(r, GB_ANALYSIS_CHANCE_CAMPAIGNS);
    cr_assert(a->tally_all.calibrated, "%s", cases[i].name);
    cr_assert_eq(a->verdict, cases[i].verdict, "%s", cases[i].name);
    gb_analysis_free(a);
    gb_records_free(r);
  }
}

/* Every allocation of the calibration can fail: it says "out of memory",
 * returns -ENOMEM and leaves the tallies as they were, uncalibrated
 * (alloc_fail.h; under ASan, nothing leaks). */
static int calibrate_once(void *arg, gb_err *err) {
  gb_analysis *a = arg;
  cr_assert_not(a->tally_all.calibrated);
  int rc = gbi_analysis_calibrate_chance(a, err);
  cr_assert(rc == 0 || !a->tally_all.calibrated);
  return rc;
}

Test(chance, every_allocation_failure_is_reported) {
  gb_records *r = gbt_load("report-energy");
  gb_analysis *a = analyse(r, 0);
  a->opts.chance_campaigns = 3;
  /* Three tallies' counts, six blocks of work, two per configuration (all
   * 12 have energy). */
  cr_expect_eq(gbt_each_allocation_fails(calibrate_once, a), 9 + 2 * a->n_configs);
  cr_expect(a->tally_all.calibrated);
  cr_expect_eq(a->tally_all.null_campaigns, 3);
  gb_analysis_free(a);
  gb_records_free(r);
}
