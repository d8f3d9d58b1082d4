/* The duration model of --dry-run and the progress ETA (estimate.h): exact
 * figures for known plans, and the ETA's blend of model and measured pace. */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "greenbench/energy_probe.h"
#include "greenbench/estimate.h"
#include "harness_internal.h"

#define MS 1000000ull

static gb_plan plan_of(const gb_settings *s) {
  gb_plan p;
  gb_err err;
  cr_assert_eq(gb_plan_build(s, &p, &err), 0, "%s", err.msg);
  return p;
}

static gb_plan_estimate estimate_of(const gb_settings *s, const gb_plan *p) {
  gb_plan_estimate e;
  gb_err err;
  cr_assert_eq(gb_estimate_plan(s, p, &e, &err), 0, "%s", err.msg);
  return e;
}

static gb_settings profile(const char *name) {
  gb_settings s;
  gb_err err;
  cr_assert_eq(gb_settings_profile(name, &s, &err), 0);
  return s;
}

static void assert_totals(const gb_plan_estimate *e, uint64_t setup_ms, uint64_t calibration_ms,
                          uint64_t runs_ms) {
  cr_assert_eq(e->setup_ns, setup_ms * MS, "setup %llu", (unsigned long long)e->setup_ns);
  cr_assert_eq(e->calibration_ns, calibration_ms * MS, "calibration %llu",
               (unsigned long long)e->calibration_ns);
  cr_assert_eq(e->runs_ns, runs_ms * MS, "runs %llu", (unsigned long long)e->runs_ns);
  cr_assert_eq(e->total_ns, (setup_ms + calibration_ms + runs_ms) * MS);
}

Test(estimate, one_c_configuration_item_by_item) {
  gb_settings s = profile("smoke");
  s.languages = 1u << GB_C;
  s.algorithms = 1u << GB_QUICK;
  s.orders = 1u << GB_RANDOM;
  s.nsizes = 1;
  s.runs = 2;
  s.energy = GB_ENERGY_OFF;
  gb_plan p = plan_of(&s);
  gb_plan_estimate e = estimate_of(&s, &p);
  /* Loop 24 ms (1.2 x 20), start 3 ms, 1 ms of harness per process. */
  cr_assert_eq(e.run_ns[GB_C], (2 * (24 + 3) + 1) * MS);
  /* Warm-ups 1 and 2 and one extra: 24 + 3 + 1 each. */
  cr_assert_eq(e.config_warmups_ns[GB_C], 3 * (24 + 3 + 1) * MS);
  cr_assert_eq(e.startup_warmups_ns[GB_C], 2 * (3 + 1) * MS);
  /* 4 runs (2 sorting, 2 startup batches); the C runtime probe. */
  assert_totals(&e, 500 + 3 + 1, 84 + 8, 4 * 55);
  gb_plan_free(&p);
}

Test(estimate, smoke_profile_with_energy_off) {
  gb_settings s = profile("smoke");
  s.energy = GB_ENERGY_OFF;
  gb_plan p = plan_of(&s);
  gb_plan_estimate e = estimate_of(&s, &p);
  cr_assert_eq(e.run_ns[GB_PYTHON], (2 * (24 + 45) + 1) * MS);
  cr_assert_eq(e.run_ns[GB_NODE], (2 * (24 + 90) + 1) * MS);
  cr_assert_eq(e.config_warmups_ns[GB_PYTHON], 3 * (24 + 45 + 1) * MS);
  cr_assert_eq(e.config_warmups_ns[GB_NODE], 4 * (24 + 90 + 1) * MS);
  /* Per language 24 configurations, 8 startup groups, 160 runs. */
  assert_totals(&e, 500 + 4 + 46 + 91, 24 * (84 + 210 + 460) + 8 * (8 + 92 + 182),
                160 * (55 + 139 + 229));
  cr_assert_eq(e.total_ns, 88673 * MS);
  gb_plan_free(&p);
}

Test(estimate, energy_adds_the_counter_probe) {
  gb_settings s = profile("smoke");
  gb_plan p = plan_of(&s);
  cr_assert_eq(s.energy, GB_ENERGY_AUTO);
  cr_assert_eq(estimate_of(&s, &p).total_ns, 88673 * MS + GB_ENERGY_PROBE_NS);
  gb_plan_free(&p);
}

Test(estimate, study_profile) {
  gb_settings s = profile("study");
  gb_plan p = plan_of(&s);
  gb_plan_estimate e = estimate_of(&s, &p);
  /* Loop 240 ms, 3 warm-ups, 30 runs; per language 48 configurations, 16
   * startup groups, 1,920 runs. */
  assert_totals(&e, 500 + GB_ENERGY_PROBE_NS / MS + 141,
                48 * (976 + 1144 + 1655) + 16 * (12 + 138 + 273), 1920 * (487 + 571 + 661));
  cr_assert_eq(e.total_ns, 3489589 * MS); /* 58m09s */
  gb_plan_free(&p);
}

