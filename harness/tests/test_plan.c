#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "greenbench/plan.h"

static gb_plan plan_of(const char *profile, uint64_t order_seed) {
  gb_settings s;
  gb_err err;
  cr_assert_eq(gb_settings_profile(profile, &s, &err), 0);
  s.order_seed = order_seed;
  gb_plan p;
  cr_assert_eq(gb_plan_build(&s, &p, &err), 0, "%s", err.msg);
  return p;
}

Test(plan, study_profile_counts) {
  gb_plan p = plan_of("study", 1);
  cr_assert_eq(p.nconfigs, 3u * 3u * 4u * 4u);
  cr_assert_eq(p.nstartups, 3u * 4u * 4u);
  cr_assert_eq(p.nruns, (144u + 48u) * 30u);
  gb_plan_free(&p);
}

Test(plan, every_planned_run_appears_exactly_once) {
  gb_plan p = plan_of("smoke", 42);
  static int seen[2][128][16];
  memset(seen, 0, sizeof seen);
  for (size_t i = 0; i < p.nruns; i++)
    seen[p.runs[i].kind][p.runs[i].target][p.runs[i].rep]++;
  for (size_t c = 0; c < p.nconfigs; c++)
    for (int r = 0; r < 5; r++)
      cr_assert_eq(seen[GB_RUN_SORT][c][r], 1);
  for (size_t g = 0; g < p.nstartups; g++)
    for (int r = 0; r < 5; r++)
      cr_assert_eq(seen[GB_RUN_STARTUP][g][r], 1);
  gb_plan_free(&p);
}

Test(plan, shuffle_is_reproducible_from_its_seed) {
  gb_plan a = plan_of("smoke", 7), b = plan_of("smoke", 7), c = plan_of("smoke", 8);
  cr_assert_eq(memcmp(a.runs, b.runs, a.nruns * sizeof *a.runs), 0);
  cr_assert_neq(memcmp(a.runs, c.runs, a.nruns * sizeof *a.runs), 0);
  gb_plan_free(&a);
  gb_plan_free(&b);
  gb_plan_free(&c);
}

Test(plan, shuffle_mixes_kinds_and_configurations) {
  /* Canonical order puts all sort runs first; a shuffled plan must not. */
  gb_plan p = plan_of("study", 3);
  size_t startups_in_first_half = 0, same_as_next = 0;
  for (size_t i = 0; i < p.nruns / 2; i++)
    startups_in_first_half += p.runs[i].kind == GB_RUN_STARTUP;
  for (size_t i = 0; i + 1 < p.nruns; i++)
    same_as_next +=
        p.runs[i].kind == p.runs[i + 1].kind && p.runs[i].target == p.runs[i + 1].target;
  /* 1,440 startup runs of 5,760: about 720 expected in the first half. */
  cr_assert(startups_in_first_half > 600 && startups_in_first_half < 840, "%zu",
            startups_in_first_half);
  /* A uniform shuffle leaves about 5,759 x 29/5,759 = 29 such neighbours;
   * the canonical order has 5,568. */
  cr_assert_lt(same_as_next, 100u, "neighbours from one configuration: %zu", same_as_next);
  gb_plan_free(&p);
}

Test(plan, selection_and_startup_groups) {
  gb_settings s;
  gb_err err;
  cr_assert_eq(gb_settings_profile("study", &s, &err), 0, "%s", err.msg);
  s.languages = 1u << GB_PYTHON;
  s.algorithms = 1u << GB_QUICK;
  s.sizes[0] = 2000;
  s.nsizes = 1;
  gb_plan p;
  cr_assert_eq(gb_plan_build(&s, &p, &err), 0);
  cr_assert_eq(p.nconfigs, 4u);
  cr_assert_eq(p.nstartups, 4u);
  for (size_t c = 0; c < p.nconfigs; c++) {
    const gb_startup_group *g = &p.startups[gb_plan_startup_of(&p, &p.configs[c])];
    cr_assert_eq(g->order, p.configs[c].order);
    cr_assert_eq(g->size, 2000u);
  }
  char label[64];
  gb_config_label(&p.configs[0], label, sizeof label);
  cr_assert_str_eq(label, "python/quick/random/2000");
  gb_plan_free(&p);
  s.languages = 0;
  cr_assert_eq(gb_plan_build(&s, &p, &err), -EINVAL);
  cr_assert(strstr(err.msg, "empty"));
  s.languages = 1u << GB_PYTHON;
  for (gb_order o = 0; o < GB_ORDER_COUNT; o++)
    s.omit[GB_PYTHON][GB_QUICK][o] = 1u;
  cr_assert_eq(gb_plan_build(&s, &p, &err), -EINVAL, "every configuration omitted");
  cr_assert(strstr(err.msg, "empty"));
}

