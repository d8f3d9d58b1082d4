#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "greenbench/select.h"
#include "harness_internal.h"

static gb_settings profile(const char *name) {
  gb_settings s;
  gb_err err;
  cr_assert_eq(gb_settings_profile(name, &s, &err), 0);
  return s;
}

Test(select, empty_expression_selects_everything) {
  gb_settings s = profile("study"), before = s;
  gb_err err;
  cr_assert_eq(gb_settings_select(&s, "", &err), 0);
  cr_assert_eq(gb_settings_select(&s, NULL, &err), 0);
  cr_assert_eq(memcmp(&s, &before, sizeof s), 0);
}

Test(select, only_python) {
  gb_settings s = profile("study");
  gb_err err;
  cr_assert_eq(gb_settings_select(&s, "language=python", &err), 0, "%s", err.msg);
  cr_assert_eq(s.languages, 1u << GB_PYTHON);
  cr_assert_eq(s.algorithms, 7u);
  cr_assert_eq(s.nsizes, 4u);
}

Test(select, quick_at_2000_across_terms) {
  gb_settings s = profile("study");
  gb_err err;
  cr_assert_eq(gb_settings_select(&s, "algorithm=quick size=2000", &err), 0, "%s", err.msg);
  cr_assert_eq(s.algorithms, 1u << GB_QUICK);
  cr_assert_eq(s.nsizes, 1u);
  cr_assert_eq(s.sizes[0], 2000u);
  gb_plan p;
  cr_assert_eq(gb_plan_build(&s, &p, &err), 0);
  cr_assert_eq(p.nconfigs, 3u * 4u);
  gb_plan_free(&p);
}

Test(select, lists_keep_profile_order) {
  gb_settings s = profile("study");
  gb_err err;
  cr_assert_eq(gb_settings_select(&s, "size=2000,250;order=sorted,nearly", &err), 0);
  cr_assert_eq(s.nsizes, 2u);
  cr_assert_eq(s.sizes[0], 250u);
  cr_assert_eq(s.sizes[1], 2000u);
  cr_assert_eq(s.orders, (1u << GB_SORTED) | (1u << GB_NEARLY));
}