Test(estimate, omitted_configurations_cost_nothing) {
  gb_settings s = profile("smoke");
  s.languages = 1u << GB_C | 1u << GB_PYTHON;
  s.algorithms = 1u << GB_QUICK;
  s.orders = 1u << GB_RANDOM;
  s.runs = 1;
  s.warmups = 1;
  s.target_ms = 10;
  s.energy = GB_ENERGY_OFF;
  s.omit[GB_PYTHON][GB_QUICK][GB_RANDOM] = 1u << 1; /* python at 200 */
  gb_plan p = plan_of(&s);
  cr_assert_eq(p.nconfigs, 3);
  gb_plan_estimate e = estimate_of(&s, &p);
  /* C: 2 configurations, 2 groups; Python: 1 and 1. Loop 12 ms. */
  assert_totals(&e, 500 + 4 + 46, 2 * 2 * (12 + 3 + 1) + 2 * (12 + 45 + 1) + 2 * 4 + 46,
                4 * (2 * 15 + 1) + 2 * (2 * 57 + 1));
  gb_plan_free(&p);
}

Test(estimate, refuses_no_warmups_and_an_empty_plan) {
  gb_settings s = profile("smoke");
  gb_plan p = plan_of(&s), empty = {0};
  gb_plan_estimate e, untouched;
  memset(&e, 0xab, sizeof e);
  untouched = e;
  gb_err err;
  s.warmups = 0;
  cr_assert_eq(gb_estimate_plan(&s, &p, &e, &err), -EINVAL);
  s.warmups = 2;
  cr_assert_eq(gb_estimate_plan(&s, &empty, &e, &err), -EINVAL);
  cr_assert_eq(memcmp(&e, &untouched, sizeof e), 0);
  gb_plan_free(&p);
}

Test(estimate, format) {
  char buf[16];
  const struct {
    uint64_t s;
    const char *want;
  } cases[] = {{0, "0m00s"},    {89, "1m29s"},    {3599, "59m59s"},
               {3600, "1h00m"}, {3470, "57m50s"}, {360000, "100h00m"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    gb_estimate_format(cases[i].s * 1000000000ull + 999999999ull, buf, sizeof buf);
    cr_assert_str_eq(buf, cases[i].want);
  }
}

Test(eta, starts_from_the_model_of_what_is_ahead) {
  gb_settings s = profile("smoke");
  gb_plan p = plan_of(&s);
  gb_plan_estimate m = estimate_of(&s, &p);
  gb_eta e;
  gb_eta_start(&e, &m, &p, true, 0);
  cr_assert_eq(gb_eta_left_ns(&e), m.calibration_ns + m.runs_ns);
  cr_assert_eq(e.planned, p.nconfigs + p.nstartups + p.nruns);
  gb_eta_start(&e, &m, &p, false, 0); /* a resume: calibration is behind */
  cr_assert_eq(gb_eta_left_ns(&e), m.runs_ns);
  gb_eta_start(&e, &m, &p, false, p.nruns);
  cr_assert_eq(gb_eta_left_ns(&e), 0);
  gb_plan_free(&p);
}

Test(eta, blends_the_measured_pace_with_the_model) {
  gb_eta e = {0};
  for (int i = 0; i < 4; i++)
    gbi_eta_add(&e, GB_ETA_SORT, 1000 * MS);
  gb_eta_done(&e, GB_ETA_SORT, 1000 * MS, 3000 * MS);
  /* pace (3 + 5) / (1 + 5) = 4/3; ratio (3 + 5 x 4/3) / (1 + 5) = 29/18. */
  uint64_t left = gb_eta_left_ns(&e), want = 4833333333ull; /* 3 s x 29/18 */
  cr_assert(left >= want - 1 && left <= want + 1, "%llu", (unsigned long long)left);
}

Test(eta, a_kind_not_started_follows_the_pace_of_the_others) {
  gb_eta e = {0};
  gbi_eta_add(&e, GB_ETA_WARMUPS, 1000 * MS);
  gbi_eta_add(&e, GB_ETA_WARMUPS, 1000 * MS);
  for (int i = 0; i < 10; i++)
    gbi_eta_add(&e, GB_ETA_SORT, 1000 * MS);
  gb_eta_done(&e, GB_ETA_WARMUPS, 1000 * MS, 7000 * MS);
  gb_eta_done(&e, GB_ETA_WARMUPS, 1000 * MS, 7000 * MS);
  /* pace (14 + 5) / (2 + 5) = 19/7, and the sorts have nothing of their own. */
  uint64_t left = gb_eta_left_ns(&e), want = 27142857143ull;
  cr_assert(left >= want - 1 && left <= want + 1, "%llu", (unsigned long long)left);
}

Test(eta, converges_to_the_measured_pace) {
  gb_eta e = {0};
  for (int i = 0; i < 1000; i++)
    gbi_eta_add(&e, i % 4 ? GB_ETA_SORT : GB_ETA_STARTUP, 500 * MS);
  for (int i = 0; i < 900; i++) /* every run takes twice the model */
    gb_eta_done(&e, i % 4 ? GB_ETA_SORT : GB_ETA_STARTUP, 500 * MS, 1000 * MS);
  uint64_t left = gb_eta_left_ns(&e); /* 100 runs ahead, 1 s each */
  cr_assert(left > 99000 * MS && left < 100000 * MS, "%llu", (unsigned long long)left);
}

Test(eta, more_done_than_planned_leaves_nothing_ahead) {
  gb_eta e = {0};
  gbi_eta_add(&e, GB_ETA_STARTUP, 100 * MS);
  gb_eta_done(&e, GB_ETA_STARTUP, 300 * MS, 300 * MS);
  cr_assert_eq(gb_eta_left_ns(&e), 0);
}