Test(plan, omitted_configurations_and_their_startups_are_left_out) {
  gb_settings s;
  gb_err err;
  cr_assert_eq(gb_settings_profile("smoke", &s, &err), 0, "%s", err.msg);
  /* All of C bubble and C insertion at 200 left out; C quick at 200 kept. */
  for (gb_order o = 0; o < GB_ORDER_COUNT; o++)
    s.omit[GB_C][GB_BUBBLE][o] = s.omit[GB_C][GB_INSERTION][o] = 2u;
  /* Node at sorted/100 left out for every algorithm: no startup group. */
  for (gb_algorithm a = 0; a < GB_ALGORITHM_COUNT; a++)
    s.omit[GB_NODE][a][GB_SORTED] = 1u;
  gb_plan p;
  cr_assert_eq(gb_plan_build(&s, &p, &err), 0, "%s", err.msg);
  cr_assert_eq(p.nconfigs, 72u - 8u - 3u);
  cr_assert_eq(p.nstartups, 24u - 1u);
  cr_assert_eq(p.nruns, (p.nconfigs + p.nstartups) * s.runs);
  for (size_t c = 0; c < p.nconfigs; c++) {
    const gb_config *k = &p.configs[c];
    cr_assert_not(k->language == GB_C && k->algorithm != GB_QUICK && k->size == 200);
    cr_assert_not(k->language == GB_NODE && k->order == GB_SORTED && k->size == 100);
    const gb_startup_group *g = &p.startups[gb_plan_startup_of(&p, k)];
    cr_assert(g->language == k->language && g->order == k->order && g->size == k->size);
  }
  for (size_t g = 0; g < p.nstartups; g++)
    cr_assert_not(p.startups[g].language == GB_NODE && p.startups[g].order == GB_SORTED &&
                  p.startups[g].size == 100);
  gb_plan_free(&p);
}

Test(plan, unknown_profile) {
  gb_settings s;
  gb_err err;
  cr_assert_eq(gb_settings_profile("quick", &s, &err), -EINVAL);
  cr_assert_str_eq(err.msg, "unknown profile 'quick' (expected smoke or study)");
}

/* Issue 35: the bounds of the settings live in one place, which the command
 * line gives and every campaign is checked against. */
Test(plan, settings_check_holds_every_bound) {
  gb_settings study, smoke, s;
  gb_err err;
  cr_assert_eq(gb_settings_profile("study", &study, &err), 0);
  cr_assert_eq(gb_settings_profile("smoke", &smoke, &err), 0);
  cr_assert_eq(gb_settings_check(&study, &err), 0, "%s", err.msg);
  cr_assert_eq(gb_settings_check(&smoke, &err), 0, "%s", err.msg);
#define REFUSED(edit, message)                                                                 \
  do {                                                                                         \
    s = study;                                                                                 \
    edit;                                                                                      \
    cr_assert_eq(gb_settings_check(&s, &err), -EINVAL, "%s", #edit);                           \
    cr_assert_str_eq(err.msg, message);                                                        \
  } while (0)
  REFUSED(s.runs = 0, "settings.runs: 0 is outside 1..10000");
  REFUSED(s.runs = GB_MAX_RUNS + 1, "settings.runs: 10001 is outside 1..10000");
  REFUSED(s.warmups = 0, "settings.warmups: 0 is outside 1..64");
  REFUSED(s.warmups = GB_MAX_WARMUPS + 1, "settings.warmups: 65 is outside 1..64");
  REFUSED(s.target_ms = 60001, "settings.target_ms: 60001 is outside 1..60000");
  REFUSED(s.seed = 0, "settings.seed: 0 is outside 1..4294967295");
  REFUSED(s.timeout_s = 0, "settings.timeout_s: 0 is outside 1..86400");
  REFUSED(s.timeout_s = GB_MAX_TIMEOUT_S + 1, "settings.timeout_s: 86401 is outside 1..86400");
  REFUSED(s.languages = 0, "settings.languages: empty");
  REFUSED(s.orders = 1u << GB_ORDER_COUNT, "settings.orders: 16 is outside 1..15");
  REFUSED(s.nsizes = 0, "settings.sizes: empty");
  REFUSED(s.nsizes = GB_MAX_SIZES + 1, "settings.sizes: too many entries");
  REFUSED(s.sizes[1] = s.sizes[0], "settings.sizes: lists 250 twice");
  REFUSED(s.profile = GB_PROFILE_COUNT, "settings.profile: 3 is outside 0..2");
  REFUSED(s.sizes[1] = GB_MAX_SIZE + 1, "settings.sizes: 10000001 is outside 1..10000000");
  REFUSED(s.energy = GB_ENERGY_MODE_COUNT, "settings.energy: 3 is outside 0..2");
#undef REFUSED
  s = study;
  s.runs = GB_MAX_RUNS;
  s.warmups = GB_MAX_WARMUPS;
  s.target_ms = 60000;
  s.timeout_s = GB_MAX_TIMEOUT_S;
  cr_assert_eq(gb_settings_check(&s, &err), 0, "the bounds themselves are allowed: %s",
               err.msg);
}

Test(plan_names, languages_and_energy_modes) {
  gb_language l;
  cr_assert_eq(gb_language_parse("node", &l), 0);
  cr_assert_eq(l, GB_NODE);
  cr_assert_eq(gb_language_parse("js", &l), -EINVAL);
  gb_energy_mode m;
  cr_assert_eq(gb_energy_mode_parse("off", &m), 0);
  cr_assert_str_eq(gb_energy_mode_name(m), "off");
  cr_assert_eq(gb_energy_mode_parse("yes", &m), -EINVAL);
}