Test(select, errors_name_what_was_wrong_and_change_nothing) {
  static const struct {
    const char *expr, *msg;
  } cases[] = {
      {"language=ruby", "unknown language 'ruby' (expected c, python or node)"},
      {"colour=red",
       "unknown selection key 'colour' (expected language, algorithm, order or size)"},
      {"size=300", "size 300 is not one of the study profile's sizes"},
      {"size=abc", "size must be an integer from 1 to 10000000, got 'abc'"},
      {"python", "selection term 'python' is not KEY=LIST"},
      {"language=c,c", "language 'c' given twice"},
      {"language=c,", "bad language list 'c,'"},
      {"order=", "bad order list ''"},
      {"language=python language=c",
       "language is given in two terms, but terms are AND-ed (a case must match all of "
       "them): list the alternatives in one term, language=A,B"},
      {"size=250;algorithm=quick size=250",
       "size is given in two terms, but terms are AND-ed (a case must match all of "
       "them): list the alternatives in one term, size=A,B"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    gb_settings s = profile("study"), before = s;
    gb_err err = {{0}};
    cr_assert_eq(gb_settings_select(&s, cases[i].expr, &err), -EINVAL, "%s", cases[i].expr);
    cr_assert_str_eq(err.msg, cases[i].msg);
    cr_assert_eq(memcmp(&s, &before, sizeof s), 0);
  }
}

Test(select, a_selection_that_leaves_nothing_is_refused) {
  gb_settings s = profile("smoke");
  s.languages = 1u << GB_C;
  gb_err err;
  cr_assert_eq(gb_settings_select(&s, "language=python", &err), -EINVAL);
  cr_assert_str_eq(err.msg, "selection 'language=python' leaves no case of the smoke profile");
}

/* The cases s plans, as "c/quick/random/100" lines in plan order. */
static char *planned(const gb_settings *s) {
  static char out[8192];
  size_t at = 0;
  gb_plan p;
  gb_err err;
  cr_assert_eq(gb_plan_build(s, &p, &err), 0, "%s", err.msg);
  for (size_t i = 0; i < p.nconfigs; i++) {
    char label[64];
    gb_config_label(&p.configs[i], label, sizeof label);
    at += (size_t)snprintf(out + at, sizeof out - at, "%s\n", label);
  }
  gb_plan_free(&p);
  return out;
}

Test(select, alternatives_select_exactly_their_union) {
  gb_settings s = profile("smoke");
  gb_err err;
  cr_assert_eq(gb_settings_select(&s,
                                  "language=c algorithm=quick order=sorted | "
                                  "language=python order=nearly size=200",
                                  &err),
               0, "%s", err.msg);
  /* The smallest product holding both, the rest omitted. */
  cr_assert_eq(s.languages, (1u << GB_C) | (1u << GB_PYTHON));
  cr_assert_eq(s.algorithms, 7u);
  cr_assert_eq(s.orders, (1u << GB_SORTED) | (1u << GB_NEARLY));
  cr_assert_eq(s.nsizes, 2u);
  cr_assert_str_eq(planned(&s), "c/quick/sorted/100\n"
                                "c/quick/sorted/200\n"
                                "python/bubble/nearly/200\n"
                                "python/insertion/nearly/200\n"
                                "python/quick/nearly/200\n");
  cr_assert(gbi_settings_plans_startup(&s, GB_C, GB_SORTED, 0));
  cr_assert_not(gbi_settings_plans_startup(&s, GB_C, GB_NEARLY, 1));
  cr_assert_not(gbi_settings_plans_startup(&s, GB_PYTHON, GB_NEARLY, 0));
  gb_plan p;
  cr_assert_eq(gb_plan_build(&s, &p, &err), 0);
  cr_assert_eq(p.nstartups, 3u, "c/sorted/100, c/sorted/200, python/nearly/200");
  cr_assert_eq(p.nruns, (5u + 3u) * s.runs);
  for (size_t i = 0; i < p.nconfigs; i++) {
    const gb_startup_group *g = &p.startups[gb_plan_startup_of(&p, &p.configs[i])];
    cr_assert(g->language == p.configs[i].language && g->order == p.configs[i].order &&
              g->size == p.configs[i].size);
  }
  gb_plan_free(&p);
}

Test(select, overlapping_alternatives_count_a_case_once) {
  gb_settings s = profile("smoke"), product = profile("smoke");
  gb_err err;
  cr_assert_eq(gb_settings_select(&s, "language=c | language=c algorithm=quick", &err), 0);
  cr_assert_eq(gb_settings_select(&product, "language=c", &err), 0);
  cr_assert_eq(memcmp(&s, &product, sizeof s), 0, "a union that is a product omits nothing");
}

Test(select, sizes_keep_their_omissions_when_narrowed_again) {
  gb_settings s = profile("study");
  gb_err err;
  cr_assert_eq(gb_settings_select(&s, "language=c size=250 | language=node size=2000", &err),
               0);
  cr_assert_eq(s.nsizes, 2u);
  cr_assert_str_eq(planned(&s) + strlen(planned(&s)) - strlen("node/quick/nearly/2000\n"),
                   "node/quick/nearly/2000\n");
  cr_assert_eq(gb_settings_select(&s, "size=2000", &err), 0, "%s", err.msg);
  cr_assert_eq(s.nsizes, 1u);
  cr_assert_eq(s.languages, 1u << GB_NODE, "C was chosen only at 250");
  cr_assert_eq(s.omit[GB_NODE][GB_QUICK][GB_RANDOM], 0u);
}

Test(select, alternative_errors_name_the_alternative) {
  static const struct {
    const char *expr, *msg;
  } cases[] = {
      {"language=c |", "selection 'language=c |' has an empty alternative around '|'"},
      {"| language=c", "selection '| language=c' has an empty alternative around '|'"},
      {"language=c || size=100", "selection 'language=c || size=100' has an empty "
                                 "alternative around '|'"},
      {"language=c | language=c,ruby", "unknown language 'ruby' (expected c, python or node)"},
      {"language=c | size=300", "size 300 is not one of the smoke profile's sizes"},
      {"language=node | language=python language=c",
       "language is given in two terms, but terms are AND-ed (a case must match all of "
       "them): list the alternatives in one term, language=A,B"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    gb_settings s = profile("smoke"), before = s;
    gb_err err = {{0}};
    cr_assert_eq(gb_settings_select(&s, cases[i].expr, &err), -EINVAL, "%s", cases[i].expr);
    cr_assert_str_eq(err.msg, cases[i].msg);
    cr_assert_eq(memcmp(&s, &before, sizeof s), 0);
  }
  gb_settings s = profile("smoke");
  s.languages = 1u << GB_C;
  gb_err err;
  cr_assert_eq(gb_settings_select(&s, "language=c | language=python", &err), -EINVAL);
  cr_assert_str_eq(err.msg, "selection 'language=python' leaves no case of the smoke profile");
}

Test(select, only_listed_configurations_are_omitted) {
  gb_settings s = profile("study");
  gb_err err;
  cr_assert_eq(gb_settings_select(&s,
                                  "language=c algorithm=quick size=250 | language=c "
                                  "algorithm=bubble order=sorted",
                                  &err),
               0);
  cr_assert_eq(s.languages, 1u << GB_C);
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++)
    for (gb_algorithm a = 0; a < GB_ALGORITHM_COUNT; a++)
      for (gb_order o = 0; o < GB_ORDER_COUNT; o++)
        if (l != GB_C || a == GB_INSERTION)
          cr_assert_eq(s.omit[l][a][o], 0u, "%d/%d/%d is not in the lists", l, a, o);
}
